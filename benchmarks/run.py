"""Benchmarks: print figures beside their targets (nothing is asserted).

    .venv/bin/python -m benchmarks.run            # everything, including HTTP through gunicorn
    .venv/bin/python -m benchmarks.run --no-http  # in-process figures only
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from rules import action_from_dict, adjudicate, deal, load_variant
from rules.legal import legal_actions
from rules.replay import replay
from vectors.build import expand_setup
from rules.state import state_from_dict

ROOT = Path(__file__).resolve().parent.parent


def timed(fn, n: int) -> tuple[float, float]:
    """(median, p99) in microseconds over ``n`` calls after a warm-up."""
    for _ in range(min(50, n)):
        fn()
    samples = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - t0) / 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def line(name: str, value: str, target: str) -> None:
    print(f"  {name:<46} {value:>22}   target {target}")


# The variant measured: the one of the README's example request (examples/first-turn.json), which
# the HTTP benchmark sends too.
VARIANT = json.loads((ROOT / "examples" / "first-turn.json").read_text())["variant"]


def in_process() -> None:
    v = load_variant(VARIANT)
    dealt, _ = deal(v, ["A", "B", "C", "D"], "bench")
    draw = action_from_dict({"type": "draw", "source": "stock"})
    after = adjudicate(v, dealt, draw).state
    discard = action_from_dict({"type": "discard", "card": after.players[0].hand[0].code})
    setup = {"players": [{"id": "A", "hand": ["5H", "6H", "JK", "8H", "9S", "9D", "9C", "KC", "4C", "3D", "2S"], "opened": True},
                         {"id": "B", "hand": ["2H", "3H", "4H", "AS", "AD", "AC", "KD", "QS", "QH", "10C"]}],
             "melds": [{"id": "m1", "owner": "A", "kind": "run", "cards": ["5C", "6C", "7C", "8C"]}],
             "dealer": "B", "to_act": "A", "phase": "play", "turn": {"drawn": "3D", "source": "stock"}}
    play = state_from_dict(expand_setup(setup, VARIANT, None, "bench"), v)
    meld = action_from_dict({"type": "meld", "melds": [{"cards": ["5H", "6H", "JK(=7H)", "8H"], "kind": "run"},
                                                       {"cards": ["9S", "9D", "9C"], "kind": "set"}]})
    build = action_from_dict({"type": "build", "meld": "m1", "cards": ["4C"], "end": "low"})
    print("In-process adjudication (median / p99, microseconds)")
    for name, state, action, target in (("draw from the stock", dealt, draw, "<= 50 us median"),
                                        ("discard", after, discard, "<= 50 us median"),
                                        ("meld: a run and a set with two jokers", play, meld, "<= 250 us median"),
                                        ("build a card onto a run end", play, build, "-")):
        assert adjudicate(v, state, action).legal, name
        med, p99 = timed(lambda: adjudicate(v, state, action), 3000)
        line(name, f"{med:8.1f} / {p99:8.1f} us", target)

    # legal-actions on the worst case: 20 cards holding 4 jokers (a four-joker pack)
    rules = {"pack": {"decks": 2, "jokers": 4}}
    v4 = load_variant(VARIANT, rules)
    worst = {"players": [{"id": "A", "hand": ["JK", "JK", "JK", "JK", "2S", "3S", "5S", "7S", "9H", "10H", "QH", "KD",
                                               "KC", "KS", "4D", "5D", "7C", "8C", "AC", "AH"]},
                         {"id": "B", "hand": ["2H", "3H", "4H", "6S", "6H", "6D", "6C"]}],
             "dealer": "B", "to_act": "A", "phase": "play", "turn": {"drawn": "2S", "source": "stock"}}
    worst_state = state_from_dict(expand_setup(worst, VARIANT, rules, "bench"), v4)
    opened = {**worst, "players": [{**worst["players"][0], "opened": True}, worst["players"][1]],
              "melds": [{"id": "m1", "owner": "A", "kind": "run", "cards": ["9D", "10D", "JD"]},
                        {"id": "m2", "owner": "B", "kind": "set", "cards": ["QS", "QD", "QC"]}]}
    worst["players"][1]["opened"] = True
    opened["players"][1] = {**opened["players"][1], "opened": True}
    opened_state = state_from_dict(expand_setup(opened, VARIANT, rules, "bench"), v4)
    print("legal-actions, 20 cards with 4 jokers (median / p99, milliseconds)")
    for name, st in (("not yet opened (openings searched)", worst_state), ("opened, melds on the table", opened_state)):
        listing = legal_actions(v4, st)
        med, p99 = timed(lambda: legal_actions(v4, st), 60)
        line(f"{name}: {len(listing['actions'])} actions{' (cut)' if listing['truncated'] else ''}",
             f"{med / 1000:8.2f} / {p99 / 1000:8.2f} ms", "<= 20 ms")

    # a 300-step replay: a recorded log of legal steps chosen at random among the legal actions
    import random
    rng = random.Random(3)
    actions = []
    start = {"deal": {"players": ["A", "B", "C", "D"], "seed": "bench-replay"}}
    state, _ = deal(v, ["A", "B", "C", "D"], "bench-replay")
    while len(actions) < 300 and state.phase != "ended":
        listed = legal_actions(v, state)["actions"]
        pick = next((a for a in listed if a["type"] == "announce"), None) or rng.choice(listed)
        actions.append(pick)
        state = adjudicate(v, state, action_from_dict(pick)).state
    n = len(actions)
    med, p99 = timed(lambda: replay(v, start, actions), 20)
    print("Replay")
    line(f"replay of a {n}-step log (with hashes)", f"{med / 1000:8.2f} / {p99 / 1000:8.2f} ms", "<= 50 ms (300 steps)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _load(url: str, body: bytes, seconds: float, threads: int) -> float:
    stop = time.perf_counter() + seconds
    counts = [0] * threads

    def worker(i: int) -> None:
        while time.perf_counter() < stop:
            req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req) as r:
                r.read()
            counts[i] += 1
    ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return sum(counts) / (time.perf_counter() - t0)


ROUNDS = 8


def http(seconds: float) -> None:
    port = _free_port()
    env = {**os.environ, "KALOOKI_BIND": f"127.0.0.1:{port}"}
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen([str(gunicorn), "-c", "gunicorn.conf.py", "--access-logfile", "/dev/null",
                             "benchmarks.wsgi:app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/health").read()
                break
            except OSError:
                time.sleep(0.1)
        body = json.dumps(json.loads((ROOT / "examples" / "first-turn.json").read_text())).encode()
        threads = max(4, (os.cpu_count() or 2) * 2)
        for path in ("/bench/echo", "/v1/adjudicate"):  # every worker answers both before measuring
            _load(base + path, body, 1.0, threads)
        # alternate the two loads, so that a slow spell of the machine weighs on both alike
        echoes, adjs = [], []
        for _ in range(ROUNDS):
            echoes.append(_load(base + "/bench/echo", body, seconds, threads))
            adjs.append(_load(base + "/v1/adjudicate", body, seconds, threads))
        echo, adj = statistics.median(echoes), statistics.median(adjs)
        # each round's two loads ran back to back, so their ratio is the paired comparison
        ratio = statistics.median(a / e for e, a in zip(echoes, adjs))
        workers = int(env.get("KALOOKI_WORKERS", 0)) or None
        print(f"HTTP through gunicorn (gunicorn.conf.py, {workers or 'default'} workers; {threads} client threads; "
              f"{ROUNDS} alternating rounds of {seconds:.0f} s, medians)")
        line("bare JSON echo", f"{echo:10.0f} req/s", "-")
        line("POST /v1/adjudicate (a first-turn draw and discard)", f"{adj:10.0f} req/s", "-")
        line("adjudicate / echo (median of the rounds' ratios)", f"{ratio:10.0%}", ">= 70%")
        print("  rounds (echo, adjudicate req/s): " + ", ".join(f"{e:.0f}/{a:.0f}" for e, a in zip(echoes, adjs)))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-http", action="store_true")
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each HTTP load (default 3)")
    args = parser.parse_args(argv)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}")
    in_process()
    if not args.no_http:
        http(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
