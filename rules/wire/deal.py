"""A deal's reported cut (rules/deal.py's ``ReportedCut``) on the wire: openapi.yaml's ``ReportedCut``,
read for a deal and for a game's next hand."""
from __future__ import annotations

from typing import Any, Mapping

from ..deal import ReportedCut
from .contract import check


def cut_from_dict(data: Any) -> ReportedCut | None:
    """A reported cut from its JSON form, or None for none (null); MalformedInput (pointers relative
    to the cut) if it matches neither openapi.yaml's ``ReportedCut`` nor null."""
    check("ReportedCutOrNull", data)
    return cut_from_valid(data)


def cut_from_valid(data: Mapping[str, Any] | None) -> ReportedCut | None:
    """``cut_from_dict`` for a value already found to match its schema (a part of a request body
    the API's decoder checked whole): an object of a whole ``count`` (2.0 is 2) and an optional
    player id ``by``, or None."""
    if data is None:
        return None
    return ReportedCut(int(data["count"]), data.get("by"))
