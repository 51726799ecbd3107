"""The API takes a move's text wherever it takes an action (openapi.yaml's ActionText, docs/moves.md):
the answer is the same bytes as for the action's object; a text that is not a move is a 422
problem at the action's pointer, saying where reading stopped."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kalooki_referee.rules.wire.contract import is_valid
from kalooki_referee.rules import move_text, parse_move
from kalooki_referee.rules.wire.game import game_action_wire, read_game_action
from kalooki_referee.rules.wire.notation import NotationError
from vectors.suite import load_vectors

SAMPLE = 60   # adjudicate vectors answered both ways (every vector's text round trip: tests/rules/test_moves.py)


def _sample() -> list[dict]:
    vectors = [v for v in load_vectors() if v.endpoint == "adjudicate" and is_valid("GameOrHandAction", v.data["request"]["action"])]
    by_type: dict[str, list] = {}
    for v in vectors:
        by_type.setdefault(v.data["request"]["action"]["type"], []).append(v)
    rng = random.Random(7)
    picked = [rng.choice(group) for group in by_type.values()]   # every type of action at least once
    picked += rng.sample(vectors, SAMPLE - len(picked))
    return [v.data["request"] for v in picked]


def test_a_text_action_gets_the_same_bytes_as_its_object(client):
    requests = _sample()
    assert {r["action"]["type"] for r in requests} >= {"draw", "meld", "build", "swap_joker", "discard", "turn",
                                                       "next_hand", "buy_in"}
    for body in requests:
        text = move_text(read_game_action(body["action"]))
        as_object = client.post("/v1/adjudicate", json=body)
        as_text = client.post("/v1/adjudicate", json={**body, "action": text})
        assert (as_text.status_code, as_text.data) == (as_object.status_code, as_object.data), text


def test_a_replay_log_may_hold_texts(client):
    start = {"deal": {"players": ["Andy", "Mark", "John", "Frank"], "seed": "readme", "dealer": "Frank"}}
    objects = [{"type": "turn", "actions": [{"type": "draw", "source": "discard"}, {"type": "discard", "card": "KC"}]},
               {"type": "draw", "source": "stock"}, {"type": "discard", "card": "KC"}]
    texts = ["turn (take; discard KC)", "draw stock", "discard KC"]
    a = client.post("/v1/replay", json={"variant": "british", "start": start, "actions": objects})
    b = client.post("/v1/replay", json={"variant": "british", "start": start, "actions": [objects[0], *texts[1:]]})
    assert a.status_code == b.status_code == 200 and a.data == b.data
    bad = client.post("/v1/replay", json={"variant": "british", "start": start, "actions": [texts[0], "draw stocks"]})
    assert bad.status_code == 422
    assert [(e["pointer"], e["detail"][:15]) for e in bad.get_json()["errors"]] == [("/actions/1", "at character 6:")]


def _first_turn(client) -> dict:
    dealt = client.post("/v1/deal", json={"variant": "british", "players": ["Andy", "Mark", "John", "Frank"],
                                          "seed": "readme", "dealer": "Frank"}).get_json()
    return {"variant": "british", "state": dealt["state"]}


def test_a_text_that_is_not_a_move_is_a_problem_at_the_actions_pointer(client):
    body = _first_turn(client)
    for text, at in (("turn (take; discard 10C)", 21), ("call", 1), ("", 1), ("Andy: buy in", 1)):
        answer = client.post("/v1/adjudicate", json={**body, "action": text})
        assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
        errors = answer.get_json()["errors"]
        assert [e["pointer"] for e in errors] == ["/action"]
        assert errors[0]["detail"].startswith(f"at character {at}:"), errors


def test_an_overlong_text_is_refused_by_the_contract(client):
    answer = client.post("/v1/adjudicate", json={**_first_turn(client), "action": "discard KC " + " " * 2000})
    assert answer.status_code == 422 and answer.get_json()["errors"][0]["pointer"] == "/action"


def test_an_object_action_is_still_checked_by_the_contract(client):
    answer = client.post("/v1/adjudicate", json={**_first_turn(client), "action": {"type": "discard"}})
    assert answer.status_code == 422
    assert [(e["pointer"], e["detail"]) for e in answer.get_json()["errors"]] == [("/action/card", "required field is missing")]


WORDS = ["draw", "stock", "take", "meld", "build", "swap", "discard", "announce", "pass", "call", "allow", "penalty",
         "challenge", "turn", "buy", "in", "decline", "next", "hand", "run", "set", "as", "at", "low", "high", "cut",
         "by", "+", "->", ";", "(", ")", ":", "Andy:", "m1", "7H", "8H", "9H", "TC", "JK", "JK(=9H)", "JK(=9)", "KC",
         "3", "101", '"s"', "missing_pluck", "overcall", "lay", "%41"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12), st.sampled_from([" ", "  ", ""]))
def test_whatever_reads_as_a_move_is_an_action_of_the_contract(words, sep):
    try:
        move = parse_move(sep.join(words))
    except NotationError:
        return
    assert is_valid("GameOrHandAction", game_action_wire(move))
    assert move_text(parse_move(move_text(move))) == move_text(move)
