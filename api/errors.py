"""The service's errors, in one place: RFC 9457 problem details (``application/problem+json``).
Every error answer of the service is written here and every error handler installed here, and the static answers of the proxy in front (deploy/errors/) match what
``http_problem`` writes for the same status (tests/api/test_serving.py checks them)."""
from __future__ import annotations

import json
from typing import Any

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from kalooki_referee.rules.errors import RefereeInputError, UnknownVariant

PROBLEM_TYPE_BASE = "https://kalooki-referee.example/problems/"

# A problem quotes the request only in part: a field name or a value of any size may reach an
# error message (an unknown house rule, a value that is not a number), and the answer stays small.
MAX_DETAIL = 500
MAX_POINTER_TOKEN = 64


def problem(status: int, title: str, detail: str, slug: str, errors: list[dict[str, str]] | None = None,
            **extra: Any) -> Response:
    body: dict[str, Any] = {"type": PROBLEM_TYPE_BASE + slug, "title": title, "status": status, "detail": detail}
    if errors is not None:  # every item names its code: its own, else the problem's type
        fallback = slug.upper().replace("-", "_")
        body["errors"] = [e if "code" in e else {**e, "code": fallback} for e in errors]
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
    errors = [{"pointer": _short_pointer(p.pointer), "detail": _cut(p.detail, MAX_DETAIL), "code": exc.code_of(p)}
              for p in exc.problems]
    detail = "; ".join(f"{e['pointer'] or '/'}: {e['detail']}" for e in errors) if errors else exc.detail
    return problem(status, exc.title, _cut(detail, 2000), exc.type_slug, errors)


class Refusal(Exception):
    """A request refused before the rules core sees it (its media type, its JSON, a query parameter):
    the problem answer it carries is the answer."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status)
        self.response = response


def refusal(status: int, title: str, detail: str, slug: str, errors: list[dict[str, str]] | None = None) -> Refusal:
    return Refusal(problem(status, title, detail, slug, errors))


def bad_query(detail: str) -> Refusal:
    """A query parameter out of its bounds (400)."""
    return refusal(400, "Bad query parameter", detail, "bad-query-parameter")


# The request's id, in its WSGI environ from the moment the app receives it (api/ops.py).
REQUEST_ID = "kalooki.request_id"


def log_exception(message: str, exc: BaseException) -> None:
    """A log line for an error no handler expected, with the request's id and the traceback (the
    request log of api/ops.py)."""
    current_app.extensions["kalooki_referee.log"].error(message, request_id=request.environ.get(REQUEST_ID),
                                                        method=request.method, path=request.path, exc_info=exc)


def install(app: Flask) -> None:
    """Every error answer of ``app`` as problem+json: refusals, the rules core's input errors, HTTP
    errors (a size limit, an unknown path, a method not allowed) and anything unexpected."""
    @app.errorhandler(Refusal)
    def _refused(exc: Refusal) -> Response:
        return exc.response

    @app.errorhandler(RefereeInputError)
    def _input_error(exc: RefereeInputError) -> Response:
        return from_error(exc, 404 if isinstance(exc, UnknownVariant) and request.method == "GET" else 422)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        response = http_problem(exc.code or 500, exc.name or "Error", exc.description or "")
        for name, value in exc.get_headers():  # e.g. the `Allow` header a 405 must carry (RFC 9110)
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:  # never a traceback on the wire
        log_exception("unexpected error", exc)
        return problem(500, "Internal error", "the referee failed on this request; it has been logged",
                       "internal-error")
