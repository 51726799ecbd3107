"""Cards and packs.

A card is a small immutable value.  Naturals have a rank (2..14, the ace being 14) and a suit
(S, H, D, C); the joker has neither.  Card codes on the wire are rank then suit (``QH``, ``10C``,
``AS``) and ``JK`` for a joker.  A ten is accepted as ``10``, ``T`` or ``0`` and always emitted as
``10``.
"""
from __future__ import annotations

import functools
import operator
from collections import Counter
from typing import Any, Iterable

SUITS = ("S", "H", "D", "C")
RANK_CODES = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10", 9: "9", 8: "8", 7: "7", 6: "6",
              5: "5", 4: "4", 3: "3", 2: "2"}
_RANK_INPUT = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "T": 10, "0": 10,
               "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2}
JOKER_CODE = "JK"


class CardError(ValueError):
    """A card code that does not name a card."""


class Card:
    """A card: ``rank`` 2..14 for naturals (the ace 14), 0 for a joker; ``suit`` one of SUITS, ""
    for a joker.  Cards are interned: ``Card(7, "H")`` is always the same object, so a card is
    compared and hashed by identity (as fast as a small int) and carries its code and its place in
    the canonical order, computed once.  It defines no ordering method on purpose: any comparison
    method written in Python makes every ``==`` and ``in`` on cards call into the interpreter (a
    look for the unseen card in a 50-card stock took 14 us instead of 1); sort cards by ``CANONICAL``."""

    __slots__ = ("rank", "suit", "code", "order")
    rank: int
    suit: str
    code: str
    order: int   # position in the canonical order of a hand: jokers last, suits S H D C, rank high first (``CANONICAL``)
    _interned: dict[tuple[int, str], "Card"] = {}

    def __new__(cls, rank: int, suit: str) -> "Card":
        card = cls._interned.get((rank, suit))
        if card is None:
            if not (rank == 0 and suit == "") and not (2 <= rank <= 14 and suit in SUITS):  # pragma: no cover - only valid ranks and suits reach it
                raise CardError(f"no card of rank {rank!r} and suit {suit!r}")
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "code", JOKER_CODE if rank == 0 else RANK_CODES[rank] + suit)
            object.__setattr__(card, "order", 1000 if rank == 0 else 100 * SUITS.index(suit) + (14 - rank))
            cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:  # pragma: no cover - a guard for code, no request sets a card's field
        raise AttributeError("a card is immutable")

    def __reduce__(self) -> tuple[type["Card"], tuple[int, str]]:  # pragma: no cover - for pickle and copy, which no request uses
        return Card, (self.rank, self.suit)

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Card({self.rank!r}, {self.suit!r})"

    def __str__(self) -> str:  # pragma: no cover - debugging aid
        return self.code


JOKER = Card(0, "")


def _unseen() -> Card:
    """The one card nobody listed (see ``UNSEEN``): made without ``Card.__new__``, which accepts only
    the cards of a pack, and never interned, so no card code parses to it."""
    card = object.__new__(Card)
    for name, value in (("rank", -1), ("suit", ""), ("code", "?"), ("order", 2000)):
        object.__setattr__(card, name, value)
    return card


# A card of a hand or of the stock that the state does not list (docs/wire-format.md, "Unseen
# cards"): it stands for any card of the pack the listing leaves unaccounted for.  It is never
# written on the wire (a hand and the stock give the number of theirs instead), sorts after every
# card, is not a joker and is no natural a meld can hold: the search and the rules read only the
# seen cards (``seen``) and ask what the unseen ones could be where a rule depends on them.
UNSEEN = _unseen()


def seen(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` without the unseen ones (the same tuple when all are seen)."""
    return cards if UNSEEN not in cards else tuple([c for c in cards if c is not UNSEEN])
_CODES = {(rank, suit): code + suit for rank, code in RANK_CODES.items() for suit in SUITS}
_CODES[(0, "")] = JOKER_CODE
_PARSED = {code: Card(rank, suit) for (rank, suit), code in _CODES.items() if rank} | {JOKER_CODE: JOKER}
_PARSED.update({f"{t}{suit}": Card(10, suit) for t in ("T", "0") for suit in SUITS})


_CARD_OF = _PARSED.__getitem__

# Each card's code at its place in the canonical order (``Card.order``; None where no card lies): the
# table a hand's codes are sorted by when it is written (rules/wire/state.py, ``players_wire``).
CODE_AT_ORDER: list[str | None] = [None] * (JOKER.order + 1)
for _card in _PARSED.values():
    CODE_AT_ORDER[_card.order] = _card.code
del _card


def parse_rank(text: str) -> int:
    try:
        return _RANK_INPUT[text]
    except KeyError:  # pragma: no cover - openapi.yaml's patterns (Card, MeldCard, the declared jokers) admit only known ranks
        raise CardError(f"{text!r} is not a rank (A K Q J 10 9 8 7 6 5 4 3 2; T or 0 for ten)") from None


def parse_cards(codes: list[Any]) -> tuple[Card, ...]:
    """Parse a list of plain card codes (no joker declarations)."""
    try:
        if len(codes) > 1:
            # one C call looks every code up and builds the tuple (an itemgetter of two or more keys
            # returns a tuple): a stock of 53 codes reads in about half the time of a map
            return operator.itemgetter(*codes)(_PARSED)  # type: ignore[no-any-return]
        return tuple(map(_CARD_OF, codes))
    except (KeyError, TypeError):  # pragma: no cover - openapi.yaml's Card pattern admits only the codes of _PARSED
        return tuple([parse_card(c) for c in codes])  # (one by one: the code that is not a card is named)


def parse_card(code: str) -> Card:
    """Parse a plain card code (no joker declaration)."""
    if not isinstance(code, str):  # pragma: no cover - openapi.yaml's Card pattern: a string
        raise CardError("a card code is a string")
    known = _PARSED.get(code)  # (every card code, the joker's and the tens written T or 0 included)
    if known is None:  # pragma: no cover - openapi.yaml's Card pattern admits only the codes of _PARSED
        if len(code) < 2 or code[-1] not in SUITS:
            raise CardError(f"{code!r} is not a card code (rank then suit S/H/D/C, or JK)")
        known = Card(parse_rank(code[:-1]), code[-1])
    return known


def rank_code(rank: int) -> str:
    """Rank code of a rank number; 1 (a low ace) reads as A."""
    return RANK_CODES[14 if rank == 1 else rank]


CANONICAL = operator.attrgetter("order")   # the sort key of the canonical order
CODE = operator.attrgetter("code")         # a card's code (for ``map`` over many cards)


def canonical(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=CANONICAL))


def pack(decks: int, jokers: int) -> Counter[str]:
    """The multiset of card codes making up a pack of ``decks`` standard decks and ``jokers`` jokers
    (a fresh copy: the caller may change it)."""
    return Counter(_pack(decks, jokers))


@functools.lru_cache(maxsize=64)
def pack_counts(decks: int, jokers: int) -> dict[str, int]:  # pragma: no cover - read by benchmarks/wsgi.py only
    """The pack as a plain, shared (read-only) mapping of code to count, without absent cards."""
    return {code: n for code, n in _pack(decks, jokers).items() if n}


@functools.lru_cache(maxsize=64)
def pack_cards(decks: int, jokers: int) -> Counter[Card]:
    """The pack as a shared (read-only) multiset of cards, without absent cards."""
    return Counter({_PARSED[code]: n for code, n in _pack(decks, jokers).items() if n})


@functools.lru_cache(maxsize=64)
def _pack(decks: int, jokers: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    for suit in SUITS:
        for rank in range(14, 1, -1):
            counts[Card(rank, suit).code] = decks
    counts[JOKER_CODE] = jokers
    return counts


def pack_order(decks: int, jokers: int) -> list[Card]:
    """The pack in its documented starting order, before any shuffle: deck by deck, suits S H D C,
    ranks A K Q J 10 .. 2 within a suit, then the jokers."""
    cards = [Card(rank, suit) for _ in range(decks) for suit in SUITS for rank in range(14, 1, -1)]
    cards.extend([JOKER] * jokers)
    return cards
