"""An action (rules/actions.py) on the wire: openapi.yaml's ``Action``, both ways (docs/wire-format.md).
An action is an object with a ``type`` and that type's fields; ``player`` is optional and defaults
to the player whose move it is.  The canonical order of actions (``actions.order_key``) is the
order of the text of what ``action_wire`` writes."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Mapping

from ..actions import (Action, Allow, Announce, Build, Call, Challenge, Discard, Draw, MeldAction, MeldSpec, Pass,
                       Penalty, SwapJoker, TurnAction)
from ..cards import parse_card
from ..errors import MalformedInput, Problem
from ..melds import Token, parse_token
from ..state import build
from .contract import check
from .moves import parse_action

# -- read -------------------------------------------------------------------------------------------
# Reading trusts the shape, checked against openapi.yaml's ``Action`` before: by the API's decoder
# (the whole request body), or by ``action_from_dict``, so these functions only build values.

def _tokens(codes: list[str]) -> tuple[Token, ...]:
    return tuple(parse_token(c) for c in codes)


def _meld_action(data: Mapping[str, Any], who: str | None) -> MeldAction:
    specs = tuple(MeldSpec(_tokens(m["cards"]), m.get("kind"), m.get("id")) for m in data["melds"])
    builds = tuple(_build(b, None) for b in data.get("builds") or ())
    return MeldAction(specs, who, builds)


def _build(data: Mapping[str, Any], who: str | None) -> Build:
    return Build(data["meld"], _tokens(data["cards"]), data.get("end"), who)


# The actions of a plain turn (a whole turn, a draw, a discard) are read on most requests: each is
# made by ``state.build`` from every one of its fields, in order, which costs about half of the
# frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field).

def _draw(data: Mapping[str, Any], who: str | None) -> Draw:
    card = data.get("card")
    return build(Draw, {"source": data["source"], "card": None if card is None else parse_card(card), "player": who})


def _discard(data: Mapping[str, Any], who: str | None) -> Discard:
    return build(Discard, {"card": parse_card(data["card"]), "player": who})


def _turn(data: Mapping[str, Any], who: str | None) -> TurnAction:
    # (each step read by its decoder here, not through action_from_valid: one call fewer per step, a
    # seventh of the read of README's first turn; a step that is no action of a hand, such as a
    # game's, is left to action_from_valid to refuse)
    steps = []
    for step in data["actions"]:
        decode = _DECODERS.get(step.get("type"))
        steps.append(decode(step, step.get("player")) if decode is not None else action_from_valid(step))
    return build(TurnAction, {"actions": tuple(steps), "player": who})


def _swap(data: Mapping[str, Any], who: str | None) -> SwapJoker:
    place = data.get("place")
    placed: MeldAction | Build | None = None
    if place is not None:
        placed = _meld_action(place, place.get("player")) if place["type"] == "meld" else _build(place, place.get("player"))
    return SwapJoker(data["meld"], tuple(parse_card(c) for c in data["naturals"]), placed, who)


_DECODERS: dict[str, Callable[[Mapping[str, Any], str | None], Action]] = {
    "draw": _draw,
    "meld": _meld_action,
    "build": _build,
    "swap_joker": _swap,
    "discard": _discard,
    "announce": lambda data, who: Announce(int(data["count"]), who),
    "pass": lambda data, who: Pass(who),
    "call": lambda data, who: Call(who),
    "allow": lambda data, who: Allow(data["caller"], who),
    "penalty": lambda data, who: Penalty(data["infraction"], who),
    "challenge": lambda data, who: Challenge(data["target"], data["claim"], who),
    "turn": _turn,
}


def action_from_dict(data: Mapping[str, Any] | str) -> Action:
    """The action of a wire object, or of a move written as text (docs/moves.md: ``"discard KC"``);
    MalformedInput (every problem, pointers relative to the action) if it does not match
    openapi.yaml's ``Action`` (or, for a text, ``ActionText``)."""
    check("ActionText" if isinstance(data, str) else "Action", data)
    return action_from_valid(data)


def action_from_valid(data: Mapping[str, Any] | str) -> Action:
    """``action_from_dict`` for a value already found to match its schema (a part of a request body
    the API's decoder checked whole).  A game's own actions (buy_in, decline, next_hand) pass the
    schema of a replay's log too, and are refused here when the log starts from a hand."""
    if isinstance(data, str):
        return parse_action(data)
    decode = _DECODERS.get(data.get("type"))  # type: ignore[arg-type]
    if decode is None:
        raise MalformedInput(Problem("/type", f"{str(data.get('type'))[:40]!r} is not an action of a hand; "
                                              "this log starts from a hand, not a game"))
    return decode(data, data.get("player"))


# -- written ----------------------------------------------------------------------------------------

def action_wire(action: Action, nested: bool = False) -> dict[str, Any]:
    """The wire form of ``action`` (what ``action_from_dict`` reads back as the same action), written
    directly (a listing writes hundreds of actions per request); ``nested``: a lay-off made with
    melds, written without its type."""
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
            out["builds"] = [action_wire(b, nested=True) for b in action.builds]
    elif isinstance(action, Build):
        out = {} if nested else {"type": "build"}
        out["meld"] = action.meld
        out["cards"] = [t.code for t in action.tokens]
        if action.end is not None:
            out["end"] = action.end
    elif isinstance(action, SwapJoker):
        out = {"type": "swap_joker", "meld": action.meld, "naturals": [c.code for c in action.naturals]}
        if action.place is not None:
            out["place"] = action_wire(action.place)
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
        out = {"type": "turn", "actions": [action_wire(a) for a in action.actions]}
    if action.player is not None:
        out["player"] = action.player
    return out
