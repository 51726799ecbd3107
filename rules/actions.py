"""Actions: what a player proposes.  On the wire an action is an object with a ``type`` and that
type's fields; ``player`` is optional and defaults to the player whose move it is."""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

import orjson

from .cards import Card, parse_card
from .errors import MalformedInput, Problem
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

    @functools.cached_property
    def codes(self) -> tuple[str, ...]:
        """The cards as written on the wire (computed once per spec: a listing writes the same
        meld in many openings)."""
        return tuple([t.code for t in self.tokens])


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


_DECODERS: dict[str, Callable[[Mapping[str, Any], str | None], Action]] = {
    "draw": _draw,
    "meld": _meld_action,
    "build": _build,
    "swap_joker": _swap,
    "discard": lambda data, who: Discard(parse_card(data["card"]), who),
    "announce": lambda data, who: Announce(int(data["count"]), who),
    "pass": lambda data, who: Pass(who),
    "call": lambda data, who: Call(who),
    "allow": lambda data, who: Allow(data["caller"], who),
    "penalty": lambda data, who: Penalty(data["infraction"], who),
    "challenge": lambda data, who: Challenge(data["target"], data["claim"], who),
    "turn": _turn,
}


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """The action of a wire object that matches openapi.yaml's ``Action``.  A game's own actions
    (buy_in, decline, next_hand) pass the schema of a replay's log too, and are refused here when
    the log starts from a hand."""
    decode = _DECODERS.get(data.get("type"))  # type: ignore[arg-type]
    if decode is None:
        raise MalformedInput(Problem("/type", f"{str(data.get('type'))[:40]!r} is not an action of a hand; "
                                              "this log starts from a hand, not a game"))
    return decode(data, data.get("player"))


# -- the wire form, written ------------------------------------------------------------------------------

def action_to_dict(action: Action, nested: bool = False) -> dict[str, Any]:
    """The wire form of ``action`` (what ``action_from_dict`` reads back as the same action): the
    dicts of ``_fields``, written directly (the listing writes hundreds of actions per request)."""
    out: dict[str, Any]
    if isinstance(action, Draw):
        out = {"type": "draw", "source": action.source}
        if action.card is not None:  # pragma: no cover - the listing (the only writer) offers draws without a card
            out["card"] = action.card.code
    elif isinstance(action, MeldAction):
        melds = []
        for spec in action.melds:
            meld: dict[str, Any] = {"cards": list(spec.codes)}
            if spec.kind is not None:  # pragma: no branch - the listing's melds always name their kind
                meld["kind"] = spec.kind
            if spec.id is not None:  # pragma: no cover - the listing's melds are laid without an id
                meld["id"] = spec.id
            melds.append(meld)
        out = {"type": "meld", "melds": melds}
        if action.builds:
            out["builds"] = [action_to_dict(b, nested=True) for b in action.builds]
    elif isinstance(action, Build):
        out = {} if nested else {"type": "build"}
        out["meld"] = action.meld
        out["cards"] = [t.code for t in action.tokens]
        if action.end is not None:
            out["end"] = action.end
    elif isinstance(action, SwapJoker):
        out = {"type": "swap_joker", "meld": action.meld, "naturals": [c.code for c in action.naturals]}
        if action.place is not None:
            out["place"] = action_to_dict(action.place)
    elif isinstance(action, Discard):
        out = {"type": "discard", "card": action.card.code}
    elif isinstance(action, Announce):
        out = {"type": "announce", "count": action.count}
    elif isinstance(action, Pass):
        out = {"type": "pass"}
    elif isinstance(action, Call):
        out = {"type": "call"}
    elif isinstance(action, Allow):
        out = {"type": "allow", "caller": action.caller}
    elif isinstance(action, Penalty):  # pragma: no cover - the listing offers no penalty, challenge or whole turn
        out = {"type": "penalty", "infraction": action.infraction}
    elif isinstance(action, Challenge):  # pragma: no cover - (as above)
        out = {"type": "challenge", "target": action.target, "claim": action.claim}
    else:  # pragma: no cover - (as above)
        out = {"type": "turn", "actions": [action_to_dict(a) for a in action.actions]}
    if action.player is not None:
        out["player"] = action.player
    return out


def order_key(action: Action, written: dict[str, Any] | None = None) -> str:
    """The canonical order of actions: their wire forms written as JSON with sorted keys, which is
    how the referee has always listed them (``written``: the wire form, where the caller has it).
    Two actions have the same key exactly when they have the same wire form.

    The key is the compact text (no space after a comma or a colon; every character outside
    printable ASCII escaped, as ``json.dumps`` does): it orders exactly as the spaced text that
    listings were first sorted by, since two texts that agree up to some point agree there on
    where a separator stands, so a space after it falls in both or in neither.  orjson writes it
    where the text is printable ASCII without escapes (the same bytes, several times faster);
    ``json`` writes the rest."""
    value = action_to_dict(action) if written is None else written
    text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    if text.isascii() and b"\\" not in text and b"\x7f" not in text:
        return text.decode()
    return _KEY_WRITER.encode(value)


_KEY_WRITER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
