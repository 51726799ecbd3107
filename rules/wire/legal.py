"""The legal actions of a position (rules/legal.py's ``Listing``) on the wire: what ``POST
/v1/legal-actions`` answers (openapi.yaml's ``LegalActionsResponse``)."""
from __future__ import annotations

from typing import Any

from ..legal import Listing
from .actions import action_wire


def listing_wire(listing: Listing) -> dict[str, Any]:
    """The listing, each action in its wire form; ``undetermined`` only when some are (a position with
    unseen cards), so every other answer keeps its bytes."""
    out: dict[str, Any] = {"player": listing.player, "phase": listing.phase,
                           "actions": [action_wire(a) for a in listing.actions], "truncated": listing.truncated,
                           "cap": listing.cap}
    if listing.undetermined:
        out["undetermined"] = [action_wire(a) for a in listing.undetermined]
    return out
