"""A table meld read in one pass (``melds.given_slots``) is the meld the full enumeration of its
readings (``melds.readings``) finds alone, in every variant: where the one pass answers, the
enumeration finds that meld and nothing else; and every meld as the wire writes it (each joker
declared) that has one reading is read in one pass."""
from __future__ import annotations

import random

import pytest

from kalooki_referee.rules import load_variant, variant_ids
from kalooki_referee.rules.cards import RANK_CODES, SUITS, rank_code
from kalooki_referee.rules.melds import Meld, given_slots, readings, tokens_of

RANKS = list(range(2, 15))


def _run(rng: random.Random) -> list[str]:
    """A run of one suit, aces low or high, some cards jokers (declared with their card or plain),
    now and then spoilt (a card of another suit or rank, a joker declared for the wrong card)."""
    suit = rng.choice(SUITS)
    n = rng.randint(2, 14)
    start = rng.randint(1, max(1, 15 - n))
    codes = []
    for r in range(start, start + n):
        card = f"{rank_code(r) if r <= 14 else '2'}{suit}"
        if rng.random() < 0.25:
            codes.append(rng.choice([f"JK(={card})", "JK", f"JK(={rank_code(r)})"] if rng.random() < 0.2
                                    else [f"JK(={card})", "JK"]))
        else:
            codes.append(card)
    if rng.random() < 0.3:
        i = rng.randrange(len(codes))
        codes[i] = rng.choice([f"{RANK_CODES[rng.choice(RANKS)]}{rng.choice(SUITS)}", "JK",
                               f"JK(={RANK_CODES[rng.choice(RANKS)]}{rng.choice(SUITS)})"])
    if rng.random() < 0.3:
        rng.shuffle(codes)
    return codes


def _set(rng: random.Random) -> list[str]:
    """A set of one rank, some cards jokers (plain or declared), now and then spoilt (a repeated suit,
    another rank, a joker declared with a suit or for another rank)."""
    rank = RANK_CODES[rng.choice(RANKS)]
    suits = rng.sample(SUITS, rng.randint(0, 4))
    codes = [rank + s for s in suits] + rng.choice([[], ["JK"], [f"JK(={rank})"], ["JK", "JK"], ["JK"] * 3])
    if rng.random() < 0.3:
        codes.append(rng.choice([codes[0] if codes else "JK", f"{RANK_CODES[rng.choice(RANKS)]}{rng.choice(SUITS)}",
                                 f"JK(={RANK_CODES[rng.choice(RANKS)]})", f"JK(={rank}{rng.choice(SUITS)})"]))
    if rng.random() < 0.1 and suits:
        codes = [codes[0]] * 3   # three identical cards (a three-deck game's set)
    rng.shuffle(codes)
    return codes


@pytest.mark.parametrize("variant_id", variant_ids())
def test_a_meld_read_in_one_pass_is_the_one_reading_of_the_full_enumeration(variant_id: str) -> None:
    variant = load_variant(variant_id)
    rng = random.Random(variant_id)
    answered = written = 0
    for _ in range(1500):
        kind = rng.choice(["run", "set"])
        tokens = tokens_of(_run(rng) if kind == "run" else _set(rng))
        found, failure = readings(tokens, variant, kind)
        given = given_slots(tokens, variant, kind)
        if given is not None:
            answered += 1
            assert failure is None and found == [Meld(kind, given)], ([t.code for t in tokens], kind)
        if failure is None and len(found) == 1:
            # the meld as the wire writes it, every joker declared, is read in one pass
            meld = found[0]
            as_written = tokens_of(meld.codes)
            if meld.rank or kind == "run":   # (not a set of jokers alone, whose jokers stand for no rank)
                suits = [s.card.suit for s in meld.slots if not s.is_joker]
                if len(set(suits)) == len(suits):   # (not three identical cards)
                    written += 1
                    assert given_slots(as_written, variant, kind) == meld.slots, (meld.codes, kind)
    assert answered > 100 and written > 100, (answered, written)
