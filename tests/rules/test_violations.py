"""A refused action lists every rule it breaks, the true cause first: the rule that makes it
illegal where it stands, then each further rule the same action breaks once that one is set aside."""
from __future__ import annotations

import pytest

from kalooki_referee.rules import action_from_dict, adjudicate
from kalooki_referee.rules.clause_ids import REFEREE_CARDS_HELD, TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE
from kalooki_referee.rules.engine import MAX_VIOLATIONS
from kalooki_referee.rules.wire.variant import variant_ids

from tests.support.random_play import positions

PACK = [r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")]


def _discards(steps: int, seed: int):
    """Positions of ``steps`` steps of random play in each variant where the player to act discards:
    (variant, state, the discard chosen, another seat)."""
    for variant_id in variant_ids():
        for variant, state, _, action in positions(steps, seed, [variant_id]):
            if action["type"] == "discard" and state.phase == "play":
                other = next(p for p in state.players if p.id != state.to_act)
                yield variant, state, action, other


def _clauses(verdict) -> list[str]:
    return [v.clause for v in verdict.violations]


@pytest.fixture(scope="module")
def discards():
    found = list(_discards(40, seed=26))
    assert {v.id for v, *_ in found} == set(variant_ids()), "random play should reach a discard in every variant"
    return found


def test_an_action_breaking_two_rules_lists_both_the_turn_first(discards):
    for variant, state, action, other in discards:
        held = {c.code for c in state.current.hand} | {c.code for c in other.hand}
        card = next(c for c in PACK if c not in held)
        verdict = adjudicate(variant, state, action_from_dict({**action, "player": other.id, "card": card}))
        assert verdict.legal is False
        assert _clauses(verdict) == [variant.cite(TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE), variant.cite(REFEREE_CARDS_HELD)]
        assert verdict.state is state and verdict.events == ()


def test_the_rules_after_the_first_are_those_the_action_breaks_where_it_is_allowed(discards):
    # the same card discarded by the player to act, in their own turn, breaks only the second rule
    for variant, state, action, other in discards:
        held = {c.code for c in state.current.hand} | {c.code for c in other.hand}
        card = next(c for c in PACK if c not in held)
        own = adjudicate(variant, state, action_from_dict({**action, "card": card}))
        out_of_turn = adjudicate(variant, state, action_from_dict({**action, "player": other.id, "card": card}))
        assert _clauses(out_of_turn)[1:] == _clauses(own) == [variant.cite(REFEREE_CARDS_HELD)]


def test_an_action_breaking_one_rule_lists_one(discards):
    for variant, state, action, other in discards:
        card = next((c for c in other.hand if not c.is_joker), None)
        if card is None:
            continue
        verdict = adjudicate(variant, state, action_from_dict({**action, "player": other.id, "card": card.code}))
        assert _clauses(verdict) == [variant.cite(TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE)]


def test_a_turn_names_its_step_on_every_rule_it_breaks(discards):
    variant, state, action, other = discards[0]
    held = {c.code for c in other.hand}
    card = next(c for c in PACK if c not in held)
    turn = {"type": "turn", "player": other.id, "actions": [{"type": "discard", "card": card}]}
    verdict = adjudicate(variant, state, action_from_dict(turn))
    assert len(verdict.violations) == 2 and {v.step for v in verdict.violations} == {0}


def test_the_list_is_bounded():
    assert 2 <= MAX_VIOLATIONS <= 8
