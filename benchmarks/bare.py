"""The bare echo app: the yardstick of the request benchmarks.

A separate, minimal Flask app with one route, `POST /bench/echo`, that parses the body with orjson and
writes it back with orjson, and nothing else: no hooks, no logs, no metrics, no headers of its own,
no deadline.  It is what a Flask app costs per request at the least, so that

- `/v1/adjudicate` on the referee (target: at least 80% of its throughput), and
- `/bench/echo` on the referee's own app (benchmarks/wsgi.py: everything that runs around every
  request of the referee, target: at least 90%)

are both measured against it, served under the same gunicorn settings (api/gunicorn_conf.py):

    gunicorn -c python:kalooki_referee.api.gunicorn_conf 'benchmarks.bare:create()'
"""
from __future__ import annotations

import orjson
from flask import Flask, Response, request

ECHO_PATH = "/bench/echo"


def echo() -> Response:
    return Response(orjson.dumps(orjson.loads(request.get_data())), mimetype="application/json")


def create() -> Flask:
    app = Flask(__name__)
    app.add_url_rule(ECHO_PATH, "echo", echo, methods=["POST"])
    return app
