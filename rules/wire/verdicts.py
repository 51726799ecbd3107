"""A verdict on a hand's action (rules/engine.py) on the wire: openapi.yaml's ``Verdict``, with its
``Violation``s (and their ``penalty``), its ``Event``s and, for a hand won with figures the seen
cards leave open, its ``settlement`` (``OpenSettlement``, figure by figure)."""
from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..events import Event
from ..engine import Penalised, Verdict, Violation
from ..settlement import Amount, OpenSettlement
from .clauses import cited_wire, registry_citation_wire
from .state import hand_result_wire, state_wire


def event_wire(event: Event) -> dict[str, Any]:
    """An event: its ``type`` and its fields, an optional one left out when None (a tuple stays a
    tuple: JSON writes it as an array, as a list)."""
    # (``type`` is read as the class attribute it is; the names come in sorted order, as the answer
    # writes them: its sort then has the least to do)
    names, optional = _FIELDS.get(event.__class__) or _fields_of(event.__class__)
    out: dict[str, Any] = {}
    for name in names:
        out[name] = getattr(event, name)
    for name in optional:
        if out[name] is None:
            del out[name]
    return out


def _fields_of(cls: type[Event]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An event type's names on the wire (``type`` and its fields, sorted), and those of its fields
    left out when None, read once (``fields()`` is slow)."""
    names = tuple(sorted(["type", *(f.name for f in fields(cls))]))
    _FIELDS[cls] = found = names, tuple(name for name in names if name in cls.optional)
    return found


_FIELDS: dict[type[Event], tuple[tuple[str, ...], tuple[str, ...]]] = {}


def penalised_wire(penalty: Penalised) -> dict[str, Any]:
    return {"player": penalty.player, "infraction": penalty.infraction, "points": penalty.points,
            "clause": penalty.clause}


def violation_wire(violation: Violation) -> dict[str, Any]:
    """A violation as a verdict names it: its message, its citation (the variant's, else the
    registry's own with no ruling), and what applies of its step, readings, needs and penalty."""
    out: dict[str, Any] = {"message": violation.message}
    if violation.cited is not None:
        out.update(cited_wire(violation.cited))
    else:  # a violation no variant has cited yet: the registry's own citation, no ruling
        out.update(registry_citation_wire(violation.clause))
    if violation.step is not None:
        out["step"] = violation.step
    if violation.ambiguous:
        out["ambiguous"] = True
        out["readings"] = [dict(r) for r in violation.readings]
    if violation.needs:
        out["needs"] = list(violation.needs)
    if violation.penalty is not None:
        out["penalty"] = penalised_wire(violation.penalty)
    return out


def verdict_wire(verdict: Verdict) -> dict[str, Any]:
    """What ``POST /v1/adjudicate`` answers for a hand's action."""
    result, violations, events = verdict.result, verdict.violations, verdict.events
    out = {  # (the keys in sorted order, as the answer writes them; no comprehension run on nothing)
        "events": [event_wire(e) for e in events] if events else [],
        "legal": verdict.legal,
        "result": hand_result_wire(result) if result else None,
        "state": state_wire(verdict.state),
        "violations": [violation_wire(v) for v in violations] if violations else [],
    }
    # only on an answer that depends on unseen cards, so every other answer keeps its bytes
    if verdict.undetermined:
        out["undetermined"] = [violation_wire(u) for u in verdict.undetermined]
    if verdict.settlement is not None:
        out["settlement"] = settlement_wire(verdict.settlement)
    return out


def amount_wire(amount: Amount) -> dict[str, Any]:
    """A figure of a settlement: its value when decided, else its bounds and the counts it needs."""
    if amount.decided:
        return {"value": amount.low}
    return {"undetermined": True, "min": amount.low, "max": amount.high, "needs": list(amount.needs)}


def _figure_wire(figure: tuple[tuple[str, Amount], ...]) -> dict[str, Any]:
    return {pid: amount_wire(a) for pid, a in figure}


def settlement_wire(settlement: OpenSettlement) -> dict[str, Any]:
    """A won hand's settlement figure by figure (openapi.yaml's ``OpenSettlement``)."""
    out: dict[str, Any] = {"how": settlement.how, "winner": settlement.winner,
                           "penalties": _figure_wire(settlement.penalties),
                           "payments": _figure_wire(settlement.payments), "scores": _figure_wire(settlement.scores)}
    if settlement.credits is not None:
        out["credits"] = _figure_wire(settlement.credits)
    return out
