"""Actions: what a player proposes, as typed values, and their canonical order.  On the wire
(rules/wire/actions.py) an action is an object with a ``type`` and that type's fields; ``player`` is
optional and defaults to the player whose move it is."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii as _q
from typing import Any, Union

from .cards import Card
from .melds import Token

MAX_TURN_STEPS = 60
MAX_MELDS = 20
MAX_CARDS = 40


@dataclass(frozen=True)
class Draw:
    source: str
    card: Card | None = None
    player: str | None = None
    type = "draw"


@dataclass(frozen=True)
class MeldSpec:
    tokens: tuple[Token, ...]
    kind: str | None = None
    id: str | None = None

    @functools.cached_property
    def codes(self) -> tuple[str, ...]:
        """The cards as written on the wire (computed once per spec: a listing writes the same
        meld in many openings)."""
        return tuple([t.code for t in self.tokens])

    @functools.cached_property
    def key(self) -> str:
        """The spec's part of ``order_key`` (computed once per spec, as ``codes``)."""
        id_ = "" if self.id is None else f',"id":{_q(self.id)}'
        kind = "" if self.kind is None else f',"kind":{_q(self.kind)}'
        return f'{{"cards":{_cards(self.codes)}{id_}{kind}}}'


@dataclass(frozen=True)
class Build:
    meld: str
    tokens: tuple[Token, ...]
    end: str | None = None
    player: str | None = None
    type = "build"


@dataclass(frozen=True)
class MeldAction:
    melds: tuple[MeldSpec, ...]
    player: str | None = None
    builds: tuple[Build, ...] = ()   # lay-offs made with the melds, in the same action (after them)
    type = "meld"


@dataclass(frozen=True)
class Pass:
    """The dealer declines the upcard option."""
    player: str | None = None
    type = "pass"


@dataclass(frozen=True)
class SwapJoker:
    meld: str
    naturals: tuple[Card, ...]
    place: "MeldAction | Build | None" = None
    player: str | None = None
    type = "swap_joker"


@dataclass(frozen=True)
class Discard:
    card: Card
    player: str | None = None
    type = "discard"


@dataclass(frozen=True)
class Announce:
    count: int
    player: str | None = None
    type = "announce"


@dataclass(frozen=True)
class Call:
    """A player who is not to act calls for the top discard (the contract game's call out of turn)."""
    player: str | None = None
    type = "call"


@dataclass(frozen=True)
class Allow:
    """The player to act lets ``caller``, whose call they judge the first, have the called discard."""
    caller: str
    player: str | None = None
    type = "allow"


@dataclass(frozen=True)
class Penalty:
    """An infraction the table reports (``penalties.infractions``), charged to ``player``."""
    infraction: str
    player: str | None = None
    type = "penalty"


@dataclass(frozen=True)
class Challenge:
    """``player`` challenges ``target``'s calls (``claim`` overcall) or first lay (``claim`` lay)."""
    target: str
    claim: str
    player: str | None = None
    type = "challenge"


@dataclass(frozen=True)
class TurnAction:
    actions: tuple[Action, ...]
    player: str | None = None
    type = "turn"


Action = Union[Draw, MeldAction, Build, SwapJoker, Discard, Announce, Pass, Call, Allow, Penalty, Challenge, TurnAction]


# -- the canonical order -----------------------------------------------------------------------

def order_key(action: Action) -> str:
    """The canonical order of actions: the text of their wire forms (rules/wire/actions.py's
    ``action_wire``) as compact JSON with sorted keys, which is how the referee has always listed
    them.  Two actions have the same key exactly when they have the same wire form.

    The text is written here directly from the typed action, as ``json.dumps(action_wire(action),
    sort_keys=True, separators=(",", ":"))`` writes it (every character outside printable ASCII
    escaped; tests/rules/test_legal_actions.py holds the two equal): it orders exactly as the spaced
    text listings were first sorted by, since two texts that agree up to some point agree there on
    where a separator stands, so a space after it falls in both or in neither."""
    return _KEYS[type(action)](action)


def _who(player: str | None, type_: str) -> str:
    """The members most actions end with, and the closing brace: ``player`` (when named), ``type``."""
    return f'{_named(player)}"type":"{type_}"}}'


def _cards(codes: Iterable[str]) -> str:
    return "[" + ",".join([_q(c) for c in codes]) + "]"


def _build_key(b: Build, nested: bool = False) -> str:
    end = "" if b.end is None else f',"end":{_q(b.end)}'
    head = f'{{"cards":{_cards([t.code for t in b.tokens])}{end},"meld":{_q(b.meld)}'
    if nested:  # (written without its type)
        return head + ("}" if b.player is None else f',"player":{_q(b.player)}}}')
    return f"{head},{_who(b.player, 'build')}"


def _meld_key(m: MeldAction) -> str:
    builds = '{"builds":[' + ",".join([_build_key(b, True) for b in m.builds]) + "]," if m.builds else "{"
    return f'{builds}"melds":[{",".join([spec.key for spec in m.melds])}],{_who(m.player, "meld")}'


def _swap_key(s: SwapJoker) -> str:
    place = "" if s.place is None else f'"place":{order_key(s.place)},'
    return f'{{"meld":{_q(s.meld)},"naturals":{_cards([c.code for c in s.naturals])},{place}{_who(s.player, "swap_joker")}'


def _named(player: str | None) -> str:
    """The ``player`` member with its comma, where it sorts before other members (empty: not named)."""
    return "" if player is None else f'"player":{_q(player)},'


def _draw_key(d: Draw) -> str:
    card = "" if d.card is None else f'"card":{_q(d.card.code)},'
    return f'{{{card}{_named(d.player)}"source":{_q(d.source)},"type":"draw"}}'


def _challenge_key(c: Challenge) -> str:  # pragma: no cover - the listing offers no challenge
    return f'{{"claim":{_q(c.claim)},{_named(c.player)}"target":{_q(c.target)},"type":"challenge"}}'


_KEYS: dict[type, Callable[[Any], str]] = {
    Draw: _draw_key,
    MeldAction: _meld_key,
    Build: _build_key,
    SwapJoker: _swap_key,
    Discard: lambda a: f'{{"card":{_q(a.card.code)},{_who(a.player, "discard")}',
    Announce: lambda a: f'{{"count":{int(a.count)},{_who(a.player, "announce")}',
    Pass: lambda a: "{" + _who(a.player, "pass"),
    Call: lambda a: "{" + _who(a.player, "call"),
    Allow: lambda a: f'{{"caller":{_q(a.caller)},{_who(a.player, "allow")}',
    Penalty: lambda a: f'{{"infraction":{_q(a.infraction)},{_who(a.player, "penalty")}',
    Challenge: _challenge_key,
    TurnAction: lambda a: f'{{"actions":[{",".join([order_key(x) for x in a.actions])}],{_who(a.player, "turn")}',
}
