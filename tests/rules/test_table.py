"""Table (rules/table.py): a hand to play on move by move, as a chess library's board."""
from __future__ import annotations

import pytest

from kalooki_referee.rules import (IllegalMove, Table, action_from_dict, adjudicate, deal, legal_actions,
                                   load_variant, move_text, state_wire)
from kalooki_referee.rules.errors import MalformedInput
from kalooki_referee.rules.wire.notation import NotationError

SEATS = ["Andy", "Mark", "John", "Frank"]


@pytest.fixture
def table() -> Table:
    return Table.dealt("british", SEATS, seed="library", dealer="Frank")


def test_a_dealt_table_is_the_seeded_deal(table):
    variant = load_variant("british")
    assert table.variant == variant
    assert state_wire(table.state) == state_wire(deal(variant, SEATS, "library", "Frank")[0])
    assert table.moves == ()


def test_the_legal_moves_are_the_listing(table):
    assert table.legal_moves == legal_actions(table.variant, table.state).actions
    assert [move_text(m) for m in table.legal_moves] == ["take", "draw stock"]


def test_is_legal_takes_an_action_or_its_text_and_leaves_the_table(table):
    before = table.state
    assert table.is_legal("draw stock") and table.is_legal(action_from_dict({"type": "draw", "source": "stock"}))
    assert not table.is_legal("Mark: draw stock")
    assert not table.is_legal("discard KC")        # a discard before drawing
    assert table.state is before
    assert Table.is_legal.__doc__


def test_push_makes_the_verdicts_state_the_tables(table):
    expected = adjudicate(table.variant, table.state, action_from_dict("draw stock"))
    verdict = table.push("draw stock")
    assert verdict.legal is True and table.state == expected.state == verdict.state
    assert [move_text(m) for m in table.moves] == ["draw stock"]
    discard = next(m for m in table.legal_moves if m.type == "discard")
    table.push(discard)
    assert table.state.to_act == "Mark" and table.moves[-1] == discard


def test_an_illegal_push_raises_with_the_verdict_and_changes_nothing(table):
    before = table.state
    with pytest.raises(IllegalMove) as caught:
        table.push("Mark: draw stock")
    error = caught.value
    assert error.verdict.legal is False and error.verdict.state == before
    assert error.verdict.violations[0].clause == "turn.left_of_dealer_starts_clockwise"
    assert "turn.left_of_dealer_starts_clockwise" in str(error) and "Mark: draw stock" in str(error)
    assert table.state is before and table.moves == ()


def test_a_text_that_is_not_a_move_is_refused_before_the_referee(table):
    with pytest.raises(NotationError):
        table.push("draw the stock")


def test_pop_takes_back_the_last_move(table):
    start = table.state
    table.push("draw stock")
    drawn = table.state
    table.push(next(m for m in table.legal_moves if m.type == "discard"))
    assert table.pop().type == "discard" and table.state is drawn
    assert move_text(table.pop()) == "draw stock" and table.state is start and table.moves == ()
    with pytest.raises(IndexError):
        table.pop()


def test_str_shows_the_seats_the_piles_and_what_the_turn_owes(table):
    text = str(table)
    lines = text.splitlines()
    assert lines[0].startswith("Kalookie") and "Frank" in lines[0] and "'library'" in lines[0]
    andy = next(line for line in lines if "Andy" in line)
    assert andy.startswith(">") and "13 cards" in andy
    hand = " ".join(c.code.replace("10", "T") for c in table.state.player("Andy").hand)
    assert sorted(andy.split(": ", 1)[1].split()) == sorted(hand.split())
    assert "stock: 53 cards" in text and lines[-1] == "Andy to draw"
    table.push("take")
    top = table.state.turn.drawn
    assert str(table).splitlines()[-1] == f"Andy to play: has drawn {top.code} from the discard, must discard"


def test_str_shows_the_melds_and_the_end(table):
    position = "K1/british/A:4D7H8H9H,o;B:2C3C4C5C6C7C8C9C,o/p:2:1/QS+85/KD/2r2S3S4SJK(=5S);1sQDQHQC/s4D/x"
    table = Table.from_notation(position, load_variant("british", {"positions": {"counted": False}}))  # a puzzle
    text = str(table)
    assert "meld m1 (B): run 2S 3S 4S JK(=5S)" in text and "meld m2 (A): set Q" in text
    assert text.splitlines()[-1] == "A to play: has drawn 4D from the stock, must discard"
    table.push("meld 7H 8H 9H")
    table.push("discard 4D")
    assert str(table).splitlines()[-1].startswith("The hand is over: A won")
    assert table.notation.startswith("K1/british/") and "/e:" in table.notation


def test_reprs_are_short(table):
    assert repr(table) == "<Table british: Andy to draw; 0 moves pushed>"
    assert repr(table.state) == "<State draw: Andy to act, 4 seats, stock 53, discard 1, 0 melds>"


def test_a_table_from_a_notation_takes_the_variant_with_its_house_rules():
    table = Table.dealt("british", SEATS, seed="library", dealer="Frank")
    house = load_variant("british", {"opening": {"minimum": 51}})
    again = Table.from_notation(table.notation, house)
    assert again.variant is house and again.state == table.state
    with pytest.raises(MalformedInput):
        Table.from_notation(table.notation, load_variant("jamaican"))
