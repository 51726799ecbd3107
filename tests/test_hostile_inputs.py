"""Inputs that once made the referee answer 500: each is now a problem answer naming the field.

* a variant id that is no variant's file name (too long for the file system, or of non-ASCII digits);
* a game's sheet row of the wrong shape, read by a buy-in or a decline;
* a number the hash chain of a replay cannot write exactly (RFC 8785): an integer beyond 2^53 beside
  a character at or above U+E000, or a float such as ``1E2`` in a sheet row.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import load_variant
from rules.errors import UnknownVariant

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = "application/problem+json"


def problem(response, status: int, slug: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["type"].endswith("/" + slug), body
    return body


def pointers(body: dict) -> list[str]:
    return [e["pointer"] for e in body.get("errors", [])]


# -- 1. variant ids are looked up among the known ids, never turned into a path ------------------

LONG_ID = "a" * 300
WIDE_ID = "\U0001D7CE" * 64  # 64 MATHEMATICAL BOLD DIGIT ZERO: alphanumeric, 4 bytes each in UTF-8


@pytest.mark.parametrize("variant_id", [LONG_ID, WIDE_ID, "\u0661\u0662" * 40, "british_", "British", "0"],
                         ids=["300-letters", "64-wide-digits", "80-arabic-digits", "british_", "British", "0"])
def test_an_unknown_variant_id_in_the_path_is_404(client, variant_id):
    body = problem(client.get(f"/v1/variants/{variant_id}"), 404, "unknown-variant")
    assert pointers(body) == ["/variant"]
    text = json.dumps(body, ensure_ascii=False)
    assert variant_id not in text or len(variant_id) <= 40  # a long id is quoted cut, never whole
    assert len(text) < 2000


@pytest.mark.parametrize("path", ["british.yaml", "..%2Fbritish", "british%00", "%ED%A0%80", "." * 255],
                         ids=["file-name", "relative-path", "nul", "surrogate", "255-dots"])
def test_ids_that_look_like_paths_are_unknown_variants(client, path):
    r = client.get(f"/v1/variants/{path}")
    assert r.status_code == 404 and r.mimetype == PROBLEM


@pytest.mark.parametrize("variant_id", [WIDE_ID, LONG_ID, "../variants/british", "british.yaml", "", None, 7],
                         ids=["64-wide-digits", "300-letters", "relative-path", "file-name", "empty", "null", "int"])
def test_load_variant_refuses_anything_but_a_known_id(variant_id):
    with pytest.raises(UnknownVariant) as info:
        load_variant(variant_id)
    assert [p.pointer for p in info.value.problems] == ["/variant"]
    assert len(info.value.detail) < 1000


def test_a_known_id_still_loads():
    assert load_variant("british").id == "british"


def _game(client, players=("a", "b")):
    return client.post("/v1/games", json={"variant": "british", "players": list(players), "seed": 1}).get_json()["game"]


@pytest.mark.parametrize("endpoint", ["deal", "games", "melds/check", "adjudicate-state", "adjudicate-game", "replay",
                                      "legal-actions", "scoresheet"])
def test_a_wide_variant_id_in_a_body_is_422(client, endpoint):
    # 64 characters pass the schema's maxLength (it counts characters, not bytes)
    dealt = client.post("/v1/deal", json={"variant": "british", "players": 2, "seed": 1}).get_json()["state"]
    bodies = {
        "deal": {"players": 2, "seed": 1},
        "games": {"players": ["a", "b"], "seed": 1},
        "melds/check": {"cards": ["5H", "6H", "7H"]},
        "adjudicate-state": {"state": dealt, "action": {"type": "draw", "source": "stock"}},
        "adjudicate-game": {"game": _game(client), "action": {"type": "draw", "source": "stock"}},
        "replay": {"start": {"game": _game(client)}, "actions": [{"type": "draw", "source": "stock"}]},
        "legal-actions": {"state": dealt},
        "scoresheet": {"players": ["a", "b"], "hands": [{"how": "void"}]},
    }
    url = "/v1/" + endpoint.split("-state")[0].split("-game")[0]
    body = problem(client.post(url, json={"variant": WIDE_ID, **bodies[endpoint]}), 422, "unknown-variant")
    assert pointers(body) == ["/variant"]
    assert WIDE_ID not in json.dumps(body, ensure_ascii=False)


def test_a_too_long_variant_id_in_a_body_is_422_and_not_echoed_whole(client):
    body = problem(client.post("/v1/deal", json={"variant": LONG_ID, "players": 2, "seed": 1}), 422, "malformed-input")
    assert pointers(body) == ["/variant"]
    assert LONG_ID not in json.dumps(body)
