"""RFC 9457 problem details (``application/problem+json``)."""
from __future__ import annotations

import json

from flask import Response

from kalooki_referee.rules.errors import RefereeInputError

PROBLEM_TYPE_BASE = "https://kalooki-referee.example/problems/"


def problem(status: int, title: str, detail: str, slug: str, errors: list[dict] | None = None,
            **extra) -> Response:
    body = {"type": PROBLEM_TYPE_BASE + slug, "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    body.update(extra)
    return Response(json.dumps(body, ensure_ascii=False, sort_keys=True), status=status,
                    mimetype="application/problem+json")


def from_error(exc: RefereeInputError, status: int = 422) -> Response:
    errors = [p.to_dict() for p in exc.problems]
    return problem(status, exc.title, exc.detail[:2000], exc.type_slug, errors)
