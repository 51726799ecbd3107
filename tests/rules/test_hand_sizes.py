"""The hand sizes of a position (``/positions/counted``, rules/invariants.py ``HAND_SIZE`` and
``PILE_SIZE``): every position of random play, in every variant, keeps them; the same position one
card off at any seat does not."""
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
        assert f"holds {len(state.players[seat].hand) - 1} cards" in problems[0].detail
        assert "exactly" in problems[0].detail
        return
    pytest.fail("no unopened seat in the sample")
