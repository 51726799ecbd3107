"""The warm-up of ``create_app`` and the readiness it gives (``GET /ready``)."""
from __future__ import annotations

from kalooki_referee.rules import all_variants
from kalooki_referee.rules.clause_ids import TURN_DRAW_MELD_DISCARD
from kalooki_referee.rules.clauses import citation
from kalooki_referee.rules.wire import contract as openapi
from kalooki_referee.rules.wire.variant import loaded_variant_count, variant_ids

from . import resources

REQUEST_COMPONENTS = ("AdjudicateRequest", "DealRequest", "GameStartRequest", "LegalActionsRequest",
                      "MeldCheckRequest", "ReplayRequest", "ScoreSheetRequest", "TournamentRequest",
                      "ViewRequest")


def warm() -> None:
    """Fill the caches every request reads (variants, clause registry, compiled validators)."""
    all_variants()
    citation(TURN_DRAW_MELD_DISCARD)
    for component in REQUEST_COMPONENTS:
        openapi.is_valid(component, None)
    resources.clauses()
    resources.sources()


def readiness() -> tuple[bool, dict[str, int]]:
    """Whether ``warm`` has filled what it fills (every variant file loaded, every request validator
    compiled), with the counts."""
    report = {"variants_loaded": loaded_variant_count(), "variants": len(variant_ids()),
              "validators_compiled": openapi.compiled_count(REQUEST_COMPONENTS), "validators": len(REQUEST_COMPONENTS)}
    return (report["variants_loaded"] >= report["variants"]
            and report["validators_compiled"] >= report["validators"]), report
