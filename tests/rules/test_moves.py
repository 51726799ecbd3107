"""Moves written as text (rules/wire/moves.py, docs/moves.md): every action of every vector written as
text and read back is the same action; the text written is the canonical one; a text that is not a
move is refused naming the character where reading stopped."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kalooki_referee.rules import action_from_dict, move_text, parse_move
from kalooki_referee.rules.errors import MalformedInput
from kalooki_referee.rules.wire.game import game_action_wire, read_game_action
from kalooki_referee.rules.wire.notation import NotationError
from kalooki_referee.rules.wire.contract import is_valid
from vectors.suite import load_vectors

ROOT = Path(__file__).resolve().parents[2]
TYPES = {"draw", "meld", "build", "swap_joker", "discard", "announce", "pass", "call", "allow", "penalty",
         "challenge", "turn", "buy_in", "decline", "next_hand"}


def _vector_actions() -> list[tuple[str, object]]:
    """(vector id, action read from its wire form) for every action of every vector that is one
    (openapi.yaml's ``GameOrHandAction``: a vector whose action is malformed on purpose is left out)."""
    out = []
    for vector in load_vectors():
        request = vector.data["request"]
        raws = [request["action"]] if "action" in request else []
        if vector.endpoint == "replay" and isinstance(request.get("actions"), list):
            raws += request["actions"]
        out += [(vector.id, read_game_action(raw)) for raw in raws if is_valid("GameOrHandAction", raw)]
    return out


VECTOR_ACTIONS = _vector_actions()


def test_the_vectors_hold_every_kind_of_move():
    kinds = {game_action_wire(a)["type"] for _, a in VECTOR_ACTIONS}
    assert kinds == TYPES
    assert len(VECTOR_ACTIONS) > 5000


def test_every_vector_action_round_trips_through_its_text():
    failures = []
    for vid, action in VECTOR_ACTIONS:
        text = move_text(action)
        back = parse_move(text)
        if game_action_wire(back) != game_action_wire(action) or move_text(back) != text:
            failures.append((vid, text, game_action_wire(action), game_action_wire(back)))
    assert failures == []


CANONICAL = [
    "draw stock", "draw stock 9C", "take", "take 9C", "meld 7H 8H 9H + KS KH KC",
    "meld run 7H 8H JK(=9H) as m9 + set KS KH KC + build m2 TC JC at high",
    "meld set JK(=T) TH TS", "build m2 TC JC", "build m1 JK(=4S) at low",
    "swap m1 8H -> meld set 9D 9C JK", "swap m2 TS TH TC -> meld run 3S 4S JK(=5S)",
    "swap m1 6D -> build m1 JK(=8D) at high", "discard KC", "Andy: discard KC", "An%20dy: discard TS",
    "Mark: call", "allow Mark", "Mark: penalty missing_pluck", "Mark: challenge Andy overcall",
    "Mark: challenge Andy lay", "announce 3", "pass", "turn (take; discard KC)",
    "Andy: turn (draw stock; meld 7H 8H 9H; Andy: build m1 TH; discard KC)", "Andy: buy in", "B: decline",
    'next hand "two"', 'next hand "two" cut 40 by B', "next hand 17", "next hand -3 cut 4", 'next hand ""',
    'next hand "caf\u00e9 \\"one\\""',
]


@pytest.mark.parametrize("text", CANONICAL)
def test_a_canonical_text_is_written_back_as_it_is(text):
    assert move_text(parse_move(text)) == text


def test_the_text_reads_as_the_wire_object():
    assert game_action_wire(parse_move("meld run 7H 8H JK(=9H) as m9 + set KS KH KC + build m2 TC JC at high")) == {
        "type": "meld", "melds": [{"cards": ["7H", "8H", "JK(=9H)"], "kind": "run", "id": "m9"},
                                  {"cards": ["KS", "KH", "KC"], "kind": "set"}],
        "builds": [{"meld": "m2", "cards": ["10C", "JC"], "end": "high"}]}
    assert game_action_wire(parse_move("Andy: turn (take; discard KC)")) == {
        "type": "turn", "player": "Andy", "actions": [{"type": "draw", "source": "discard"},
                                                      {"type": "discard", "card": "KC"}]}
    assert game_action_wire(parse_move('next hand "s" cut 40 by B')) == {
        "type": "next_hand", "seed": "s", "cut": {"count": 40, "by": "B"}}
    assert game_action_wire(parse_move("next hand 7")) == {"type": "next_hand", "seed": 7}


def test_spaces_are_free_but_written_once():
    assert move_text(parse_move("  meld   7H  8H 9H   +  KS KH KC ")) == "meld 7H 8H 9H + KS KH KC"
    assert move_text(parse_move("turn(take ;discard KC )")) == "turn (take; discard KC)"


def test_the_core_reader_takes_a_text():
    assert action_from_dict("discard KC") == action_from_dict({"type": "discard", "card": "KC"})
    with pytest.raises(MalformedInput, match="game's action"):
        action_from_dict("Andy: buy in")


@pytest.mark.parametrize("text, at, says", [
    ("", 1, "expected a move"),
    ("drew stock", 1, "expected a move"),
    ("draw discard", 6, "take draws the discard"),
    ("discard 10C", 9, "expected a card"),
    ("discard", 8, "expected a space"),
    ("meld 7H 8H +", 13, "expected a space"),
    ("meld 7H 8H 9H + build m1 TC + 7S 8S 9S", 31, "after the new melds"),
    ("turn (draw stock; discard KC", 29, "closing a turn"),
    ("turn (Mark: call)", 7, "a turn's step is no call"),
    ("call", 1, "said by a player"),
    ("buy in", 7, "said by a player"),
    ("Andy: next hand 3", 17, "dealt by the table"),
    ("swap m1 JK", 11, "natural cards"),
    ("announce 101", 10, "at most 100"),
    ('next hand "ab', 11, "JSON string"),
    ("draw stock\n", 11, "unexpected"),
    ("swap m1 8H -> discard KC", 15, "a meld or a build"),
    ("meld " + " ".join(["7H"] * 41), 126, "at most 40 cards"),
    ("next hand 1 cut 0", 17, "1 to 1000"),
])
def test_a_text_that_is_not_a_move_is_refused_where_reading_stopped(text, at, says):
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    detail = caught.value.problems[0].detail
    assert detail.startswith(f"at character {at}:") and says in detail, detail


def test_a_refusal_placed_under_a_field_keeps_its_pointer():
    with pytest.raises(NotationError) as caught:
        parse_move("discard")
    moved = caught.value.prefixed("/action")
    assert [p.pointer for p in moved.problems] == ["/action"]


def test_docs_moves_md_shows_only_moves_that_read_as_written():
    page = (ROOT / "docs" / "moves.md").read_text()
    shown = re.findall(r"^    (\S.*)$", page, re.M)   # the page's examples: one move a line, indented
    assert len(shown) >= 15
    for text in shown:
        assert move_text(parse_move(text)) == text
