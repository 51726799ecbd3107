"""What an operator expects around every answer, wired into the app by ``install`` (called by
``create_app``): CORS, a request id, one JSON log line per request, Prometheus metrics, and the
security and caching headers; and the ops blueprint: ``GET /health``, ``/ready`` and ``/metrics``.

Everything here runs on every request, so the per-request work is kept to a few dictionary look-ups:
the metric series of a (route, method, status) are looked up once and kept, the header values are
constants appended as they are, and a fresh request id costs no system call.  Every log line, the
request's and the errors' with their tracebacks, is written by one structlog logger.
"""
from __future__ import annotations

import functools
import gc
import logging
import os
import re
import sys
from random import getrandbits
from time import gmtime, perf_counter, strftime, time
from collections.abc import Callable, MutableMapping
from typing import Any, BinaryIO, cast

import orjson
import structlog
from flask import Blueprint, Flask, Response, current_app, request
from flask_cors import CORS
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest, multiprocess

from kalooki_referee import __version__

from .errors import REQUEST_ID, problem
from .warmup import readiness
from .wire import View, json_answer

bp = Blueprint("ops", __name__)

REQUEST_ID_HEADER = "X-Request-ID"
# An incoming request id is kept when it is a plain token of bounded length; anything else (too long,
# spaces, quotes, non-ASCII) is replaced by a fresh one, so what is echoed and logged is always safe.
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")

CORS_ORIGINS_ENV = "KALOOKI_CORS_ORIGINS"
DEFAULT_CORS_ORIGINS = "*"  # public and stateless: no cookies, no credentials, any page may call it
CORS_MAX_AGE = 600  # seconds a browser may keep a preflight's answer
# The routes no other site's page may read, whatever KALOOKI_CORS_ORIGINS allows: the operator's
# metrics (deploy/nginx.conf also keeps them from any address but the operator's).
PRIVATE_ROUTES = frozenset({"/metrics"})

# The answers that are the same for everyone until the next deployment may be cached briefly by
# browsers and shared caches; every other answer (verdicts, probes, metrics, problems) is never stored.
CACHEABLE_ROUTES = frozenset({"/v1/variants", "/v1/variants/<variant_id>", "/v1/capabilities", "/openapi.yaml"})
CACHE_PUBLIC = "public, max-age=300"
CACHE_NEVER = "no-store"

# Same-origin pages only: scripts, styles, images and fetches from this origin (Swagger UI and the
# page at / are served from it), inline styles (Swagger UI sets style attributes), data: images (its
# icons), no plugins, and framing by this origin only.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                           "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'")
# A JSON answer (verdicts, problems, probes) is data, never a document a browser should render or
# frame: nothing may load from it and nobody may frame it (the pair OWASP's REST security cheat
# sheet gives for APIs).  It is also the short one, which matters: the server checks every header
# byte by byte on every answer.
JSON_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'"

# The metrics.  In gunicorn every worker writes its own figures to files in PROMETHEUS_MULTIPROC_DIR
# (set up by api/gunicorn_conf.py) and /metrics sums them over the workers; in a single process (the
# Flask test client, the development server) they live in prometheus-client's ordinary registry.
REQUESTS = Counter("kalooki_http_requests", "HTTP requests answered, by route template, method and status",
                   ["route", "method", "status"])
LATENCY = Histogram("kalooki_http_request_duration_seconds",
                    "Time from a request's arrival at the app to its answer, by route template and method", ["route", "method"],
                    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
VERDICTS = Counter("kalooki_verdicts", "Verdicts given, by endpoint and outcome (legal, illegal or undetermined)",
                   ["endpoint", "outcome"])

METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"  # Prometheus' text format
UNMATCHED = "unmatched"  # the route label of a request no route matched (404, 405)
_METHODS = frozenset({"GET", "HEAD", "POST", "OPTIONS"})  # any other method is labelled "other"


def note_verdict(legal: bool | None) -> None:
    """Record the outcome of the verdict this request gives (legal, illegal, or undetermined where
    it depends on cards nobody listed): counted per endpoint and written in the request's log line."""
    request.environ[_OUTCOME] = "undetermined" if legal is None else "legal" if legal else "illegal"


class _UtcTime:
    """A structlog processor adding ``time``: UTC, ISO 8601 with microseconds.  The date and time of
    day are formatted once a second, not once a line."""

    def __init__(self) -> None:
        self.second = -1
        self.prefix = ""

    def __call__(self, logger: object, method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        event["time"] = self.stamp()
        return event

    def stamp(self) -> str:
        """Now, as ``time`` is written."""
        now = time()
        second = int(now)
        if second != self.second:
            self.second, self.prefix = second, strftime("%Y-%m-%dT%H:%M:%S", gmtime(second))
        return f"{self.prefix}.{int((now - second) * 1_000_000):06d}Z"


def request_logger(stream: BinaryIO) -> Any:
    """A structlog logger writing one JSON object per line to ``stream``: the event and its fields,
    the level, the time, and any exception's traceback as text."""
    return structlog.wrap_logger(
        structlog.BytesLogger(stream),
        processors=[structlog.processors.add_log_level, _UtcTime(), structlog.processors.format_exc_info,
                    structlog.processors.JSONRenderer(serializer=orjson.dumps)],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
    ).bind()


def cors_origins(value: str) -> str | list[str]:
    """``KALOOKI_CORS_ORIGINS``: ``*`` for any origin, else the allowed origins separated by commas
    (an empty value allows none)."""
    value = value.strip()
    if value == "*":
        return "*"
    return [origin.strip() for origin in value.split(",") if origin.strip()]


def _metrics_registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # reads every worker's files at each scrape
        return registry
    return REGISTRY


def install(app: Flask) -> None:
    """Add CORS, request ids, the request log, the metrics and the headers to ``app``.  The log goes
    to standard error, or to the binary stream given as ``KALOOKI_LOG_STREAM`` in the app's config."""
    log = request_logger(app.config.get("KALOOKI_LOG_STREAM") or sys.stderr.buffer)
    app.extensions["kalooki_referee.log"] = log
    app.extensions["kalooki_referee.metrics"] = _metrics_registry()
    recorder = _Recorder(log, _cors_hooks(app))
    app.after_request(recorder.finish)
    app.wsgi_app = _around(app.wsgi_app)  # type: ignore[method-assign]


def _cors_hooks(app: Flask) -> tuple[Callable[[Response], Response], ...]:
    """flask-cors set up on ``app``; its answer hooks, which ``_Recorder.finish`` calls itself and only
    for a request that carries an Origin (what browsers send cross-origin): other clients get the same
    answer as without CORS, byte for byte."""
    origins = cors_origins(app.config.get(CORS_ORIGINS_ENV, os.environ.get(CORS_ORIGINS_ENV, DEFAULT_CORS_ORIGINS)))
    hooks = app.after_request_funcs.setdefault(None, [])
    before_cors = list(hooks)
    CORS(app, origins=origins, send_wildcard=origins == "*", always_send=False, methods=["GET", "POST"],
         allow_headers=["Content-Type", REQUEST_ID_HEADER], expose_headers=[REQUEST_ID_HEADER],
         max_age=CORS_MAX_AGE)
    added = tuple(cast(Callable[[Response], Response], hook) for hook in hooks if hook not in before_cors)
    hooks[:] = before_cors
    return added


# The headers every answer carries after its request id: constant (name, value) pairs, sent as they
# are (``_around``), not checked one by one on every answer.
_SECURITY = (("Content-Security-Policy", CONTENT_SECURITY_POLICY), ("X-Frame-Options", "SAMEORIGIN"))
_JSON_SECURITY = (("Content-Security-Policy", JSON_CONTENT_SECURITY_POLICY), ("X-Frame-Options", "DENY"))
_NOSNIFF = ("X-Content-Type-Options", "nosniff")
_JSON_TYPES = frozenset({"application/json", "application/problem+json"})


def _headers(response: Response, rid: str, route: str, method: str) -> list[tuple[str, str]]:
    """The request id and the security and caching headers every answer carries (``_around``
    sends them)."""
    # a route may set its own Cache-Control (static files) or policy (the page); (looked for in the
    # pairs: werkzeug's `in` raises and catches an HTTP exception for each name it does not find)
    cached = policy = False
    security = _SECURITY
    for name, value in response.headers._list:
        lowered = name.lower()
        if lowered == "content-type":
            if value in _JSON_TYPES:
                security = _JSON_SECURITY
        elif lowered == "cache-control":
            cached = True
        elif lowered == "content-security-policy":
            policy = True
    pairs = [(REQUEST_ID_HEADER, rid), _NOSNIFF]
    if not cached:
        pairs.append(("Cache-Control", CACHE_PUBLIC if route in CACHEABLE_ROUTES and response.status_code == 200
                      and method in ("GET", "HEAD") else CACHE_NEVER))
    if policy:  # the route's own policy stands alone (two policies would both be enforced)
        pairs.append(security[1])
    else:
        pairs += security
    return pairs


# What a request's handling leaves in its WSGI environ for the others: when it started and its id
# (``_around``), its verdict's outcome (``note_verdict``), and its answer's own headers (``finish``).
_STARTED, _OUTCOME, _SEND = "kalooki.started", "kalooki.outcome", "kalooki.headers"


def _around(wsgi_app: Callable[..., Any]) -> Callable[..., Any]:
    """``wsgi_app`` with each request's start time and id noted before the app sees it, and its
    answer's own headers (``_headers``, left by ``_Recorder.finish``) sent after the app's.

    Both are kept in the environ rather than in Flask's ``g``: each read of ``g`` or ``request`` is a
    context look-up.  The headers are added to the list handed to the server, not to the response's:
    werkzeug would copy and check the response's every header again on its way out, and these are
    constants or a checked token (the request id, see _SANE_REQUEST_ID)."""
    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        environ[_STARTED] = perf_counter()
        incoming = environ.get("HTTP_X_REQUEST_ID")
        environ[REQUEST_ID] = (incoming if incoming is not None and _SANE_REQUEST_ID.fullmatch(incoming)
                               else fresh_request_id())

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers += environ.pop(_SEND, ())
            return start_response(status, headers, exc_info)
        return wsgi_app(environ, start)
    return app


def fresh_request_id() -> str:
    """A request id made here: 128 random bits as 32 hex digits, from the random module (no system
    call per request; it is reseeded in every forked worker, so workers never share a sequence).
    An id correlates log lines with answers: it needs to be unique, not secret."""
    return f"{getrandbits(128):032x}"


class _Recorder:
    """At a request's answer: CORS (for a request with an Origin), the headers, the metrics and the
    log line.  Each metric series is looked up in prometheus-client once, then kept here."""

    def __init__(self, log: Any, cors: tuple[Callable[[Response], Response], ...]) -> None:
        self.log, self.cors = log, cors
        self.series_by: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self.verdicts_by: dict[str, dict[str, Any]] = {}

    def finish(self, response: Response) -> Response:
        req = request._get_current_object()  # type: ignore[attr-defined]
        environ = req.environ
        now = perf_counter()
        seconds = now - environ.get(_STARTED, now)  # (0 for a request made without the wrapper)
        rule = req.url_rule
        route = rule.rule if rule is not None else UNMATCHED
        if "HTTP_ORIGIN" in environ and route not in PRIVATE_ROUTES:
            for hook in self.cors:
                response = hook(response)
        rid = environ.get(REQUEST_ID) or environ.setdefault(REQUEST_ID, fresh_request_id())
        method = req.method if req.method in _METHODS else "other"
        status = response.status_code
        environ[_SEND] = _headers(response, rid, route, method)

        key = (route, method, status)
        series = self.series_by.get(key)
        if series is None:
            series = self.series_by[key] = (REQUESTS.labels(route, method, str(status)), LATENCY.labels(route, method))
        series[0].inc()
        series[1].observe(seconds)

        # (the duration in whole microseconds, written in milliseconds: what round(ms, 3) gives, without
        # its decimal rounding, the dearest step of the line)
        line = {"method": req.method, "path": req.path, "status": status,
                "duration_ms": int(seconds * 1_000_000 + 0.5) / 1000, "request_id": rid}
        outcome = environ.get(_OUTCOME)
        if outcome is not None:
            verdicts = self.verdicts_by.get(route)
            if verdicts is None:
                verdicts = self.verdicts_by[route] = {o: VERDICTS.labels(route, o)
                                                      for o in ("legal", "illegal", "undetermined")}
            verdicts[outcome].inc()
            line["outcome"] = outcome
        elif status >= 400 and response.mimetype == "application/problem+json":
            line["outcome"] = "problem"
        self.log.info("request", **line)
        return response


# The collector as a serving worker runs it (api/gunicorn_conf.py's post_worker_init), once the app
# is loaded: the long-lived objects (variants, validators, the clause registry) are moved out of
# every collection.  The thresholds stay Python's own.  A young generation collected every 50,000
# new objects instead of 700 makes the median request cheaper but gathers the collector's work into
# rare long pauses: measured with those settings in process, 3 runs in 5 gave /v1/legal-actions a
# p99 of 113 to 136 ms (against 10 to 11 ms with the
# thresholds left alone), over its 20 ms target.


def settle_collector() -> None:
    """Set the cyclic collector as a serving worker runs it, after the app is loaded (gunicorn's
    post_worker_init; the in-process benchmarks, to measure the referee as it is served)."""
    gc.freeze()


def collector_paused(view: View) -> View:
    """``view`` answered with the cyclic garbage collector paused, for the routes that make thousands
    of objects a request (a listing, a replay) and keep none: reference counting frees them as they
    go, while a collection in the middle of one would walk them all, promote them to older
    generations, and lead to collections of every object of the process (tens of milliseconds at
    the tail of a listing).  It runs again when the answer is made; a host that runs without it
    keeps it off."""
    @functools.wraps(view)
    def paused(*args: Any, **kwargs: Any) -> Response:
        if not gc.isenabled():
            return view(*args, **kwargs)
        gc.disable()
        try:
            return view(*args, **kwargs)
        finally:
            gc.enable()
    return paused


@bp.get("/health")
def health_route() -> Response:
    """Liveness: the process answers."""
    return json_answer({"status": "ok", "version": __version__})


@bp.get("/ready")
def ready_route() -> Response:
    """Readiness: the warm-up of create_app is done (every variant loaded, every validator compiled),
    so the first requests are served as fast as the rest."""
    ready, report = readiness()
    if ready:
        return json_answer({"status": "ready", "version": __version__, **report})
    return problem(503, "Not ready", "the variants and validators are not all loaded yet", "not-ready", None, **report)


@bp.get("/metrics")
def metrics_route() -> Response:
    return Response(generate_latest(current_app.extensions["kalooki_referee.metrics"]),
                    content_type=METRICS_CONTENT_TYPE)
