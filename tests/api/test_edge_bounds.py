"""An edge no single client can stall (docs/serving.md, docs/limits.md): a request's head bounded
before any work that grows with its headers, each client's share of the workers' time, the metrics kept to the
operator.

The default run checks the pieces in process: the environ of many repeated headers is made in linear
time, the per-client budget (api/budget.py) and its client address, /metrics without CORS, the
files of dead workers folded.  The slow step runs them for real on loopback, against
`kalooki-referee serve` alone and behind deploy/nginx.conf: 4,000 header lines of 8 KB refused in a
few milliseconds of the worker's CPU while /health answers; a worker's memory after a hundred large
heads; a normal adjudicate answered within a second while thirty connections from one address send
5,000-step replays; /metrics refused to an address that is not the operator's.
"""
from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import threading
import time
from pathlib import Path

import pytest

from kalooki_referee.api import create_app
from kalooki_referee.api.budget import DEFAULT_BURST, DEFAULT_RATE, Buckets, client_address
from kalooki_referee.api.worker import MAX_HEADER_BYTES, wsgi_environ
from tests.support.helpers import raw_exchange
from tests.api.test_serving import gunicorn_instances, nginx_in_front, request

ROOT = Path(__file__).resolve().parents[2]
FIRST_TURN = (ROOT / "examples" / "first-turn.json").read_bytes()
PROBLEM = "application/problem+json"
BUDGET_ON = {"KALOOKI_CLIENT_RATE": str(DEFAULT_RATE), "KALOOKI_CLIENT_BURST": str(DEFAULT_BURST)}


# -- in process ------------------------------------------------------------------------------------

def test_repeated_header_names_are_joined_in_linear_time():
    value = b"v" * 8180
    scope = {"type": "http", "method": "GET", "path": "/health", "headers": [(b"x-same", value)] * 4000}
    started = time.process_time()
    environ = wsgi_environ(scope, b"", False)
    spent = time.process_time() - started
    assert environ["HTTP_X_SAME"] == ",".join([value.decode()] * 4000)
    # joined once: about 33 MB copied once (tens of ms); joined pair by pair it was minutes
    assert spent < 1.0, spent


def test_a_bucket_lets_a_client_through_while_its_balance_is_above_zero():
    buckets = Buckets(rate=0.25, burst=0.5)
    assert buckets.wait("a", 0.0) == 0
    buckets.charge("a", 0.6, 0.0)          # one costly request takes the balance below zero
    assert buckets.wait("a", 0.0) == pytest.approx(0.4)   # (0.1 s owed, refilled at 0.25 s a second)
    assert buckets.wait("b", 0.0) == 0     # another client is not concerned
    assert buckets.wait("a", 0.5) == 0     # refilled
    assert buckets.balance("a", 100.0) == 0.5   # never over the burst


def test_a_bucket_forgets_clients_it_need_not_remember():
    buckets = Buckets(rate=1.0, burst=1.0, max_clients=100)
    for i in range(101):
        buckets.charge(f"10.0.0.{i}", 0.5, float(i) / 100)
    assert len(buckets.balances) <= 100
    assert "10.0.0.100" in buckets.balances


@pytest.mark.parametrize("environ, client", [
    ({"REMOTE_ADDR": "203.0.113.9"}, "203.0.113.9"),
    ({"REMOTE_ADDR": "203.0.113.9", "HTTP_X_FORWARDED_FOR": "198.51.100.1"}, "203.0.113.9"),  # not a trusted proxy
    ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 198.51.100.1"}, "198.51.100.1"),
    ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "x" * 5000}, "127.0.0.1"),
    ({"REMOTE_ADDR": "127.0.0.1"}, "127.0.0.1"),
])
def test_the_client_is_the_peer_or_what_a_trusted_proxy_appended(environ, client):
    assert client_address(environ, frozenset({"127.0.0.1", "::1"})) == client


def _costly_app():
    return create_app({"TESTING": True, "KALOOKI_CLIENT_RATE": 0.001, "KALOOKI_CLIENT_BURST": 0.02})


def test_a_client_over_its_share_of_the_workers_time_gets_429_and_the_others_do_not():
    app = _costly_app()
    client = app.test_client()
    game = client.post("/v1/games", json={"variant": "british", "players": ["a", "b"], "seed": 1}).get_json()["game"]
    replay = {"variant": "british", "start": {"game": game}, "actions": [{"type": "draw", "source": "stock"}]}
    statuses = []
    for _ in range(200):
        answer = client.post("/v1/replay", json=replay, environ_overrides={"REMOTE_ADDR": "192.0.2.1"})
        statuses.append(answer.status_code)
        if answer.status_code == 429:
            break
    assert statuses[0] == 200 and statuses[-1] == 429, statuses
    assert answer.mimetype == PROBLEM and answer.get_json()["type"].endswith("/too-many-requests")
    assert int(answer.headers["Retry-After"]) >= 1
    # another address, or a GET of the same one, is served
    assert client.post("/v1/replay", json=replay, environ_overrides={"REMOTE_ADDR": "192.0.2.2"}).status_code == 200
    assert client.get("/v1/variants", environ_overrides={"REMOTE_ADDR": "192.0.2.1"}).status_code == 200
    # behind a trusted proxy the client is the address it forwarded (192.0.2.1 made to owe a minute,
    # so that no refill in between, on a slow machine, makes this pass or fail by chance)
    app.extensions["kalooki_referee.budget"].charge("192.0.2.1", 60.0, time.monotonic())
    forwarded = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "192.0.2.1"}
    assert client.post("/v1/replay", json=replay, environ_overrides=forwarded).status_code == 429
    forwarded["HTTP_X_FORWARDED_FOR"] = "192.0.2.3"
    assert client.post("/v1/replay", json=replay, environ_overrides=forwarded).status_code == 200


def test_the_budget_is_off_at_a_rate_of_zero():
    client = create_app({"TESTING": True, "KALOOKI_CLIENT_RATE": 0}).test_client()
    game = client.post("/v1/games", json={"variant": "british", "players": ["a", "b"], "seed": 1}).get_json()["game"]
    replay = {"variant": "british", "start": {"game": game}, "actions": [{"type": "draw", "source": "stock"}] * 50}
    assert {client.post("/v1/replay", json=replay).status_code for _ in range(30)} == {200}


def test_metrics_carry_no_cors_header(client):
    origin = {"Origin": "https://elsewhere.example"}
    assert "Access-Control-Allow-Origin" in client.get("/v1/variants", headers=origin).headers
    answer = client.get("/metrics", headers=origin)
    assert answer.status_code == 200 and not [h for h in answer.headers.keys() if h.startswith("Access-Control")]
    preflight = client.options("/metrics", headers={**origin, "Access-Control-Request-Method": "GET"})
    assert not [h for h in preflight.headers.keys() if h.startswith("Access-Control")]


def test_a_dead_workers_counts_are_folded_and_its_files_removed(tmp_path, monkeypatch):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    from prometheus_client import CollectorRegistry
    from prometheus_client.mmap_dict import MmapedDict, mmap_key
    from prometheus_client.multiprocess import MultiProcessCollector

    import runpy
    conf = runpy.run_path(str(ROOT / "api" / "gunicorn_conf.py"))
    key = mmap_key("kalooki_http_requests", "kalooki_http_requests_total", ["route"], ["/x"], "help")
    for pid, value in ((101, 3.0), (102, 4.0), (103, 5.0)):
        d = MmapedDict(str(tmp_path / f"counter_{pid}.db"))
        d.write_value(key, value, 0.0)
        d.close()

    def total() -> float:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(tmp_path))
        return sum(s.value for m in registry.collect() for s in m.samples if s.name == "kalooki_http_requests_total")

    assert total() == 12.0
    conf["fold_dead_worker_metrics"](str(tmp_path), 101)
    conf["fold_dead_worker_metrics"](str(tmp_path), 102)
    assert sorted(p.name for p in tmp_path.glob("*.db")) == ["counter_103.db", "counter_dead.db"]
    assert total() == 12.0


def test_a_killed_servers_metrics_directory_is_removed_at_the_next_start(tmp_path, monkeypatch):
    import runpy
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "given"))
    conf = runpy.run_path(str(ROOT / "api" / "gunicorn_conf.py"))
    dead_pid = 2 ** 22 + 7   # (above any pid this host hands out: no process has it)
    dead = tmp_path / f"kalooki-metrics-{dead_pid}-abc"
    alive = tmp_path / f"kalooki-metrics-{os.getpid()}-def"
    other = tmp_path / "kalooki-metrics-notapid"
    for d in (dead, alive, other):
        d.mkdir()
        (d / "counter_1.db").write_bytes(b"")
    assert conf["remove_dead_servers_metrics"](str(tmp_path)) == [str(dead)]
    assert not dead.exists() and alive.exists() and other.exists()


# -- for real, on loopback -------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _booted(pid: int, count: int) -> list[int]:
    """The workers of the master ``pid`` once all ``count`` are started (the first may answer before the others)."""
    deadline = time.monotonic() + 60
    while len(_children(pid)) < count:
        assert time.monotonic() < deadline, "the workers did not all start"
        time.sleep(0.2)
    time.sleep(1)   # (a worker's first seconds: loading what the master did not)
    return _children(pid)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _send_while_reading(port: int, payload: bytes, source: str = "127.0.0.1") -> tuple[int, str, bytes]:
    """Send ``payload`` from one thread while reading the answer in this one (a server may answer
    and close long before a large payload is all sent): status, content type, body."""
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(20)
    s.connect(("127.0.0.1", port))

    def send():
        try:
            s.sendall(payload)
        except OSError:
            pass
    sender = threading.Thread(target=send)
    sender.start()
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    finally:
        s.close()
        sender.join(timeout=20)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    return int(lines[0].split()[1]) if lines[0] else 0, headers.get("content-type", ""), body


HOSTILE_HEAD = (b"GET /health HTTP/1.1\r\nHost: referee\r\n"
                + b"".join(b"X-Same: " + b"%07d" % i + b"v" * 8170 + b"\r\n" for i in range(4000)) + b"\r\n")


@pytest.mark.slow
def test_serve_alone_refuses_4000_header_lines_cheaply_while_health_answers(capsys):
    assert len(HOSTILE_HEAD) > 32_000_000
    with gunicorn_instances(1, workers=2) as [(port, proc)]:
        workers = _booted(proc.pid, 2)
        health: list[int] = []
        stop = threading.Event()

        def poll():
            while not stop.is_set():
                t0 = time.monotonic()
                try:
                    status = request(port, "GET", "/health", timeout=5)[0]
                except OSError:
                    status = 0
                health.append(status if time.monotonic() - t0 < 1 else -1)
                stop.wait(0.02)
        poller = threading.Thread(target=poll)
        before = sum(_cpu_seconds(w) for w in workers)
        poller.start()
        try:
            answers = [_send_while_reading(port, HOSTILE_HEAD) for _ in range(50)]
        finally:
            stop.set()
            poller.join()
        spent = sum(_cpu_seconds(w) for w in workers) - before
        assert _children(proc.pid) == workers, "a worker was replaced"
        # the worker's other refusals are problems too: a line that is no header, a request line too long
        for payload, refused in ((b"GET /health HTTP/1.1\r\nHost: referee\r\nno colon here\r\n\r\n", 400),
                                 (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: referee\r\n\r\n", 414)):
            status, headers, body = raw_exchange(port, payload)
            assert (status, headers.get("content-type")) == (refused, PROBLEM), (status, headers, body[:200])
            assert json.loads(body)["status"] == refused and headers.get("x-content-type-options") == "nosniff"
    for status, content_type, body in answers:
        assert (status, content_type) == (431, PROBLEM), (status, content_type, body[:200])
        assert json.loads(body)["type"].endswith("/request-header-fields-too-large")
    with capsys.disabled():
        print(f"\n  50 requests of 4,000 x 8 KB header lines: 431 each, {spent * 1000:.0f} ms of the workers' CPU "
              f"in all (with {len(health)} /health polls); /health: {health.count(200)} of {len(health)} fast 200s")
    assert spent / 50 < 0.010, spent
    assert health and set(health) == {200}


@pytest.mark.slow
def test_a_workers_memory_after_a_hundred_large_heads_stays_near_a_fresh_ones(capsys):
    at_cap = (b"GET /health HTTP/1.1\r\nHost: referee\r\nConnection: close\r\n"
              + b"".join(b"X-Big-%d: " % i + b"b" * 7000 + b"\r\n" for i in range(4)) + b"\r\n")
    assert len(at_cap) < MAX_HEADER_BYTES
    with gunicorn_instances(1, workers=1) as [(port, proc)]:
        [worker] = _booted(proc.pid, 1)
        for _ in range(5):   # the first requests of a worker fill its caches
            assert request(port, "POST", "/v1/adjudicate", FIRST_TURN)[0] == 200
            assert raw_exchange(port, at_cap)[0] == 200
        fresh = _rss_mb(worker)
        for i in range(50):
            assert raw_exchange(port, at_cap)[0] == 200
            assert _send_while_reading(port, HOSTILE_HEAD[:2_000_000])[0] == 431
        assert _children(proc.pid) == [worker]
        after = _rss_mb(worker)
    with capsys.disabled():
        print(f"\n  a worker's memory: {fresh:.1f} MB after its first requests, {after:.1f} MB after 100 large heads")
    assert after - fresh < 20, (fresh, after)


def _long_replay() -> bytes:
    """A legal replay of 5,000 steps (a game: a card drawn from the stock and thrown back, hand after
    hand), about half a second of a worker's CPU."""
    from kalooki_referee.rules import load_variant
    from kalooki_referee.rules.game import adjudicate_game
    from kalooki_referee.rules.wire.game import read_game, read_game_action

    variant = load_variant("british")
    client = create_app({"TESTING": True}).test_client()
    wire = client.post("/v1/games", json={"variant": "british", "players": ["A", "B", "C", "D"], "seed": 1}).get_json()["game"]
    game = read_game(wire, variant)
    actions: list[dict] = []

    def play(action: dict) -> None:
        nonlocal game
        verdict = adjudicate_game(variant, game, read_game_action(action))
        assert verdict.legal, (len(actions), action)
        game = verdict.game
        actions.append(action)
    while len(actions) < 5000:
        if game.hand is None or game.hand.phase.value == "ended":
            play({"type": "next_hand", "seed": len(actions)})
        else:
            play({"type": "draw", "source": "stock"})
            if len(actions) < 5000:
                play({"type": "discard", "card": game.hand.turn.drawn.code})
    return json.dumps({"variant": "british", "start": {"game": wire}, "actions": actions},
                      separators=(",", ":")).encode()


@pytest.fixture(scope="module")
def long_replay() -> bytes:
    return _long_replay()


def _flood_and_measure(port: int, replay: bytes, seconds: float = 15.0) -> tuple[list[float], list, dict[str, int]]:
    """Thirty connections from 127.0.0.1 sending the replay again and again (each pausing a quarter
    of a second after a refusal, so as not to flood the loopback with bodies), while one client from
    127.0.0.2 sends README's first turn ten times a second: its latencies, its failures and the
    statuses the flood got (and how many of its 429s had no Retry-After)."""
    stop = threading.Event()
    flood: dict[str, int] = {}
    lock = threading.Lock()

    def attacker():
        conn = None
        while not stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=("127.0.0.1", 0))
                conn.request("POST", "/v1/replay", body=replay, headers={"Content-Type": "application/json"})
                answer = conn.getresponse()
                answer.read()
                status = answer.status
                if status == 429 and not (answer.getheader("Retry-After") or "").isdigit():
                    with lock:
                        flood["429 without Retry-After"] = flood.get("429 without Retry-After", 0) + 1
                if answer.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                status = 0
                if conn is not None:
                    conn.close()
                conn = None
            with lock:
                flood[str(status)] = flood.get(str(status), 0) + 1
            if status != 200:
                stop.wait(0.25)
        if conn is not None:
            conn.close()

    attackers = [threading.Thread(target=attacker) for _ in range(30)]
    for a in attackers:
        a.start()
    latencies: list[float] = []
    failures: list = []
    try:
        time.sleep(2)   # the flood under way
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.monotonic()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.2", 0))
                conn.request("POST", "/v1/adjudicate", body=FIRST_TURN, headers={"Content-Type": "application/json"})
                answer = conn.getresponse()
                answer.read()
                conn.close()
                if answer.status != 200:
                    failures.append(answer.status)
            except OSError as exc:
                failures.append(repr(exc))
            latencies.append(time.monotonic() - t0)
            time.sleep(max(0.0, 0.1 - (time.monotonic() - t0)))
    finally:
        stop.set()
        for a in attackers:
            a.join(timeout=90)
    return latencies, failures, flood


def _p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


@pytest.mark.slow
def test_serve_alone_with_its_budget_answers_others_while_one_address_sends_long_replays(long_replay, capsys):
    with gunicorn_instances(1, workers=2, env=BUDGET_ON) as [(port, _)]:
        latencies, failures, flood = _flood_and_measure(port, long_replay)
    with capsys.disabled():
        print(f"\n  serve alone, its own budget: {len(latencies)} adjudicates from another address, median "
              f"{statistics.median(latencies) * 1000:.0f} ms, p99 {_p99(latencies) * 1000:.0f} ms; the flood got {flood}")
    assert not failures, failures[:5]
    assert flood.get("200", 0) > 0 and flood.get("429", 0) > 0 and "429 without Retry-After" not in flood, flood
    assert _p99(latencies) < 1.0


@pytest.mark.slow
def test_nginx_answers_others_while_one_address_sends_long_replays(long_replay, capsys):
    # the service's own budget off (the suite's setting): what bounds the flood here is nginx's
    with gunicorn_instances(1, workers=2) as [(port, _)], nginx_in_front([port]) as front:
        latencies, failures, flood = _flood_and_measure(front, long_replay)
    with capsys.disabled():
        print(f"\n  behind nginx: {len(latencies)} adjudicates from another address, median "
              f"{statistics.median(latencies) * 1000:.0f} ms, p99 {_p99(latencies) * 1000:.0f} ms; the flood got {flood}")
    assert not failures, failures[:5]
    assert flood.get("200", 0) > 0 and flood.get("429", 0) > 0 and "429 without Retry-After" not in flood, flood
    assert _p99(latencies) < 1.0


@pytest.mark.slow
def test_nginx_keeps_the_metrics_to_the_operators_addresses():
    with gunicorn_instances(1, workers=1) as [(port, _)], nginx_in_front([port]) as front:
        fetch = b"GET /metrics HTTP/1.1\r\nHost: referee\r\nConnection: close\r\n\r\n"
        status, headers, body = raw_exchange(front, fetch, source="127.0.0.2")
        assert (status, headers.get("content-type")) == (403, PROBLEM)
        assert json.loads(body) == json.loads((ROOT / "deploy" / "errors" / "403.json").read_bytes())
        status, headers, body = raw_exchange(front, fetch)
        assert status == 200 and b"kalooki_http_requests_total" in body
        # any other path is open to that address
        assert raw_exchange(front, fetch.replace(b"/metrics", b"/health"), source="127.0.0.2")[0] == 200


def test_serve_passes_the_public_address_to_the_app():
    from kalooki_referee.cli import serve_argv

    _, env = serve_argv("127.0.0.1:9000", 2, [], "https://referee.example/")
    assert env["KALOOKI_PUBLIC_URL"] == "https://referee.example/" and env["KALOOKI_BIND"] == "127.0.0.1:9000"
