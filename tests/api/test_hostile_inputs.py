"""Inputs that once made the referee answer 500: each is now a problem answer naming the field.

* a variant id that is no variant's file name (too long for the file system, or of non-ASCII digits);
* a game's sheet row of the wrong shape, read by a buy-in or a decline;
* a number the hash chain of a replay cannot write exactly (RFC 8785): an integer beyond 2^53 beside
  a character at or above U+E000, or a float such as ``1E2`` in a sheet row.
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
import os
from pathlib import Path

import pytest
import rfc8785
from hypothesis import HealthCheck, given, settings, strategies as st

from kalooki_referee.api import create_app, wire
from kalooki_referee.rules.wire import contract as openapi
from kalooki_referee.rules import load_variant
from kalooki_referee.rules.errors import MalformedInput, UnknownVariant
from kalooki_referee.vectors.suite import load_vectors, plain_vectors
from kalooki_referee.rules.wire.game import read_game
from kalooki_referee.rules.wire.replay import canonical

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = "application/problem+json"


def problem(response, status: int, slug: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["type"].endswith("/" + slug), body
    return body


def pointers(body: dict) -> list[str]:
    return [e["pointer"] for e in body.get("errors", [])]


def vector_request(path: str, vector_id: str) -> dict:
    data = json.loads((ROOT / "vectors" / path).read_text(encoding="utf-8"))
    return copy.deepcopy(next(v["request"] for v in plain_vectors(data) if v["id"] == vector_id))


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
                                      "legal-actions", "scoresheet", "tournaments", "views", "notation"])
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
        "tournaments": {"tournament": {"stage": "qualifying", "tables": [{"id": "T1", "round": "qualifying",
                                                                          "seats": ["a", "b"]}]},
                        "event": {"type": "buy_in", "table": "T1", "player": "a"}},
        "views": {"state": dealt, "seat": dealt["to_act"]},
        "notation": {"state": dealt},
    }
    url = "/v1/" + endpoint.split("-state")[0].split("-game")[0]
    body = problem(client.post(url, json={"variant": WIDE_ID, **bodies[endpoint]}), 422, "unknown-variant")
    assert pointers(body) == ["/variant"]
    assert WIDE_ID not in json.dumps(body, ensure_ascii=False)


def test_a_too_long_variant_id_in_a_body_is_422_and_not_echoed_whole(client):
    body = problem(client.post("/v1/deal", json={"variant": LONG_ID, "players": 2, "seed": 1}), 422, "malformed-input")
    assert pointers(body) == ["/variant"]
    assert LONG_ID not in json.dumps(body)


# -- 2. a game's sheet rows have a schema; the core reads them safely ----------------------------

BUY_IN = ("british/game.json", "british.game.first-buy-in")
DECLINE = ("british/game.json", "british.game.decline-ends-decisions")

BAD_ROWS = [
    ({"buy_ins": []}, "/buy_ins"),          # TypeError: 'list' object is not a mapping (buy_in and decline)
    ({"buy_ins": None}, "/buy_ins"),
    ({"buy_ins": "x"}, "/buy_ins"),
    ({"scores": 1}, "/scores"),             # TypeError on buy_in
    ({"scores": None}, "/scores"),
    ({"eliminated": 5}, "/eliminated"),     # TypeError: 'int' object is not iterable (decline)
    ({"eliminated": None}, "/eliminated"),
    ({"buy_ins": {"B": 1}}, "/buy_ins/B"),
    ({"scores": {"B": 1.5}}, "/scores/B"),
    ({"pool": "5"}, "/pool"),
    ({"colour": "red"}, "/colour"),
]


@pytest.mark.parametrize("vector", [BUY_IN, DECLINE], ids=["buy_in", "decline"])
@pytest.mark.parametrize("row, where", BAD_ROWS, ids=[json.dumps(r) for r, _ in BAD_ROWS])
def test_a_sheet_row_of_the_wrong_shape_is_422(client, vector, row, where):
    body = vector_request(*vector)
    body["game"]["sheet"] = [row]
    answer = problem(client.post("/v1/adjudicate", json=body), 422, "malformed-input")
    assert "/game/sheet/0" + where in pointers(answer)


@pytest.mark.parametrize("row, where", BAD_ROWS, ids=[json.dumps(r) for r, _ in BAD_ROWS])
def test_the_core_refuses_a_sheet_row_of_the_wrong_shape(row, where):
    data = vector_request(*BUY_IN)["game"]
    data["sheet"] = [{"hand": 3}, row]
    with pytest.raises(MalformedInput) as info:
        read_game(data, load_variant("british"))
    assert "/sheet/1" + where in [p.pointer for p in info.value.problems]


def test_the_core_refuses_a_sheet_row_that_is_not_an_object():
    data = vector_request(*BUY_IN)["game"]
    data["sheet"] = [[1, 2]]
    with pytest.raises(MalformedInput) as info:
        read_game(data, load_variant("british"))
    assert [p.pointer for p in info.value.problems] == ["/sheet/0"]


def test_a_sheet_row_as_the_referee_writes_it_is_accepted_and_updated(client):
    body = vector_request(*BUY_IN)
    row = {"hand": 3, "dealer": "A", "how": "call_up", "winner": "A", "penalties": {"A": 0, "B": 40, "C": 10, "D": 30},
           "payments": {"A": 0, "B": 0, "C": 0, "D": 0}, "scores": {"A": 12, "B": 160, "C": 40, "D": 155},
           "ledger": {"A": 0, "B": 0, "C": 0, "D": 0}, "pool": 20, "buy_ins": {}, "eliminated": []}
    body["game"]["sheet"] = [row]
    r = client.post("/v1/adjudicate", json=body)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    written = r.get_json()["game"]["sheet"][-1]
    assert written["buy_ins"] == {"B": True} and written["scores"]["B"] == 40 and written["pool"] == 25


# Mutations of a valid game request: its sheet rows, phase, buy-in queue and stakes.  Whatever comes
# of them, the answer is a verdict or a problem, never a 500.

_SEATS = ["A", "B", "C", "D"]
_ids = st.sampled_from(_SEATS * 3 + ["Z", "", "\ue000"])
_small = st.integers(0, 200)
_ints = st.one_of(_small, _small, _small, _small, _small, _small, st.integers(-(2**70), 2**70), st.sampled_from([-1, 10**9, 10**9 + 1, 2**53]))
_leaf = st.one_of(st.none(), st.booleans(), _ints, st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5))
_junk = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                     max_leaves=6)
_int_table = st.dictionaries(_ids, _ints, max_size=5)
_row_fields = {
    "hand": _ints, "dealer": _ids, "how": st.sampled_from(["call_up", "kalookie", "void", "won"]),
    "winner": st.one_of(st.none(), _ids), "penalties": _int_table, "payments": _int_table, "scores": _int_table,
    "ledger": _int_table, "pool": _ints, "buy_ins": st.dictionaries(_ids, st.booleans(), max_size=5),
    "eliminated": st.lists(_ids, max_size=4), "game_winner": st.one_of(st.none(), _ids), "settlement": _int_table,
}
_row_of_the_right_shape = st.fixed_dictionaries({}, optional=_row_fields)
_row = st.one_of(
    _row_of_the_right_shape, _row_of_the_right_shape,
    # the fields a buy-in or a decline updates, of any shape
    st.dictionaries(st.sampled_from(["buy_ins", "scores", "eliminated"]), _leaf | st.lists(_leaf, max_size=2), max_size=2),
    st.dictionaries(st.sampled_from(sorted(_row_fields) + ["other"]), _junk, max_size=3),  # any values
    _junk,
)
_stakes = st.one_of(
    st.sampled_from(["casino", "williamson", "nope"]),
    st.fixed_dictionaries({k: _ints for k in ("call_up", "kalookie", "initial", "buy_in")}),
    st.dictionaries(st.sampled_from(["call_up", "kalookie", "initial", "buy_in", "x"]), _junk, max_size=5),
    _junk,
)
_GAME_VECTORS = [BUY_IN, DECLINE, ("british/game.json", "british.game.last-decline-ends-the-game"),
                 ("british/game.json", "british.game.next-hand-skips-the-eliminated"),
                 ("denexa_caloochi/game.json", "denexa_caloochi.game.hand-settled-in-tokens")]
_requests = {v: vector_request(*v) for v in _GAME_VECTORS}
_hostile_client = create_app({"TESTING": True}).test_client()


# a fixed seed unless KALOOKI_FUZZ_RANDOM is set, as for tests/api/test_schemathesis.py
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not os.environ.get("KALOOKI_FUZZ_RANDOM"))
@given(vector=st.sampled_from(_GAME_VECTORS),
       changes=st.fixed_dictionaries({}, optional={
           "sheet": st.lists(_row, max_size=3),
           "phase": st.one_of(st.sampled_from(["hand", "buy_in", "between", "over"] * 3), _junk),
           "buy_in_queue": st.one_of(st.lists(_ids, max_size=4), st.lists(_ids, max_size=4), _junk),
           "buy_in_score": st.one_of(st.none(), _ints),
           "stakes": _stakes,
       }),
       action=st.one_of(st.none(), st.none(), st.sampled_from([{"type": "buy_in", "player": p} for p in _SEATS]
                                                   + [{"type": "decline", "player": p} for p in _SEATS]
                                                   + [{"type": "next_hand", "seed": 5}])))
def test_mutated_game_requests_never_get_a_500(vector, changes, action):
    body = copy.deepcopy(_requests[vector])
    body["game"].update(changes)
    if action is not None:
        body["action"] = action
    r = _hostile_client.post("/v1/adjudicate", json=body)
    assert r.status_code in (200, 400, 422), (r.status_code, r.get_data(as_text=True)[:500])
    r = _hostile_client.post("/v1/replay", json={"variant": body["variant"], "start": {"game": body["game"]},
                                                 "actions": [body["action"]]})
    assert r.status_code in (200, 400, 422), (r.status_code, r.get_data(as_text=True)[:500])


# -- 3. the replay hash chain: every number in a position is one RFC 8785 writes exactly ---------

def _replay(client, game, actions=({"type": "draw", "source": "stock"},)):
    return client.post("/v1/replay", json={"variant": "british", "start": {"game": game}, "actions": list(actions)})


@pytest.mark.parametrize("row, where", [
    ({"pool": 2**60, "winner": "\ue000"}, "/pool"),        # rfc8785 IntegerDomainError -> 500
    ({"scores": {"\ue000": 2**60}}, "/scores/\ue000"),
    ({"pool": 2**60}, "/pool"),                             # hashed silently, not as RFC 8785 would
    ({"ledger": {"a": -(2**63)}}, "/ledger/a"),
])
def test_an_integer_beyond_the_bounds_in_a_game_is_422_not_500(client, row, where):
    body = problem(_replay(client, {**_game(client), "sheet": [row]}), 422, "malformed-input")
    assert "/start/game/sheet/0" + where in pointers(body)


def test_a_sheet_number_written_1E2_is_hashed_as_the_integer_100(client):
    raw = json.dumps({"variant": "british", "start": {"game": {**_game(client), "sheet": [{"pool": 12345}]}},
                      "actions": [{"type": "draw", "source": "stock"}]}).replace("12345", "1E2")
    r = client.post("/v1/replay", data=raw, content_type="application/json")
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    assert b"100.0" not in r.data
    body = r.get_json()
    position = body["start"]["position"]
    assert position["sheet"] == [{"pool": 100}] and type(position["sheet"][0]["pool"]) is int
    assert body["start"]["hash"] == hashlib.sha256(rfc8785.dumps(position)).hexdigest()
    final = body["final"]["position"]
    assert body["final"]["hash"] == hashlib.sha256(body["start"]["hash"].encode() + rfc8785.dumps(final)).hexdigest()


@pytest.mark.parametrize("doc, where", [
    ({"a": [1, {"b": 2**53}]}, "/a/1/b"),
    ({"\ue000": -(2**53)}, "/\ue000"),
    ({"x/y": 2**70}, "/x~1y"),
    ({"a": 1.5}, "/a"),
    ({"a": 100.0, "k": "\ue000"}, "/a"),
])
def test_canonical_refuses_numbers_it_cannot_write_exactly(doc, where):
    with pytest.raises(MalformedInput) as info:
        canonical(doc)
    assert [p.pointer for p in info.value.problems] == [where]


def test_canonical_writes_the_largest_exact_integers():
    doc = {"a": 2**53 - 1, "b": -(2**53 - 1), "\ue000": [0, "1.5e3"]}
    assert canonical(doc) == rfc8785.dumps(doc)


def test_a_turn_of_ten_thousand_empty_steps_is_refused_cheaply(client):
    # the full validator once walked a oneOf per step and kept every error (15 s of CPU,
    # about 1 GB); a list longer than any request may hold is now named at once, unwalked
    body = json.loads((ROOT / "examples" / "first-turn.json").read_text())
    body["action"] = {"type": "turn", "actions": [{}] * 10000}
    answer = client.post("/v1/adjudicate", json=body)
    assert answer.status_code == 422
    [error] = answer.get_json()["errors"]
    assert error["pointer"] == "/action/actions" and "no list in a request may hold more than 5000" in error["detail"]


def test_a_long_list_of_broken_items_is_listed_from_its_first_items(client):
    # under the longest list but over its own limit, each step broken: the problems of the first
    # items are listed, with a note that only those were checked
    body = json.loads((ROOT / "examples" / "first-turn.json").read_text())
    body["action"] = {"type": "turn", "actions": [{}] * 4000}
    answer = client.post("/v1/adjudicate", json=body)
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    pointers = [e["pointer"] for e in errors]
    assert "/action/actions" in pointers and "/action/actions/0" in pointers
    assert "/action/actions/3999" not in pointers
    assert any(re.search(r"only its first \d+ were checked", e["detail"]) for e in errors)


def test_a_replay_over_its_length_names_the_long_list(client):
    game = client.post("/v1/games", json={"variant": "british", "players": ["a", "b"], "seed": 1}).get_json()["game"]
    answer = client.post("/v1/replay", json={"variant": "british", "start": {"game": game},
                                             "actions": [{"type": "draw", "source": "stock"}] * 5001})
    assert answer.status_code == 422
    assert "/actions" in [e["pointer"] for e in answer.get_json()["errors"]]


# -- 4. what the JSON layer and the HTTP layer refuse ---------------------------------------------

FIRST_TURN = json.loads((ROOT / "examples" / "first-turn.json").read_text(encoding="utf-8"))


def _repeat_member(text: str, anchor: str, member: str) -> str:
    """``text`` with ``member`` written again just after the first ``anchor``."""
    at = text.index(anchor) + len(anchor)
    return text[:at] + member + ", " + text[at:]


@pytest.mark.parametrize("anchor, member, where", [
    ('{', '"variant": "swedish"', "/variant"),                                  # top level, first wins
    ('"action": {', '"type": "discard"', "/action/type"),                      # inside the action
    ('"players": [{', '"id": "Zed"', "/state/players/0/id"),                   # deep, in a list
], ids=["top-level", "action", "in-a-list"])
def test_a_name_given_twice_in_an_object_is_refused_with_its_pointer(client, anchor, member, where):
    text = _repeat_member(json.dumps(FIRST_TURN), anchor, member)
    assert orjson_loads_silently_keeps_one(text)
    body = problem(client.post("/v1/adjudicate", data=text, content_type="application/json"), 422, "malformed-input")
    assert pointers(body) == [where]


def orjson_loads_silently_keeps_one(text: str) -> bool:
    import orjson
    return len(orjson.dumps(orjson.loads(text))) < len(text.encode())


def test_a_repeated_name_hidden_behind_escapes_is_still_found(client):
    # "\u0076ariant" is "variant": the colons in strings written as \u003a make the fast count unsure
    text = json.dumps(FIRST_TURN).replace('{', '{"\\u0076ariant": "british", "note": "a\\u003ab", ', 1)
    body = problem(client.post("/v1/adjudicate", data=text, content_type="application/json"), 422, "malformed-input")
    assert "/variant" in pointers(body)


def test_colons_and_escapes_in_strings_alone_are_not_repeats(client):
    body = dict(FIRST_TURN, variant="british")
    body["state"] = dict(body["state"], players=[dict(p, id=p["id"]) for p in body["state"]["players"]])
    text = json.dumps(body, ensure_ascii=True).replace('"Andy"', '"\\u0041ndy"')
    assert client.post("/v1/adjudicate", data=text, content_type="application/json").status_code == 200
    # the same names in different objects are no repeat
    game = _game(client)
    assert client.post("/v1/adjudicate", json={"variant": "british", "game": game,
                                               "action": {"type": "draw", "source": "stock"}}).status_code == 200


def test_a_repeat_inside_free_form_house_rules_is_refused(client):
    text = json.dumps(dict(FIRST_TURN, rules={"opening": {"minimum": 40}})).replace('"minimum": 40', '"minimum": 40, "minimum": 51')
    body = problem(client.post("/v1/adjudicate", data=text, content_type="application/json"), 422, "malformed-input")
    assert pointers(body) == ["/rules/opening/minimum"]


# -- refusals that must stay cheap: sizes no request reaches, named before anything walks them -----
# (their CPU time and memory are the benchmark's: `python -m benchmarks.run`, the crafted set)

def test_an_object_of_seventy_thousand_unknown_names_is_named_once(client):
    body = copy.deepcopy(FIRST_TURN)
    body["state"]["players"][0].update({f"k{i}": 1 for i in range(70_000)})
    answer = problem(client.post("/v1/adjudicate", json=body), 422, "malformed-input")
    # one problem for the object, not one per name: no validator listed the seventy thousand
    assert [(e["pointer"], str(openapi.widest_object()) in e["detail"]) for e in answer["errors"]] == \
        [("/state/players/0", True)]


def test_a_name_of_a_mebibyte_is_refused_and_never_echoed_whole(client):
    name = "x" * (1024 * 1024 - 4096)
    body = copy.deepcopy(FIRST_TURN)
    body["state"][name] = 1
    response = client.post("/v1/adjudicate", json=body)
    answer = problem(response, 422, "malformed-input")
    [error] = answer["errors"]
    assert error["pointer"].startswith("/state/xxx") and error["pointer"].endswith("...")
    assert f"no name in a request is longer than {openapi.longest_string()}" in error["detail"]
    assert len(response.data) < 2000


@pytest.mark.parametrize("where, change", [
    ("/variant", lambda b: b.update(variant="x" * 1_000_000)),
    ("/state/players/0/hand/2", lambda b: b["state"]["players"][0]["hand"].insert(2, "Q" * 300)),
    ("/rules/opening", lambda b: b.update(rules={"opening": "x" * 1_000_000})),
], ids=["field", "in-a-list", "house-rule"])
def test_a_string_longer_than_any_field_is_refused_by_its_length(client, where, change):
    body = copy.deepcopy(FIRST_TURN)
    change(body)
    response = client.post("/v1/adjudicate", json=body)
    answer = problem(response, 422, "malformed-input" if where != "/rules/opening" else "invalid-rules")
    assert where in pointers(answer) and len(response.data) < 4000


def test_a_large_body_of_repeated_names_gets_one_problem_with_no_pointer(client):
    text = '{"variant": "british", ' + '"a": 1, ' * 120_000 + '"b": 1}'
    assert len(text) > wire.LOCATED_BYTES
    answer = problem(client.post("/v1/adjudicate", data=text, content_type="application/json"), 422, "malformed-input")
    [error] = answer["errors"]
    assert error["pointer"] == "" and "more than once" in error["detail"]
    # many objects each repeating a name: the same single problem
    text = "[" + ", ".join(['{"a": 1, "a": 2}'] * 20_000) + "]"
    answer = problem(client.post("/v1/adjudicate", data=text, content_type="application/json"), 422, "malformed-input")
    assert pointers(answer) == [""]


def test_escaped_colons_in_a_large_body_are_no_repeat(client):
    # a colon written \u003a counts as a colon on both sides of the fast comparison: a body too long
    # to be read again is still accepted when no name repeats
    body = copy.deepcopy(FIRST_TURN)
    text = json.dumps(body).replace('"Andy"', '"An\\u003ady"')
    assert "\\u003a" in text
    padded = text[:-1] + " " * (wire.LOCATED_BYTES + 1) + "}"
    answer = client.post("/v1/adjudicate", data=padded, content_type="application/json")
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    # and the same with a repeat is refused
    repeated = padded.replace("{", '{"variant": "british", ', 1)
    assert client.post("/v1/adjudicate", data=repeated, content_type="application/json").status_code == 422


def _chunked(client, payload: bytes):
    # as gunicorn hands a chunked body on: no Content-Length, the stream ended by the server
    import io
    return client.post("/v1/adjudicate", input_stream=io.BytesIO(payload), content_type="application/json",
                       headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})


def test_a_chunked_body_over_one_mib_is_413_not_cut_and_read():
    from kalooki_referee.api.wire import MAX_BODY_BYTES
    client = create_app({"TESTING": True}).test_client()
    over = json.dumps(dict(FIRST_TURN, pad="x" * MAX_BODY_BYTES)).encode()
    problem(_chunked(client, over), 413, "request-entity-too-large")
    # at the limit exactly, the body is read (and refused for its unknown field, not its size)
    text = json.dumps(dict(FIRST_TURN, pad=""))
    exact = text.replace('"pad": ""', '"pad": "' + "x" * (MAX_BODY_BYTES - len(text.encode())) + '"').encode()
    assert len(exact) == MAX_BODY_BYTES
    assert "/pad" in pointers(problem(_chunked(client, exact), 422, "malformed-input"))
    assert _chunked(client, json.dumps(FIRST_TURN).encode()).status_code == 200


def test_a_body_one_byte_over_the_limit_with_its_length_is_413(client):
    from kalooki_referee.api.wire import MAX_BODY_BYTES
    text = json.dumps(dict(FIRST_TURN, pad=""))
    over = text.replace('"pad": ""', '"pad": "' + "x" * (MAX_BODY_BYTES + 1 - len(text.encode())) + '"')
    problem(client.post("/v1/adjudicate", data=over, content_type="application/json"), 413, "request-entity-too-large")


@pytest.mark.parametrize("rules, where", [
    ({"x" * 500_000: 1}, "/rules/"),
    ({"opening": {"y" * 300_000: 1}}, "/rules/opening/"),
    ({"opening": {"minimum": "9" * 400_000}}, "/rules/opening/minimum"),
    ({"opening": "z" * 880_000}, "/rules/opening"),
    ({"stakes": ["w" * 200_000] * 3}, "/rules/stakes"),
], ids=["huge-key", "huge-nested-key", "huge-number-text", "huge-value", "huge-list"])
def test_huge_house_rules_are_never_echoed_whole(client, rules, where):
    r = client.post("/v1/adjudicate", json=dict(FIRST_TURN, rules=rules))
    assert 400 <= r.status_code < 500 and r.mimetype == PROBLEM, r.status_code
    assert len(r.data) < 8000, len(r.data)
    assert any(p.startswith(where) for p in pointers(r.get_json())), pointers(r.get_json())


@pytest.mark.parametrize("method, path, status", [
    ("get", "/v1/nowhere", 404), ("delete", "/v1/adjudicate", 405), ("get", "/v1/adjudicate", 405),
], ids=["unknown-path", "delete", "get-on-post"])
def test_http_level_refusals_the_app_sees_are_problems(client, method, path, status):
    r = getattr(client, method)(path)
    assert r.status_code == status and r.mimetype == PROBLEM
    assert r.get_json()["status"] == status


def test_a_request_past_its_cpu_deadline_is_a_problem_and_the_app_goes_on():
    app = create_app({"TESTING": True, "DEADLINE_SECONDS": 0.05})

    def spin():  # stands for a request that would run away
        while True:
            pass

    app.add_url_rule("/spin", "spin", spin)
    client = app.test_client()
    body = problem(client.get("/spin"), 422, "too-costly")
    assert "0.05 s of CPU" in body["detail"]
    assert client.post("/v1/adjudicate", json=FIRST_TURN).status_code == 200  # disarmed, still serving
    import signal
    assert signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)


@pytest.mark.parametrize("action", [{"type": "buy_in", "player": "a"}, {"type": "decline", "player": "a"},
                                    {"type": "next_hand", "seed": 1}], ids=["buy_in", "decline", "next_hand"])
def test_a_game_action_in_a_log_that_starts_from_a_hand_is_422(client, action):
    # found by schemathesis over HTTP (seed 2): a KeyError, answered 500
    body = problem(client.post("/v1/replay", json={"variant": "british", "start": {"deal": {"players": ["a", "b"], "seed": 1}},
                                                   "actions": [{"type": "draw", "source": "stock"}, action]}),
                   422, "malformed-input")
    assert pointers(body) == ["/actions/1/type"]


def _whole_floats(value):
    """``value`` with every integer written as JSON's whole-number float (``2`` as ``2.0``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [_whole_floats(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole_floats(v) for k, v in value.items()}
    return value


def _vector_requests(every: int):
    from kalooki_referee.vectors.suite import load_vectors
    for i, v in enumerate(load_vectors()):
        if i % every == 0:
            body = v.data["request"]
            yield v.id, v.endpoint, body if "variant" in body else {**body, "variant": v.variant}


@pytest.mark.parametrize("every", [pytest.param(1, marks=pytest.mark.slow), 25])
def test_integers_written_as_whole_floats_are_read_as_integers(client, every):
    # OpenAPI's integer admits 2.0 (schemathesis sends it): every vector's request, its integers so
    # written, gets the answer the integers get (a sample of them by default, all in the slow step)
    for vid, endpoint, body in _vector_requests(every):
        plain, floated = client.post(f"/v1/{endpoint}", json=body), client.post(f"/v1/{endpoint}", json=_whole_floats(body))
        assert floated.status_code == plain.status_code, (vid, floated.get_data(as_text=True)[:300])


# -- 5. the vectors' requests, changed at random (tests/support/fuzz.py) ------------------------------------

ANSWERED = {200, 400, 404, 413, 415, 422}


def _fuzz(seeds, count: int) -> None:
    from tests.support.fuzz import mutated_requests

    vectors = load_vectors()
    for seed in seeds:
        for vector_id, path, body in mutated_requests(seed, count, vectors):
            r = _hostile_client.post(path, data=body, content_type="application/json")
            assert r.status_code in ANSWERED, (seed, vector_id, r.status_code, body[:1000])
            if r.status_code >= 400:
                assert r.mimetype == PROBLEM, (seed, vector_id, r.status_code)


def test_changed_vector_requests_get_a_verdict_or_a_problem():
    _fuzz(range(3), 100)


@pytest.mark.slow
def test_many_more_changed_vector_requests_get_a_verdict_or_a_problem():
    _fuzz(range(100, 104), 1000)
