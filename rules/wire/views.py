"""A commitment to what a seat's view hides (rules/views.py makes the view).

``commitment(state, seat, salt)`` is a SHA-256 digest, written as 64 lowercase hex digits, of the
RFC 8785 canonical JSON (``wire.replay.canonical``, the writer of every hashed document) of
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

from ..cards import CANONICAL, CODE
from .replay import canonical
from ..state import State
from ..views import drawn_hidden


def hidden_parts(state: State, seat: str) -> dict[str, Any]:
    """What ``view_of(state, seat)`` hides, as a JSON document."""
    state.index(seat)
    parts: dict[str, Any] = {
        "hands": {p.id: list(map(CODE, sorted(p.hand, key=CANONICAL))) for p in state.players if p.id != seat},
        "stock": list(map(CODE, state.stock)),
        "seed": state.seed,
    }
    if drawn_hidden(state, seat) and state.turn.drawn is not None:
        parts["drawn"] = state.turn.drawn.code
    return parts


def commitment(state: State, seat: str, salt: str) -> str:
    """The salted SHA-256 (hex) of what ``seat``'s view of ``state`` hides."""
    return hashlib.sha256(canonical({"salt": salt, "hidden": hidden_parts(state, seat)})).hexdigest()


def reveal_matches(view_commitment: str, full_state: State, seat: str, salt: str) -> bool:
    """Whether ``full_state``, revealed, is the position a view with ``view_commitment`` was made of."""
    return hmac.compare_digest(commitment(full_state, seat, salt), view_commitment)
