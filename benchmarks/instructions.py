"""The request benchmarks counted in instructions rather than time (valgrind's callgrind), a count that
the load of a shared machine does not change: each case runs in its own process under callgrind with
counting off while the app starts and warms up, and on only for the timed calls.

    .venv/bin/python -m benchmarks.instructions            # needs valgrind (apt-get install valgrind)

Prints, per call: `orjson.loads` of README's first-turn body, the bare echo app (benchmarks/bare.py),
POST /v1/adjudicate with that body, the echo on the referee's app, what runs around every request
((echo - bare echo)), the referee's own work ((adjudicate - echo), also in parses), the
floor's (benchmarks/wsgi.py: the least any handling of that request costs on this design), and the
legal-actions worst case of benchmarks.run.  Each case takes about half a minute.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
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
    for fn in calls_of.values():
        for _ in range(3):
            fn()
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=3, metavar=("CASE", "CALLS", "FLAG"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker[0], int(args.worker[1]), args.worker[2])
        return 0
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        print("valgrind not found (apt-get install valgrind)")
        return 1
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
