"""A variant's typed value and its wire form (rules/variant.py, rules/wire/variant.py): the parameters
read by pointer from the typed ``Rules``, house rules kept as the parameters they set and written
back as sent, a game's stakes laid over a variant without the wire."""
from __future__ import annotations

import pytest

from kalooki_referee.rules import load_variant
from kalooki_referee.rules.params import Stakes
from kalooki_referee.rules.variant import parameter_at
from kalooki_referee.rules.wire.variant import overrides_of, overrides_wire, variant_wire


def test_a_parameter_is_read_by_its_pointer_from_the_typed_rules():
    jamaican = load_variant("jamaican")
    assert jamaican.parameter("/opening/minimum") == jamaican.rules.opening.minimum
    assert jamaican.parameter("/contract/hands/3/cards") == jamaican.cards_for(4, 3)   # a table keyed by a number
    assert parameter_at(jamaican.rules, "/stake_presets") == jamaican.rules.stake_presets
    for missing in ("/opening/maximum", "/contract/hands/99/cards", "/nothing"):
        with pytest.raises(KeyError):
            jamaican.parameter(missing)


def test_house_rules_are_kept_as_the_parameters_they_set_and_written_back_as_sent():
    sent = {"calling": {"per_hand": 2}, "deal": {"packets": [3, 3, 4, 3]}, "opening": {"minimum": 50}}
    assert overrides_wire(overrides_of(sent)) == sent
    variant = load_variant("british", sent)
    assert variant.overrides == overrides_of(sent) and variant.rules.deal.packets == (3, 3, 4, 3)
    wire = variant_wire(variant)
    assert wire["overrides"] == sent
    # a group british.yaml leaves to its default is shown whole once a house rule changes it
    assert wire["parameters"]["calling"] == {"per_hand": 2, "penalty_cards": 1}
    assert "calling" not in variant_wire(load_variant("british"))["parameters"]
    assert wire["parameters"]["opening"]["minimum"] == 50


def test_a_games_stakes_are_laid_over_the_variant_once():
    british = load_variant("british")
    stakes = Stakes(call_up=3, kalookie=6, initial=10, buy_in=10)
    hand = british.with_stakes(stakes)
    assert hand.rules.stakes == stakes and hand.rules.opening == british.rules.opening
    assert british.with_stakes(stakes) is hand
    assert dict(hand.overrides) == {"/stakes/call_up": 3, "/stakes/kalookie": 6, "/stakes/initial": 10,
                                    "/stakes/buy_in": 10}
    assert variant_wire(hand)["overrides"] == {"stakes": {"call_up": 3, "kalookie": 6, "initial": 10, "buy_in": 10}}
