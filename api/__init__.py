"""The Flask layer of the Kalooki referee: ``create_app()`` is the app factory."""
from __future__ import annotations

import gc
import logging

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from .problems import problem

MAX_BODY_BYTES = 1 * 1024 * 1024
_PAUSED = "kalooki_referee.gc_paused"   # in a request's environ: this request paused the collector


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    if config:
        app.config.update(config)

    from .routes import bp, warm
    app.register_blueprint(bp)
    warm()  # load the variants and compile the validators now, not on a worker's first requests

    # A request makes many short-lived objects and keeps none: reference counting frees them as they
    # go, so the cyclic collector is paused while a request is answered (a collection in the middle
    # of one finds only its live objects, and promotes them to older generations, whose collections
    # then walk every object of the process: tens of milliseconds at the tail of legal-actions).
    # It runs again as soon as the request ends; whoever paused it resumes it.
    @app.before_request
    def _pause_collector() -> None:
        if gc.isenabled():
            gc.disable()
            request.environ[_PAUSED] = True

    @app.teardown_request
    def _resume_collector(exc: BaseException | None) -> None:
        if request.environ.pop(_PAUSED, False):
            gc.enable()

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
