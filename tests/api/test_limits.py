"""Every limit of the service is enforced by a refusal that comes before any game logic runs:
413 for a body over 1 MiB, 400/422 with a pointer for nesting, list lengths, counts and budgets
over their bounds (documented in docs/limits.md)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRST_TURN = json.loads((ROOT / "examples" / "first-turn.json").read_text())


def pointers(r):
    return [e["pointer"] for e in r.get_json().get("errors", [])]


def test_a_body_over_one_mebibyte_is_413(client):
    r = client.post("/v1/adjudicate", data=b"{" + b" " * (1024 * 1024) + b"}", content_type="application/json")
    assert r.status_code == 413 and r.content_type == "application/problem+json"


def test_json_nested_deeper_than_32_is_refused(client):
    body = {**FIRST_TURN, "rules": json.loads("[" * 40 + "]" * 40)}
    r = client.post("/v1/adjudicate", json=body)
    assert r.status_code in (400, 422)


@pytest.mark.parametrize("path, body, pointer", [
    ("/v1/adjudicate", {**FIRST_TURN, "state": {**FIRST_TURN["state"], "players": [
        {**FIRST_TURN["state"]["players"][0], "hand": ["2S"] * 61}] + FIRST_TURN["state"]["players"][1:]}},
     "/state/players/0/hand"),
    ("/v1/adjudicate", {**FIRST_TURN, "state": {**FIRST_TURN["state"], "stock": ["2S"] * 201}}, "/state/stock"),
    ("/v1/adjudicate", {**FIRST_TURN, "action": {"type": "meld", "melds": [{"cards": ["2S", "3S", "4S"]}] * 21}},
     "/action/melds"),
    ("/v1/adjudicate", {**FIRST_TURN, "action": {"type": "turn", "actions": [{"type": "draw", "source": "stock"}] * 61}},
     "/action/actions"),
    ("/v1/replay", {"variant": "british", "start": {"deal": {"players": ["a", "b"], "seed": 1}},
                    "actions": [{"type": "draw", "source": "stock"}] * 5001}, "/actions"),
    ("/v1/legal-actions", {"variant": "british", "state": FIRST_TURN["state"], "cap": 1001}, "/cap"),
    ("/v1/scoresheet", {"variant": "british", "players": ["a", "b"], "hands": [{"how": "void"}] * 501}, "/hands"),
    ("/v1/deal", {"variant": "british", "players": [f"p{i}" for i in range(13)], "seed": 1}, "/players"),
])
def test_lists_and_budgets_over_their_bounds_are_422_with_a_pointer(client, path, body, pointer):
    r = client.post(path, json=body)
    assert r.status_code == 422, r.get_json()
    assert pointer in pointers(r)


def test_house_rules_nested_too_deep_are_refused(client):
    rules: dict = {}
    node = rules
    for _ in range(10):
        node["x"] = {}
        node = node["x"]
    r = client.post("/v1/adjudicate", json={**FIRST_TURN, "rules": rules})
    assert r.status_code == 422


def _nested(levels: int) -> dict:
    node: dict = {}
    top = node
    for _ in range(levels - 1):
        node["x"] = {}
        node = node["x"]
    return top


@pytest.mark.parametrize("where", ["rules", "sheet"])
def test_deep_nesting_in_a_schema_valid_body_is_refused_at_once(client, where):
    # the schema accepts anything inside house rules and a game's sheet rows: the depth is measured there
    if where == "rules":
        body = {**FIRST_TURN, "rules": _nested(40)}
    else:
        game = client.post("/v1/games", json={"variant": "british", "players": ["a", "b"], "seed": 1}).get_json()["game"]
        body = {"variant": "british", "game": {**game, "sheet": [_nested(40)]}, "action": {"type": "next_hand", "seed": 2}}
    r = client.post("/v1/adjudicate", json=body)
    assert r.status_code == 400 and r.get_json()["errors"][0]["detail"] == "nested too deeply"
