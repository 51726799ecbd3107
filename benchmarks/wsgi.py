"""The referee with one extra route, a bare JSON echo, for the benchmarks only (the served app,
`api.create_app()`, has no such route): `/v1/adjudicate` is measured against the cheapest JSON round
trip the same app instance can serve, through the same WSGI stack (in process, with Flask's test
client) and under the same gunicorn configuration (over HTTP).
Serve with: gunicorn -c python:kalooki_referee.api.gunicorn_conf 'benchmarks.wsgi:create()'."""
from __future__ import annotations

import orjson
from flask import Flask, Response, request

from kalooki_referee.api import create_app

ECHO_PATH = "/bench/echo"


def echo():
    """Parse the body with orjson and send it back with orjson: a request's HTTP and JSON work, no
    validation, no rules (the referee's own routes parse and answer with orjson too)."""
    return Response(orjson.dumps(orjson.loads(request.get_data())), mimetype="application/json")


def add_echo(app: Flask) -> Flask:
    """Register the echo on ``app`` (before its first request, as Flask requires)."""
    app.add_url_rule(ECHO_PATH, "bench_echo", echo, methods=["POST"])
    return app


def create() -> Flask:
    return add_echo(create_app())
