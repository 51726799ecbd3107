"""Actions: what a player proposes.  On the wire an action is an object with a ``type`` and that
type's fields; ``player`` is optional and defaults to the player whose move it is."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from .cards import Card, parse_card
from .melds import Token, parse_token

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
class TurnAction:
    actions: tuple
    player: str | None = None
    type = "turn"


Action = Union[Draw, MeldAction, Build, SwapJoker, Discard, Announce, Pass, TurnAction]


# -- the wire form ------------------------------------------------------------------------------
# Decoding trusts the shape: every request was checked against openapi.yaml at the edge (the
# ``Action`` component) before it reaches the core, so these functions only build values.

def _tokens(codes: list[str]) -> tuple[Token, ...]:
    return tuple(parse_token(c) for c in codes)


def _meld_action(data: Mapping[str, Any], who: str | None) -> MeldAction:
    specs = tuple(MeldSpec(_tokens(m["cards"]), m.get("kind"), m.get("id")) for m in data["melds"])
    builds = tuple(_build(b, None) for b in data.get("builds") or ())
    return MeldAction(specs, who, builds)


def _build(data: Mapping[str, Any], who: str | None) -> Build:
    return Build(data["meld"], _tokens(data["cards"]), data.get("end"), who)


def _draw(data: Mapping[str, Any], who: str | None) -> Draw:
    card = data.get("card")
    return Draw(data["source"], None if card is None else parse_card(card), who)


def _swap(data: Mapping[str, Any], who: str | None) -> SwapJoker:
    place = data.get("place")
    placed: MeldAction | Build | None = None
    if place is not None:
        placed = _meld_action(place, place.get("player")) if place["type"] == "meld" else _build(place, place.get("player"))
    return SwapJoker(data["meld"], tuple(parse_card(c) for c in data["naturals"]), placed, who)


def _turn(data: Mapping[str, Any], who: str | None) -> TurnAction:
    return TurnAction(tuple(action_from_dict(step) for step in data["actions"]), who)


_DECODERS = {
    "draw": _draw,
    "meld": _meld_action,
    "build": _build,
    "swap_joker": _swap,
    "discard": lambda data, who: Discard(parse_card(data["card"]), who),
    "announce": lambda data, who: Announce(int(data["count"]), who),
    "pass": lambda data, who: Pass(who),
    "turn": _turn,
}


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """The action of a wire object that matches openapi.yaml's ``Action``."""
    return _DECODERS[data["type"]](data, data.get("player"))  # type: ignore[no-any-return]
