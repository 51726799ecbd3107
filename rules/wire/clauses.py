"""A clause as a verdict cites it (rules/clauses.py) on the wire: the ``clause``, ``statement``,
``sources`` and ``rulings`` that openapi.yaml's ``Violation`` (and a score sheet's ``inconsistency``)
carry."""
from __future__ import annotations

from typing import Any

from ..clauses import Cited, Source, citation


def source_wire(source: Source) -> dict[str, str]:  # pragma: no cover - as registry_citation_wire
    return {"document": source.document, "section": source.section}


def cited_wire(cited: Cited) -> dict[str, Any]:
    """A variant's citation of a rule (``Variant.citation``): the clause it cites, its statement, its
    sources in the variant's documents and the rulings it rests on."""
    return {"clause": cited.clause, "statement": cited.statement,
            "sources": [{"document": d, "section": s} for d, s in cited.sources],
            "rulings": list(cited.rulings)}


def registry_citation_wire(clause_id: str) -> dict[str, Any]:  # pragma: no cover - a verdict's violations are cited by its variant
    """The registry's own citation of a clause no variant has cited: every source, no ruling."""
    c = citation(clause_id)
    return {"clause": clause_id, "statement": c.statement, "sources": [source_wire(s) for s in c.sources],
            "rulings": []}
