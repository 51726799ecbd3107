"""The hand's wire, read and written with fewer steps: the shortcuts give the values and
the JSON the general path gives."""
from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

from kalooki_referee.rules import action_from_dict, load_variant
from kalooki_referee.rules.actions import Discard, Draw, TurnAction
from kalooki_referee.rules.cards import UNSEEN, Card, parse_cards
from kalooki_referee.rules.events import Drew, Melded
from kalooki_referee.rules.state import FRESH_TURN, Turn, replace
from kalooki_referee.rules.wire.state import read_state, state_wire, turn_wire
from kalooki_referee.rules.wire.verdicts import event_wire

FIRST_TURN = json.loads((Path(__file__).parents[2] / "examples" / "first-turn.json").read_text(encoding="utf-8"))


def test_a_list_of_codes_of_any_length_reads_as_its_cards() -> None:
    assert parse_cards([]) == ()
    assert parse_cards(["10H"]) == (Card(10, "H"),)
    assert parse_cards(["AS", "TD", "JK", "2C"]) == (Card(14, "S"), Card(10, "D"), Card(0, ""), Card(2, "C"))


def test_the_reader_gives_the_fields_in_the_dataclass_order() -> None:
    """(the layout the interpreter reads fastest: see ``state.build``), unseen cards counted or not"""
    given = FIRST_TURN["state"]
    partial = {**given, "stock_hidden": 2, "players": [{**given["players"][0], "hidden": 1}] + given["players"][1:]}
    for data in (given, partial):
        state, problems = read_state(data, load_variant("british"))
        assert problems == []
        assert list(vars(state)) == [f.name for f in fields(state)]
        assert all(list(vars(p)) == [f.name for f in fields(p)] for p in state.players)
    assert state.stock[-3:] == (Card(9, "H"), UNSEEN, UNSEEN) and state.players[0].hand[-1] is UNSEEN


def test_the_fresh_turn_is_written_as_any_empty_turn_record_and_each_time_anew() -> None:
    written = turn_wire(FRESH_TURN)
    assert written == turn_wire(Turn(pending_jokers=0)) and Turn(pending_jokers=0) is not FRESH_TURN
    written["builds"]["m1"] = {"low": 1, "high": 0}
    assert turn_wire(FRESH_TURN)["builds"] == {}


def test_unseen_cards_are_written_as_counts() -> None:
    state, _ = read_state({**FIRST_TURN["state"], "stock_hidden": 3}, load_variant("british"))
    andy = state.players[0]
    state = replace(state, players=(replace(andy, hand=(UNSEEN,) + andy.hand[:2] + (UNSEEN,)),) + state.players[1:])
    wire = state_wire(state)
    assert wire["stock_hidden"] == 3 and wire["stock"] == FIRST_TURN["state"]["stock"]
    assert wire["players"][0]["hidden"] == 2 and wire["players"][0]["hand"] == ["5S", "KH"]
    assert "hidden" not in wire["players"][1]


def test_an_event_leaves_out_an_optional_field_only_when_none() -> None:
    assert event_wire(Drew("Andy", "stock")) == {"type": "drew", "player": "Andy", "source": "stock"}
    assert event_wire(Drew("Andy", "discard", "9S"))["card"] == "9S"
    melded = json.loads(json.dumps(event_wire(Melded("Andy", "m1", "set", ("7S", "7H", "7D"), 21))))
    assert melded == {"type": "melded", "player": "Andy", "meld": "m1", "kind": "set", "cards": ["7S", "7H", "7D"],
                      "points": 21}


def test_a_turn_reads_as_its_actions() -> None:
    turn = action_from_dict({"type": "turn", "player": "Andy", "actions": [
        {"type": "draw", "source": "discard"}, {"type": "discard", "card": "KC", "player": "Andy"}]})
    assert turn == TurnAction((Draw("discard", None, None), Discard(Card(13, "C"), "Andy")), "Andy")
    assert action_from_dict({"type": "draw", "source": "stock", "card": "TD"}) == Draw("stock", Card(10, "D"))
