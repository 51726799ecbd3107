"""Small builders for tests: a compact setup becomes a full, conserved state (as in the vectors)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from werkzeug.serving import make_server

from kalooki_referee.rules import action_from_dict, adjudicate, load_variant, state_from_dict
from kalooki_referee.vectors.build import expand_setup


COMPOSED = {"positions": {"counted": False}}   # a position composed to isolate a rule (its cards need not add up)


def composed(rules: dict | None = None) -> dict:
    """House rules ``rules`` for a composed position: ``positions.counted`` false beside them."""
    rules = dict(rules or {})
    return {**rules, "positions": {**(rules.get("positions") or {}), "counted": False}}


def make_state(setup: dict, variant_id: str = "british", rules: dict | None = None):
    variant = load_variant(variant_id, rules)
    return variant, state_from_dict(expand_setup(setup, variant_id, rules, "test"), variant)


def play(variant, state, action: dict):
    return adjudicate(variant, state, action_from_dict(action))


FOUR = [
    {"id": "P1", "hand": ["2H", "3H", "5S", "7D", "8C", "9C", "KH", "KD", "QS", "JS", "4C", "6S", "AS"]},
    {"id": "P2", "hand": ["2S", "4S", "6D", "8D", "10C", "JC", "QH", "QC", "QD", "9H", "10H", "JH", "5C"]},
    {"id": "P3", "hand": ["3S", "5D", "6C", "7H", "8H", "9S", "10D", "JD", "KC", "AD", "2D", "3D", "4D"]},
    {"id": "P4", "hand": ["3C", "5H", "6H", "7S", "10S", "KS", "AC", "AH", "4H", "8S", "9D", "2C", "7C"]},
]


@contextmanager
def serving(app):
    """``app`` served on 127.0.0.1 on a free port in a thread, for the block; its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at the moment of asking."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served_by(command: list[str], *, port: int, cwd: Path, env: dict[str, str], log: Path,
              seconds: float = 60, ready: str = "/health") -> Iterator[str]:
    """A server process started with ``command`` (serving 127.0.0.1:``port``) in a session of its own,
    its output written to ``log`` (a pipe nobody reads would fill and stall it), waited for until
    ``ready`` answers 200; after the block it is stopped with every process of its group.  Its base URL."""
    base = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
        try:
            deadline = time.monotonic() + seconds
            while True:
                try:
                    with urllib.request.urlopen(base + ready, timeout=2) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{command[0]} did not serve {ready} within {seconds} s "
                                         f"(exit {server.poll()}): {log.read_text(errors='replace')[-2000:]}")
                time.sleep(0.2)
            yield base
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def card_worth(values: dict, code: str) -> int:
    """What a card left in hand costs under a variant's ``values`` parameters (as GET
    /v1/variants/{id} gives them): a joker, an ace (a red one at ``red_ace`` where the variant has
    it), a picture or ten, else its pips.  Written here from the parameters, for the tests that
    recompute a settlement."""
    if code == "JK":
        return values["joker_in_hand"]
    rank = code[:-1]
    if rank == "A":
        red = values.get("red_ace")
        return red if red is not None and code[-1] in "HD" else values["ace"]
    return values["picture"] if rank in ("K", "Q", "J", "10") else int(rank)


def raw_exchange(port: int, payload: bytes, source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """Send ``payload`` as is to 127.0.0.1:``port`` from the loopback address ``source`` and read the
    whole answer: (status, headers with lower-case names, body)."""
    with socket.socket() as s:
        s.bind((source, 0))
        s.settimeout(10)
        s.connect(("127.0.0.1", port))
        s.sendall(payload)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    return int(lines[0].split()[1]), headers, body
