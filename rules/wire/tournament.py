"""A tournament of tables (rules/tournament.py) on the wire: openapi.yaml's ``Tournament``,
``TournamentEvent`` and ``TournamentVerdict``."""
from __future__ import annotations

from typing import Any, Mapping

from ..tournament import Table, Tournament, TournamentEvent, TournamentVerdict, checked_event, checked_tournament
from ..variant import Variant
from .verdicts import event_wire, violation_wire


def tournament_value(data: Mapping[str, Any]) -> Tournament:
    """A ``Tournament`` (its shape already checked against openapi.yaml) as the core's value, unchecked."""
    tables = tuple(Table(t["id"], t["round"], tuple(t["seats"]), tuple(t.get("left") or ()),
                         tuple(t.get("winners") or ())) for t in data["tables"])
    return Tournament(data["stage"], tables, tuple(data.get("pool") or ()), data.get("winner"))


def read_tournament(data: Mapping[str, Any], variant: Variant) -> Tournament:
    """A tournament's wire form as the core's value, checked by the core: a player named twice or tables
    out of order a ``MalformedInput``, a tournament that cannot occur an ``ImpossibleState``."""
    return checked_tournament(tournament_value(data), variant)


def read_tournament_event(data: Mapping[str, Any]) -> TournamentEvent:
    """A ``TournamentEvent`` as the core's value, checked (winners named twice: ``MalformedInput``)."""
    return checked_event(TournamentEvent(data["type"], data["table"], data.get("player"),
                                         tuple(data.get("winners") or ())))


def table_wire(table: Table) -> dict[str, Any]:
    return {"id": table.id, "round": table.round, "seats": list(table.seats), "left": list(table.left),
            "winners": list(table.winners)}


def tournament_wire(tournament: Tournament) -> dict[str, Any]:
    return {"stage": tournament.stage, "tables": [table_wire(t) for t in tournament.tables],
            "pool": list(tournament.pool), "winner": tournament.winner}


def tournament_verdict_wire(verdict: TournamentVerdict) -> dict[str, Any]:
    return {"legal": verdict.legal, "violations": [violation_wire(v) for v in verdict.violations],
            "tournament": tournament_wire(verdict.tournament), "events": [event_wire(e) for e in verdict.events]}
