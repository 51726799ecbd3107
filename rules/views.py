"""What one seat may see of a hand, and a commitment to what it may not.

``view_of(state, seat)`` is the state as ``seat`` sees it at the table: its own hand listed; every
other hand and the stock as counts of unseen cards; the seed hidden (with the seed and the deal's
record anyone could rebuild every hand); another player's card drawn from the stock hidden from the
turn record; everything public kept (the melds, the discard pile, whose turn it is and what the
turn still owes, the announcement, scores, the result of an ended hand).

``commitment(state, seat, salt)`` is a SHA-256 digest, written as 64 lowercase hex digits, of the
RFC 8785 canonical JSON (``replay.canonical``, the writer of every hashed document) of
``{"salt": salt, "hidden": hidden_parts(state, seat)}``: every card the view hides, in the place
where it lies (each other hand's cards in the canonical order, the stock top card first, the card
another player drew from the stock), and the seed.  A server sends it with each view; when the
full state is revealed at the end of the hand, ``reveal_matches`` checks it against every view
shown.  The salt is the caller's secret: without it the few possible hands of a late position could
be tried one by one against the digest.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any

from .cards import CANONICAL, CODE, UNSEEN
from .replay import canonical
from .state import State, Source, replace


def _drawn_hidden(state: State, seat: str) -> bool:
    """Whether the turn record names a card another player drew from the stock (only they saw it)."""
    t = state.turn
    return t.source == Source.STOCK and t.drawn is not None and state.to_act != seat


def view_of(state: State, seat: str) -> State:
    """``state`` as ``seat`` may see it (KeyError if ``seat`` is not a player)."""
    state.index(seat)
    players = tuple(p if p.id == seat else replace(p, hand=(UNSEEN,) * len(p.hand)) for p in state.players)
    turn = replace(state.turn, drawn=UNSEEN) if _drawn_hidden(state, seat) else state.turn
    return replace(state, players=players, stock=(UNSEEN,) * len(state.stock), seed="", turn=turn)


def hidden_parts(state: State, seat: str) -> dict[str, Any]:
    """What ``view_of(state, seat)`` hides, as a JSON document."""
    state.index(seat)
    parts: dict[str, Any] = {
        "hands": {p.id: list(map(CODE, sorted(p.hand, key=CANONICAL))) for p in state.players if p.id != seat},
        "stock": list(map(CODE, state.stock)),
        "seed": state.seed,
    }
    if _drawn_hidden(state, seat) and state.turn.drawn is not None:
        parts["drawn"] = state.turn.drawn.code
    return parts


def commitment(state: State, seat: str, salt: str) -> str:
    """The salted SHA-256 (hex) of what ``seat``'s view of ``state`` hides."""
    return hashlib.sha256(canonical({"salt": salt, "hidden": hidden_parts(state, seat)})).hexdigest()


def reveal_matches(view_commitment: str, full_state: State, seat: str, salt: str) -> bool:
    """Whether ``full_state``, revealed, is the position a view with ``view_commitment`` was made of."""
    return hmac.compare_digest(commitment(full_state, seat, salt), view_commitment)
