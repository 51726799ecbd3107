"""A deal's reported cut (rules/deal.py's ``ReportedCut``) on the wire: openapi.yaml's ``ReportedCut``,
read for a deal and for a game's next hand."""
from __future__ import annotations

from typing import Any, Mapping

from ..deal import ReportedCut
from ..errors import MalformedInput, Problem


def cut_from_dict(data: Any, at: str = "/cut") -> ReportedCut | None:
    """A reported cut from its JSON form (openapi.yaml's ReportedCut), or None for none."""
    if data is None:
        return None
    count: Any = data.get("count") if isinstance(data, Mapping) else None
    by: Any = data.get("by") if isinstance(data, Mapping) else None
    whole = isinstance(count, int) or (isinstance(count, float) and count.is_integer())  # (2.0 is the integer 2)
    if (not isinstance(data, Mapping) or set(data) - {"count", "by"} or isinstance(count, bool) or not whole
            or not isinstance(by, (str, type(None)))):  # pragma: no cover - openapi.yaml's ReportedCut is an object of an integer count and an optional player id
        raise MalformedInput(Problem(at, "a reported cut is an object: count (cards cut) and by (the player who cut)"))
    return ReportedCut(int(count), by)
