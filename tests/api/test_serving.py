"""The serving design of docs/serving.md, run for real on loopback: gunicorn
instances started with `kalooki-referee serve` (gunicorn with api/gunicorn_conf.py), nginx in front with deploy/nginx.conf.

* failover: two instances behind nginx under a bounded load of vector requests; one instance is
  killed mid-run; no request fails and every answer is byte-identical to a single instance's;
* slow clients: fifty connections holding half-sent requests while ordinary requests go on being
  answered quickly;
* the refusals nginx makes itself (a header, a URL or a body too large) are problem+json.

Each server is started on a free port of 127.0.0.1 and always stopped (context managers with
finally).  nginx is Debian's package (`.ci/run` installs it when it is missing).
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from werkzeug.http import HTTP_STATUS_CODES

from kalooki_referee.api.errors import PROBLEM_TYPE_BASE, http_slug
from kalooki_referee.vectors.suite import load_vectors
from tests.support.helpers import free_port, raw_exchange

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PROBLEM = "application/problem+json"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            timeout: float = 20, source: str | None = None) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
        r = conn.getresponse()
        return r.status, r.getheader("Content-Type", ""), r.read()
    finally:
        conn.close()


def _wait_until_answering(port: int, proc: subprocess.Popen, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            if request(port, "GET", "/health", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not answer on port {port} within {seconds} s")


def _stop(proc: subprocess.Popen) -> None:
    """Stop a server started in its own session, with every process of its group."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)
    else:  # the master is gone; make sure no worker of its group outlives it
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def gunicorn_instances(count: int, workers: int = 2, env: dict[str, str] | None = None):
    """``count`` instances of the referee as README serves them (`kalooki-referee serve`: gunicorn with api/gunicorn_conf.py),
    started side by side (with ``env`` added to the environment): a list of (port, process)."""
    started = []
    extra = env or {}
    try:
        for _ in range(count):
            port = free_port()
            env = {**os.environ, **extra, "KALOOKI_BIND": f"127.0.0.1:{port}", "KALOOKI_WORKERS": str(workers)}
            proc = subprocess.Popen([sys.executable, "-m", "kalooki_referee.cli", "serve"],
                                    cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True)
            started.append((port, proc))
        for port, proc in started:
            _wait_until_answering(port, proc, "gunicorn")
        yield started
    finally:
        for _, proc in started:
            _stop(proc)


def nginx_config(listen_port: int, upstream_ports: list[int], runtime: Path) -> str:
    """deploy/nginx.conf with its names filled in for a loopback run."""
    servers = "\n        ".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in upstream_ports)
    filled = ((DEPLOY / "nginx.conf").read_text(encoding="utf-8")
              .replace("${LISTEN}", f"127.0.0.1:{listen_port}")
              .replace("${UPSTREAM_SERVERS}", servers)
              .replace("${RUNTIME_DIR}", str(runtime))
              .replace("${ERRORS_DIR}", str(runtime / "errors"))
              .replace("${METRICS_FROM}", "127.0.0.1"))
    assert "${" not in filled
    return filled


@contextlib.contextmanager
def nginx_in_front(upstream_ports: list[int]):
    if not os.path.exists(NGINX):
        pytest.fail("nginx is not installed (`.ci/run` installs Debian's package when it is missing)")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="kalooki-nginx-") as tmp:
        runtime = Path(tmp)
        # nginx's workers drop root for `nobody`: they must reach the error bodies and the temp dirs
        runtime.chmod(0o755)
        shutil.copytree(DEPLOY / "errors", runtime / "errors")
        for path in [runtime / "errors", *(runtime / "errors").iterdir()]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        conf = runtime / "nginx.conf"
        conf.write_text(nginx_config(port, upstream_ports, runtime), encoding="utf-8")
        proc = subprocess.Popen([NGINX, "-p", str(runtime), "-e", str(runtime / "error.log"), "-c", str(conf),
                                 "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            try:
                _wait_until_answering(port, proc, "nginx", seconds=20)
            except RuntimeError as exc:
                log = (runtime / "error.log").read_text(errors="replace") if (runtime / "error.log").exists() else ""
                raise RuntimeError(f"{exc}: {log[-2000:]}") from None
            yield port
        finally:
            _stop(proc)


# -- the static problem bodies nginx sends are the app's own form -------------------------------

@pytest.mark.parametrize("path", sorted((DEPLOY / "errors").glob("*.json")), ids=lambda p: p.name)
def test_the_proxy_problem_bodies_are_the_apps_http_problems(path):
    body = json.loads(path.read_text(encoding="utf-8"))
    status = int(path.stem)
    name = HTTP_STATUS_CODES[status]
    assert body["status"] == status and body["title"] == name
    assert body["type"] == PROBLEM_TYPE_BASE + http_slug(name)
    assert set(body) == {"type", "title", "status", "detail"} and body["detail"]
    pages = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    assert f"/_problems/{path.name};" in pages


# -- failover --------------------------------------------------------------------------------------

def _load_mix() -> list[tuple[str, str, bytes | None]]:
    """A fixed mix of requests: one vector of each endpoint and variant, and a few GETs."""
    chosen: dict[tuple[str, str], bytes] = {}
    for vector in load_vectors():
        key = (vector.endpoint, vector.variant)
        if key not in chosen:
            chosen[key] = json.dumps(vector.data["request"]).encode()
    mix = [("POST", "/v1/" + endpoint, body) for (endpoint, _), body in sorted(chosen.items())]
    mix += [("GET", "/v1/variants/british", None), ("GET", "/v1/capabilities", None), ("GET", "/health", None)]
    return mix


@pytest.mark.slow
def test_two_instances_behind_nginx_survive_losing_one_mid_run():
    mix = _load_mix()
    assert len({path for _, path, _ in mix}) >= 6 and len(mix) >= 20
    with gunicorn_instances(2) as [(port_a, proc_a), (port_b, _)]:
        # what a single instance answers, request by request
        expected = [request(port_b, method, path, body) for method, path, body in mix]
        assert all(status < 500 for status, _, _ in expected)
        assert sum(status == 200 for status, _, _ in expected) > len(mix) // 2
        with nginx_in_front([port_a, port_b]) as front:
            total, kill_after = 360, 120
            done = threading.Event()
            finished = [0]
            lock = threading.Lock()

            def one(i: int):
                # (from many loopback addresses, as many clients: nginx lets one address have one
                # costly request, a replay or a score sheet, in flight at a time)
                method, path, body = mix[i % len(mix)]
                answer = request(front, method, path, body, source=f"127.0.0.{10 + i % 200}")
                with lock:
                    finished[0] += 1
                    if finished[0] == kill_after:
                        done.set()
                return i, answer

            def killer():
                # Instance A is killed: its master gets SIGKILL, and each of its workers ends its
                # request in hand, sees that its master is gone and exits; what A had accepted is
                # answered, what it had not is refused or reset, and nginx sends that to B.  (A worker
                # killed in the instant between writing an answer's headers and its body would leave
                # a cut answer that no proxy can send again once the headers have gone out: the
                # client sees a broken connection and may resend, the request being pure.)
                done.wait(timeout=120)
                os.kill(proc_a.pid, signal.SIGKILL)

            k = threading.Thread(target=killer)
            k.start()
            t0 = time.monotonic()
            with ThreadPoolExecutor(max_workers=8) as pool:
                answers = list(pool.map(one, range(total)))
            k.join()
            elapsed = time.monotonic() - t0
            assert proc_a.wait(timeout=10) is not None  # instance A really died mid-run
            for _ in range(100):  # and its workers with it
                try:
                    os.killpg(proc_a.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                raise AssertionError("instance A's workers outlived their master")
            with pytest.raises(OSError):
                request(port_a, "GET", "/health", timeout=2)
            failed = [(i, a[0], a[2][:200]) for i, a in answers if a != expected[i % len(mix)]]
            assert not failed, f"{len(failed)} of {total} answers differ from a single instance's: {failed[:3]}"
            assert elapsed < 120
            # and instance B alone keeps answering through nginx
            assert request(front, "GET", "/health")[0] == 200


# -- slow clients ----------------------------------------------------------------------------------

def _hold_partial_requests(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that each send part of a request and then nothing more: half stop in
    the middle of a body, half in the middle of their headers."""
    held = []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i % 2:
            s.sendall(b"POST /v1/adjudicate HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 5000\r\n\r\n{\"variant\": \"british\", ")
        else:
            s.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: referee\r\nContent-Type: appl")
        held.append(s)
    return held


@pytest.mark.slow
def test_slow_clients_do_not_stop_the_others():
    deal = (ROOT / "examples" / "deal.json").read_bytes()
    with gunicorn_instances(2) as [(port_a, _), (port_b, _)], nginx_in_front([port_a, port_b]) as front:
        reference = request(port_a, "POST", "/v1/deal", deal)
        assert reference[0] == 200
        held = _hold_partial_requests(front, 50)
        try:
            latencies = []
            t_end = time.monotonic() + 4  # held for four seconds, ordinary requests all along
            while time.monotonic() < t_end:
                t0 = time.monotonic()
                answer = request(front, "POST", "/v1/deal", deal, timeout=10)
                latencies.append(time.monotonic() - t0)
                assert answer == reference
                time.sleep(0.05)
            # more than the four workers there are, so no request waited on a held connection
            assert len(latencies) >= 20, latencies
            assert max(latencies) < 1.5, latencies
            # the held connections are still open (nginx holds them, not the referee's workers)
            still_open = 0
            for s in held:
                s.setblocking(False)
                try:
                    still_open += s.recv(1) == b"" and 0 or 1
                except BlockingIOError:
                    still_open += 1
                except OSError:
                    pass
            assert still_open >= 40
        finally:
            for s in held:
                s.close()


# -- nginx's own refusals --------------------------------------------------------------------------

def _raw_exchange(port: int, payload: bytes) -> tuple[int, str, bytes]:
    """Send ``payload`` as is and read the answer (status, content type, body)."""
    status, headers, body = raw_exchange(port, payload)
    return status, headers.get("content-type", ""), body


def _chunked_body(total: int) -> bytes:
    piece = b"x" * 65536
    out = b""
    sent = 0
    while sent < total:
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
        sent += len(piece)
    return out + b"0\r\n\r\n"


@pytest.mark.slow
def test_the_refusals_of_nginx_and_gunicorn_are_problems():
    first_turn = (ROOT / "examples" / "first-turn.json").read_bytes()
    with gunicorn_instances(1, workers=1) as [(port, _)], nginx_in_front([port]) as front:
        cases = {
            431: b"GET /health HTTP/1.1\r\nHost: referee\r\nX-Big: " + b"h" * 20000 + b"\r\n\r\n",
            414: b"GET /v1/variants/" + b"a" * 20000 + b" HTTP/1.1\r\nHost: referee\r\n\r\n",
            413: (b"POST /v1/adjudicate HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (2 * 1024 * 1024)) + b" " * (2 * 1024 * 1024),
        }
        chunked = (b"POST /v1/adjudicate HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                   b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n") + _chunked_body(2 * 1024 * 1024)
        for status, payload in [*cases.items(), (413, chunked)]:
            got_status, content_type, body = _raw_exchange(front, payload)
            assert (got_status, content_type) == (status, PROBLEM), (status, got_status, content_type, body[:200])
            assert json.loads(body) == json.loads((DEPLOY / "errors" / f"{status}.json").read_bytes())
        # what nginx lets through and the referee's worker refuses (over its 100 header lines) is
        # refused in the app's form too: 431 problem+json, not a page of text; under the bound, served
        many = b"".join(b"X-H%d: 1\r\n" % i for i in range(500))
        status, content_type, body = _raw_exchange(front, b"GET /health HTTP/1.1\r\nHost: referee\r\nConnection: close\r\n"
                                                   + many + b"\r\n")
        assert (status, content_type) == (431, PROBLEM) and json.loads(body)["type"].endswith("/request-header-fields-too-large")
        status, content_type, _ = _raw_exchange(front, b"GET /health HTTP/1.1\r\nHost: referee\r\nConnection: close\r\n"
                                                + many[:many.index(b"X-H95:")] + b"\r\n")
        assert (status, content_type) == (200, "application/json")
        # the app's own answers pass through nginx untouched
        assert request(front, "POST", "/v1/adjudicate", first_turn) == request(port, "POST", "/v1/adjudicate", first_turn)
        status, content_type, body = request(front, "POST", "/v1/adjudicate", b"{")
        assert (status, content_type) == (400, PROBLEM) and json.loads(body)["type"].endswith("/malformed-json")
        # without nginx, gunicorn hands a chunked body on whole and the app refuses it past 1 MiB
        got_status, content_type, body = _raw_exchange(port, chunked)
        assert (got_status, content_type) == (413, PROBLEM), (got_status, body[:200])


# -- schemathesis over HTTP: every check, three seeds ---------------------------------------------

# The committed schemathesis.toml (read from the repository root) with every check on, the
# response-time check included, and all four phases, stateful too, against a served instance.
# The limit is generous for a shared two-core machine: the refused bodies schemathesis sends cost
# the referee 5-20 ms of CPU, and two seconds means a regression of a hundred times, or a stalled
# worker.  (A limit of one second tripped three times on a 422 that costs 3-4 ms of CPU in process,
# each time while other test runs shared the two cores.)
MAX_RESPONSE_SECONDS = float(os.environ.get("KALOOKI_MAX_RESPONSE_SECONDS", 2.0))


# The examples and coverage phases are drawn from the document rather than from the seed: they run
# with the first seed only, and the fuzzing and stateful phases with each of the three.
@pytest.mark.slow
@pytest.mark.parametrize("seed, phases", [(1, "examples,coverage,fuzzing,stateful"), (2, "fuzzing,stateful"),
                                          (3, "fuzzing,stateful")])
def test_schemathesis_with_every_check_finds_no_failure(seed, phases):
    cli = Path(sys.executable).with_name("schemathesis")
    with gunicorn_instances(1, workers=2) as [(port, _)]:
        run = subprocess.run([str(cli), "run", f"http://127.0.0.1:{port}/openapi.yaml", "--checks", "all",
                              "--phases", phases, "--seed", str(seed),
                              "--max-response-time", str(MAX_RESPONSE_SECONDS), "--max-examples", "20",
                              "--workers", "1"],
                             cwd=ROOT, capture_output=True, text=True, timeout=1200)
    summary = run.stdout[run.stdout.rfind("SUMMARY"):] if "SUMMARY" in run.stdout else run.stdout[-3000:]
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "Stateful" in summary and "passed" in summary.split("Test cases:")[-1], summary
