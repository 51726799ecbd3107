"""Variant files and house-rule overrides are validated: a wrong key or value is an error naming it."""
from __future__ import annotations

import pytest

from kalooki_referee.rules import InvalidRules, UnknownVariant, load_variant, variant_ids


def test_british_loads_with_its_parameters():
    v = load_variant("british")
    assert v.rules.pack.size == 106
    assert v.rules.opening.minimum == 40
    assert v.rules.players.max == 5
    assert "british" in variant_ids()


@pytest.mark.parametrize("rules, pointer", [
    ({"building": {"max_per_end": 3}}, "/rules/building/max_per_end"),
    ({"openng": {"minimum": 30}}, "/rules/openng"),
    ({"opening": {"minimum": "forty"}}, "/rules/opening/minimum"),
    ({"melds": {"run": {"ace": "sideways"}}}, "/rules/melds/run/ace"),
    ({"deal": {"cards_each": 21}}, "/rules/deal/cards_each"),
    ({"pack": {"decks": 1}}, "/rules/deal/cards_each"),
    ({"players": {"min": 5, "max": 3}}, "/rules/players/min"),
])
def test_bad_overrides_name_the_field(rules, pointer):
    with pytest.raises(InvalidRules) as err:
        load_variant("british", rules)
    assert pointer in [p.pointer for p in err.value.problems]


def test_a_good_override_changes_only_that_parameter():
    v = load_variant("british", {"opening": {"minimum": 51}})
    assert v.rules.opening.minimum == 51
    assert v.rules.building.max_per_run_end_per_turn == 2
    assert load_variant("british").rules.opening.minimum == 40


def test_unknown_variant():
    with pytest.raises(UnknownVariant):
        load_variant("martian")
    with pytest.raises(UnknownVariant):
        load_variant("../etc/passwd")
