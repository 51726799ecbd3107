"""A score sheet (rules/scoresheet.py) on the wire: openapi.yaml's ``ScoreSheetRequest`` (its
``HandEntry`` items read into typed entries) and ``ScoreSheetResponse``."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..cards import CardError, parse_card
from ..errors import MalformedInput, Problem, pointer
from ..scoresheet import SettledSheet, SheetEntry, settle_sheet
from ..variant import Variant
from .clauses import cited_wire
from .game import game_player_wire, read_stakes
from .verdicts import event_wire

INT_TABLES = ("penalties", "credits", "scores", "ledger", "infractions")


def read_entry(data: Mapping[str, Any], i: int) -> SheetEntry:
    """One ``HandEntry`` (its shape already checked against openapi.yaml, ``i`` its index) as the
    core's value: its numbers made integers (``1E2`` is 100), its cards read."""
    tables = {k: {pid: int(v) for pid, v in data[k].items()} for k in INT_TABLES if k in data}
    payments = data.get("payments")
    hands = {}
    for pid, cards in (data.get("hands") or {}).items():
        try:
            hands[pid] = tuple(parse_card(c) for c in cards)
        except CardError as exc:  # pragma: no cover - openapi.yaml's Card pattern admits only card codes
            raise MalformedInput(Problem(pointer("hands", i, "hands", pid), str(exc))) from None
    return SheetEntry(data["how"], data.get("winner"), payments=None if payments is None else
                      {pid: int(v) for pid, v in payments.items()}, hands=hands,
                      buy_ins=dict(data.get("buy_ins") or {}), cut_bonus=bool(data.get("cut_bonus")), **tables)


def read_entries(data: Sequence[Mapping[str, Any]]) -> list[SheetEntry]:
    return [read_entry(h, i) for i, h in enumerate(data)]


def sheet_wire(variant: Variant, sheet: SettledSheet) -> dict[str, Any]:
    """``ScoreSheetResponse``: the rows, the players, the pool, the phase, the winner and the final
    settlement the sheet leaves, what happened, and its first inconsistency cited under ``variant``."""
    game, found = sheet.game, sheet.inconsistency
    return {
        "stakes": dict(game.stakes),
        "rows": [dict(r) for r in game.sheet],
        "players": [game_player_wire(p) for p in game.players],
        "pool": game.pool,
        "phase": game.phase,
        "buy_in_queue": list(game.buy_in_queue),
        "winner": game.winner,
        "settlement": sheet.settlement,
        "events": [event_wire(e) for e in sheet.events],
        "inconsistency": None if found is None else {"hand": found.hand, "pointer": found.pointer,
                                                     "message": found.message,
                                                     **cited_wire(variant.citation(found.clause))},
    }


def score_sheet(variant: Variant, players: list[str], hands: Sequence[Mapping[str, Any]], stakes: Any = None,  # pragma: no cover - the library's entry (docs/library.md runs it); the API reads its request in api/requests.py
                dealer: str | None = None) -> dict[str, Any]:
    """The answer to ``POST /v1/scoresheet`` for a sheet as the wire gives it: the players, the hands'
    entries (``HandEntry``), the stakes (``StakesChoice``) and the first dealer."""
    return sheet_wire(variant, settle_sheet(variant, players, read_entries(hands), read_stakes(stakes), dealer))
