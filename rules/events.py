"""Events: what an accepted action did, as typed values.  A verdict lists them in order; on the
wire (``rules/wire/verdicts.py``, ``event_wire``) each is an object with its ``type`` and its fields
(the ``optional`` fields that do not apply are left out)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str]
    optional: ClassVar[frozenset[str]] = frozenset()   # fields left out of the wire form when None


# -- the hand ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Drew(Event):
    type = "drew"
    optional = frozenset({"card"})
    player: str
    source: str
    card: str | None = None        # named only for a card taken from the discard pile (it was seen)


@dataclass(frozen=True, slots=True)
class Called(Event):
    type = "called"
    player: str
    card: str                      # the top discard called


@dataclass(frozen=True, slots=True)
class CallAllowed(Event):
    type = "call_allowed"
    player: str                    # the player to act, who allowed it
    caller: str
    card: str                      # the called discard (the penalty card from the stock is not named)


@dataclass(frozen=True, slots=True)
class Penalized(Event):
    type = "penalized"
    optional = frozenset({"points"})
    player: str
    reason: str                    # the infraction, over_call, incorrect_lay or wrong_challenge
    points: int | None = None      # the points added to the player's total (none where the sanction is a bar)
    barred: bool = False           # barred from laying until every other player has laid


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type = "passed"
    player: str


@dataclass(frozen=True, slots=True)
class Opened(Event):
    type = "opened"
    player: str
    points: int


@dataclass(frozen=True, slots=True)
class Melded(Event):
    type = "melded"
    player: str
    meld: str
    kind: str
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Built(Event):
    type = "built"
    optional = frozenset({"end"})
    player: str
    meld: str
    cards: tuple[str, ...]
    end: str | None = None


@dataclass(frozen=True, slots=True)
class SetClosed(Event):
    type = "set_closed"
    meld: str


@dataclass(frozen=True, slots=True)
class JokerReleased(Event):
    type = "joker_released"
    player: str
    meld: str
    naturals: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    type = "discarded"
    player: str
    card: str


@dataclass(frozen=True, slots=True)
class Announced(Event):
    type = "announced"
    player: str
    count: int


@dataclass(frozen=True, slots=True)
class AnnouncementMissed(Event):
    type = "announcement_missed"
    player: str


@dataclass(frozen=True, slots=True)
class StockReshuffled(Event):
    type = "stock_reshuffled"
    count: int
    cards: int


@dataclass(frozen=True, slots=True)
class HandVoid(Event):
    type = "hand_void"


@dataclass(frozen=True, slots=True)
class CalledUp(Event):
    type = "call_up"
    player: str


@dataclass(frozen=True, slots=True)
class Kalookie(Event):
    type = "kalookie"
    player: str


# -- the game ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    type = "hand_dealt"
    hand: int
    dealer: str
    seed: str


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    type = "eliminated"
    player: str
    score: int


@dataclass(frozen=True, slots=True)
class BuyInOffered(Event):
    type = "buy_in_offered"
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoughtIn(Event):
    type = "bought_in"
    player: str
    score: int
    paid: int


@dataclass(frozen=True, slots=True)
class MovedToNewTable(Event):
    """A player bought in where a buy-in moves the player to a new table (``game.buy_in_moves_to_new_table``):
    the stake is paid into this game's pool and the player leaves the game; ``clause`` is the rule applied."""
    type = "moved_to_new_table"
    player: str
    score: int
    paid: int
    clause: str


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    type = "game_won"
    player: str | None
    pool: int


EVENT_TYPES: tuple[type[Event], ...] = (
    Drew, Called, CallAllowed, Penalized, Passed, Opened, Melded, Built, SetClosed, JokerReleased, Discarded,
    Announced, AnnouncementMissed, StockReshuffled, HandVoid, CalledUp, Kalookie, HandDealt, Eliminated, BuyInOffered,
    BoughtIn, MovedToNewTable, GameWon)
