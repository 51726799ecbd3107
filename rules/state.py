"""The state of one hand: immutable value types (their wire form is ``rules/wire/state.py``'s; the
check that a state can occur at all is ``rules/invariants.py``'s).

* ``players`` are in seating order, clockwise: each player's left neighbour is the next one (the
  last player's left neighbour is the first).
* ``stock`` and ``discard`` are held top card first; a hand is a multiset, held in the order play
  left it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from .cards import JOKER, JOKER_CODE, UNSEEN, Card, pack_cards
from .errors import Problem, pointer
from .melds import Meld, Token, given_slots, readings
from .variant import Variant

_T = TypeVar("_T")


def replace(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for the engine's frozen value types, without re-running ``__init__``
    (none of them validates there): a copy of the instance's fields with ``changes`` applied.
    Measured: ``dataclasses.replace`` in its place costs 5.2% more instructions per in-process POST
    /v1/adjudicate of README's first turn (1,898,000 against 1,799,000, ``benchmarks.instructions``,
    with ``build`` already gone; commit 7635ca9 against its parent)."""
    new = object.__new__(type(obj))
    fields_ = new.__dict__
    fields_.update(obj.__dict__)
    fields_.update(changes)
    return new


def build(cls: type[_T], fields: dict[str, object]) -> _T:
    """An instance of one of the engine's frozen value types without the frozen dataclass
    ``__init__`` (which sets each field through ``object.__setattr__``), for what is made on every
    request (the reader's state and seats, a legal verdict): the dict ``fields`` itself becomes its
    attributes.  It must be the caller's own, shared with nothing, and give every field in the
    dataclass's order, none other: the interpreter reads the attributes of such an instance as fast
    as those the constructor sets, and copies it (``replace``) fastest; in any other order every read
    of the engine and the checks is slower (measured: the first turn's adjudication 0.8x of a parse
    slower).  Measured: the dataclass constructors in its place cost 6.7% more instructions per
    in-process POST /v1/adjudicate of README's first turn (1,799,000 against 1,679,000,
    ``benchmarks.instructions``; commit 41e64fe against its parent)."""
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", fields)
    return new


class Phase(StrEnum):
    """Where a hand stands: the player to act must draw, or is playing their turn; or it has ended.
    (Each phase has its actions: the turn machine of ``rules.engine``.)"""
    DRAW = "draw"
    PLAY = "play"
    ENDED = "ended"


class Source(StrEnum):
    STOCK = "stock"
    DISCARD = "discard"


PHASES = tuple(Phase)
SOURCES = tuple(Source)


@dataclass(frozen=True)
class Player:
    id: str
    hand: tuple[Card, ...]
    opened: bool = False
    score: int = 0
    barred: bool = False
    calls: int = 0          # calls out of turn made in this deal (the contract game)
    lay_barred: bool = False  # may not lay until every other player has laid (a penalty's consequence)

    @property
    def hidden(self) -> int:
        """How many cards of the hand nobody listed (``UNSEEN``)."""
        return self.hand.count(UNSEEN) if UNSEEN in self.hand else 0


@dataclass(frozen=True)
class TableMeld:
    id: str
    owner: str
    meld: Meld


@dataclass(frozen=True)
class Turn:
    """What the current turn has done so far and what it still owes."""
    drawn: Card | None = None
    source: Source | None = None
    must_open: bool = False          # took the discard before opening: must open before discarding
    opened_this_turn: bool = False   # the opening was laid in this turn (a kalookie if they go out)
    pending_jokers: int = 0          # jokers released and not yet placed
    builds: tuple[tuple[str, int, int], ...] = ()   # (run meld id, cards added low, cards added high)
    must_use: Card | None = None     # a taken discard that must still be melded this turn

    def built(self, meld_id: str) -> tuple[int, int]:
        for mid, low, high in self.builds:
            if mid == meld_id:
                return low, high
        return 0, 0

    def with_build(self, meld_id: str, end: str, count: int) -> "Turn":
        low, high = self.built(meld_id)
        low, high = (low + count, high) if end == "low" else (low, high + count)
        rest = [b for b in self.builds if b[0] != meld_id]
        return replace(self, builds=tuple(sorted(rest + [(meld_id, low, high)])))

    @property
    def is_fresh(self) -> bool:
        # (field by field in C: the generated __eq__ builds a tuple of each side's fields in Python)
        return self is _FRESH or self.__dict__ == _FRESH.__dict__


_FRESH = Turn()
FRESH_TURN = _FRESH   # the empty turn record, shared (every new turn starts from it)


@dataclass(frozen=True)
class Announcement:
    player: str
    count: int


@dataclass(frozen=True)
class HandResult:
    how: str                                   # call_up | kalookie | void
    winner: str | None
    penalties: tuple[tuple[str, int], ...]     # per player, seating order
    payments: tuple[tuple[str, int], ...]
    scores: tuple[tuple[str, int], ...]        # cumulative score after the hand
    credits: tuple[tuple[str, int], ...] | None = None   # points credited to the winner (winner_collects)


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    dealer: str
    to_act: str
    phase: Phase
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    melds: tuple[TableMeld, ...] = ()
    first_play: bool = False
    turn: Turn = field(default_factory=Turn)
    announcement: Announcement | None = None
    reshuffles: int = 0
    seed: str = ""
    result: HandResult | None = None
    dealer_option: bool = False      # the dealer may still exchange a card for the upcard (or pass)
    first_round: bool = False        # no player's first turn of the deal has ended yet for some seats
    hand_number: int = 0             # a contract game's hand (its contract and cards dealt); 0 elsewhere
    calls: tuple[str, ...] = ()      # players calling the top discard, in the order the calls came
    stock_owed: bool = False         # the player to act allowed a call and now plucks from the stock

    def __repr__(self) -> str:  # pragma: no cover - a debugging aid, no answer writes it
        """A short summary (the whole position is ``state_wire``'s, or the notation's text)."""
        who = "hand over" if self.phase == Phase.ENDED else f"{self.phase.value}: {self.to_act} to act"
        return (f"<State {who}, {len(self.players)} seats, stock {len(self.stock)}, "
                f"discard {len(self.discard)}, {len(self.melds)} melds>")

    # -- lookups -----------------------------------------------------------------------------
    def index(self, player_id: str) -> int:
        for i, p in enumerate(self.players):
            if p.id == player_id:
                return i
        raise KeyError(player_id)  # pragma: no cover - every id is checked against the seats before a look-up

    def player(self, player_id: str) -> Player:
        return self.players[self.index(player_id)]

    def left_of(self, player_id: str) -> str:
        return self.players[(self.index(player_id) + 1) % len(self.players)].id

    def meld(self, meld_id: str) -> TableMeld | None:
        for m in self.melds:
            if m.id == meld_id:
                return m
        return None

    @property
    def current(self) -> Player:
        return self.players[self.index(self.to_act)]  # (``player`` of ``to_act``, a call fewer: the engine's hot path)

    # -- functional updates ------------------------------------------------------------------
    def with_player(self, player_id: str, **changes: Any) -> "State":
        return replace(self, players=self.players_with(player_id, **changes))

    def players_with(self, player_id: str, **changes: Any) -> tuple[Player, ...]:
        """The seats with ``changes`` made to ``player_id``'s (to change it with other fields at once)."""
        i = self.index(player_id)
        return self.seated(i, replace(self.players[i], **changes))

    def seated(self, seat: int, player: Player) -> tuple[Player, ...]:
        """The seats with ``player`` in the ``seat``-th (for the turn machine, which has the index of
        the player to act at hand: no second look-up)."""
        players = self.players
        return players[:seat] + (player,) + players[seat + 1:]

    def with_meld(self, table_meld: TableMeld) -> "State":
        """The state with the meld of ``table_meld``'s id, already on the table, replaced by it (new
        melds are laid with ``with_new_melds``)."""
        return replace(self, melds=tuple([table_meld if m.id == table_meld.id else m for m in self.melds]))

    def with_new_melds(self, new: Sequence[TableMeld]) -> "State":
        """The state with ``new`` melds laid after those on the table (their ids not yet taken)."""
        return replace(self, melds=self.melds + tuple(new))

    @property
    def stock_hidden(self) -> int:
        """How many cards of the stock nobody listed (they lie beneath the listed ones)."""
        return self.stock.count(UNSEEN) if UNSEEN in self.stock else 0

    @property
    def partial(self) -> bool:
        """Whether some hand or the stock holds cards nobody listed."""
        return UNSEEN in self.stock or any(UNSEEN in p.hand for p in self.players)

    def hidden_pointers(self) -> tuple[str, ...]:
        """The pointers (relative to the state) of every count of unseen cards it holds."""
        found = [pointer("players", i, "hidden") for i, p in enumerate(self.players) if UNSEEN in p.hand]
        if UNSEEN in self.stock:
            found.append("/stock_hidden")
        return tuple(found)

    def card_counts(self) -> Counter[str]:
        """How many of each card code the state holds, wherever it lies."""
        cards = [c for p in self.players for c in p.hand]
        cards += self.stock
        cards += self.discard
        for m in self.melds:
            cards += m.meld.cards
        counts = Counter([c.code for c in cards if c is not UNSEEN])
        if self.turn.pending_jokers:
            counts[JOKER_CODE] += self.turn.pending_jokers
        return counts


def free_meld_id(taken: set[str], count: int) -> str:
    """The id given to a meld laid without one: ``m<n>`` for the first free ``n`` from one more than
    the ``count`` of melds on the table, whose ids are ``taken``."""
    n = count + 1
    while f"m{n}" in taken:
        n += 1
    return f"m{n}"


def table_meld(meld_id: str, owner: str, tokens: Sequence[Token], kind: str, variant: Variant,
               at: int) -> TableMeld | Problem:
    """The meld of a position read under ``variant`` (the ``at``-th on the table), or the problem that
    makes the position impossible: cards that are not a ``kind``, or jokers that can be read in more
    than one way."""
    slots = given_slots(tokens, variant, kind)   # (the common meld, read in one pass)
    if slots is not None:
        return TableMeld(meld_id, owner, Meld(kind, slots))
    found, failure = readings(tokens, variant, kind)
    if failure is not None:
        return Problem(pointer("melds", at), f"not a valid {kind}: {failure.message} ({variant.cite(failure.clause)})",
                       "MELD_INVALID")
    if len(found) != 1:
        return Problem(pointer("melds", at, "cards"),
                       "the meld's jokers can be read in more than one way: write each as JK(=card)", "MELD_AMBIGUOUS")
    return TableMeld(meld_id, owner, found[0])


def listed_cards(state: State) -> list[Card]:
    """Every card the state holds, wherever it lies, as a list (a new one: the caller may change it)."""
    held = list(state.stock)
    for p in state.players:
        held += p.hand
    held += state.discard
    held += [s.card for m in state.melds for s in m.meld.slots]
    if state.turn.pending_jokers:
        held += [JOKER] * state.turn.pending_jokers
    return held


def held_cards(state: State) -> Counter[Card]:
    """Every card the state holds, wherever it lies, as a multiset of cards."""
    return Counter(listed_cards(state))


def places_of(state: State, code: str) -> list[str]:
    """Every place holding ``code``: a hand (unordered), or the exact position in the stock, the
    discard pile or a meld."""
    places = []
    for i, p in enumerate(state.players):
        if any(c.code == code for c in p.hand):
            places.append(pointer("players", i, "hand"))
    places += [pointer("stock", j) for j, c in enumerate(state.stock) if c.code == code]
    places += [pointer("discard", j) for j, c in enumerate(state.discard) if c.code == code]
    for i, m in enumerate(state.melds):
        places += [pointer("melds", i, "cards", j) for j, c in enumerate(m.meld.cards) if c.code == code]
    if code == JOKER_CODE and state.turn.pending_jokers:
        places.append("/turn/pending_jokers")
    return places


def unaccounted(state: State, variant: Variant) -> Counter[Card]:
    """The cards of ``variant``'s pack that ``state`` does not list, with how many of each: what its
    unseen cards may be (empty for a fully listed state)."""
    held = held_cards(state)
    table_pack = variant.rules.pack_for(len(state.players))
    return Counter({c: n - held.get(c, 0) for c, n in pack_cards(table_pack.decks, table_pack.jokers).items()
                    if n > held.get(c, 0)})
