"""The suite blueprint: what this implementation claims (``GET /v1/capabilities``: its version, its
variants, its endpoints and the vector suite it passes) and its contract (``GET /openapi.yaml``)."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response

from kalooki_referee import __version__
from kalooki_referee.rules import all_variants
from kalooki_referee.rules.wire import contract as openapi

from .wire import json_answer

bp = Blueprint("suite", __name__)

SUITE = "kalooki-referee-vectors"
SUITE_VERSION = (Path(__file__).resolve().parent.parent / "vectors" / "VERSION").read_text(encoding="utf-8").strip()
ENDPOINTS = ["adjudicate", "deal", "melds/check", "games", "scoresheet", "replay", "legal-actions", "tournaments", "views", "notation"]


@bp.get("/v1/capabilities")
def capabilities_route() -> Response:
    return json_answer({"implementation": {"name": "kalooki-referee", "version": __version__},
                        "variants": [v.id for v in all_variants()],
                        "vector_suite": {"name": SUITE, "version": SUITE_VERSION},
                        "endpoints": ENDPOINTS,
                        "previews": {v.id: list(v.not_enforced) for v in all_variants() if v.status == "preview"}})


@bp.get("/openapi.yaml")
def openapi_route() -> Response:
    return Response(openapi.openapi_text(), mimetype="application/yaml")
