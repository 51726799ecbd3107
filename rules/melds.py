"""Melds: sets and runs, the readings of jokers, and meld values.

A meld is a tuple of slots.  A slot is the physical card (a natural or a joker) and the card it
stands for: in a run an exact rank and suit; in a set the set's rank with the suit left open.  Runs
are kept from low to high; in a run a low ace has rank 1, a high ace rank 14.

On the wire a melded joker is written with its reading: ``JK(=9H)`` in a run, ``JK(=9)`` in a set.
In a proposed meld a plain ``JK`` may be left for the referee to read; if the cards allow more than
one reading the meld is refused as ambiguous and the client must declare it.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterable, Sequence, TypedDict

from .cards import CANONICAL, JOKER, RANK_CODES, SUITS, Card, CardError, parse_card, parse_rank, rank_code
from .clause_ids import (BUILD_RUN_EXTEND_AT_ENDS, BUILD_SET_TO_FOUR_CARDS, INITIAL_MELD_JAMAICAN_COMPLETE_CONTRACT_FIRST,
                         MELD_JAMAICAN_SEVERAL_3S_DISTINCT_RANKS, MELD_JAMAICAN_SEVERAL_4S_DISTINCT_SUITS,
                         REFEREE_RUN_COMPLETE_SUIT,
                         JOKER_DECLARE_NATURAL_PLUS_TWO_JOKERS, JOKER_DECLARE_RUN_END_JOKER,
                         JOKER_JAMAICAN_3_NEEDS_TWO_NATURALS, JOKER_JAMAICAN_NO_ADJACENT_JOKERS_IN_4,
                         JOKER_SET_JOKER_SUIT_UNDECLARED, JOKER_WILD_FOR_ANY_CARD, MELD_RUN_ACE_HIGH_ONLY,
                         MELD_RUN_ACE_HIGH_OR_LOW_NOT_BOTH, MELD_RUN_THREE_PLUS_SAME_SUIT,
                         MELD_SET_GRIFFIN_IDENTICAL_TRIPLE, MELD_SET_SCARNE_ALL_JOKER_SET,
                         MELD_SET_THREE_OR_FOUR_DISTINCT_SUITS)
from .variant import Variant
from .clause_ids import (BUILD_JOKER_USABLE_IN_BUILDS, CONTRACT_BABY_SCHEDULE, CONTRACT_JAMAICAN_SCHEDULE,
                         MELD_JAMAICAN_FULL_SUIT_FOR_THREE_4S, MELD_RUN_LONG_SEQUENCE_MAY_SPLIT,
                         VALUES_ACE11_PICTURES10_PIPS, VALUES_ACE_LOW_COUNTS_ONE_WHEN_LAID,
                         VALUES_JOKER_IN_MELD_TAKES_REPRESENTED_VALUE, VALUES_NORTH_AMERICAN_ACE15_JOKER25)
from .clauses import enforces

_DECL = re.compile(r"^JK\(=([^)]*)\)$")

ACE_CLAUSE = {"high": MELD_RUN_ACE_HIGH_ONLY, "low": MELD_RUN_ACE_HIGH_ONLY,
              "high_or_low": MELD_RUN_ACE_HIGH_OR_LOW_NOT_BOTH}


@dataclass(frozen=True)
class Token:
    """A card offered for a meld: a natural, or a joker with an optional declaration."""
    card: Card
    rank: int = 0      # declared rank of a joker (0: undeclared)
    suit: str = ""     # declared suit of a joker ("" : undeclared or a set joker)

    @property
    def declared(self) -> bool:
        return self.card.is_joker and self.rank != 0

    @functools.cached_property
    def code(self) -> str:  # computed once per token object (cached in the instance, not a field)
        """As written on the wire: ``QH``, ``JK``, ``JK(=9H)`` (a run joker) or ``JK(=9)`` (a set joker)."""
        if not self.declared:
            return self.card.code
        return f"JK(={rank_code(self.rank)}{self.suit})"


def parse_token(code: str) -> Token:
    """``QH``, ``JK``, ``JK(=9H)`` (a run joker) or ``JK(=9)`` (a set joker)."""
    known = _TOKEN_OF.get(code) if code.__class__ is str else None
    if known is not None:
        return known
    if not isinstance(code, str):  # pragma: no cover - openapi.yaml refuses a card code that is not a string
        raise CardError("a card code is a string")
    m = _DECL.match(code)
    if not m:
        return Token(parse_card(code))
    inner = m.group(1)
    if inner and inner[-1] in SUITS and len(inner) >= 2:
        card = parse_card(inner)
        return Token(JOKER, card.rank, card.suit)
    return Token(JOKER, parse_rank(inner), "")


# The token of each code as the wire writes it (every card, each run joker's and set joker's
# declaration), made once: a token is immutable and is shared by every meld read (measured on a
# table of twelve melds, 55 cards: its codes parsed one by one in 34 us, looked up in 3 us).
_TOKEN_OF: dict[str, Token] = {card.code: Token(card) for card in (Card(r, s) for r in RANK_CODES for s in SUITS)}
_TOKEN_OF[JOKER.code] = Token(JOKER)
for _rank in RANK_CODES:
    _TOKEN_OF[f"JK(={rank_code(_rank)})"] = Token(JOKER, _rank, "")
    for _suit in SUITS:
        _TOKEN_OF[f"JK(={rank_code(_rank)}{_suit})"] = Token(JOKER, _rank, _suit)
del _rank, _suit


@dataclass(frozen=True)
class Slot:
    card: Card
    rank: int   # rank stood for (run: 1..14, set: the set's rank)
    suit: str   # suit stood for; "" for a joker in a set

    @property
    def is_joker(self) -> bool:
        return self.card.is_joker

    @property
    def code(self) -> str:
        if not self.card.is_joker:
            return self.card.code
        if not self.rank:  # a joker of a set made only of jokers stands for no rank
            return "JK"
        return f"JK(={rank_code(self.rank)}{self.suit})"

    @property
    def stands_for(self) -> str:
        return rank_code(self.rank) + self.suit if self.rank else "JK"  # an all-joker set's joker: no card


# The slots a table meld read in one pass (``given_slots``) is made of, made once: a slot is
# immutable and is shared by every meld read (measured: building the 55 slots of a table of twelve
# melds took 17 us, its whole reading with them shared 29 us).  For each suit, indexed by rank
# (1..14, an ace low at 1), each natural's slot and a run joker's; a set joker's slot for each rank.
_NATURAL_SLOTS: dict[str, list[Slot]] = {
    suit: [Slot(JOKER, 0, suit)] + [Slot(Card(14 if rank == 1 else rank, suit), rank, suit) for rank in range(1, 15)]
    for suit in SUITS}   # (index 0 unused)
_RUN_JOKER_SLOTS: dict[str, list[Slot]] = {suit: [Slot(JOKER, rank, suit) for rank in range(0, 15)] for suit in SUITS}
_SET_JOKER_SLOTS = [Slot(JOKER, rank, "") for rank in range(0, 15)]


class MeldDict(TypedDict):
    """A meld on the wire: its kind and its cards' codes (jokers with their readings)."""
    kind: str
    cards: list[str]


@dataclass(frozen=True)
class Meld:
    kind: str                 # "set" or "run"
    slots: tuple[Slot, ...]

    @property
    def rank(self) -> int:
        """A set's rank (0 for a run)."""
        return self.slots[0].rank if self.kind == "set" else 0

    @property
    def suit(self) -> str:
        return self.slots[0].suit if self.kind == "run" else ""

    @property
    def codes(self) -> list[str]:
        return [s.code for s in self.slots]

    @property
    def cards(self) -> list[Card]:
        return [s.card for s in self.slots]

    @property
    def jokers(self) -> int:
        return sum(1 for s in self.slots if s.is_joker)

    @property
    def low(self) -> int:
        return self.slots[0].rank

    @property
    def high(self) -> int:
        return self.slots[-1].rank

    def to_dict(self) -> MeldDict:
        return {"kind": self.kind, "cards": self.codes}


@dataclass(frozen=True)
class Failure:
    clause: str
    message: str
    ambiguous: bool = False
    readings: tuple[MeldDict, ...] = ()


@enforces(VALUES_ACE11_PICTURES10_PIPS, VALUES_JOKER_IN_MELD_TAKES_REPRESENTED_VALUE,
          VALUES_NORTH_AMERICAN_ACE15_JOKER25, VALUES_ACE_LOW_COUNTS_ONE_WHEN_LAID)
def slot_value(slot: Slot, variant: Variant) -> int:
    rank = slot.rank
    if rank == 0:
        return variant.rules.values.joker_set_each
    if rank == 1:
        return variant.rules.values.low_ace_in_meld
    if rank == 14:
        return variant.rules.values.ace
    if rank >= 10:
        return variant.rules.values.picture
    return rank


def meld_value(meld: Meld, variant: Variant) -> int:
    return sum(slot_value(s, variant) for s in meld.slots)


def set_order(slot: Slot) -> tuple[int, int]:
    """The order of a set's slots: naturals in suit order (S H D C), then jokers."""
    return (1, 0) if slot.is_joker else (0, SUITS.index(slot.card.suit))


def run_lines(variant: Variant) -> list[tuple[int, int]]:
    """The rank ranges a run may occupy: (lowest, highest), ace 1 when low and 14 when high."""
    ace = variant.rules.melds.run.ace
    return {"high": [(2, 14)], "low": [(1, 13)], "high_or_low": [(2, 14), (1, 13)]}[ace]


def _map_rank(rank: int, line: tuple[int, int]) -> int:
    return 1 if rank == 14 and line[0] == 1 else rank


def _set_readings(tokens: Sequence[Token], variant: Variant) -> tuple[list[Meld], Failure | None]:
    rules = variant.rules.melds.set
    naturals = [t.card for t in tokens if not t.card.is_joker]
    jokers = [t for t in tokens if t.card.is_joker]
    clause = MELD_SET_THREE_OR_FOUR_DISTINCT_SUITS
    if not naturals:
        if rules.all_jokers and rules.min <= len(tokens) <= rules.max and not any(j.rank for j in jokers):
            return [Meld("set", tuple(Slot(JOKER, 0, "") for _ in jokers))], None
        if rules.all_jokers:
            return [], Failure(MELD_SET_SCARNE_ALL_JOKER_SET,
                               f"a set of jokers alone has {rules.min} to {rules.max} undeclared jokers")
        if rules.min_naturals > 1:  # (one natural is what fixes the rank: the wildcard rule's own)
            return [], Failure(JOKER_JAMAICAN_3_NEEDS_TWO_NATURALS,
                               f"a set holds at least {rules.min_naturals} natural cards, not 0")
        return [], Failure(JOKER_WILD_FOR_ANY_CARD, "a set needs at least one natural card to fix its rank")
    ranks = {c.rank for c in naturals}
    if len(ranks) > 1:
        return [], Failure(clause, "the natural cards of a set must all be of one rank")
    rank = naturals[0].rank
    if len(tokens) < rules.min or len(tokens) > rules.max:
        return [], Failure(clause, f"a set has {rules.min} to {rules.max} cards, not {len(tokens)}")
    if len(naturals) < rules.min_naturals:
        return [], Failure(JOKER_JAMAICAN_3_NEEDS_TWO_NATURALS,
                           f"a set holds at least {rules.min_naturals} natural cards, not {len(naturals)}")
    if rules.distinct_suits and len({c.suit for c in naturals}) < len(naturals):
        identical = len(set(naturals)) == 1 and len(tokens) == 3
        if not rules.identical_triples:
            return [], Failure(clause, "a set may not hold two cards of the same suit")
        if not identical:
            return [], Failure(MELD_SET_GRIFFIN_IDENTICAL_TRIPLE,
                               "a set repeats no suit unless it is three identical cards (jokers may stand in)")
    for j in jokers:
        if j.suit:
            return [], Failure(JOKER_SET_JOKER_SUIT_UNDECLARED,
                               f"a joker in a set stands for a rank, not a card: write JK(={rank_code(j.rank)})")
        if j.rank and j.rank != rank:
            return [], Failure(JOKER_WILD_FOR_ANY_CARD,
                               f"a joker declared as {rank_code(j.rank)} cannot stand in a set of {rank_code(rank)}")
    slots = [Slot(c, rank, c.suit) for c in naturals] + [Slot(JOKER, rank, "") for _ in jokers]
    return [Meld("set", tuple(sorted(slots, key=set_order)))], None


def is_identical(meld: "Meld") -> bool:
    """A set of identical cards (the three-deck game): its naturals repeat a suit."""
    suits = [s.card.suit for s in meld.slots if not s.is_joker]
    return meld.kind == "set" and len(set(suits)) < len(suits)


def _run_windows(naturals: list[Card], n: int, line: tuple[int, int]) -> list[int]:
    ranks = [_map_rank(c.rank, line) for c in naturals]
    lo, hi = line
    starts = []
    for start in range(lo, hi - n + 2):
        end = start + n - 1
        if all(start <= r <= end for r in ranks):
            starts.append(start)
    return starts


def _run_readings(tokens: Sequence[Token], variant: Variant) -> tuple[list[Meld], Failure | None]:
    rules = variant.rules.melds.run
    clause = MELD_RUN_THREE_PLUS_SAME_SUIT
    naturals = [t.card for t in tokens if not t.card.is_joker]
    jokers = [t for t in tokens if t.card.is_joker]
    n = len(tokens)
    if not naturals:
        if not rules.adjacent_jokers and n >= 2:  # jokers alone stand side by side: the rule they break first
            return [], Failure(JOKER_JAMAICAN_NO_ADJACENT_JOKERS_IN_4,
                               "two jokers may not stand side by side in a run, and jokers alone would")
        return [], Failure(JOKER_WILD_FOR_ANY_CARD, "a run needs at least one natural card to fix its suit")
    suits = {c.suit for c in naturals}
    if len(suits) > 1:
        return [], Failure(clause, "all the cards of a run must be of one suit")
    suit = naturals[0].suit
    if n < rules.min:
        return [], Failure(clause, f"a run has at least {rules.min} cards")
    if len({c.rank for c in naturals}) < len(naturals):
        return [], Failure(clause, "a run cannot hold the same card twice")
    for j in jokers:
        if j.rank and not j.suit:
            return [], Failure(JOKER_DECLARE_RUN_END_JOKER,
                               "a joker in a run stands for an exact card: declare it with its suit, e.g. JK(=9H)")
    readings, any_window = _read_run(naturals, jokers, suit, n, run_lines(variant))
    if readings and not rules.adjacent_jokers:
        apart = {k: m for k, m in readings.items() if not jokers_touch(m)}
        if not apart:
            return [], Failure(JOKER_JAMAICAN_NO_ADJACENT_JOKERS_IN_4,
                               "two jokers may not stand side by side in a run")
        readings = apart
    if readings:
        return list(readings.values()), None
    if not any_window:
        # Would the cards make a run if the ace stood elsewhere (low, high, or round the corner)?
        ace_clause = ACE_CLAUSE[rules.ace]
        if any(c.rank == 14 for c in naturals) or any(j.rank == 14 for j in jokers):
            for line in [(1, 13), (2, 14)]:
                if _run_windows(naturals, n, line):
                    return [], Failure(ace_clause, "the ace cannot stand at that end of a run in this variant")
            ranks = sorted(c.rank for c in naturals)
            wrapped = sorted(r if r > 7 else r + 13 for r in ranks)
            if wrapped[-1] - wrapped[0] < n:
                return [], Failure(ace_clause, "a run cannot turn the corner from king through ace to two")
        return [], Failure(clause, "the cards are not consecutive, even with the jokers filling gaps")
    # a joker declared as an ace where the variant lets no ace stand (JK(=AC)-2C-3C with aces high)
    elsewhere = [line for line in ((2, 14), (1, 13)) if line not in run_lines(variant)]
    if any(j.rank == 14 for j in jokers) and _read_run(naturals, jokers, suit, n, elsewhere)[0]:
        return [], Failure(ACE_CLAUSE[rules.ace], "the ace cannot stand at that end of a run in this variant")
    return [], Failure(JOKER_WILD_FOR_ANY_CARD, "a declared joker does not stand for a card this run needs")


def jokers_touch(meld: Meld) -> bool:
    """Whether two jokers stand side by side in the run ``meld``."""
    return any(a.is_joker and b.is_joker for a, b in zip(meld.slots, meld.slots[1:]))


def _read_run(naturals: list[Card], jokers: list[Token], suit: str, n: int,
              lines: list[tuple[int, int]]) -> tuple[dict[tuple[str, ...], Meld], bool]:
    """The readings of a run of ``n`` cards on the rank ranges ``lines``, and whether the naturals
    fit any window of ``n`` there at all."""
    readings: dict[tuple[str, ...], Meld] = {}
    any_window = False
    for line in lines:
        for start in _run_windows(naturals, n, line):
            any_window = True
            nat_ranks = {_map_rank(c.rank, line) for c in naturals}
            missing = [r for r in range(start, start + n) if r not in nat_ranks]
            declared = [j for j in jokers if j.declared]
            free = list(missing)
            ok = True
            for j in declared:
                r = _map_rank(j.rank, line)
                if j.suit != suit or r not in free:
                    ok = False
                    break
                free.remove(r)
            if not ok:
                continue
            slots = []
            for r in range(start, start + n):
                card = JOKER if r in missing else Card(14 if r == 1 else r, suit)
                slots.append(Slot(card, r, suit))
            meld = Meld("run", tuple(slots))
            readings[tuple(meld.codes)] = meld
    return readings, any_window


def given_slots(tokens: Sequence[Token], variant: Variant, kind: str) -> tuple[Slot, ...] | None:
    """The slots of the one reading of ``tokens`` as a meld of ``kind``, found in one pass over the
    cards where it is plain: a valid set (a set has one reading at most), or a valid run whose
    cards and declared jokers span exactly its length, its plain jokers filling the gaps (its ranks
    below the ace lie on each of the variant's rank ranges, so it reads the same on each; an ace
    fixes the one range it is read on).  None where ``readings`` must decide (an invalid meld,
    several readings, plain jokers that could stand at either end); where slots are returned,
    ``readings(tokens, variant, kind)`` finds ``Meld(kind, slots)`` alone and no failure."""
    if kind == "set":
        return _given_set(tokens, variant)
    return _given_run(tokens, variant) if kind == "run" else None


def _given_run(tokens: Sequence[Token], variant: Variant) -> tuple[Slot, ...] | None:
    """``given_slots`` of a run."""
    n = len(tokens)
    if n < variant.rules.melds.run.min:
        return None
    suit = ""
    naturals: dict[int, Card] = {}   # each natural by its rank (an ace 14)
    declared: list[Token] = []
    plain = 0
    for t in tokens:
        card = t.card
        if card.rank:
            if card.suit != suit:
                if suit:
                    return None   # (a natural of another suit)
                suit = card.suit
            naturals[card.rank] = card
        elif t.rank:
            declared.append(t)
        else:
            plain += 1
    if len(naturals) + len(declared) + plain < n or not naturals:
        return None   # (two naturals of one rank, or none)
    ranks = list(naturals)
    for t in declared:
        if t.suit != suit or t.rank in naturals or t.rank in ranks[len(naturals):]:
            return None   # (declared in another suit or for a set, or for a card the run holds already)
        ranks.append(t.rank)
    low, high = min(ranks), max(ranks)
    if high == 14:
        # an ace: high, the run spans low..14 (on the range 2..14); low, it spans 1..the highest other
        # rank (on the range 1..13); a span short of the run's length leaves plain jokers free to stand
        # at either end
        ace = variant.rules.melds.run.ace
        up = 15 - low if ace != "low" else 0
        ranks.sort()
        down = (ranks[-2] if len(ranks) > 1 else 1) if ace != "high" else 0
        if 0 < up < n or 0 < down < n or (up == n) == (down == n):
            return None   # plain jokers that could slide, no reading, or one with the ace low and one high
        if down == n:
            low = 1
    elif high - low + 1 != n:
        return None       # no reading, or plain jokers that could stand at either end
    jokers = _RUN_JOKER_SLOTS[suit]
    if plain:
        natural = _NATURAL_SLOTS[suit]
        slots = [jokers[r] if (14 if r == 1 else r) not in naturals else natural[r] for r in range(low, low + n)]
    else:
        slots = _NATURAL_SLOTS[suit][low:low + n]   # (then each declared joker in its place)
        for t in declared:
            r = 1 if t.rank == 14 and low == 1 else t.rank
            slots[r - low] = jokers[r]
    if not variant.rules.melds.run.adjacent_jokers and any(
            a.card is JOKER and b.card is JOKER for a, b in zip(slots, slots[1:])):
        return None
    return tuple(slots)


def _given_set(tokens: Sequence[Token], variant: Variant) -> tuple[Slot, ...] | None:
    """``given_slots`` of a set: its one reading where it holds a natural, its cards are valid and
    no suit repeats (None otherwise, for ``_set_readings`` to say why or to read a three-deck triple)."""
    rules = variant.rules.melds.set
    if not rules.min <= len(tokens) <= rules.max:
        return None
    rank = 0
    suits = ""
    naturals: list[Card] = []
    declared = 0   # a declared joker's rank (each must be the set's)
    for t in tokens:
        card = t.card
        if card.rank:
            if card.rank != rank:
                if rank:
                    return None   # (a natural of another rank)
                rank = card.rank
            if card.suit in suits:
                return None       # (a repeated suit)
            suits += card.suit
            naturals.append(card)
        elif t.suit:
            return None           # (a joker of a set stands for a rank, not a card)
        elif t.rank:
            if declared and t.rank != declared:
                return None
            declared = t.rank
    if not rank or (declared and declared != rank) or len(naturals) < rules.min_naturals:
        return None
    naturals.sort(key=CANONICAL)   # (cards of one rank: in suit order, as ``set_order`` puts them)
    slots = [_NATURAL_SLOTS[c.suit][rank] for c in naturals]
    slots += [_SET_JOKER_SLOTS[rank]] * (len(tokens) - len(naturals))
    return tuple(slots)


def readings(tokens: Sequence[Token], variant: Variant, kind: str | None = None) -> tuple[list[Meld], Failure | None]:
    """Every reading of ``tokens`` as a meld (of ``kind`` if given).  On none, the failure."""
    tokens = list(tokens)
    if kind == "set":
        return _set_readings(tokens, variant)
    if kind == "run":
        runs, run_fail = _run_readings(tokens, variant)
        if len(runs) > 1 and not any(t.card.is_joker for t in tokens):
            runs = [min(runs, key=lambda m: m.low)]  # a whole suit of naturals (see below)
        return runs, run_fail
    # An explicit joker declaration fixes the kind: JK(=9) is a set joker, JK(=9H) a run joker.
    if any(t.declared and t.suit for t in tokens):
        return _run_readings(tokens, variant)
    if any(t.declared and not t.suit for t in tokens):
        return _set_readings(tokens, variant)
    sets, set_fail = _set_readings(tokens, variant)
    runs, run_fail = _run_readings(tokens, variant)
    if len(runs) > 1 and not any(t.card.is_joker for t in tokens):
        # a whole suit of naturals, read with the ace low or high: the same cards, complete either
        # way (nothing can be added to it), read with the ace low
        runs = [min(runs, key=lambda m: m.low)]
    found = sets + runs
    if found:
        return found, None
    naturals = [t.card for t in tokens if not t.card.is_joker]
    same_rank = len(naturals) >= 1 and len({c.rank for c in naturals}) == 1
    if (same_rank or not naturals) and variant.rules.melds.set.min <= len(tokens) < variant.rules.melds.run.min:
        return [], set_fail  # too short for a run: cards of one rank (or jokers alone) are read as a set
    if not naturals and set_fail is not None and set_fail.clause != JOKER_WILD_FOR_ANY_CARD:
        return [], set_fail  # jokers alone, where the variant's own rule for a set's naturals refuses them
    same_suit = len({c.suit for c in naturals}) == 1
    if same_rank and not (same_suit and len(naturals) == 1):
        return [], set_fail
    if len(naturals) >= 2 and not same_suit and len({c.rank for c in naturals}) < len(naturals):
        return [], set_fail
    return [], run_fail


# Readings remembered while a block of ``remembered_readings`` runs (else none): a listing of legal
# actions puts the same pieces to the engine in hundreds of candidate openings.
_REMEMBERED: ContextVar[dict[tuple[tuple[Token, ...], str | None, int], tuple[Variant, Meld | Failure]] | None] = \
    ContextVar("kalooki_remembered_readings", default=None)


@contextmanager
def remembered_readings() -> Iterator[None]:
    """Within the block, ``read_meld`` reads each meld once (its answer depends only on the tokens,
    the kind asked for and the variant)."""
    token = _REMEMBERED.set({})
    try:
        yield
    finally:
        _REMEMBERED.reset(token)


# MELD_RUN_LONG_SEQUENCE_MAY_SPLIT: a run has no longest length, and a meld action lays any number of melds
@enforces(MELD_RUN_LONG_SEQUENCE_MAY_SPLIT)
def read_meld(tokens: Sequence[Token], variant: Variant, kind: str | None = None) -> Meld | Failure:
    """The one reading of a proposed meld, or why there is none (invalid or ambiguous)."""
    memo = _REMEMBERED.get()
    if memo is None:
        return _read_meld(tokens, variant, kind)
    key = (tuple(tokens), kind, id(variant))
    known = memo.get(key)
    if known is None or known[0] is not variant:
        known = memo[key] = (variant, _read_meld(tokens, variant, kind))
    return known[1]


def _read_meld(tokens: Sequence[Token], variant: Variant, kind: str | None) -> Meld | Failure:
    found, failure = readings(tokens, variant, kind)
    if failure is not None:
        return failure
    if (variant.rules.melds.run.joker_declaration == "always" and any(m.kind == "run" for m in found)
            and any(t.card.is_joker and not t.declared for t in tokens)):
        return Failure(JOKER_DECLARE_RUN_END_JOKER,
                       "every joker laid in a run must be declared as its card, e.g. JK(=9H)",
                       ambiguous=len(found) > 1, readings=tuple(m.to_dict() for m in found))
    if len(found) == 1:
        return found[0]
    kinds = {m.kind for m in found}
    shown = tuple(m.to_dict() for m in found)
    one_natural_two_jokers = len(tokens) == 3 and sum(1 for t in tokens if t.card.is_joker) == 2
    if len(kinds) > 1 or one_natural_two_jokers:
        # a natural with two jokers must be declared as a set or as a run with both jokers' cards
        return Failure(JOKER_DECLARE_NATURAL_PLUS_TWO_JOKERS,
                       "the cards can be read as a set or as a run: declare the kind (and, for a run, each joker's card)",
                       ambiguous=True, readings=shown)
    return Failure(JOKER_DECLARE_RUN_END_JOKER,
                   "the jokers can stand for different cards: declare each joker's card, e.g. JK(=9H)",
                   ambiguous=True, readings=shown)


@enforces(BUILD_JOKER_USABLE_IN_BUILDS)
def extend_run(meld: Meld, tokens: Sequence[Token], end: str, variant: Variant) -> Meld | Failure:
    """``meld`` with ``tokens`` added at its ``low`` or ``high`` end."""
    k = len(tokens)
    if len(meld.slots) >= 13:
        return Failure(REFEREE_RUN_COMPLETE_SUIT, "the run holds the whole suit: nothing more can be added to it")
    ace = variant.rules.melds.run.ace
    may_low = ace in ("low", "high_or_low") and meld.high != 14
    may_high = ace in ("high", "high_or_low") and meld.low != 1
    lo_bound = 1 if may_low else 2
    hi_bound = 14 if may_high else 13
    if end == "high":
        positions = list(range(meld.high + 1, meld.high + 1 + k))
    else:
        positions = list(range(meld.low - k, meld.low))
    if not positions or positions[0] < lo_bound or positions[-1] > hi_bound:
        if (end == "high" and meld.high + k > 13) or (end == "low" and meld.low - k < 2):
            return Failure(ACE_CLAUSE[ace], f"the run cannot be extended {k} card(s) past its {end} end in this variant")
        return Failure(BUILD_RUN_EXTEND_AT_ENDS, f"the run cannot be extended {k} card(s) at its {end} end")
    free = list(positions)
    placed: dict[int, Card] = {}
    for t in tokens:
        if t.card.is_joker:
            continue
        if t.card.suit != meld.suit:
            return Failure(BUILD_RUN_EXTEND_AT_ENDS, f"{t.card.code} is not of the run's suit")
        r = 1 if (t.card.rank == 14 and positions[0] <= 1) else t.card.rank
        if r not in free:
            return Failure(BUILD_RUN_EXTEND_AT_ENDS,
                           f"{t.card.code} is not the next card at the {end} end of the run")
        free.remove(r)
        placed[r] = t.card
    for t in tokens:
        if not t.declared:
            continue
        r = 1 if (t.rank == 14 and positions[0] <= 1) else t.rank
        if t.suit != meld.suit or r not in free:
            return Failure(JOKER_WILD_FOR_ANY_CARD, "a declared joker does not stand for the card this end needs")
        free.remove(r)
    slots = [Slot(placed.get(r, JOKER), r, meld.suit) for r in positions]
    new = Meld("run", tuple(slots + list(meld.slots) if end == "low" else list(meld.slots) + slots))
    if not variant.rules.melds.run.adjacent_jokers and jokers_touch(new):
        return Failure(JOKER_JAMAICAN_NO_ADJACENT_JOKERS_IN_4, "two jokers may not stand side by side in a run")
    return new


@enforces(BUILD_JOKER_USABLE_IN_BUILDS)
def extend_set(meld: Meld, tokens: Sequence[Token], variant: Variant) -> Meld | Failure:
    rules = variant.rules.melds.set
    clause = BUILD_SET_TO_FOUR_CARDS
    if len(meld.slots) + len(tokens) > rules.max:
        return Failure(clause, f"a set holds at most {rules.max} cards")
    slots = list(meld.slots)
    if meld.rank == 0 and any(not t.card.is_joker or t.rank for t in tokens):
        return Failure(MELD_SET_SCARNE_ALL_JOKER_SET, "a set made of jokers alone takes only more jokers")
    for t in tokens:
        if t.card.is_joker:
            if t.suit or (t.rank and t.rank != meld.rank):
                return Failure(JOKER_WILD_FOR_ANY_CARD, "a joker added to a set stands for the set's rank")
            slots.append(Slot(JOKER, meld.rank, ""))
            continue
        if t.card.rank != meld.rank:
            return Failure(clause, f"{t.card.code} is not of the set's rank")
        if is_identical(meld):
            return Failure(MELD_SET_GRIFFIN_IDENTICAL_TRIPLE, "a set of three identical cards is complete")
        if rules.distinct_suits and any(s.card.suit == t.card.suit for s in slots if not s.is_joker):
            return Failure(JOKER_SET_JOKER_SUIT_UNDECLARED if meld.jokers else clause,
                           f"the set already holds a {rank_code(meld.rank)} of that suit")
        slots.append(Slot(t.card, meld.rank, t.card.suit))
    return Meld("set", tuple(sorted(slots, key=set_order)))


@enforces(MELD_JAMAICAN_FULL_SUIT_FOR_THREE_4S)
def is_full_suit(meld: Meld) -> bool:
    """A run holding all thirteen ranks of its suit."""
    return meld.kind == "run" and len(meld.slots) == 13


# CONTRACT_JAMAICAN_SCHEDULE: each hand's contract is its row of the variant's contract table, read by the
#   first lay's check
# CONTRACT_BABY_SCHEDULE: each hand's contract is its row of the variant's contract table, read by the first
#   lay's check
@enforces(MELD_JAMAICAN_FULL_SUIT_FOR_THREE_4S, CONTRACT_JAMAICAN_SCHEDULE, CONTRACT_BABY_SCHEDULE)
def contract_failure(variant: Variant, hand_number: int, melds: Sequence[Meld]) -> Failure | None:
    """Why ``melds``, laid together as a player's first lay, are not the contract of hand
    ``hand_number`` (``rules.contract``): exactly the hand's sets and runs, each possibly longer than
    its minimum; where ``distinct``, the sets of different ranks and the runs of different suits; a
    whole suit standing for the runs where the contract asks for ``full_suit_for_runs`` of them.
    None when they are."""
    contract = variant.rules.contract
    if contract is None:  # pragma: no cover - both callers (engine._meld, engine._challenge) ask only under a contract
        return None
    wanted = contract.hand(hand_number)
    sets = [m for m in melds if m.kind == "set"]
    runs = [m for m in melds if m.kind == "run"]
    whole = (contract.full_suit_for_runs is not None and wanted.runs == contract.full_suit_for_runs
             and len(runs) == 1 and is_full_suit(runs[0]))
    if len(sets) != wanted.sets or (len(runs) != wanted.runs and not whole):
        def kinds(n_sets: int, n_runs: int) -> str:
            return ", ".join(["3"] * n_sets + ["4"] * n_runs) or "nothing"
        return Failure(INITIAL_MELD_JAMAICAN_COMPLETE_CONTRACT_FIRST,
                       f"the first lay of hand {hand_number} is its whole contract at once: "
                       f"{kinds(wanted.sets, wanted.runs)}; this lay holds {kinds(len(sets), len(runs))}")
    if contract.distinct:
        ranks = [m.rank for m in sets]
        if len(set(ranks)) < len(ranks):
            return Failure(MELD_JAMAICAN_SEVERAL_3S_DISTINCT_RANKS, "a player's 3s must be of different ranks")
        suits = [m.suit for m in runs]
        if len(set(suits)) < len(suits):
            return Failure(MELD_JAMAICAN_SEVERAL_4S_DISTINCT_SUITS, "a player's 4s must be of different suits")
    return None


def tokens_of(codes: Iterable[str]) -> list[Token]:
    """``parse_token`` of each code (looked up in one C call where every code is as the wire writes it)."""
    try:
        return list(map(_TOKEN_OF.__getitem__, codes))
    except (KeyError, TypeError):
        return [parse_token(c) for c in codes]
