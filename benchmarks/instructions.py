"""The request benchmarks counted in instructions rather than time (valgrind's callgrind), a count that
the load of a shared machine does not change: each case runs in its own process under callgrind with
counting off while the app starts and warms up, and on only for the timed calls.

    .venv/bin/python -m benchmarks.instructions            # needs valgrind (apt-get install valgrind)

Prints, per call: `orjson.loads` of README's first-turn body, the bare echo app (benchmarks/bare.py),
POST /v1/adjudicate with that body, the echo on the referee's app, what runs around every request
((echo - bare echo)), the referee's own work ((adjudicate - echo), also in parses), the
floor's (benchmarks/wsgi.py: the least any handling of that request costs on this design), and the
legal-actions worst case of benchmarks.run.  Each case takes about half a minute.

    .venv/bin/python -m benchmarks.instructions --http     # the same over HTTP (a few minutes)

counts instead what a gunicorn worker spends per request served over HTTP: the bare echo app and the
referee (benchmarks/wsgi.py) each served by gunicorn with api/gunicorn_conf.py (one worker, never
replaced) under callgrind, counting on only while one route's requests are answered, the client (one
kept-alive connection) outside valgrind.  This is the issue's HTTP figure without the machine's
noise: the bare app's count over each route's is the share of its throughput that route allows on
one core.
"""
from __future__ import annotations

import argparse
import glob
import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {"nothing": 1, "parse": 1000, "bare": 200, "adjudicate": 200, "echo": 200, "floor": 200, "legal-actions": 5}


def _worker(case: str, calls: int, flag: str) -> None:
    """Run in the counted process: warm up, say so, wait for counting to start, make the calls."""
    import orjson

    from benchmarks import bare
    from benchmarks.run import BODY, FOUR_JOKERS, VARIANT, WORST
    from benchmarks.wsgi import ECHO_PATH, FLOOR_PATH, create
    from kalooki_referee.vectors.build import expand_setup

    client = create().test_client()
    bare_client = bare.create().test_client()
    listing = orjson.dumps({"variant": VARIANT, "rules": FOUR_JOKERS,
                            "state": expand_setup(WORST[0][1], VARIANT, FOUR_JOKERS, "bench")})
    calls_of: dict[str, Callable[[], object]] = {
        "nothing": lambda: None,
        "parse": lambda: orjson.loads(BODY),
        "adjudicate": lambda: client.post("/v1/adjudicate", data=BODY, content_type="application/json"),
        "echo": lambda: client.post(ECHO_PATH, data=BODY, content_type="application/json"),
        "bare": lambda: bare_client.post(bare.ECHO_PATH, data=BODY, content_type="application/json"),
        "floor": lambda: client.post(FLOOR_PATH, data=BODY, content_type="application/json"),
        "legal-actions": lambda: client.post("/v1/legal-actions", data=listing, content_type="application/json"),
    }
    for name, fn in calls_of.items():
        for _ in range(3):
            answer = fn()
            # (a case counts only what it is meant to: an answer refused, e.g. 429, would count a refusal)
            status = getattr(answer, "status_code", 200)
            if status != 200:
                raise RuntimeError(f"the {name} case was answered {status}")
    Path(flag + ".ready").touch()
    while not os.path.exists(flag + ".go"):
        time.sleep(0.05)
    call = calls_of[case]
    for _ in range(calls):
        call()


def _count(case: str, calls: int) -> int:
    """Instructions counted while ``calls`` calls of ``case`` run (callgrind, counting switched on
    once the worker is ready)."""
    folder = tempfile.mkdtemp(prefix="kalooki-instructions-")
    flag = os.path.join(folder, "worker")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
                             sys.executable, "-m", "benchmarks.instructions", "--worker", case, str(calls), flag],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        while not os.path.exists(flag + ".ready"):
            if proc.poll() is not None:
                raise RuntimeError(f"the {case} worker stopped: {proc.stderr.read()[-500:] if proc.stderr else ''}")
            time.sleep(0.2)
        subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], check=True, capture_output=True)
        Path(flag + ".go").touch()
        _, err = proc.communicate(timeout=1800)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if proc.poll() is None:
            proc.kill()
    found = re.search(r"Collected : (\d+)", err)
    if proc.returncode or not found:
        raise RuntimeError(f"callgrind gave no count for {case}: {err[-500:]}")
    return int(found.group(1))


HTTP_CALLS = 500  # requests counted per route over HTTP
HTTP_WARM = 30  # requests answered uncounted first, on the same connection


def _post(conn: http.client.HTTPConnection, path: str) -> None:
    from benchmarks.run import BODY

    conn.request("POST", path, body=BODY, headers={"Content-Type": "application/json"})
    answer = conn.getresponse()
    answer.read()
    if answer.status != 200:
        raise RuntimeError(f"POST {path} answered {answer.status}")


def _served_counts(app: str, paths: list[str]) -> dict[str, float]:
    """Instructions per request of each of ``paths``, spent by the one gunicorn worker serving ``app``
    under callgrind (the master, idle, is not counted)."""
    from benchmarks.run import _free_port

    folder = tempfile.mkdtemp(prefix="kalooki-instructions-")
    port = _free_port()
    # (one hash seed for every server: with Python's random one, the same code's count moves by about
    # 1% from one start to the next, with the layout of its dicts and sets)
    env = {**os.environ, "KALOOKI_BIND": f"127.0.0.1:{port}", "KALOOKI_WORKERS": "1", "KALOOKI_MAX_REQUESTS": "0",
           "PYTHONHASHSEED": "0"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # (the server's own, as when served)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--trace-children=yes", "--instr-atstart=no",
                             f"--callgrind-out-file={folder}/out.%p", str(gunicorn),
                             "-c", "python:kalooki_referee.api.gunicorn_conf", app],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        conn = None
        for _ in range(1200):  # (the app loads under valgrind: a minute or two)
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                _post(conn, paths[0])
                break
            except (OSError, http.client.HTTPException):
                conn = None
                time.sleep(0.25)
        if conn is None:
            raise RuntimeError(f"gunicorn serving {app} under valgrind never answered")
        found = subprocess.run(["pgrep", "-P", str(proc.pid)], check=False, capture_output=True, text=True).stdout.split()
        if len(found) != 1:
            raise RuntimeError(f"expected one worker of {app}, found {found}")
        worker = found[0]
        counts = {}
        for path in paths:
            for _ in range(HTTP_WARM):
                _post(conn, path)
            subprocess.run(["callgrind_control", "-i", "on", worker], check=True, capture_output=True)
            for _ in range(HTTP_CALLS):
                _post(conn, path)
            subprocess.run(["callgrind_control", "-i", "off", worker], check=True, capture_output=True)
            counts[path] = _dumped(folder, worker) / HTTP_CALLS
        return counts
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _dumped(folder: str, worker: str) -> int:
    """The instructions counted since the worker's last dump (a dump zeroes the counts): dumped now,
    read from its file's ``totals:`` line, the file then removed."""
    subprocess.run(["callgrind_control", "-d", worker], check=True, capture_output=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for name in glob.glob(os.path.join(folder, f"out.{worker}.*")):
            with open(name) as f:
                total = next((int(ln.split()[1]) for ln in f if ln.startswith("totals:")), None)
            if total is not None:
                os.remove(name)
                return total
        time.sleep(0.2)
    raise RuntimeError("callgrind wrote no dump")


def http_main() -> None:
    bare = _served_counts("benchmarks.bare:create()", ["/bench/echo"])["/bench/echo"]
    referee = _served_counts("benchmarks.wsgi:create()", ["/bench/echo", "/bench/floor", "/v1/adjudicate"])
    echo, floor, adjudicate = referee["/bench/echo"], referee["/bench/floor"], referee["/v1/adjudicate"]
    print(f"Instructions per request served over HTTP (callgrind, one gunicorn worker, {HTTP_CALLS} requests "
          f"per route on one kept-alive connection; README's first-turn body)")
    rows = [("the bare echo app (benchmarks/bare.py)", bare, None),
            ("the referee's own echo (around every request)", echo, ">= 90%"),
            ("POST /v1/adjudicate", adjudicate, ">= 80%"),
            ("the floor, /bench/floor (the least any handling costs)", floor, "-")]
    for name, count, target in rows:
        share = "" if target is None else f"   bare / this {bare / count:6.1%}   target {target}"
        print(f"  {name:<58} {count:>12,.0f}{share}")
    print(f"  {'around every request: echo - bare':<58} {echo - bare:>12,.0f}")
    print(f"  {'the referee own work: adjudicate - echo':<58} {adjudicate - echo:>12,.0f}")
    print(f"  {'the floor beyond the echo: floor - echo':<58} {floor - echo:>12,.0f}")
    print(f"  the floor with nothing around the request, bare / (bare + floor - echo): "
          f"{bare / (bare + floor - echo):.1%} (the most any handling of this request could allow)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=3, metavar=("CASE", "CALLS", "FLAG"), help=argparse.SUPPRESS)
    parser.add_argument("--http", action="store_true", help="count a gunicorn worker's instructions per request")
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker[0], int(args.worker[1]), args.worker[2])
        return 0
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        print("valgrind not found (apt-get install valgrind)")
        return 1
    if args.http:
        http_main()
        return 0
    total = {case: _count(case, calls) for case, calls in CASES.items()}
    base = total["nothing"]  # what switching counting on and off costs, the same in every case
    per = {case: (total[case] - base) / calls for case, calls in CASES.items() if case != "nothing"}
    own = per["adjudicate"] - per["echo"]
    print("Instructions per call (callgrind)")
    for case in per:
        print(f"  {case:<54} {per[case]:>14,.0f}")
    print(f"  {'referee own work: adjudicate - echo':<54} {own:>14,.0f}   = {own / per['parse']:.1f} parses")
    around = per["echo"] - per["bare"]
    print(f"  {'around every request: echo - bare echo app':<54} {around:>14,.0f}   = {around / per['parse']:.1f} parses")
    floor = per["floor"] - per["echo"]
    print(f"  {'the floor (benchmarks/wsgi.py): floor - echo':<54} {floor:>14,.0f}   = {floor / per['parse']:.1f} parses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
