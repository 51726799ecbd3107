"""The rules blueprint, the rules as resources: the variants, the source documents, the clauses and
each variant's rulings (``GET /v1/variants``, ``/v1/variants/{id}``, ``/v1/variants/{id}/rulings``,
``/v1/clauses``, ``/v1/clauses/{id}``, ``/v1/sources``, ``/v1/sources/{id}``).

Everything here is read from the clause registry (``rules/clauses.yaml``, ``rules/referee-clauses.yaml``)
and the variant files, once: the answers are the same for the life of the process."""
from __future__ import annotations

import functools
from typing import Any, Mapping

from flask import Blueprint, Response, abort

from kalooki_referee.rules import all_variants, load_variant
from kalooki_referee.rules.clauses import documents, registry
from kalooki_referee.rules.variant import Ruling, Variant
from kalooki_referee.rules.wire.variant import ruling_wire, variant_wire

from .wire import json_answer, text_option

bp = Blueprint("rules", __name__)


def _source(document: str, section: str) -> dict[str, str]:
    """A cited place: the document's id, the section's heading and the document's title."""
    return {"document": document, "section": section, "title": str(documents()[document]["title"])}


def ruling_source(text: str) -> tuple[str, str]:
    """A ruling's source as its variant file writes it, ``"pagat: The play"``: (document, section)."""
    document, _, section = text.partition(": ")
    return document, section


def ruling(decision: Ruling) -> dict[str, Any]:
    """One ruling of a variant (a ``decisions`` entry) as the API serves it: its sources with their titles."""
    return {**ruling_wire(decision), "sources": [_source(*ruling_source(s)) for s in decision.sources]}


def variant_rulings(variant: Variant) -> dict[str, Any]:
    return {"variant": variant.id, "rulings": [ruling(d) for d in variant.decisions]}


@functools.lru_cache(maxsize=1)
def clauses() -> Mapping[str, dict[str, Any]]:
    """Every registered clause (the catalogue's and the referee's own), by id, with the parameters
    that switch it and the rulings that touch it in any variant this referee plays: the rulings a
    verdict citing it names (``Variant.rulings``), with or without house rules (a clause that is the
    ``otherwise`` of another, cited where a house rule changes that one's number, is touched by that
    one's rulings)."""
    variants = all_variants()
    stands_for: dict[str, set[str]] = {}
    for cid, c in registry().items():
        if c.parameter is not None:
            stands_for.setdefault(c.parameter.otherwise, set()).add(cid)
    out = {}
    for cid, c in registry().items():
        cited_as = {cid} | stands_for.get(cid, set())
        touching = [(v, d) for v in variants for d in v.decisions
                    if any(d.id in v.rulings(x) for x in cited_as)]
        parameters = set(c.parameters)
        if c.parameter is not None:
            parameters.add(c.parameter.pointer)
        parameters.update(d.switch for _, d in touching if d.switch)
        out[cid] = {
            "id": cid, "kind": c.kind, "category": c.category, "level": c.level,
            "statement": c.statement,
            "sources": [_source(s.document, s.section) for s in c.sources],
            "variants": [v.id for v in variants if cid in v.clauses],   # said once, by the variant files
            "parameters": sorted(parameters),
            "rulings": sorted({d.id for _, d in touching}),
        }
    return out


@functools.lru_cache(maxsize=1)
def sources() -> Mapping[str, dict[str, Any]]:
    """Every source document, by id: its title, publisher, address (or null) and every section a
    clause or a ruling cites."""
    cited: dict[str, set[str]] = {doc: set() for doc in documents()}
    for c in registry().values():
        for s in c.sources:
            cited[s.document].add(s.section)
    for v in all_variants():
        for d in v.decisions:
            for text in d.sources:
                document, section = ruling_source(text)
                cited[document].add(section)
    return {doc: {"id": doc, "title": meta["title"], "url": meta.get("url"),
                  "published_by": meta.get("published_by"), "file": meta["file"],
                  "sections": sorted(cited[doc])}
            for doc, meta in documents().items()}


@bp.get("/v1/variants")
def variants_route() -> Response:
    listed = []
    for v in all_variants():
        whole = variant_wire(v)
        listed.append({"id": v.id, "name": v.name, "family": v.family, "extends": v.extends,
                       "sources": whole["sources"], "parameters": whole["parameters"],
                       "status": v.status, "not_enforced": list(v.not_enforced), "tables": whole["tables"]})
    return json_answer({"variants": listed})


@bp.get("/v1/variants/<variant_id>")
def variant_route(variant_id: str) -> Response:
    return json_answer(variant_wire(load_variant(variant_id)))


@bp.get("/v1/variants/<variant_id>/rulings")
def variant_rulings_route(variant_id: str) -> Response:
    return json_answer(variant_rulings(load_variant(variant_id)))


@bp.get("/v1/clauses")
def clauses_route() -> Response:
    """Every clause; ``?variant=`` keeps those the variant plays under, ``?category=`` those of a topic."""
    found = list(clauses().values())
    variant_id, category = text_option("variant"), text_option("category")
    if variant_id is not None:
        found = [c for c in found if load_variant(variant_id).id in c["variants"]]  # 404 when unknown
    if category is not None:
        found = [c for c in found if c["category"] == category]
    return json_answer({"clauses": found})


@bp.get("/v1/clauses/<clause_id>")
def clause_route(clause_id: str) -> Response:
    found = clauses().get(clause_id)
    if found is None:
        abort(404, description="no clause has this id; GET /v1/clauses lists them")
    return json_answer(found)


@bp.get("/v1/sources")
def sources_route() -> Response:
    return json_answer({"sources": list(sources().values())})


@bp.get("/v1/sources/<source_id>")
def source_route(source_id: str) -> Response:
    found = sources().get(source_id)
    if found is None:
        abort(404, description=f"no source document has this id; known: {', '.join(sources())}")
    return json_answer(found)
