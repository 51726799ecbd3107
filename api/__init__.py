"""The Flask layer of the Kalooki referee: ``create_app()`` is the app factory."""
from __future__ import annotations

import os

from flask import Flask
from werkzeug.exceptions import HTTPException

from . import deadline
from .problems import http_problem, problem

MAX_BODY_BYTES = 1 * 1024 * 1024


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    # One byte over the limit is let through werkzeug so that a body sent without a Content-Length
    # (chunked) can be told apart from one of exactly the limit: routes._body refuses it with 413.
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES + 1)
    if config:
        app.config.update(config)

    from .cards import bp as cards
    from .docs import bp as docs
    from .page import bp as page_bp
    from .signing import load_key
    # the key rulings are signed with: configured in the environment (or the app's config, which
    # takes precedence: the examples of openapi.yaml sign with a published example key), else
    # ephemeral (GET /v1/keys)
    app.extensions["kalooki_signing_key"] = load_key(
        {**os.environ, **{k: v for k, v in app.config.items() if k.startswith("KALOOKI_SIGNING_KEY")}})
    from . import ops
    from .routes import bp, warm
    ops.install(app)  # CORS, request ids, the JSON request log, /metrics, security headers
    app.register_blueprint(bp)
    app.register_blueprint(page_bp)
    app.register_blueprint(docs)
    app.register_blueprint(cards)
    warm()  # load the variants and compile the validators now, not on a worker's first requests
    deadline.install(app)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        response = http_problem(exc.code or 500, exc.name or "Error", exc.description or "")
        for name, value in exc.get_headers():  # e.g. the `Allow` header a 405 must carry (RFC 9110)
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # never a traceback on the wire
        ops.log_exception("unexpected error", exc)
        return problem(500, "Internal error", "the referee failed on this request; it has been logged",
                       "internal-error")

    return app
