"""Actions: what a player proposes.  On the wire an action is an object with a ``type`` and that
type's fields; ``player`` is optional and defaults to the player whose move it is."""
from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from .cards import Card, CardError, parse_card
from .errors import MalformedInput, Problem, pointer
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

_FIELDS = {
    "draw": ({"source"}, {"card"}),
    "meld": ({"melds"}, {"builds"}),
    "build": ({"meld", "cards"}, {"end"}),
    "swap_joker": ({"meld", "naturals"}, {"place"}),
    "discard": ({"card"}, set()),
    "announce": ({"count"}, set()),
    "pass": (set(), set()),
    "turn": ({"actions"}, set()),
}


class _Parser:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, path: tuple, detail: str) -> None:
        self.problems.append(Problem(pointer(*path), detail))

    def card(self, value: Any, path: tuple) -> Card | None:
        try:
            return parse_card(value)
        except CardError as exc:
            self.bad(path, str(exc))
            return None

    def tokens(self, value: Any, path: tuple) -> tuple[Token, ...]:
        if not isinstance(value, list) or not value or len(value) > MAX_CARDS:
            self.bad(path, f"expected a list of 1 to {MAX_CARDS} card codes")
            return ()
        out = []
        for i, code in enumerate(value):
            try:
                out.append(parse_token(code))
            except CardError as exc:
                self.bad(path + (i,), str(exc))
        return tuple(out)

    def player(self, data: Mapping, path: tuple) -> str | None:
        value = data.get("player")
        if value is None:
            return None
        if not isinstance(value, str) or not value or len(value) > 64:
            self.bad(path + ("player",), "expected a player id")
            return None
        return value

    def action(self, data: Any, path: tuple, nested: bool = False, allowed: tuple | None = None) -> Action | None:
        if not isinstance(data, Mapping):
            self.bad(path, "an action is an object with a 'type'")
            return None
        kind = data.get("type")
        if kind not in _FIELDS or (allowed and kind not in allowed) or (nested and kind == "turn"):
            choices = allowed or tuple(k for k in _FIELDS if not (nested and k == "turn"))
            self.bad(path + ("type",), f"expected one of {', '.join(choices)}")
            return None
        required, optional = _FIELDS[kind]
        for key in data:
            if key not in required | optional | {"type", "player"}:
                self.bad(path + (key,), f"unknown field {key!r} for a {kind} action")
        for key in sorted(required - set(data)):
            self.bad(path + (key,), "required field is missing")
        if self.problems:
            return None
        who = self.player(data, path)
        if kind == "draw":
            source = data["source"]
            if source not in ("stock", "discard"):
                self.bad(path + ("source",), "expected 'stock' or 'discard'")
            card = self.card(data["card"], path + ("card",)) if data.get("card") is not None else None
            return Draw(source, card, who)
        if kind == "meld":
            melds = data["melds"]
            if not isinstance(melds, list) or not melds or len(melds) > MAX_MELDS:
                self.bad(path + ("melds",), f"expected a list of 1 to {MAX_MELDS} melds")
                return None
            specs = []
            for i, m in enumerate(melds):
                mp = path + ("melds", i)
                if not isinstance(m, Mapping):
                    self.bad(mp, "a meld is an object with 'cards'")
                    continue
                for key in m:
                    if key not in ("cards", "kind", "id"):
                        self.bad(mp + (key,), f"unknown field {key!r}")
                if "cards" not in m:
                    self.bad(mp + ("cards",), "required field is missing")
                    continue
                kind_ = m.get("kind")
                if kind_ is not None and kind_ not in ("set", "run"):
                    self.bad(mp + ("kind",), "expected 'set' or 'run'")
                mid = m.get("id")
                if mid is not None and (not isinstance(mid, str) or not mid or len(mid) > 64):
                    self.bad(mp + ("id",), "expected a meld id string")
                specs.append(MeldSpec(self.tokens(m["cards"], mp + ("cards",)), kind_, mid))
            builds = []
            raw_builds = data.get("builds")
            if raw_builds is not None:
                if not isinstance(raw_builds, list) or len(raw_builds) > MAX_MELDS:
                    self.bad(path + ("builds",), f"expected a list of at most {MAX_MELDS} builds")
                else:
                    for i, b in enumerate(raw_builds):
                        built = self.action({**b, "type": "build"} if isinstance(b, Mapping) and "type" not in b else b,
                                            path + ("builds", i), nested=True, allowed=("build",))
                        if built is not None:
                            builds.append(built)
            return MeldAction(tuple(specs), who, tuple(builds))
        if kind == "build":
            end = data.get("end")
            if end is not None and end not in ("low", "high"):
                self.bad(path + ("end",), "expected 'low' or 'high'")
            return Build(self._meld_id(data["meld"], path + ("meld",)), self.tokens(data["cards"], path + ("cards",)),
                         end, who)
        if kind == "swap_joker":
            naturals = data["naturals"]
            cards = []
            if not isinstance(naturals, list) or not naturals or len(naturals) > 4:
                self.bad(path + ("naturals",), "expected a list of 1 to 4 natural cards")
            else:
                for i, code in enumerate(naturals):
                    c = self.card(code, path + ("naturals", i))
                    if c is not None and c.is_joker:
                        self.bad(path + ("naturals", i), "a joker is exchanged for natural cards, not for a joker")
                    elif c is not None:
                        cards.append(c)
            place = None
            if data.get("place") is not None:
                place = self.action(data["place"], path + ("place",), nested=True, allowed=("meld", "build"))
            return SwapJoker(self._meld_id(data["meld"], path + ("meld",)), tuple(cards), place, who)
        if kind == "discard":
            card = self.card(data["card"], path + ("card",))
            return Discard(card, who) if card else None
        if kind == "pass":
            return Pass(who)
        if kind == "announce":
            count = data["count"]
            if isinstance(count, bool) or not isinstance(count, (int, float)) or count != int(count) or not 0 <= count <= 100:
                self.bad(path + ("count",), "expected a whole number of cards")
                return None
            return Announce(int(count), who)
        steps = data["actions"]
        if not isinstance(steps, list) or not steps or len(steps) > MAX_TURN_STEPS:
            self.bad(path + ("actions",), f"expected a list of 1 to {MAX_TURN_STEPS} actions")
            return None
        return TurnAction(tuple(self.action(s, path + ("actions", i), nested=True) for i, s in enumerate(steps)), who)

    def _meld_id(self, value: Any, path: tuple) -> str:
        if not isinstance(value, str) or not value or len(value) > 64:
            self.bad(path, "expected a meld id")
            return ""
        return value


def action_from_dict(data: Any) -> Action:
    """Read an action from its wire form; raise MalformedInput (pointers relative to the action)."""
    parser = _Parser()
    action = parser.action(data, ())
    if parser.problems or action is None:
        raise MalformedInput(parser.problems or [Problem("", "not an action")])
    return action


# -- the wire form ------------------------------------------------------------------------------
#
# An action's wire form is described once, as its fields (``_fields``): a value is a string, a
# number, an array (a ``tuple``) or an object (an ``_Object`` of (name, value) pairs).  From it come
# the wire dict (``action_to_dict``) and the canonical order of actions (``order_key``).

class _Object(tuple):
    """An object of the wire form: its (name, value) pairs."""


def _fields(action: Action, nested: bool = False) -> _Object:
    """The fields of ``action``'s wire form; ``nested``: a build inside a meld action (no type)."""
    who = (("player", action.player),) if action.player is not None else ()
    if isinstance(action, Draw):
        card = (("card", action.card.code),) if action.card is not None else ()
        return _Object((("type", "draw"), ("source", action.source)) + card + who)
    if isinstance(action, MeldAction):
        melds = tuple(_Object((("cards", tuple(t.code for t in spec.tokens)),)
                              + ((("kind", spec.kind),) if spec.kind is not None else ())
                              + ((("id", spec.id),) if spec.id is not None else ()))
                      for spec in action.melds)
        builds = (("builds", tuple(_fields(b, nested=True) for b in action.builds)),) if action.builds else ()
        return _Object((("type", "meld"), ("melds", melds)) + builds + who)
    if isinstance(action, Build):
        end = (("end", action.end),) if action.end is not None else ()
        return _Object((() if nested else (("type", "build"),))
                       + (("meld", action.meld), ("cards", tuple(t.code for t in action.tokens))) + end + who)
    if isinstance(action, SwapJoker):
        place = (("place", _fields(action.place)),) if action.place is not None else ()
        return _Object((("type", "swap_joker"), ("meld", action.meld),
                        ("naturals", tuple(c.code for c in action.naturals))) + place + who)
    if isinstance(action, Discard):
        return _Object((("type", "discard"), ("card", action.card.code)) + who)
    if isinstance(action, Announce):
        return _Object((("type", "announce"), ("count", action.count)) + who)
    if isinstance(action, Pass):
        return _Object((("type", "pass"),) + who)
    return _Object((("type", "turn"), ("actions", tuple(_fields(a) for a in action.actions))) + who)


def _plain(value: Any) -> Any:
    if isinstance(value, _Object):
        return {name: _plain(v) for name, v in value}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def action_to_dict(action: Action) -> dict:
    """The wire form of ``action`` (what ``action_from_dict`` reads back as the same action)."""
    return _plain(_fields(action))


_MORE, _END = 0, 1


@functools.lru_cache(maxsize=16384)
def _order(value: Any) -> Any:
    # Mirrors the text of the value written as JSON with sorted keys: a string compares as its JSON
    # text (quotes and escapes included), and an array or object with more items comes before one
    # that ends there (',' sorts before ']' and '}').  The parts of actions recur (the same meld in
    # many openings), hence the cache.
    if isinstance(value, _Object):
        return tuple((_MORE, json.dumps(name), _order(v)) for name, v in sorted(value, key=_name)) + ((_END,),)
    if isinstance(value, tuple):
        return tuple((_MORE, _order(v)) for v in value) + ((_END,),)
    if isinstance(value, str):
        return json.dumps(value)
    return str(value)  # a count: followed by ',' in every action that has one


def _name(pair: tuple) -> str:
    return pair[0]


def order_key(action: Action) -> tuple:
    """The canonical order of actions, computed from the typed value: the order of their wire forms
    written as JSON with sorted keys (``json.dumps(action_to_dict(a), sort_keys=True)``), which is
    how the referee has always listed them.  Two actions have the same key exactly when they have
    the same wire form."""
    return _order(_fields(action))
