"""Small builders for tests: a compact setup becomes a full, conserved state (as in the vectors)."""
from __future__ import annotations

import threading
from contextlib import contextmanager

from werkzeug.serving import make_server

from kalooki_referee.rules import action_from_dict, adjudicate, load_variant, state_from_dict
from kalooki_referee.vectors.build import expand_setup


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
