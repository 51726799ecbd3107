"""The library's public readers check what they read: a value given straight to ``state_from_dict``,
``action_from_dict``, ``game_from_dict``, ``game_action_from_dict`` or ``cut_from_dict`` that
openapi.yaml's component refuses raises MalformedInput, each problem pointing (relative to the value)
at the field, never a bare KeyError or TypeError, nor a value carrying a member nobody knows.
tests/api/test_reader_refusals.py holds the pointers to the API's own."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from kalooki_referee.rules import MalformedInput, action_from_dict, load_variant, state_from_dict, state_wire
from kalooki_referee.rules.deal import ReportedCut
from kalooki_referee.rules.game import start_game
from kalooki_referee.rules.wire.deal import cut_from_dict
from kalooki_referee.rules.wire.game import game_action_from_dict, game_from_dict, game_wire

FIRST_TURN = json.loads((Path(__file__).parents[2] / "examples" / "first-turn.json").read_text(encoding="utf-8"))
BRITISH = load_variant("british")
STATE: dict[str, Any] = FIRST_TURN["state"]
GAME: dict[str, Any] = game_wire(start_game(BRITISH, ["Andy", "Mark", "John"], seed="readers")[0])


def pointers(read: Callable[[], object]) -> list[str]:
    with pytest.raises(MalformedInput) as info:
        read()
    return [p.pointer for p in info.value.problems]


def test_a_state_with_an_unknown_member_is_refused_at_that_member() -> None:
    assert pointers(lambda: state_from_dict({**STATE, "bogus": 1}, BRITISH)) == ["/bogus"]


def test_a_state_with_a_phase_nobody_knows_is_refused_at_its_phase() -> None:
    assert pointers(lambda: state_from_dict({**STATE, "phase": "nap"}, BRITISH)) == ["/phase"]


def test_a_state_refused_for_its_shape_names_every_bad_field_below_the_state() -> None:
    broken = {**STATE, "players": [{**STATE["players"][0], "hand": ["9S", "1S"]}, *STATE["players"][1:]],
              "reshuffles": -1}
    del broken["dealer"]
    assert sorted(pointers(lambda: state_from_dict(broken, BRITISH))) == ["/dealer", "/players/0/hand/1", "/reshuffles"]


@pytest.mark.parametrize(("action", "where"), [
    ({"type": "draw", "source": "stock", "bogus": 1}, "/bogus"),
    ({"type": "draw", "source": "pile"}, "/source"),
    ({"type": "discard"}, "/card"),
    ({"type": "turn", "actions": [{"type": "draw", "source": "stock"}, {"type": "discard", "card": "1S"}]},
     "/actions/1/card"),
    ({"type": "buy_in", "player": "Andy"}, ""),      # a game's action is no action of a hand
    (None, ""),
])
def test_an_action_is_refused_at_its_bad_field(action: Any, where: str) -> None:
    assert pointers(lambda: action_from_dict(action)) == [where]


def test_a_game_and_a_game_action_are_refused_at_their_bad_fields() -> None:
    assert game_from_dict(GAME, BRITISH) == game_from_dict(json.loads(json.dumps(GAME)), BRITISH)
    assert pointers(lambda: game_from_dict({**GAME, "phase": "halftime"}, BRITISH)) == ["/phase"]
    assert pointers(lambda: game_from_dict({**GAME, "hand": {**GAME["hand"], "bogus": 1}}, BRITISH)) == ["/hand/bogus"]
    assert pointers(lambda: game_action_from_dict({"type": "buy_in"})) == ["/player"]
    assert pointers(lambda: game_action_from_dict({"type": "next_hand", "seed": 1, "cut": {"count": 0}})) == ["/cut/count"]
    assert game_action_from_dict({"type": "decline", "player": "Mark"}) == {"type": "decline", "player": "Mark"}


def test_a_reported_cut_is_refused_at_its_bad_field() -> None:
    assert cut_from_dict(None) is None and cut_from_dict({"count": 2.0, "by": "Andy"}) == ReportedCut(2, "Andy")
    assert pointers(lambda: cut_from_dict({"count": 0})) == ["/count"]
    assert pointers(lambda: cut_from_dict({"count": 3, "x": 1})) == ["/x"]
    assert pointers(lambda: cut_from_dict("44")) == [""]


def test_a_value_that_is_no_json_is_refused_where_it_is_not_json() -> None:
    assert pointers(lambda: state_from_dict({**STATE, 7: "seven"}, BRITISH)) == ["/7"]
    assert pointers(lambda: state_from_dict({**STATE, "discard": {"9S"}}, BRITISH)) == ["/discard"]
    looped: list[Any] = []
    looped.append(looped)
    assert pointers(lambda: state_from_dict({**STATE, "stock": looped}, BRITISH)) == [""]  # nested without end


def test_a_value_the_contract_accepts_reads_as_before() -> None:
    state = state_from_dict(STATE, BRITISH)
    assert state_wire(state_from_dict(state_wire(state), BRITISH)) == state_wire(state)
    assert action_from_dict(FIRST_TURN["action"]) == action_from_dict(json.loads(json.dumps(FIRST_TURN["action"])))
