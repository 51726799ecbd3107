"""The hand sizes of a position (``/positions/counted``, on by default; rules/invariants.py ``HAND_SIZE``
and ``PILE_SIZE``): every position of random play, in every variant, keeps them; the same position one
card off at any seat does not, by default, and the refusal names the seat and its count in words; a
position marked composed (counted false) keeps only the hand limit."""
from __future__ import annotations

import pytest

from kalooki_referee.rules import load_variant, variant_ids
from kalooki_referee.rules.cards import UNSEEN
from kalooki_referee.rules.invariants import check_state
from kalooki_referee.rules.state import replace
from kalooki_referee.rules.wire.state import state_wire
from tests.support.random_play import positions

COUNTED = {"positions": {"counted": True}}
NO_MISSING = "no_missing"


def _counted(variant_id: str, rules=COUNTED):
    """The variant with the hand sizes counted; with ``NO_MISSING``, at a table that reports no
    missing pluck or discard (each leaves a hand one card off for good; the Jamaican games list both)."""
    if rules is NO_MISSING:
        penalties = load_variant(variant_id).rules.penalties
        rules = {**COUNTED, "penalties": {"points": penalties.points, "infractions": [],
                                          "overcall": penalties.overcall.value}}
    return load_variant(variant_id, rules)


def _sample(steps_each: int = 60):
    for variant_id in variant_ids():
        for variant, state, _, _ in positions(steps_each, seed=11, variants=[variant_id]):
            yield variant_id, state


SAMPLE = list(_sample())


def test_every_position_of_random_play_keeps_its_hand_sizes():
    for variant_id, state in SAMPLE:
        for rules in (COUNTED, NO_MISSING):
            assert check_state(state, _counted(variant_id, rules)) == [], (variant_id, state_wire(state))


def _at_limit(variant, state) -> bool:
    per_hand = variant.rules.calling.per_hand
    return bool(per_hand) and any(p.calls >= per_hand for p in state.players)


def _one_card_to_the_stock(state, seat: int):
    p = state.players[seat]
    card = next(c for c in p.hand if c is not UNSEEN)
    hand = list(p.hand)
    hand.remove(card)
    return replace(state, players=state.players_with(p.id, hand=tuple(hand)), stock=(card,) + state.stock)


def _codes(problems) -> set[str]:
    return {p.code for p in problems}


@pytest.mark.parametrize("variant_id", variant_ids())
def test_a_card_moved_from_any_hand_to_the_stock_is_refused(variant_id):
    variant = _counted(variant_id, NO_MISSING)
    checked = 0
    for vid, state in SAMPLE:
        if vid != variant_id or _at_limit(variant, state) or state.phase == "ended":
            continue
        for seat, p in enumerate(state.players):
            if len(p.hand) < 2:
                continue  # (an empty hand is refused anyway: HAND_EMPTY)
            moved = _one_card_to_the_stock(state, seat)
            codes = _codes(check_state(moved, variant))
            assert codes & {"HAND_SIZE", "PILE_SIZE", "DEALT_COUNT"}, (variant_id, seat, state_wire(state))
            # the same with that hand given as a count (a partial position): refused alike
            p = moved.players[seat]
            partial = replace(moved, players=moved.players_with(p.id, hand=(UNSEEN,) * len(p.hand)))
            codes = _codes(check_state(partial, variant))
            assert codes & {"HAND_SIZE", "PILE_SIZE", "DEALT_COUNT"}, (variant_id, seat, state_wire(partial))
            checked += 1
    assert checked > 20


def _hidden(state, seat: int, delta: int):
    p = state.players[seat]
    hand = p.hand + (UNSEEN,) * delta if delta > 0 else tuple(p.hand[:-1])
    return replace(state, players=state.players_with(p.id, hand=hand))


@pytest.mark.parametrize("delta", [1, -1])
def test_a_hidden_count_one_off_at_any_seat_is_refused(delta):
    for variant_id, state in SAMPLE[::7]:
        variant = _counted(variant_id)
        for seat in range(len(state.players)):
            # the seat's hand as a count (a view of the table), then one card more or fewer
            p = state.players[seat]
            view = replace(state, players=state.players_with(p.id, hand=(UNSEEN,) * len(p.hand)))
            assert check_state(view, variant) == []
            assert check_state(_hidden(view, seat, delta), variant), (variant_id, seat, delta)


def test_an_unopened_hand_one_card_short_points_at_the_seat_and_the_count():
    for variant_id, state in SAMPLE:
        variant = _counted(variant_id, NO_MISSING)
        if variant.rules.contract is not None or not variant.rules.building.requires_opening or (
                variant.rules.joker_reuse.allowed and not variant.rules.joker_reuse.requires_opening):
            continue
        seat = next((i for i, p in enumerate(state.players) if not p.opened and i != 0), None)
        if seat is None or state.first_play or state.phase == "ended":
            continue
        problems = [p for p in check_state(_one_card_to_the_stock(state, seat), variant) if p.code == "HAND_SIZE"]
        assert [p.pointer for p in problems] == [f"/players/{seat}/hand"]
        p, held = state.players[seat], len(state.players[seat].hand)
        assert problems[0].detail == f"{p.id} should hold {held} cards: {held} dealt; {p.id} holds {held - 1}"
        return
    pytest.fail("no unopened seat in the sample")


DEFAULT = {}


@pytest.mark.parametrize("variant_id", variant_ids())
@pytest.mark.parametrize("delta", [1, -1])
def test_a_seat_one_card_off_is_refused_by_default(variant_id, delta):
    """With no house rules, a card moved between any seat's hand and the stock (either way) is refused
    (a table whose calls reached the limit is not summed: an over-call may have been settled)."""
    variant = load_variant(variant_id)
    assert variant.rules.positions.counted
    checked = 0
    for vid, state in SAMPLE:
        if vid != variant_id or _at_limit(variant, state) or state.phase == "ended" or not state.stock:
            continue
        for seat, p in enumerate(state.players):
            if len(p.hand) < 2:
                continue
            if delta > 0:
                moved = replace(state, players=state.players_with(p.id, hand=p.hand + state.stock[:1]),
                                stock=state.stock[1:])
            else:
                moved = _one_card_to_the_stock(state, seat)
            found = check_state(moved, variant)
            codes = _codes(found)
            assert codes & {"HAND_SIZE", "DEALT_COUNT", "PILE_SIZE", "STOCK_EMPTY"}, (variant_id, seat, state_wire(state))
            checked += 1
    assert checked > 10


def test_the_refusal_names_the_seat_and_its_count_in_words():
    """A British position: P1 has laid three kings and holds one card fewer than the deal leaves; the
    refusal names P1's hand with the sum, and the piles."""
    variant = load_variant("british")
    for vid, state in SAMPLE:
        if vid != "british" or state.phase != "draw" or state.first_play:
            continue
        opener = next((i for i, p in enumerate(state.players) if p.opened and len(p.hand) > 1), None)
        if opener is None:
            continue
        p = state.players[opener]
        laid = sum(len(m.meld.cards) for m in state.melds if m.owner == p.id)
        if len(p.hand) + laid != 13 or any(m.owner != p.id for m in state.melds):
            continue   # (cards added to another's meld: the words name the owner's share, not this seat's)
        found = check_state(_one_card_to_the_stock(state, opener), variant)
        assert [(x.code, x.pointer) for x in found] == [("HAND_SIZE", f"/players/{opener}/hand"), ("PILE_SIZE", "/stock")]
        assert found[0].detail == (f"{p.id} should hold {13 - laid} cards: 13 dealt, {laid} laid; "
                                   f"{p.id} holds {12 - laid} (1 card too few)")
        return
    pytest.fail("no position with a single opener's melds in the sample")


def test_a_composed_position_keeps_only_the_hand_limit():
    composed = load_variant("british", {"positions": {"counted": False}})
    for vid, state in SAMPLE:
        if vid != "british" or state.phase == "ended":
            continue
        seat = next((i for i, p in enumerate(state.players) if len(p.hand) > 1 and i != 0), None)
        if seat is None or state.first_play:
            continue
        short = _one_card_to_the_stock(state, seat)
        assert check_state(short, load_variant("british"))
        assert check_state(short, composed) == []
        over = replace(state, players=state.players_with(state.players[seat].id,
                                                         hand=state.players[seat].hand + state.stock[:1]),
                       stock=state.stock[1:])
        if state.players[seat].id != state.to_act or state.phase == "draw":
            assert {p.code for p in check_state(over, composed)} == {"HAND_SIZE"}
        return
    pytest.fail("no position in the sample")
