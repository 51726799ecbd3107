"""What operators expect (api/ops.py): CORS, request ids, one JSON log line per request, Prometheus
metrics, readiness, security and caching headers.  The fast tests use the Flask test client; the slow
one serves the app with gunicorn (`kalooki-referee serve`, two workers) and checks that /metrics sums what
both workers served."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from kalooki_referee.api import create_app
from tests.support.helpers import free_port, served_by
from kalooki_referee.api.warmup import warm
from kalooki_referee.rules.wire.variant import _load_variant

ROOT = Path(__file__).resolve().parents[2]
FIRST_TURN = (ROOT / "examples" / "first-turn.json").read_bytes()
OUT_OF_TURN = (ROOT / "examples" / "out-of-turn.json").read_bytes()
MELD_CHECK = (ROOT / "examples" / "meld-check.json").read_bytes()
GENERATED_ID = re.compile(r"[0-9a-f]{32}")


def post(client, path: str, body: bytes, **headers):
    return client.post(path, data=body, content_type="application/json", headers=headers)


# --- CORS ---------------------------------------------------------------------------------------

def test_a_preflight_is_answered_with_the_access_control_headers(client):
    r = client.options("/v1/adjudicate", headers={"Origin": "https://table.example",
                                                  "Access-Control-Request-Method": "POST",
                                                  "Access-Control-Request-Headers": "content-type, x-request-id"})
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")}
    assert allowed == {"content-type", "x-request-id"}
    assert int(r.headers["Access-Control-Max-Age"]) > 0


@pytest.mark.parametrize("body,status", [(FIRST_TURN, 200), (b'{"variant": "british"}', 422), (b"{", 400)])
def test_a_cross_origin_request_may_read_the_answer_and_its_request_id(client, body, status):
    r = post(client, "/v1/adjudicate", body, Origin="https://table.example")
    assert r.status_code == status
    assert r.headers.getlist("Access-Control-Allow-Origin") == ["*"]
    assert r.headers["Access-Control-Expose-Headers"] == "X-Request-ID"


def test_a_request_without_an_origin_gets_no_cors_headers(client):
    r = post(client, "/v1/adjudicate", FIRST_TURN)
    assert not [name for name in r.headers.keys() if name.lower().startswith("access-control-")]


@pytest.mark.parametrize("configured", ["config", "env"])
def test_the_allowed_origins_are_configurable(monkeypatch, configured):
    origins = "https://a.example, https://b.example"
    if configured == "env":
        monkeypatch.setenv("KALOOKI_CORS_ORIGINS", origins)
        app = create_app({"TESTING": True})
    else:
        monkeypatch.delenv("KALOOKI_CORS_ORIGINS", raising=False)
        app = create_app({"TESTING": True, "KALOOKI_CORS_ORIGINS": origins})
    client = app.test_client()
    for origin in ("https://a.example", "https://b.example"):
        r = client.get("/v1/capabilities", headers={"Origin": origin})
        assert r.headers["Access-Control-Allow-Origin"] == origin
        assert "Origin" in r.headers.get("Vary", "")
    refused = client.options("/v1/deal", headers={"Origin": "https://elsewhere.example",
                                                  "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in refused.headers


def test_an_empty_origin_list_allows_no_cross_origin_call():
    client = create_app({"TESTING": True, "KALOOKI_CORS_ORIGINS": ""}).test_client()
    r = client.get("/v1/capabilities", headers={"Origin": "https://a.example"})
    assert "Access-Control-Allow-Origin" not in r.headers


# --- request ids --------------------------------------------------------------------------------

@pytest.mark.parametrize("sent", ["abc-123", "4bf92f3577b34da6a3ce929d0e0e4736", "req:2026/11=x+y_z.1", "x" * 128])
def test_a_sane_request_id_is_echoed(client, sent):
    assert post(client, "/v1/adjudicate", FIRST_TURN, **{"X-Request-ID": sent}).headers["X-Request-ID"] == sent


@pytest.mark.parametrize("sent", [None, "", "x" * 129, "two words", 'quo"te', "semi;colon", "caf\u00e9"])
def test_a_missing_or_unsafe_request_id_is_replaced_by_a_fresh_one(client, sent):
    headers = {} if sent is None else {"X-Request-ID": sent}
    ids = [post(client, "/v1/adjudicate", FIRST_TURN, **headers).headers["X-Request-ID"] for _ in range(2)]
    assert all(GENERATED_ID.fullmatch(i) for i in ids), ids
    assert ids[0] != ids[1]


def test_every_answer_carries_a_request_id(client):
    answers = [client.get("/health"), client.get("/no/such/route"), client.put("/v1/adjudicate"),
               post(client, "/v1/deal", b"{not json"), post(client, "/v1/deal", b'{"variant": "nope"}'),
               client.options("/v1/deal", headers={"Origin": "https://a.example",
                                                   "Access-Control-Request-Method": "POST"})]
    assert [r.status_code for r in answers] == [200, 404, 405, 400, 422, 200]
    assert all(GENERATED_ID.fullmatch(r.headers["X-Request-ID"]) for r in answers)


# --- the JSON request log -----------------------------------------------------------------------

@pytest.fixture
def logged():
    """An app whose request log is written to a buffer, and a function reading its lines as JSON."""
    stream = io.BytesIO()
    app = create_app({"TESTING": True, "KALOOKI_LOG_STREAM": stream})

    def lines() -> list[dict]:
        return [json.loads(line) for line in stream.getvalue().splitlines()]
    return app.test_client(), lines


def test_one_json_log_line_per_request_with_its_id_and_outcome(logged):
    client, lines = logged
    answers = [post(client, "/v1/adjudicate", FIRST_TURN, **{"X-Request-ID": "first-turn"}),
               post(client, "/v1/adjudicate", OUT_OF_TURN),
               post(client, "/v1/melds/check", MELD_CHECK),
               post(client, "/v1/adjudicate", b'{"variant": "british"}'),
               client.get("/v1/variants/nope"),
               client.get("/health")]
    logged_lines = lines()
    assert len(logged_lines) == len(answers)
    for line, answer in zip(logged_lines, answers):
        assert line["event"] == "request" and line["level"] == "info"
        assert line["request_id"] == answer.headers["X-Request-ID"]
        assert line["status"] == answer.status_code
        assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z", line["time"])
    assert [(line["method"], line["path"]) for line in logged_lines] == [
        ("POST", "/v1/adjudicate"), ("POST", "/v1/adjudicate"), ("POST", "/v1/melds/check"),
        ("POST", "/v1/adjudicate"), ("GET", "/v1/variants/nope"), ("GET", "/health")]
    assert logged_lines[0]["request_id"] == "first-turn"
    assert [line.get("outcome") for line in logged_lines] == ["legal", "illegal", "legal", "problem", "problem", None]


def test_an_unexpected_error_is_logged_with_the_request_id_and_answered_as_a_problem(logged):
    client, lines = logged

    def boom():
        raise RuntimeError("a bug")
    client.application.add_url_rule("/boom", "boom", boom)
    r = client.get("/boom", headers={"X-Request-ID": "bug-1"})
    assert r.status_code == 500 and r.mimetype == "application/problem+json"
    assert "a bug" not in r.get_data(as_text=True)
    error, request_line = lines()
    assert error["level"] == "error" and error["request_id"] == "bug-1" and error["path"] == "/boom"
    assert "RuntimeError: a bug" in error["exception"]
    assert request_line["request_id"] == "bug-1" and request_line["status"] == 500


# --- metrics ------------------------------------------------------------------------------------

def samples(client) -> dict[tuple[str, tuple], float]:
    r = client.get("/metrics")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.get_data(as_text=True)) for s in family.samples}


def delta(before: dict, after: dict, name: str, **labels) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


def test_metrics_count_requests_latencies_and_verdicts(client):
    before = samples(client)
    for body in (FIRST_TURN, FIRST_TURN, OUT_OF_TURN):
        post(client, "/v1/adjudicate", body)
    post(client, "/v1/adjudicate", b'{"variant": "british"}')
    post(client, "/v1/melds/check", MELD_CHECK)
    for path in ("/v1/variants/british", "/v1/variants/nope", "/no/such/route", "/nor/this/one"):
        client.get(path)
    client.open("/v1/deal", method="BREW")
    after = samples(client)

    requests = "kalooki_http_requests_total"
    assert delta(before, after, requests, route="/v1/adjudicate", method="POST", status="200") == 3
    assert delta(before, after, requests, route="/v1/adjudicate", method="POST", status="422") == 1
    assert delta(before, after, requests, route="/v1/variants/<variant_id>", method="GET", status="200") == 1
    assert delta(before, after, requests, route="/v1/variants/<variant_id>", method="GET", status="404") == 1
    # unmatched paths and unknown methods share one series each: no label grows with what clients send
    assert delta(before, after, requests, route="unmatched", method="GET", status="404") == 2
    assert delta(before, after, requests, route="unmatched", method="other", status="405") == 1

    latency = "kalooki_http_request_duration_seconds"
    assert delta(before, after, latency + "_count", route="/v1/adjudicate", method="POST") == 4
    assert delta(before, after, latency + "_bucket", route="/v1/adjudicate", method="POST", le="+Inf") == 4
    assert delta(before, after, latency + "_sum", route="/v1/adjudicate", method="POST") > 0

    verdicts = "kalooki_verdicts_total"
    assert delta(before, after, verdicts, endpoint="/v1/adjudicate", outcome="legal") == 2
    assert delta(before, after, verdicts, endpoint="/v1/adjudicate", outcome="illegal") == 1
    assert delta(before, after, verdicts, endpoint="/v1/melds/check", outcome="legal") == 1


# --- readiness ----------------------------------------------------------------------------------

def test_ready_once_the_warm_up_is_done(client):
    r = client.get("/ready")
    body = r.get_json()
    assert r.status_code == 200 and body["status"] == "ready"
    assert body["variants_loaded"] >= body["variants"] == len(client.get("/v1/variants").get_json()["variants"])
    assert body["validators_compiled"] >= body["validators"] > 0


def test_not_ready_while_the_variants_are_not_loaded(client):
    _load_variant.cache_clear()
    try:
        r = client.get("/ready")
        assert r.status_code == 503 and r.mimetype == "application/problem+json"
        assert r.get_json()["variants_loaded"] == 0
        assert client.get("/health").status_code == 200  # alive all the same
    finally:
        warm()
    assert client.get("/ready").status_code == 200


# --- security and caching headers ---------------------------------------------------------------

CACHED = ("/v1/variants", "/v1/variants/british", "/v1/capabilities", "/openapi.yaml")
NOT_CACHED = ("/health", "/ready", "/metrics", "/v1/variants/nope", "/no/such/route")


def test_security_and_caching_headers(client):
    answers = {path: client.get(path) for path in CACHED + NOT_CACHED}
    answers["POST /v1/adjudicate"] = post(client, "/v1/adjudicate", FIRST_TURN)
    answers["POST 422"] = post(client, "/v1/adjudicate", b'{"variant": "british"}')
    answers["POST 400"] = post(client, "/v1/adjudicate", b"{")
    answers["GET /docs"] = client.get("/docs")
    for name, r in answers.items():
        assert r.headers["X-Content-Type-Options"] == "nosniff", name
        [csp] = r.headers.getlist("Content-Security-Policy")
        if r.mimetype in ("application/json", "application/problem+json"):  # data: nothing loads, nobody frames
            assert csp == "default-src 'none'; frame-ancestors 'none'" and r.headers["X-Frame-Options"] == "DENY", name
        else:  # documents of this origin (Swagger UI, openapi.yaml, metrics)
            assert "default-src 'self'" in csp and "frame-ancestors 'self'" in csp, name
            assert r.headers["X-Frame-Options"] == "SAMEORIGIN", name
        cache = r.headers["Cache-Control"]
        if name in CACHED:
            assert r.status_code == 200 and re.fullmatch(r"public, max-age=\d+", cache), name
        else:
            assert cache == "no-store", name


# --- served by gunicorn with two workers ----------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read()


def _adjudicate(url: str) -> int:
    req = urllib.request.Request(url + "/v1/adjudicate", data=FIRST_TURN, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        r.read()
        return r.status


def _served(text: str, route: str) -> float:
    return sum(s.value for family in text_string_to_metric_families(text) for s in family.samples
               if s.name == "kalooki_http_requests_total" and s.labels["route"] == route)


@pytest.mark.slow
@pytest.mark.parametrize("metrics_dir", ["given", "made by the gunicorn settings"])
def test_metrics_sum_every_gunicorn_worker(tmp_path, metrics_dir):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PROMETHEUS_MULTIPROC_DIR", "KALOOKI_OWN_METRICS_DIR")}
    env.update(KALOOKI_BIND=f"127.0.0.1:{port}", KALOOKI_WORKERS="2", TMPDIR=str(tmp_path))
    if metrics_dir == "given":
        directory = tmp_path / "metrics"
        directory.mkdir()
        (directory / "counter_1.db").write_bytes(b"left by an earlier run")  # removed at start
        env["PROMETHEUS_MULTIPROC_DIR"] = str(directory)
    with served_by([str(Path(sys.executable).with_name("kalooki-referee")), "serve"], port=port, cwd=ROOT, env=env,
                   log=tmp_path / "stderr.log", ready="/ready") as base:
        deadline = time.monotonic() + 60
        if metrics_dir != "given":
            made = list(tmp_path.glob("kalooki-metrics-*"))
            assert len(made) == 1
            directory = made[0]

        def workers() -> set[str]:
            return {p.stem.split("_")[1] for p in directory.glob("counter_*.db")}
        assert "1" not in workers()

        # concurrent load until both workers have answered some requests (bounded)
        sent = 0
        with ThreadPoolExecutor(8) as pool:
            while sent < 800:
                assert set(pool.map(_adjudicate, [base] * 40)) == {200}
                sent += 40
                if len(workers()) >= 2 and sent >= 80:
                    break
        served = workers()
        assert len(served) == 2, "the load never reached both workers"

        # one scrape, answered by one worker, counts the requests of both
        assert _served(_get(base + "/metrics").decode(), "/v1/adjudicate") == sent

        # a worker killed: gunicorn starts another, and the dead one's counts stay in the sums, folded
        # into the files of the dead workers (its own files are removed: the directory stays bounded)
        killed = sorted(served)[0]
        os.kill(int(killed), signal.SIGKILL)
        while len(workers() - {"dead"}) < 2 or killed in workers():
            assert time.monotonic() < deadline + 60, "no replacement worker answered"
            _adjudicate(base)
            sent += 1
        assert "dead" in workers() and not list(directory.glob(f"*_{killed}.db"))
        assert _served(_get(base + "/metrics").decode(), "/v1/adjudicate") == sent
    lines = (tmp_path / "stderr.log").read_bytes().splitlines()
    requests = [json.loads(line) for line in lines if line.startswith(b"{")]
    # the app's JSON line is the access log: one per request, none from gunicorn
    assert sum(1 for r in requests if r["path"] == "/v1/adjudicate" and r["outcome"] == "legal") == sent
    assert not [line for line in lines if b"/v1/adjudicate" in line and not line.startswith(b"{")]
    if metrics_dir != "given":
        assert not directory.exists(), "the server's own metrics directory is removed when it stops"
