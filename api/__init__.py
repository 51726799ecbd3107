"""The Flask layer of the Kalooki referee: ``create_app()`` is the app factory.

A blueprint per resource: verdicts (``verdicts``), games (``games``), the rules as resources
(``resources``), what the suite and the contract say (``suite``), the signing keys (``keys``), the
operator's probes and metrics (``ops``), the page (``page``), the API documentation (``docs``), the
card pictures (``cards``) and positions as text and QR codes (``notation``).
A request's body is read by one decorator (``wire.json_body``); every error answer is made in
``errors``."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from flask import Flask

# The modules are imported by create_app, not here: gunicorn reads its configuration from
# kalooki_referee.api.gunicorn_conf, which imports this package first, and that configuration must set
# PROMETHEUS_MULTIPROC_DIR before prometheus_client is imported (by ops), which fixes its storage then.


class RefereeApp(Flask):
    """Flask, with ``ensure_sync``'s answer kept per function: Flask asks it of every hook and view
    on every request (an ``inspect`` of the function's code flags each time), and the answer for a
    given function never changes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            return self._synced[func]
        except KeyError:
            synced = self._synced[func] = super().ensure_sync(func)
            return synced
        except TypeError:  # (an unhashable callable)
            return super().ensure_sync(func)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    from . import budget, cards, deadline, docs, errors, games, keys, notation, ops, page, resources, suite, verdicts
    from .signing import load_key
    from .warmup import warm
    from .wire import MAX_BODY_BYTES, WholeBodyRequest

    blueprints = (verdicts.bp, games.bp, resources.bp, suite.bp, keys.bp, ops.bp, page.bp, docs.bp, cards.bp, notation.bp)
    app = RefereeApp(__name__)
    app.request_class = WholeBodyRequest
    # One byte over the limit is let through werkzeug so that a body sent without a Content-Length
    # (chunked) can be told apart from one of exactly the limit: wire.read_body refuses it with 413.
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES + 1)
    if config:
        app.config.update(config)
    # the key rulings are signed with: configured in the environment (or the app's config, which
    # takes precedence: the examples of openapi.yaml sign with a published example key), else
    # ephemeral (GET /v1/keys)
    app.extensions["kalooki_signing_key"] = load_key(
        {**os.environ, **{k: v for k, v in app.config.items() if k.startswith("KALOOKI_SIGNING_KEY")}})
    notation.configure(app)  # the public address links start with (KALOOKI_PUBLIC_URL)
    ops.install(app)  # CORS, request ids, the JSON request log, the metrics, security headers
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    warm()  # load the variants and compile the validators now, not on a worker's first requests
    budget.install(app)  # each client's share of the CPU, on the routes that compute (every POST)
    deadline.install(app)
    errors.install(app)
    return app
