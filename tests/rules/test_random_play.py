"""CI's share of the random-play run (tests/support/random_play.py): a few thousand turns of every variant
present, with every invariant checked after every step.  The long run is
`python -m tests.support.random_play --turns 100000`."""
from __future__ import annotations

import pytest

from kalooki_referee.rules import variant_ids
from tests.support.random_play import play

JAMAICAN = ["jamaican", "jamaican_kalooki_hands_1_4", "jamaican_super_kalooki_hands_5_9",
            "jamaican_12_card_first_hands", "jamaican_baby", "jamaican_baby_8_cards"]


def test_random_play_keeps_every_invariant():
    stats = play(turns=4000, seed=20261122)
    assert stats["turns"] == 4000
    # the run really exercised the game: hands ended, and every kind of action was taken
    assert stats.get("hand:call_up", 0) + stats.get("hand:kalookie", 0) > 5
    for kind in ("draw", "meld", "build", "discard", "announce"):
        assert stats.get(f"action:{kind}", 0) > 0, kind
    assert stats["corruptions_refused"] > 1000 and stats["listed_checked"] > 100
    # every variant played a hand, its position counted exactly after every step
    for variant in variant_ids():
        assert stats.get(f"variant:{variant}", 0) > 0, variant


def test_random_play_is_reproducible_from_its_seed():
    assert play(turns=150, seed=5) == play(turns=150, seed=5)


@pytest.mark.slow
def test_the_long_run_keeps_every_invariant_in_every_variant():
    """The 100,000-turn run over every variant present, the six Jamaican ones among them, with
    calls out of turn made by the other seats (the listing offers them) and allowed."""
    stats = play(turns=100_000, seed=1)
    assert stats["turns"] == 100_000
    # a position with no legal action fails the run (``InvariantBroken``): the hand of jokers alone where a
    # joker is never discarded, the one dead end a long run found, now ends its turn with a pass
    # (dec.jamaican_only_jokers_left)
    print(f"\n  {stats['hands']} hands; {stats.get('action:pass', 0)} passes")
    assert set(JAMAICAN) <= set(variant_ids())
    for variant in variant_ids():
        assert stats.get(f"variant:{variant}", 0) > 0, variant
    for kind in ("call", "allow", "swap_joker"):
        assert stats.get(f"action:{kind}", 0) > 0, kind
