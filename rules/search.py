"""The one meld and opening search, for the engine and for the listing of legal actions.

The engine asks it yes/no questions: whether a player who has not opened can lay a qualifying
opening (with a discard they want to take), and whether a taken discard or a released joker can be
placed at once.  The listing (``rules.legal``) asks it for candidate actions.  Both get typed values
(``rules.actions``): the search never builds wire dicts.

What an opening can be made of are *pieces*: the hand's canonical single melds (a set's naturals in
suit order and its jokers as ``JK(=R)``; a run as a window of ranks with jokers declared as the exact
cards they fill), each once, and, where the opening counts lay-offs (``opening.counts_builds``), the
lay-offs the hand can make onto the melds on the table.  An opening is a combination of disjoint
pieces, taken in the pieces' order (a combination, never an ordering), worth the minimum, leaving a
card to discard, with at least one new meld; a combination is not extended once it reaches the
minimum (further melds can be laid by separate actions once open).

The search is bounded.  One search call (one question, or one listing: one request) has one
``Budget`` of nodes, shared by all its parts: each piece looked at in a search costs a node, and
making pieces (or making them ready for a search) costs ``PIECE_COST`` nodes a piece, so that the
budget bounds the time, whatever the hand.  A branch is abandoned as soon as the cards it has left
cannot make up the minimum even at their best value, which loses no opening and costs nothing.  A
search cut by its budget says so (``cut``): the listing answers ``truncated``, and a yes/no question
answers yes only for an opening actually found (a cut search never guesses that an opening exists;
see ``opening_possible``).
"""
from __future__ import annotations

import functools
from collections import Counter
from itertools import combinations
from typing import Mapping, NamedTuple, Sequence

from .actions import Action, Allow, Announce, Build, Call, Discard, Draw, MeldAction, MeldSpec, Pass, SwapJoker
from .cards import JOKER, JOKER_CODE, RANK_CODES, SUITS, Card, parse_card, rank_code, seen
from .melds import Meld, Token, extend_run, extend_set, parse_token, run_lines
from .state import Phase, State, TableMeld
from .variant import Variant
from .clause_ids import CONTRACT_BABY_SCHEDULE, CONTRACT_JAMAICAN_SCHEDULE
from .clauses import enforces

NODE_BUDGET = 20000   # nodes one search call may explore, all its parts together
OPENING_LIMIT = 400   # openings a listing takes at most
COMPLETIONS = 20      # openings completing one piece that holds a taken discard
PIECE_COST = 4        # nodes it costs to make a piece, or make it ready for a walk (about the same time)


class Budget:
    """The nodes a search call may still explore, shared by all its parts; ``exhausted`` once spent."""

    __slots__ = ("left",)

    def __init__(self, nodes: int = NODE_BUDGET) -> None:
        self.left = nodes

    @property
    def exhausted(self) -> bool:
        return self.left <= 0


class Piece(NamedTuple):
    """Part of an opening: a new meld (``what`` is its kind, ``set`` or ``run``) or a lay-off onto a
    meld on the table (``what`` is ``("build", meld id, end)``, the end ``""`` for a set); ``codes``
    are its cards as written on the wire, ``value`` what it counts towards the opening."""
    what: str | tuple[str, str, str]
    codes: tuple[str, ...]
    value: int

    @property
    def is_meld(self) -> bool:
        return not isinstance(self.what, tuple)

    @property
    def kind(self) -> str | None:
        """A new meld's kind (``set`` or ``run``); ``None`` for a lay-off."""
        return None if isinstance(self.what, tuple) else self.what

    @property
    def tokens(self) -> tuple[Token, ...]:
        return tuple(_token(c) for c in self.codes)


class Found(NamedTuple):
    """Openings found (each a list of pieces) and whether the search was cut (by its budget or by
    the number of openings asked for)."""
    openings: list[list[Piece]]
    cut: bool


@functools.lru_cache(maxsize=1024)
def _token(code: str) -> Token:
    return parse_token(code)


def _code(rank: int, suit: str) -> str:
    return rank_code(rank) + suit


_CODE = {(r, s): _code(r, s) for r in range(1, 15) for s in SUITS}            # a low ace (1) reads as A
_RUN_JOKER = {(r, s): f"JK(={_code(r, s)})" for r in range(1, 15) for s in SUITS}
_SET_JOKER = {r: f"JK(={rank_code(r)})" for r in range(1, 15)}


def _rank_value(rank: int, variant: Variant) -> int:
    if rank == 1:
        return variant.rules.values.low_ace_in_meld
    if rank == 14:
        return variant.rules.values.ace
    return variant.rules.values.picture if rank >= 10 else rank


def _card_of(code: str) -> str:
    """The card a piece's code takes from the hand: the joker for any joker."""
    return JOKER_CODE if code.startswith(JOKER_CODE) else code


def _needs(codes: Sequence[str]) -> Counter[str]:
    return Counter(_card_of(c) for c in codes)


_Need = tuple[tuple[int, int], ...]   # the cards a piece takes from the hand: (card number, how many)
_Naturals = frozenset[tuple[int, str]]  # the natural cards held, as (rank, suit)
_Group = tuple[str, str, str]          # a lay-off's group, its ``what``: ("build", meld id, end)

# every card by a number (the naturals, then the joker): a hand is a list of counts
_CARDS = tuple(_CODE[r, s] for r in range(2, 15) for s in SUITS) + (JOKER_CODE,)
_INDEX = {code: i for i, code in enumerate(_CARDS)}
_PLACE = tuple((parse_card(code).rank, parse_card(code).suit) for code in _CARDS[:-1])  # (rank, suit)


@functools.lru_cache(maxsize=16384)
def _need(codes: tuple[str, ...]) -> _Need:
    """The cards a piece takes from the hand: (card number, how many)."""
    return tuple((_INDEX[c], n) for c, n in _needs(codes).items())


def _counts(cards: Sequence[Card]) -> list[int]:
    left = [0] * len(_CARDS)
    for c in cards:
        left[_INDEX[c.code]] += 1
    return left


def _potential(variant: Variant) -> list[int]:
    """The most each card (by number) can count in any piece: its rank's value (an ace as high or
    low), a joker the most any place is worth.  The cards left in a branch can never count for more."""
    values = variant.rules.values
    best = []
    for code in _CARDS[:-1]:
        rank = parse_card(code).rank
        best.append(max(values.ace, values.low_ace_in_meld) if rank == 14 else _rank_value(rank, variant))
    best.append(max([_rank_value(r, variant) for r in range(1, 15)] + [values.joker_set_each]))
    return best


# -- pieces -------------------------------------------------------------------------------------

def single_melds(hand: Sequence[Card], variant: Variant) -> list[Piece]:
    """Every canonical single meld the hand can make, in canonical order."""
    jokers = sum(1 for c in hand if c.is_joker)
    naturals = frozenset((c.rank, c.suit) for c in hand if not c.is_joker)
    pieces = _single_melds(naturals, jokers, variant)
    melds = variant.rules.melds
    if melds.set.distinct_suits and melds.set.identical_triples:
        pieces = pieces + _identical_triples(hand, jokers, variant)
    if melds.set.distinct_suits and melds.set.min_naturals == 1 and melds.run.adjacent_jokers:
        return sorted(pieces, key=_canonical) if melds.set.identical_triples else pieces
    # sets that may repeat a card, sets needing more than one natural, runs whose jokers may not touch
    kept = [p for p in pieces if p.what == "run" and (melds.run.adjacent_jokers or not _jokers_touch(p.codes))]
    if melds.set.distinct_suits:
        kept += [p for p in pieces if p.what == "set"
                 and sum(1 for c in p.codes if not c.startswith(JOKER_CODE)) >= melds.set.min_naturals]
    else:
        kept += _sets_repeating_cards(hand, jokers, variant)
    return sorted(kept, key=_canonical)


def _canonical(piece: Piece) -> tuple[str, ...]:
    return (str(piece.what),) + piece.codes


def _identical_triples(hand: Sequence[Card], jokers: int, variant: Variant) -> list[Piece]:
    """Where sets may be three identical cards (``identical_triples``, the three-deck game): each
    natural held at least twice, three times over or twice with a joker standing in for the third."""
    rules = variant.rules.melds.set
    if not rules.min <= 3 <= rules.max:
        return []
    held = Counter(c.code for c in hand if not c.is_joker)
    out: list[Piece] = []
    for code, n in sorted(held.items()):
        card = parse_card(code)
        worth = _rank_value(card.rank, variant) * 3
        if n >= 3 and rules.min_naturals <= 3:
            out.append(Piece("set", (code,) * 3, worth))
        if n >= 2 and jokers and rules.min_naturals <= 2:
            out.append(Piece("set", (code, code, _SET_JOKER[card.rank]), worth))
    return out


def _jokers_touch(codes: Sequence[str]) -> bool:
    return any(a.startswith(JOKER_CODE) and b.startswith(JOKER_CODE) for a, b in zip(codes, codes[1:]))


def _sets_repeating_cards(hand: Sequence[Card], jokers: int, variant: Variant) -> list[Piece]:
    """Every set the hand can make where a set may hold the same card twice: each choice of the
    naturals of one rank (how many of each suit), with jokers standing for that rank."""
    rules = variant.rules.melds.set
    by_rank: dict[int, Counter[str]] = {}
    for c in hand:
        if not c.is_joker:
            by_rank.setdefault(c.rank, Counter())[c.suit] += 1
    out: list[Piece] = []
    for rank, held in sorted(by_rank.items()):
        worth = _rank_value(rank, variant)
        choices: list[list[str]] = [[]]
        for suit in SUITS:
            choices = [chosen + [_CODE[rank, suit]] * n for chosen in choices for n in range(held[suit] + 1)]
        for chosen in choices:
            m = len(chosen)
            if m < rules.min_naturals:
                continue
            for k in range(0, min(jokers, rules.max - m) + 1):
                if rules.min <= m + k <= rules.max:
                    codes = tuple(chosen) + (_SET_JOKER[rank],) * k
                    out.append(Piece("set", codes, worth * (m + k)))
    return out


def _single_melds(naturals: _Naturals, jokers: int, variant: Variant) -> list[Piece]:
    worth = {r: _rank_value(r, variant) for r in range(1, 15)}
    found: dict[tuple[str, ...], Piece] = {}
    set_rules = variant.rules.melds.set
    by_rank: dict[int, list[str]] = {}
    for rank, suit in sorted(naturals, key=lambda x: (x[0], SUITS.index(x[1]))):
        by_rank.setdefault(rank, []).append(suit)
    for rank, suits in by_rank.items():
        for k in range(0, min(jokers, set_rules.max - 1) + 1):
            for m in range(1, len(suits) + 1):
                if not set_rules.min <= m + k <= set_rules.max:
                    continue
                for subset in combinations(suits, m):
                    codes = tuple(_CODE[rank, s] for s in subset) + (_SET_JOKER[rank],) * k
                    found[("set",) + codes] = Piece("set", codes, worth[rank] * (m + k))
    if set_rules.all_jokers:
        for k in range(set_rules.min, min(jokers, set_rules.max) + 1):
            found[("set",) + (JOKER_CODE,) * k] = Piece("set", (JOKER_CODE,) * k, variant.rules.values.joker_set_each * k)
    run_min = variant.rules.melds.run.min
    for suit in SUITS:
        # rank by rank (a low ace is 1): the card held there, or the joker declared as it
        place = {r: ((_CODE[r, suit], 1) if (14 if r == 1 else r, suit) in naturals else (_RUN_JOKER[r, suit], 0))
                 for r in range(1, 15)}
        for lo, hi in run_lines(variant):
            for start in range(lo, hi + 1):
                cards: list[str] = []
                missing = present = value = 0
                for r in range(start, hi + 1):
                    code, held = place[r]
                    cards.append(code)
                    present += held
                    missing += 1 - held
                    value += worth[r]
                    if missing > jokers:
                        break
                    if present and r - start + 1 >= run_min:
                        found[("run",) + tuple(cards)] = Piece("run", tuple(cards), value)
    return [found[k] for k in sorted(found)]


def _left_singles(singles: Sequence[Piece], needs: Sequence[_Need], left: list[int]) -> tuple[list[Piece], list[_Need]]:
    """The single melds of what the hand has ``left`` (counts by card number), and the cards each
    takes, from the single melds of the whole hand (``singles``, taking ``needs``): the same as
    ``single_melds`` of what is left, found faster.  A set is kept if its cards are all left; a run
    keeps its window, with a joker for each card no longer held, if it still holds a natural and the
    jokers left suffice."""
    jokers = left[-1]
    runs: list[tuple[Piece, _Need]] = []
    sets: list[tuple[Piece, _Need]] = []
    changed = False
    for piece, need in zip(singles, needs):
        for c, n in need:
            if left[c] < n:
                break
        else:
            (sets if piece.what == "set" else runs).append((piece, need))
            continue
        if piece.what == "set":
            continue
        codes = list(piece.codes)
        missing = present = 0
        for j, code in enumerate(codes):
            if code.startswith(JOKER_CODE):
                missing += 1
            elif left[_INDEX[code]]:
                present += 1
            else:
                codes[j] = f"JK(={code})"
                missing += 1
        if present and missing <= jokers:
            runs.append((Piece("run", tuple(codes), piece.value), _need(tuple(codes))))
            changed = True
    if changed:
        runs.sort(key=_codes_of)
    kept = runs + sets
    return [p for p, _ in kept], [n for _, n in kept]


def _codes_of(item: tuple[Piece, _Need]) -> tuple[str, ...]:
    return item[0].codes


def layoff_pieces(table: Sequence[TableMeld], hand: Sequence[Card], variant: Variant) -> list[Piece]:
    """Where the opening counts lay-offs (``opening.counts_builds``): the cards of the hand that can
    be laid off on each meld on the table; one piece at most is taken per meld and end.  Runs take
    chains of up to three cards (within the variant's limit per end), sets up to their free places."""
    naturals = frozenset((c.rank, c.suit) for c in hand if not c.is_joker)
    return _layoffs(table, naturals, sum(1 for c in hand if c.is_joker), variant)


def _layoffs(table: Sequence[TableMeld], naturals: _Naturals, jokers: int, variant: Variant) -> list[Piece]:
    if not variant.rules.opening.counts_builds:
        return []
    worth = {r: _rank_value(r, variant) for r in range(1, 15)}
    per_end = min(3, variant.rules.building.max_per_run_end_per_turn or 3)
    out: list[Piece] = []
    for tm in table:
        m = tm.meld
        if m.kind == "set":
            room = variant.rules.melds.set.max - len(m.slots)
            if m.rank == 0 or room < 1:
                continue
            present = {sl.suit for sl in m.slots if not sl.is_joker}
            pool = [_code(m.rank, s) for s in SUITS if s not in present and (m.rank, s) in naturals]
            pool += [f"JK(={rank_code(m.rank)})"] * min(jokers, room)
            for k in range(1, room + 1):
                for combo in sorted(set(combinations(pool, k))):
                    if isinstance(extend_set(m, [_token(c) for c in combo], variant), Meld):
                        out.append(Piece(("build", tm.id, ""), combo, worth[m.rank] * k))
            continue
        for end, step in (("low", -1), ("high", 1)):
            chain: list[str] = []
            value, used = 0, 0
            r = m.low - 1 if end == "low" else m.high + 1
            for _ in range(per_end):
                if not 1 <= r <= 14:
                    break
                real = 14 if r == 1 else r
                if (real, m.suit) in naturals:
                    chain.append(_code(real, m.suit))
                elif used < jokers:
                    chain.append(f"JK(={_code(real, m.suit)})")
                    used += 1
                else:
                    break
                value += worth[r]
                cards = tuple(reversed(chain)) if end == "low" else tuple(chain)
                if not isinstance(extend_run(m, [_token(c) for c in cards], end, variant), Meld):
                    break
                out.append(Piece(("build", tm.id, end), cards, value))
                r += step
    return out


# -- openings -----------------------------------------------------------------------------------

# a prepared piece: (size, lay-off group, cards taken, value, taken from cards later pieces use, expiring cards)
_Row = tuple[int, _Group | None, _Need, int, int, list[int]]


class _Prepared(NamedTuple):
    """Pieces made ready for ``_combinations``: per piece (size, lay-off group, cards taken, value,
    what it takes from cards later pieces still use, cards no later piece uses), and the cards any
    piece uses."""
    pieces: Sequence[Piece]
    rows: list[_Row]
    cards: tuple[int, ...]


def _prepare(pieces: Sequence[Piece], worth: list[int], budget: Budget, needs: Sequence[_Need] | None = None) -> _Prepared:
    """Make ``pieces`` (taking ``needs``) ready for a walk, at ``PIECE_COST`` nodes of ``budget`` a piece."""
    budget.left -= PIECE_COST * len(pieces)
    needs = needs if needs is not None else [_need(p.codes) for p in pieces]
    last = [-1] * len(_CARDS)  # the last piece that uses each card: after it, the card is dead weight
    for i, need in enumerate(needs):
        for c, _ in need:
            last[c] = i
    expiring: list[list[int]] = [[] for _ in pieces]
    for c, i in enumerate(last):
        if i >= 0:
            expiring[i].append(c)
    rows: list[_Row] = []
    for i, (p, need) in enumerate(zip(pieces, needs)):
        later = 0
        for c, n in need:
            if last[c] > i:
                later += worth[c] * n
        rows.append((len(p.codes), p.what if isinstance(p.what, tuple) else None, need, p.value, later,
                     expiring[i]))
    return _Prepared(pieces, rows, tuple(c for c, i in enumerate(last) if i >= 0))


def _combinations(prepared: _Prepared, left: list[int], minimum: int, worth: list[int], limit: int,
                  budget: Budget, have_meld: bool = False, groups: frozenset[_Group] = frozenset(),
                  keep: int = 1) -> Found:
    """Combinations of the ``prepared`` pieces (in their order) worth ``minimum``, with the cards
    ``left`` (counts by card number), leaving ``keep`` cards (one to discard), with at least one new meld
    (``have_meld``: one is already chosen) and one lay-off at most per meld and end (``groups``: the
    ones already taken).

    Each piece looked at costs a node of ``budget``.  A branch is not entered, and a loop over the
    pieces stops, when the cards still held that the pieces to come can use cannot make up the
    minimum even at their best value (``worth``, by card number): that never loses an opening."""
    pieces, rows, cards = prepared
    left = list(left)
    out: list[list[Piece]] = []
    chosen: list[int] = []
    count = len(pieces)
    nodes = budget.left
    spare = None  # the nodes left when ``limit`` openings were found (the search then stops)
    cut = False   # a piece was still to be looked at when the budget or the limit stopped the search

    def walk(start: int, held: int, total: int, used: frozenset[_Group], meld_in: bool, alive: int) -> None:
        # ``alive``: the most the cards still held that pieces from ``start`` on use can add to ``total``
        nonlocal nodes, spare, cut
        for i in range(start, count):
            if nodes <= 0:
                cut = True
                return
            if total + alive < minimum:
                return  # the pieces to come cannot make up the minimum
            nodes -= 1
            size, g, need, value, reach, expire = rows[i]
            dead = 0
            if expire:
                for c in expire:
                    dead += worth[c] * left[c]
            if held - size >= keep and (g is None or g not in used):  # a card must be left to discard;
                for c, n in need:                                 # one lay-off per meld and end
                    if left[c] < n:
                        break
                else:
                    value += total
                    with_meld = meld_in or g is None
                    if value >= minimum and with_meld:
                        out.append([pieces[j] for j in chosen] + [pieces[i]])
                        if len(out) >= limit:
                            spare, nodes = nodes, 0
                    elif value + alive - dead - reach >= minimum:
                        for c, n in need:
                            left[c] -= n
                        chosen.append(i)
                        walk(i + 1, held - size, value, used | {g} if g is not None else used, with_meld,
                             alive - dead - reach)
                        chosen.pop()
                        for c, n in need:
                            left[c] += n
            alive -= dead

    walk(0, sum(left), 0, groups, have_meld, sum(worth[c] * left[c] for c in cards))
    budget.left = spare if spare is not None else nodes
    return Found(out, cut)


def openings(variant: Variant, hand: Sequence[Card], table: Sequence[TableMeld] = (), must_use: Card | None = None,
             limit: int = OPENING_LIMIT, budget: Budget | None = None, jokers_only: bool = False,
             keep: int = 1) -> Found:
    """Qualifying openings from ``hand`` (and lay-offs onto ``table`` where they count), at most
    ``limit``, all drawing on one ``budget``; ``jokers_only``: the new melds each hold a joker (a
    released joker waits to be placed).

    With ``must_use`` (a taken discard that must be part of the opening): each piece holding it,
    completed by up to ``COMPLETIONS`` openings of what the hand has left (from the pieces of what
    is left), piece after piece in their order."""
    budget = budget if budget is not None else Budget()
    minimum = variant.rules.opening.minimum or 0
    worth = _potential(variant)
    counts = _counts(hand)
    singles = single_melds(hand, variant)
    melds = [p for p in singles if any(c.startswith(JOKER_CODE) for c in p.codes)] if jokers_only else singles
    pieces = melds + layoff_pieces(table, hand, variant)
    if must_use is None:
        return _combinations(_prepare(pieces, worth, budget), counts, minimum, worth, limit, budget, keep=keep)
    single_needs = [_need(p.codes) for p in singles]
    reach = sum(w * n for w, n in zip(worth, counts))
    taken = _INDEX[must_use.code]
    held = len(hand)
    out: list[list[Piece]] = []
    cut = False
    left_pieces: dict[tuple[int, ...], _Prepared] = {}  # the pieces of what is left depend only on these
    for piece in pieces:
        need = _need(piece.codes)
        if (all(c != taken for c, _ in need) or any(counts[c] < n for c, n in need)
                or held - len(piece.codes) < keep):
            continue
        if piece.value >= minimum and piece.is_meld:
            out.append([piece])
        elif budget.exhausted:
            cut = True  # the completions would be cut before the first node
        elif piece.value + reach - sum(worth[c] * n for c, n in need) >= minimum:
            left = list(counts)
            for c, n in need:
                left[c] -= n
            key = tuple(n > 0 for n in left[:-1]) + (left[-1],)
            if key not in left_pieces:
                naturals = frozenset(_PLACE[c] for c, n in enumerate(left[:-1]) if n)
                budget.left -= PIECE_COST * len(singles)
                kept, kept_needs = _left_singles(singles, single_needs, left)
                layoffs = _layoffs(table, naturals, left[-1], variant)
                left_pieces[key] = _prepare(kept + layoffs, worth, budget, kept_needs + [_need(p.codes) for p in layoffs])
            groups: frozenset[_Group] = frozenset({piece.what}) if isinstance(piece.what, tuple) else frozenset()
            more = _combinations(left_pieces[key], left, max(0, minimum - piece.value), worth, COMPLETIONS,
                                 budget, piece.is_meld, groups, keep)
            cut = cut or more.cut
            # the completions in the order of their text (as the referee has always listed them),
            # so that a list cut at ``limit`` keeps the same openings
            out.extend(sorted(([piece] + combo for combo in more.openings), key=repr))
        if len(out) >= limit:
            return Found(out[:limit], True)
    return Found(out, cut)


@enforces(CONTRACT_JAMAICAN_SCHEDULE, CONTRACT_BABY_SCHEDULE)
def contract_openings(variant: Variant, hand: Sequence[Card], hand_number: int, limit: int = OPENING_LIMIT,
                      budget: Budget | None = None) -> Found:
    """The first lays that are hand ``hand_number``'s contract (``rules.contract``), at most ``limit``:
    exactly its sets (of different ranks, where ``distinct``) and runs (of different suits), or, where
    the contract asks for ``full_suit_for_runs`` runs, a whole suit in their place; each leaving a
    card to discard that is not a joker (the engine's ``contract_failure`` decides the same)."""
    contract = variant.rules.contract
    budget = budget if budget is not None else Budget()
    if contract is None:
        return Found([], False)
    wanted = contract.hand(hand_number)
    pieces = single_melds(hand, variant)
    budget.left -= PIECE_COST * len(pieces)
    runs = [p for p in pieces if p.what == "run"]
    sets = [p for p in pieces if p.what == "set"]
    shapes = [(wanted.sets, wanted.runs, runs)]
    if contract.full_suit_for_runs is not None and wanted.runs == contract.full_suit_for_runs:
        shapes.append((wanted.sets, 1, [p for p in runs if len(p.codes) == 13]))
    walk = _ContractWalk(contract.distinct, Counter(c.code for c in hand), limit, budget)
    for n_sets, n_runs, run_pool in shapes:
        walk.walk(run_pool, 0, n_runs, [(sets, n_sets)], [], set())
    return Found(walk.out[:limit], walk.cut)


def _distinct_key(piece: Piece) -> str | int:
    """A run's suit, a set's rank (what a contract's ``distinct`` keeps apart)."""
    token = _token(piece.codes[0])
    if piece.what == "run":
        return token.suit if token.card.is_joker else token.card.suit
    return token.rank if token.card.is_joker else token.card.rank


class _ContractWalk:
    """The depth-first choice of a contract's melds among the pieces a hand can make: ``left`` is
    the hand's cards not yet used, ``out`` the lays found (each leaving a card to discard that is not
    a joker), ``cut`` whether the limit or the budget stopped the search."""

    def __init__(self, distinct: bool, left: Counter[str], limit: int, budget: Budget) -> None:
        self.distinct, self.left, self.limit, self.budget = distinct, left, limit, budget
        self.out: list[list[Piece]] = []
        self.cut = False

    def walk(self, pool: list[Piece], start: int, need: int, then: list[tuple[list[Piece], int]],
             chosen: list[Piece], used: set[str | int]) -> None:
        if len(self.out) >= self.limit:
            self.cut = True
            return
        if need == 0:
            self._complete(then, chosen)
            return
        left = self.left
        for i in range(start, len(pool)):
            if self.budget.exhausted:
                self.cut = True
                return
            self.budget.left -= 1
            piece = pool[i]
            k = _distinct_key(piece)
            if self.distinct and k in used:
                continue
            need_cards = _needs(piece.codes)
            if any(left[c] < n for c, n in need_cards.items()):
                continue
            for c, n in need_cards.items():
                left[c] -= n
            chosen.append(piece)
            self.walk(pool, i + 1, need - 1, then, chosen, used | {k})
            chosen.pop()
            for c, n in need_cards.items():
                left[c] += n

    def _complete(self, then: list[tuple[list[Piece], int]], chosen: list[Piece]) -> None:
        """One kind of meld chosen: go on to the next kind, or keep the lay if a card other than a
        joker is left to discard."""
        if then:
            (next_pool, next_need), rest = then[0], then[1:]
            self.walk(next_pool, 0, next_need, rest, chosen, set())
            return
        if any(c != JOKER_CODE for c, n in self.left.items() if n > 0):
            self.out.append(list(chosen))


def opening_possible(variant: Variant, hand: Sequence[Card], must_include: Card | None = None,
                     table: Sequence[TableMeld] = (), keep: int = 1) -> bool:
    """Whether some combination of new melds from ``hand`` (and lay-offs onto ``table``, where they
    count) reaches the opening minimum and leaves a card to discard; with ``must_include``, one that
    uses that card.  ``keep``: the cards it must leave in hand (0: whether laying every card would open,
    the question a refusal asks to name its cause).

    Only an opening found counts: when the search is cut by its budget before finding one, the
    answer is no (the player is refused the discard and draws from the stock instead), never a
    guess.  The budget is large enough for every hand of real play; only contrived hands reach it."""
    return bool(openings(variant, hand, table, must_include, limit=1, keep=keep).openings)


def opening_action(combo: Sequence[Piece]) -> MeldAction:
    """The ``meld`` action laying an opening: its new melds, and its lay-offs as ``builds``."""
    melds: list[MeldSpec] = []
    builds: list[Build] = []
    for piece in combo:
        part = _part(piece)
        if isinstance(part, MeldSpec):
            melds.append(part)
        else:
            builds.append(part)
    return MeldAction(tuple(melds), None, tuple(builds))


@functools.lru_cache(maxsize=4096)
def _part(piece: Piece) -> MeldSpec | Build:
    """What laying ``piece`` is in a ``meld`` action: a new meld, or a lay-off as a build (made once
    per piece: a listing puts the same piece in hundreds of openings; both are immutable values)."""
    if isinstance(piece.what, tuple):
        return Build(piece.what[1], piece.tokens, piece.what[2] or None)
    return MeldSpec(piece.tokens, piece.what)


# -- placing one card at once -------------------------------------------------------------------

def can_place(variant: Variant, state: State, card: Card, hand: Sequence[Card], onto_table: bool,
              size: int | None = None) -> bool:
    """Whether ``card`` (one of ``hand``) can go at once into a new meld made with the hand, leaving
    the cards the player must keep, or, with ``onto_table``, onto a meld on the table.  ``size``: how
    many cards the hand holds in all, where ``hand`` is only its seen cards."""
    keep = 2 if state.current.barred else 1  # a barred player may not go out this turn
    size = len(hand) if size is None else size
    counts = Counter(c.code for c in hand)
    for piece in single_melds(hand, variant):
        need = _needs(piece.codes)
        if card.code in need and all(counts[c] >= n for c, n in need.items()) and size - len(piece.codes) >= keep:
            return True
    if onto_table and size - 1 >= keep:
        token = Token(card)
        for tm in state.melds:
            if tm.meld.kind == "set":
                if isinstance(extend_set(tm.meld, [token], variant), Meld):
                    return True
            elif any(isinstance(extend_run(tm.meld, [token], end, variant), Meld) for end in ("low", "high")):
                return True
    return False


def discard_placeable(variant: Variant, state: State, card: Card) -> bool:
    """Whether ``card`` taken from the discard pile can be melded at once (``draw.taken_discard``)."""
    hand = state.current.hand + (card,)
    return can_place(variant, state, card, seen(hand), variant.rules.draw.taken_discard == "meld_or_build", len(hand))


def released_joker_placeable(variant: Variant, state: State) -> bool:
    """Whether a released joker can be placed at once (``joker_reuse.released_into``)."""
    hand = state.current.hand + (JOKER,) * state.turn.pending_jokers
    return can_place(variant, state, JOKER, seen(hand), variant.rules.joker_reuse.released_into == "meld_or_build",
                     len(hand))


# -- candidate actions --------------------------------------------------------------------------

def _run_ends(meld: Meld) -> tuple[tuple[int, str], tuple[int, str]]:
    first, last = meld.slots[0], meld.slots[-1]
    return (first.rank - 1, first.suit), (last.rank + 1, last.suit)


def _tokens(codes: Sequence[str]) -> tuple[Token, ...]:
    return tuple(_token(c) for c in codes)


def candidates(variant: Variant, state: State, budget: Budget | None = None) -> tuple[list[Action], bool]:
    """Candidate actions for whoever may act now (each still to be put to the engine), and whether
    the opening search was cut.  Single melds, openings, builds and joker exchanges are generated in
    canonical form; duplicates are possible (the listing removes them)."""
    budget = budget if budget is not None else Budget()
    out: list[Action] = []
    if state.phase == Phase.ENDED:
        return out, False
    if state.announcement is not None:
        out.append(Announce(state.announcement.count, state.announcement.player))
    hand = seen(state.current.hand)  # what the seen cards allow (an unseen card is no candidate)
    if state.phase == Phase.DRAW:
        return out + _draw_candidates(variant, state), False
    held = {c.code: c for c in hand}
    if state.dealer_option:  # the dealer took the upcard in exchange: only a discard can follow
        return [Discard(held[code]) for code in sorted(held)], False
    pending = state.turn.pending_jokers
    if pending:
        # a released joker waits to be placed: only melds and builds that use it can come next
        hand = hand + (JOKER,) * pending
        held = {c.code: c for c in hand}
    cut = _meld_candidates(variant, state, hand, budget, out)
    counts = Counter(c.code for c in hand)
    for tm in state.melds:
        if tm.meld.kind == "set":
            out.extend(_set_candidates(variant, tm, held, counts))
        else:
            out.extend(_run_candidates(variant, tm, held, counts))
    out.extend(Discard(held[code]) for code in sorted(counts))
    if set(counts) <= {JOKER_CODE}:  # nothing but jokers seen: the turn may end without a discard (engine._pass)
        out.append(Pass())
    return out, cut


def _draw_candidates(variant: Variant, state: State) -> list[Action]:
    """At the draw: the calls out of turn (the seats that may call the top discard, and the calls
    waiting to be allowed), the draws, and the dealer's pass of the upcard."""
    out: list[Action] = [Allow(caller) for caller in state.calls]
    if variant.rules.calling.per_hand and state.discard and not state.first_play and not state.stock_owed:
        out.extend(Call(p.id) for p in state.players
                   if p.id != state.to_act and not p.opened and p.id not in state.calls)
    out.append(Draw("stock"))
    if state.discard:
        out.append(Draw("discard"))
    if state.dealer_option:
        out.append(Pass())
    return out


def _meld_candidates(variant: Variant, state: State, hand: tuple[Card, ...], budget: Budget,
                     out: list[Action]) -> bool:
    """The new melds the player to act may lay (a contract's or an opening's, or single melds once
    opened), added to ``out``; whether the opening search was cut."""
    player, pending = state.current, state.turn.pending_jokers
    contract = variant.rules.contract
    if contract is not None and not player.opened:
        found = contract_openings(variant, hand, state.hand_number, budget=budget)
    elif player.opened and (contract is None or contract.later_melds):
        melds = single_melds(hand, variant)
        if pending:
            melds = [p for p in melds if any(x.startswith(JOKER_CODE) for x in p.codes)]
        out.extend(MeldAction((MeldSpec(p.tokens, p.kind),)) for p in melds)
        return False
    elif not player.opened:
        # the card to discard is kept among the seen cards, or is one of the unseen ones (``hand`` is the
        # seen cards: an opening of all of them leaves an unseen card to throw)
        keep = 0 if len(player.hand) > len(seen(player.hand)) else 1
        found = openings(variant, hand, state.melds, state.turn.must_use, budget=budget, jokers_only=bool(pending),
                         keep=keep)
    else:
        return False
    out.extend(opening_action(combo) for combo in found.openings)
    return found.cut


def _set_candidates(variant: Variant, tm: TableMeld, held: Mapping[str, Card], counts: Counter[str]) -> list[Action]:
    """Builds onto a set (its missing suits, a joker) and exchanges for its jokers."""
    meld, has_joker = tm.meld, counts[JOKER_CODE] > 0
    if meld.rank == 0:  # a set of jokers alone takes only jokers
        return [Build(tm.id, (Token(JOKER),))] if has_joker else []
    out: list[Action] = []
    rank = meld.slots[0].rank
    present = ({s.suit for s in meld.slots if not s.is_joker}
               if variant.rules.melds.set.distinct_suits else set())
    missing = [_code(rank, s) for s in SUITS if s not in present]
    out.extend(Build(tm.id, (Token(held[code]),)) for code in missing if code in counts)
    if has_joker:
        out.append(Build(tm.id, (Token(JOKER, rank, ""),)))
    if meld.jokers:
        have = [c for c in missing if c in counts]
        for n in (1, 2):
            out.extend(SwapJoker(tm.id, tuple(held[c] for c in combo)) for combo in combinations(have, n))
    return out


def _run_candidates(variant: Variant, tm: TableMeld, held: Mapping[str, Card], counts: Counter[str]) -> list[Action]:
    """Builds of one or two cards onto either end of a run (naturals or jokers), and exchanges for
    its jokers (with the move of the joker up, where the variant allows it)."""
    meld, has_joker = tm.meld, counts[JOKER_CODE] > 0
    low_aces = any(line[0] == 1 for line in run_lines(variant))
    out: list[Action] = []
    (lo_r, suit), (hi_r, _) = _run_ends(meld)
    for end, step, first in (("low", -1, lo_r), ("high", 1, hi_r)):
        seq: list[str] = []
        r = first
        for _ in range(2):
            real = 14 if r == 1 else r
            if not 1 <= r <= 14 or (r == 1 and not low_aces):
                break
            if real in RANK_CODES and _code(real, suit) in counts:
                seq.append(_code(real, suit))
            elif has_joker and real in RANK_CODES:
                seq.append(f"JK(={_code(real, suit)})")
            else:
                break
            cards = list(reversed(seq)) if end == "low" else list(seq)
            out.append(Build(tm.id, _tokens(cards), end))
            r += step
    for slot in meld.slots:
        natural = _code(slot.rank if slot.rank != 1 else 14, slot.suit)
        if slot.is_joker and natural in counts:
            out.append(SwapJoker(tm.id, (held[natural],)))
            if variant.rules.joker_reuse.move_up:
                out.append(SwapJoker(tm.id, (held[natural],), Build(tm.id, (Token(JOKER),), "high")))
    return out
