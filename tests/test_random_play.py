"""CI's share of the random-play run (tests/random_play.py): a few thousand turns of every variant
present, with every invariant checked after every step.  The long run is
`python -m tests.random_play --turns 100000`."""
from __future__ import annotations

from tests.random_play import play


def test_random_play_keeps_every_invariant():
    stats = play(turns=4000, seed=20261122)
    assert stats["turns"] == 4000
    # the run really exercised the game: hands ended, and every kind of action was taken
    assert stats.get("hand:call_up", 0) + stats.get("hand:kalookie", 0) > 5
    for kind in ("draw", "meld", "build", "discard", "announce"):
        assert stats.get(f"action:{kind}", 0) > 0, kind
    assert stats["corruptions_refused"] > 1000 and stats["listed_checked"] > 100


def test_random_play_is_reproducible_from_its_seed():
    assert play(turns=150, seed=5) == play(turns=150, seed=5)
