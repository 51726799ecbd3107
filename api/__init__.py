"""The Flask layer of the Kalooki referee: ``create_app()`` is the app factory."""
from __future__ import annotations

import logging

from flask import Flask
from werkzeug.exceptions import HTTPException

from .problems import problem

MAX_BODY_BYTES = 1 * 1024 * 1024


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    if config:
        app.config.update(config)

    from .routes import bp, warm
    app.register_blueprint(bp)
    warm()  # load the variants and compile the validators now, not on a worker's first requests

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        slug = (exc.name or "error").lower().replace(" ", "-")
        response = problem(exc.code or 500, exc.name or "Error", exc.description or "", slug)
        for name, value in exc.get_headers():  # e.g. the `Allow` header a 405 must carry (RFC 9110)
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # never a traceback on the wire
        logging.getLogger("kalooki_referee").exception("unexpected error")
        return problem(500, "Internal error", "the referee failed on this request; it has been logged",
                       "internal-error")

    return app
