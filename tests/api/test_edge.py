"""Safe at the edge, run for real on loopback: one signing key whatever worker or instance
signs, and slow clients by the thousand that never stop the others.

* two instances behind nginx as docs/serving.md lays them out, and plain gunicorn
  with three workers and no packaged configuration, both with no signing key configured: every
  signed answer verifies against one fetch of GET /v1/keys;
* `kalooki-referee serve` alone (no proxy) while a thousand connections dribble half-requests, and
  the nginx setup while five thousand do from one address (127.0.0.2): every ordinary request, from
  127.0.0.1, is answered; the p99 of their latencies is printed.

Each test is bounded in time (under about 90 s, most of it the servers' start on a shared machine)
and stops everything it started.
"""
from __future__ import annotations

import errno
import json
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kalooki_referee.api.signing import NotVerified, public_key, verify
from tests.support.helpers import free_port, raw_exchange
from tests.api.test_serving import ROOT, _stop, _wait_until_answering, gunicorn_instances, nginx_in_front, request

SIGNED_ANSWERS = 200


@pytest.fixture
def default_keys(monkeypatch, tmp_path):
    """No signing key configured, as a fresh install has it; the user's state directory (where the
    host key is kept by default) is the test's own, so that nothing is left behind."""
    for name in ("KALOOKI_SIGNING_KEY_FILE", "KALOOKI_SIGNING_KEY", "KALOOKI_KEY_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path


@pytest.fixture(autouse=True)
def many_files():
    """Room for thousands of sockets in this process (and the servers it starts inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20000) if hard != resource.RLIM_INFINITY else 20000, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _signed_requests() -> list[bytes]:
    bodies = [(ROOT / "examples" / name).read_bytes() for name in ("first-turn.json", "out-of-turn.json")]
    return [bodies[i % len(bodies)] for i in range(SIGNED_ANSWERS)]


def _share_that_verifies(port: int) -> tuple[int, int, set[str]]:
    """Send SIGNED_ANSWERS signed requests (four at a time), fetch GET /v1/keys once, and check each
    answer against that key set: (verified, sent, key ids seen in the signatures)."""
    bodies = _signed_requests()

    def one(body: bytes):
        status, _, answer = request(port, "POST", "/v1/adjudicate?sign=true", body)
        assert status == 200, answer[:300]
        return body, json.loads(answer)

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(one, bodies))
    status, _, keys_text = request(port, "GET", "/v1/keys")
    assert status == 200
    keys = {k["key_id"]: public_key(k["public_key"]) for k in json.loads(keys_text)["keys"]}
    verified = 0
    for body, answer in answers:
        try:
            verify(json.loads(body), answer, keys)
            verified += 1
        except NotVerified:
            pass
    return verified, len(answers), {a["signature"]["key_id"] for _, a in answers}


@pytest.mark.slow
def test_two_instances_behind_nginx_sign_with_one_key(default_keys, capsys):
    with gunicorn_instances(2) as [(port_a, _), (port_b, _)], nginx_in_front([port_a, port_b]) as front:
        verified, sent, kids = _share_that_verifies(front)
        # both instances answered some of them (round robin), and each publishes the same key
        assert request(port_a, "GET", "/v1/keys")[2] == request(port_b, "GET", "/v1/keys")[2]
    with capsys.disabled():
        print(f"\n  two instances behind nginx, no key configured: {verified} of {sent} signed answers verify "
              f"against one fetch of /v1/keys (key ids seen: {len(kids)})")
    assert (verified, len(kids)) == (sent, 1)


@pytest.mark.slow
def test_plain_gunicorn_with_three_workers_signs_with_one_key(default_keys, capsys):
    # README's app, served without the packaged configuration: sync workers, no preload
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "3", "-b", f"127.0.0.1:{port}",
                             "kalooki_referee.api:create_app()"], cwd=default_keys, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        _wait_until_answering(port, proc, "gunicorn -w 3", seconds=80)
        verified, sent, kids = _share_that_verifies(port)
    finally:
        _stop(proc)
    log = proc.stderr.read().decode(errors="replace")
    assert log.count("Booting worker") >= 3, log[-2000:]
    with capsys.disabled():
        print(f"\n  gunicorn -w 3 without the packaged config, no key configured: {verified} of {sent} signed "
              f"answers verify against one fetch of /v1/keys (key ids seen: {len(kids)})")
    assert (verified, len(kids)) == (sent, 1)


# -- slow clients by the thousand -------------------------------------------------------------------

class Dribblers:
    """``count`` connections from ``source`` that each send half a request and then a byte every
    ``interval`` seconds, never finishing: half stop in their headers, half in their body.  One that
    the server closes (its deadline, or a refusal) is opened again, so that ``count`` stay open."""

    HEAD = b"POST /v1/deal HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\nX-Slow: "
    BODY = b"POST /v1/deal HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"

    def __init__(self, port: int, count: int, source: str, interval: float):
        self.port, self.count, self.source, self.interval = port, count, source, interval
        self.selector = selectors.DefaultSelector()
        self.sockets: list[socket.socket | None] = [None] * count
        self.opened = self.reopened = self.refused = 0
        self.longest_cycle = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, i: int) -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind((self.source, 0))
            s.settimeout(2)
            s.connect(("127.0.0.1", self.port))
            s.setblocking(False)
            s.send(self.HEAD if i % 2 else self.BODY)
        except OSError:
            s.close()
            self.refused += 1
            return
        self.sockets[i] = s
        self.opened += 1

    def _close(self, i: int) -> None:
        s = self.sockets[i]
        if s is not None:
            s.close()
            self.sockets[i] = None

    def __enter__(self):
        for i in range(self.count):
            self._open(i)
        self.connected = self.opened  # how many connections the server took at the start
        self.thread.start()
        return self

    def _run(self) -> None:
        # one byte per connection per interval: every connection in turn, then a pause to the end of
        # the interval (a cycle that overran it is counted: the test says how slow the slowest was)
        while not self.stop.is_set():
            began = time.monotonic()
            for i in range(self.count):
                if self.stop.is_set():
                    return
                self._step(i)
            spent = time.monotonic() - began
            self.longest_cycle = max(self.longest_cycle, spent)
            self.stop.wait(max(0.0, self.interval - spent))

    def _step(self, i: int) -> None:
        s = self.sockets[i]
        if s is None:
            self._open(i)
            self.reopened += 1
            return
        try:
            if s.recv(4096, socket.MSG_PEEK) == b"":
                raise ConnectionResetError()
            self._close(i)  # answered (a refusal or a timeout): start again next time
            return
        except BlockingIOError:
            pass
        except OSError:
            self._close(i)
            return
        try:
            s.send(b"x" if i % 2 else b" ")
        except BlockingIOError:
            pass
        except OSError:
            self._close(i)

    def open_now(self) -> int:
        return sum(s is not None for s in self.sockets)

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=10)
        for i in range(self.count):
            self._close(i)


def _ordinary_requests(port: int, seconds: float, threads: int = 4) -> tuple[list[float], list]:
    """Ordinary requests from 127.0.0.1 for ``seconds``: the latencies and the failures."""
    deal = (ROOT / "examples" / "deal.json").read_bytes()
    reference = request(port, "POST", "/v1/deal", deal, timeout=30)
    assert reference[0] == 200
    latencies: list[float] = []
    failures: list = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def loop():
        while time.monotonic() < end:
            t0 = time.monotonic()
            try:
                answer = request(port, "POST", "/v1/deal", deal, timeout=30)
                ok = answer == reference
            except OSError as exc:
                answer, ok = exc, False
            with lock:
                latencies.append(time.monotonic() - t0)
                if not ok:
                    failures.append(answer if isinstance(answer, OSError) else answer[:2])
            time.sleep(0.02)

    workers = [threading.Thread(target=loop) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return latencies, failures


def _p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


@pytest.mark.slow
def test_serve_alone_answers_others_while_a_thousand_connections_dribble(capsys):
    # README's first command, no proxy in front: the packaged worker holds the slow ones itself
    with gunicorn_instances(1, workers=2) as [(port, _)]:
        with Dribblers(port, 1000, "127.0.0.1", interval=3.0) as slow:
            time.sleep(2)
            held = slow.open_now()
            latencies, failures = _ordinary_requests(port, seconds=25)
            still = slow.open_now()
            reopened, cycle = slow.reopened, slow.longest_cycle
    with capsys.disabled():
        print(f"\n  kalooki-referee serve alone, 1,000 dribbling connections, a byte each every {cycle:.1f} s at the "
              f"slowest ({held} open at the start, {still} at "
              f"the end, {reopened} reopened after the server's deadlines closed them): {len(latencies)} ordinary "
              f"requests, {len(latencies) - len(failures)} answered; latency median "
              f"{statistics.median(latencies) * 1000:.0f} ms, p99 {_p99(latencies) * 1000:.0f} ms")
    assert held >= 950 and not failures and len(latencies) >= 50, failures[:5]
    assert cycle < 5  # every connection really dribbled: a byte more often than a server's gap timeout
    assert _p99(latencies) < 5, _p99(latencies)


@pytest.mark.slow
def test_nginx_answers_others_while_five_thousand_connections_dribble_from_one_address(capsys):
    with gunicorn_instances(1, workers=2) as [(port, _)], nginx_in_front([port]) as front:
        with Dribblers(front, 5000, "127.0.0.2", interval=3.0) as slow:
            time.sleep(2)
            held = slow.open_now()  # (those with a body past the address's limit_conn were refused: 429)
            connected = slow.connected
            latencies, failures = _ordinary_requests(front, seconds=25)
            still = slow.open_now()
            reopened, cycle = slow.reopened, slow.longest_cycle
    with capsys.disabled():
        print(f"\n  nginx in front, 5,000 dribbling connections from 127.0.0.2, a byte each every {cycle:.1f} s at "
              f"the slowest ({connected} connected, {held} still open 2 s later, {still} at "
              f"the end, {reopened} reopened after nginx closed or refused them): {len(latencies)} ordinary requests "
              f"from 127.0.0.1, {len(latencies) - len(failures)} answered; latency median "
              f"{statistics.median(latencies) * 1000:.0f} ms, p99 {_p99(latencies) * 1000:.0f} ms")
    assert connected >= 4750 and not failures and len(latencies) >= 50, failures[:5]
    assert cycle < 5  # every connection really dribbled: a byte more often than nginx's 5 s between two reads
    assert _p99(latencies) < 5, _p99(latencies)


# -- nginx's own answers carry the app's headers ---------------------------------------------------

_exchange = raw_exchange


@pytest.mark.slow
def test_nginx_refusals_have_the_apps_headers_and_an_address_is_limited():
    deploy = ROOT / "deploy" / "errors"
    with gunicorn_instances(1, workers=1) as [(port, _)], nginx_in_front([port]) as front:
        cases = {
            431: b"GET /health HTTP/1.1\r\nHost: referee\r\nX-Big: " + b"h" * 20000 + b"\r\n\r\n",
            414: b"GET /v1/variants/" + b"a" * 20000 + b" HTTP/1.1\r\nHost: referee\r\n\r\n",
            413: (b"POST /v1/adjudicate HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (2 * 1024 * 1024)),
        }
        for status, payload in cases.items():
            got, headers, body = _exchange(front, payload)
            assert (got, headers.get("content-type")) == (status, "application/problem+json"), (status, got, headers)
            assert headers.get("x-content-type-options") == "nosniff" and headers.get("cache-control") == "no-store"
            assert json.loads(body) == json.loads((deploy / f"{status}.json").read_bytes())
        # an address holding 32 requests past their headers gets 429 for one more; another address does not
        held = []
        try:
            for _ in range(32):
                s = socket.socket()
                s.bind(("127.0.0.2", 0))
                s.connect(("127.0.0.1", front))
                s.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 5000\r\n\r\n{")
                held.append(s)
            time.sleep(0.5)
            deal = (ROOT / "examples" / "deal.json").read_bytes()
            one_more = (b"POST /v1/deal HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                        b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(deal)) + deal
            got, headers, body = _exchange(front, one_more, source="127.0.0.2")
            assert (got, headers.get("content-type"), headers.get("x-content-type-options")) == \
                (429, "application/problem+json", "nosniff")
            assert json.loads(body) == json.loads((deploy / "429.json").read_bytes())
            assert _exchange(front, one_more)[0] == 200
        finally:
            for s in held:
                s.close()


# -- the worker's adapter, in process (default run): whole requests, deadlines, the body limit -------

def _asgi_call(app, scope: dict, messages: list[dict], hang: bool = False) -> tuple[int, dict, bytes]:
    """Run ``app`` (ASGI) on one request whose body arrives as ``messages`` (then nothing more, when
    ``hang``): the status, headers and body it sends."""
    import asyncio

    sent: list[dict] = []

    async def run():
        queue = messages  # (consumed in place: the caller sees what was never read)

        async def receive():
            if queue:
                return queue.pop(0)
            if hang:
                await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        await app(scope, receive, send)

    asyncio.run(run())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def _scope(method: str, path: str, query: bytes = b"", headers: list | None = None) -> dict:
    return {"type": "http", "method": method, "path": path, "raw_path": path.encode() + (b"?" + query if query else b""),
            "query_string": query, "root_path": "", "scheme": "http", "http_version": "1.1",
            "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000),
            "headers": headers or [(b"host", b"referee"), (b"content-type", b"application/json")]}


@pytest.fixture(scope="module")
def whole_requests_app():
    from kalooki_referee.api import create_app
    from kalooki_referee.api.worker import WholeRequests

    flask_app = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb")})
    return flask_app, WholeRequests(flask_app, multiprocess=False, body_seconds=0.5)


def test_the_worker_hands_the_app_whole_requests_and_sends_its_answers(whole_requests_app):
    flask_app, app = whole_requests_app
    body = (ROOT / "examples" / "first-turn.json").read_bytes()
    expected = flask_app.test_client().post("/v1/adjudicate?sign=true", data=body, content_type="application/json")
    pieces = [body[i:i + 100] for i in range(0, len(body), 100)]  # as a dribbling client sends it
    messages = [{"type": "http.request", "body": p, "more_body": i < len(pieces) - 1} for i, p in enumerate(pieces)]
    status, headers, answer = _asgi_call(app, _scope("POST", "/v1/adjudicate", b"sign=true"), messages)
    assert (status, answer) == (200, expected.data)
    assert headers["content-type"] == "application/json" and headers["x-content-type-options"] == "nosniff"
    status, _, answer = _asgi_call(app, _scope("GET", "/v1/variants/british"), [{"type": "http.request"}])
    assert status == 200 and json.loads(answer)["id"] == "british"


def test_the_worker_answers_408_to_a_body_past_its_deadline(whole_requests_app):
    _, app = whole_requests_app
    t0 = time.monotonic()
    status, headers, answer = _asgi_call(app, _scope("POST", "/v1/deal"),
                                         [{"type": "http.request", "body": b'{"variant": ', "more_body": True}],
                                         hang=True)
    assert time.monotonic() - t0 < 5
    assert (status, headers["content-type"], headers["x-content-type-options"]) == \
        (408, "application/problem+json", "nosniff")
    assert json.loads(answer)["type"].endswith("/request-timeout")


def test_the_worker_reads_no_more_than_one_byte_past_the_body_limit(whole_requests_app):
    _, app = whole_requests_app
    chunk = b" " * 65536
    offered = [{"type": "http.request", "body": chunk, "more_body": True} for _ in range(64)]  # 4 MiB, chunked
    status, headers, answer = _asgi_call(app, _scope("POST", "/v1/adjudicate"), offered)
    assert (status, headers["content-type"]) == (413, "application/problem+json")
    # reading stopped once the body passed 1 MiB (17 pieces of 64 KiB): the rest was never read
    assert len(offered) == 64 - 17


def test_a_body_the_worker_read_whole_is_read_by_the_app_as_it_is(whole_requests_app):
    """The worker's environ says the body is whole and within the limit: the app reads its input as it
    is, not through werkzeug's guarded stream, which it keeps for any other server."""
    from flask import request

    from kalooki_referee.api.wire import WHOLE_BODY
    from kalooki_referee.api.worker import wsgi_environ

    flask_app, _ = whole_requests_app
    body = (ROOT / "examples" / "first-turn.json").read_bytes()
    environ = wsgi_environ(_scope("POST", "/v1/adjudicate"), body, multiprocess=False)
    assert environ[WHOLE_BODY] is True
    with flask_app.request_context(environ):
        assert request.stream is environ["wsgi.input"] and request.get_data() == body
    del environ[WHOLE_BODY]
    environ["wsgi.input"].seek(0)
    with flask_app.request_context(environ):
        assert request.stream is not environ["wsgi.input"] and request.get_data() == body
