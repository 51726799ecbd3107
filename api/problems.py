"""RFC 9457 problem details (``application/problem+json``): every error answer of the service is
written here, and the static answers of the proxy in front (deploy/errors/) match what
``http_problem`` writes for the same status (tests/test_serving.py checks them)."""
from __future__ import annotations

import json

from flask import Response

from kalooki_referee.rules.errors import RefereeInputError

PROBLEM_TYPE_BASE = "https://kalooki-referee.example/problems/"

# A problem quotes the request only in part: a field name or a value of any size may reach an
# error message (an unknown house rule, a value that is not a number), and the answer stays small.
MAX_DETAIL = 500
MAX_POINTER_TOKEN = 64


def problem(status: int, title: str, detail: str, slug: str, errors: list[dict] | None = None,
            **extra) -> Response:
    body = {"type": PROBLEM_TYPE_BASE + slug, "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    body.update(extra)
    return Response(json.dumps(body, ensure_ascii=False, sort_keys=True), status=status,
                    mimetype="application/problem+json")


def http_slug(name: str) -> str:
    """The problem type of an HTTP-level refusal, from the status's reason phrase."""
    return name.lower().replace(" ", "-")


def http_problem(status: int, name: str, description: str) -> Response:
    """An HTTP-level refusal (a size limit, an unknown path, a method not allowed)."""
    return problem(status, name, description, http_slug(name))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _short_pointer(where: str) -> str:
    """A pointer whose overlong tokens are cut: it still says where, without quoting a huge key."""
    if len(where) <= MAX_POINTER_TOKEN:
        return where
    return "/".join(_cut(token, MAX_POINTER_TOKEN) for token in where.split("/"))


def from_error(exc: RefereeInputError, status: int = 422) -> Response:
    errors = [{"pointer": _short_pointer(p.pointer), "detail": _cut(p.detail, MAX_DETAIL)} for p in exc.problems]
    detail = "; ".join(f"{e['pointer'] or '/'}: {e['detail']}" for e in errors) if errors else exc.detail
    return problem(status, exc.title, _cut(detail, 2000), exc.type_slug, errors)
