"""Benchmarks: print figures beside their targets (nothing is asserted).

    .venv/bin/python -m benchmarks.run            # everything, including HTTP through gunicorn
    .venv/bin/python -m benchmarks.run --quick    # fewer and shorter rounds (about a minute)
    .venv/bin/python -m benchmarks.run --no-http  # in-process figures only

Over HTTP, `/v1/adjudicate` and the referee's own echo are measured against a separate bare Flask +
orjson echo app (benchmarks/bare.py) served by its own gunicorn with the same settings.

Figures measured against each other (a request against the bare echo, a game request against a hand
request) are measured in alternating rounds after a warm-up: each round times every case in turn, the
figure is computed per round from the round's medians, and the median over the rounds is printed
with its spread (the lowest and highest round), so that a slow spell of the machine weighs on every
case alike and shows as spread rather than as a wrong figure.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from kalooki_referee.rules import action_from_dict, adjudicate, deal, load_variant, state_wire
from kalooki_referee.rules.legal import legal_actions
from kalooki_referee.rules.wire.legal import listing_wire
from kalooki_referee.rules.wire.replay import replay
from kalooki_referee.vectors.build import expand_setup
from kalooki_referee.rules.wire.state import state_from_dict

if TYPE_CHECKING:
    from flask.testing import FlaskClient
    from werkzeug.test import TestResponse

ROOT = Path(__file__).resolve().parent.parent


def timed(fn: Callable[[], object], n: int) -> tuple[float, float]:
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


def alternating(cases: dict[str, Callable[[], object]], n: int, rounds: int, warm: int = 50) -> dict[str, list[list[float]]]:
    """Each case's samples in microseconds, round by round: every case is called ``warm`` times, then
    in each of ``rounds`` rounds every case in turn is called ``n`` times, each call timed."""
    for fn in cases.values():
        for _ in range(warm):
            fn()
    out: dict[str, list[list[float]]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, fn in cases.items():
            samples = []
            for _ in range(n):
                t0 = time.perf_counter_ns()
                fn()
                samples.append((time.perf_counter_ns() - t0) / 1000)
            out[name].append(samples)
    return out


def interleaved(cases: dict[str, Callable[[], object]], n: int, rounds: int, warm: int = 50) -> dict[str, list[list[float]]]:
    """As ``alternating``, but the cases take turns call by call (each of the ``n`` steps of a round
    calls every case once, in turn), so that a drift of the machine's speed, which on a shared
    machine comes and goes within a second, weighs on every case of a round alike."""
    for fn in cases.values():
        for _ in range(warm):
            fn()
    out: dict[str, list[list[float]]] = {name: [] for name in cases}
    clock = time.perf_counter_ns
    for _ in range(rounds):
        samples: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(n):
            for name, fn in cases.items():
                t0 = clock()
                fn()
                samples[name].append((clock() - t0) / 1000)
        for name in cases:
            out[name].append(samples[name])
    return out


def medians(rounds: list[list[float]]) -> list[float]:
    return [statistics.median(r) for r in rounds]


def p99(samples: list[float]) -> float:
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def line(name: str, value: str, target: str) -> None:
    print(f"  {name:<54} {value:>20}   target {target}")


def spread(name: str, values: list[float], fmt: str, unit: str = "") -> None:
    """The lowest and highest of the rounds' figures, under the figure's line."""
    print(f"    {name}: {format(min(values), fmt)}{unit} .. {format(max(values), fmt)}{unit} over {len(values)} rounds")


# The variant measured: the one of the README's example request (examples/first-turn.json), which
# the request benchmarks send too (the file's bytes, as the README's curl sends them).
BODY = (ROOT / "examples" / "first-turn.json").read_bytes()
VARIANT = json.loads(BODY)["variant"]

# legal-actions' worst case: 20 cards holding 4 jokers (a four-joker pack), before and after opening.
# a composed worst case: a hand of 20 cards, more than play gives, so the hand limit is waived
FOUR_JOKERS = {"pack": {"decks": 2, "jokers": 4}, "positions": {"hand_limit": False, "counted": False}}
_HAND_20 = ["JK", "JK", "JK", "JK", "2S", "3S", "5S", "7S", "9H", "10H", "QH", "KD", "KC", "KS", "4D", "5D", "7C", "8C",
            "AC", "AH"]
_OTHER = ["2H", "3H", "4H", "6S", "6H", "6D", "6C"]
WORST = (
    ("not yet opened (openings searched)",
     {"players": [{"id": "A", "hand": _HAND_20}, {"id": "B", "hand": _OTHER}],
      "dealer": "B", "to_act": "A", "phase": "play", "turn": {"drawn": "2S", "source": "stock"}}),
    ("opened, melds on the table",
     {"players": [{"id": "A", "hand": _HAND_20, "opened": True}, {"id": "B", "hand": _OTHER, "opened": True}],
      "melds": [{"id": "m1", "owner": "A", "kind": "run", "cards": ["9D", "10D", "JD"]},
                {"id": "m2", "owner": "B", "kind": "set", "cards": ["QS", "QD", "QC"]}],
      "dealer": "B", "to_act": "A", "phase": "play", "turn": {"drawn": "2S", "source": "stock"}}),
)


# Early and late in a six-player North American hand: the hand just dealt with the first draw made,
# and hands played on (by ``_played``) until a dozen melds lie on the table.  The late position
# measured against the early one is LATE; HELD_OUT, another hand played the same way, is kept to
# show the figure holds beyond the position it was measured on.
SIX = ["A", "B", "C", "D", "E", "F"]
LATE_VARIANT = "north_american_uspcc"
LATE, HELD_OUT = "late-22", "late-28"


def _partners(card: Any, hand: tuple[Any, ...]) -> int:
    """How much ``card`` is worth keeping: the cards of its rank (2 each) and of its suit within two
    ranks (1 each) in ``hand``; a joker always."""
    if card.is_joker:
        return 99
    return sum(2 if c.rank == card.rank else 1 for c in hand
               if c is not card and not c.is_joker and (c.rank == card.rank or (c.suit == card.suit and abs(c.rank - card.rank) <= 2)))


def _played(v: Any, seed: str) -> Any:
    """The six-player hand dealt with ``seed``, played by the referee's own legal actions until at
    least 12 melds and 50 cards lie on the table, at a player's draw: each player lays the largest
    meld or build listed that leaves them two cards, else draws from the stock, and discards the card
    with the fewest partners; nobody goes out."""
    def laid(a: dict[str, Any]) -> int:
        return (sum(len(m["cards"]) for m in a.get("melds") or []) + sum(len(b["cards"]) for b in a.get("builds") or [])
                + (len(a["cards"]) if a["type"] == "build" else 0))
    state, _ = deal(v, SIX, seed)
    while not (len(state.melds) >= 12 and sum(len(m.meld.slots) for m in state.melds) >= 50 and state.phase == "draw"):
        assert state.phase != "ended", f"the hand {seed} ended before a dozen melds were laid"
        listed = listing_wire(legal_actions(v, state))["actions"]
        hand = state.current.hand
        plays = [a for a in listed if a["type"] in ("meld", "build") and len(hand) - laid(a) >= 2]
        pick = (next((a for a in listed if a["type"] == "announce"), None)
                or max(plays, key=laid, default=None)
                or next((a for a in listed if a["type"] == "draw" and a["source"] == "stock"), None))
        if pick is None:
            worst = min(hand, key=lambda c: (_partners(c, hand), -c.rank))
            pick = next(a for a in listed if a["type"] == "discard" and a["card"] == worst.code)
        state = adjudicate(v, state, action_from_dict(pick)).state
    return state


def _turn_at(v: Any, state: Any) -> tuple[dict[str, Any], Any]:
    """The wire form (as JSON gives it) of ``state`` once its player to act has drawn from the stock,
    and the discard of that player's card with the fewest partners."""
    drawn = adjudicate(v, state, action_from_dict({"type": "draw", "source": "stock"})).state
    hand = drawn.current.hand
    card = min(hand, key=lambda c: (_partners(c, hand), -c.rank))
    discard = action_from_dict({"type": "discard", "card": card.code})
    assert adjudicate(v, drawn, discard).legal
    return orjson.loads(orjson.dumps(state_wire(drawn))), discard


def early_and_late(steps: int, rounds: int) -> None:
    """One turn (the state read from its wire form, the position checked, a discard adjudicated)
    and the state's reading alone, early and late in a six-player hand, the cases taking turns call
    by call; each ratio per round, the median of the rounds printed."""
    from kalooki_referee.rules.wire.state import read_state, state_from_valid

    v = load_variant(LATE_VARIANT)
    dealt, _ = deal(v, SIX, "bench")
    positions = {"early": _turn_at(v, dealt), "late": _turn_at(v, _played(v, LATE)),
                 "held out": _turn_at(v, _played(v, HELD_OUT))}
    def turn(wire: dict[str, Any], discard: Any) -> Callable[[], object]:
        return lambda: adjudicate(v, state_from_valid(wire, v), discard)

    def read(wire: dict[str, Any]) -> Callable[[], object]:
        return lambda: read_state(wire, v)
    cases: dict[str, Callable[[], object]] = {}
    for name, (wire, discard) in positions.items():
        cases[f"{name} turn"] = turn(wire, discard)
        cases[f"{name} read"] = read(wire)
    samples = interleaved(cases, steps, rounds)
    figures = {name: medians(rounds_) for name, rounds_ in samples.items()}
    print(f"Early and late in a six-player hand ({LATE_VARIANT}; {rounds} rounds of {steps} steps, each step calling "
          f"every case once, in turn; medians)")
    for name, (wire, _) in positions.items():
        table = sum(len(m["cards"]) for m in wire["melds"])
        print(f"    {name}: {len(wire['melds'])} melds, {table} cards on the table, hands of "
              f"{', '.join(str(len(p['hand'])) for p in wire['players'])}")
    for what, label, target in (("turn", "one turn (read, checked, a discard)", "<= 2x"),
                                ("read", "the state read alone", "-")):
        line(f"{label}, early", f"{statistics.median(figures[f'early {what}']):8.1f} us", "-")
        for name in ("late", "held out"):
            ratio = [late / early for late, early in zip(figures[f"{name} {what}"], figures[f"early {what}"])]
            line(f"{label}, {name}", f"{statistics.median(figures[f'{name} {what}']):8.1f} us", "-")
            line(f"  {name} / early", f"{statistics.median(ratio):8.2f}x", target)
            spread("rounds", ratio, ".2f", "x")


def in_process() -> None:
    v = load_variant(VARIANT)
    dealt, _ = deal(v, ["A", "B", "C", "D"], "bench")
    draw = action_from_dict({"type": "draw", "source": "stock"})
    after = adjudicate(v, dealt, draw).state
    discard = action_from_dict({"type": "discard", "card": after.players[0].hand[0].code})
    setup = {"players": [{"id": "A", "hand": ["5H", "6H", "JK", "8H", "9S", "9D", "9C", "KC", "4C", "3D"], "opened": True},
                         {"id": "B", "hand": ["2H", "3H", "4H", "AS", "AD", "AC", "KD", "QS", "QH", "10C", "7D", "8D", "JC"]}],
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
        med, p99_ = timed(lambda: adjudicate(v, state, action), 3000)
        line(name, f"{med:8.1f} / {p99_:8.1f} us", target)

    # legal-actions on the worst case, in the rules core
    v4 = load_variant(VARIANT, FOUR_JOKERS)
    print("legal-actions, 20 cards with 4 jokers, in the rules core (median / p99, milliseconds)")
    for name, position in WORST:
        st = state_from_dict(expand_setup(position, VARIANT, FOUR_JOKERS, "bench"), v4)
        listing = listing_wire(legal_actions(v4, st))
        med, p99_ = timed(lambda: listing_wire(legal_actions(v4, st)), 60)
        line(f"{name}: {len(listing['actions'])} actions{' (cut)' if listing['truncated'] else ''}",
             f"{med / 1000:8.2f} / {p99_ / 1000:8.2f} ms", "<= 20 ms")

    # a 300-step replay: a recorded log of legal steps chosen at random among the legal actions
    import random
    rng = random.Random(3)
    actions: list[dict[str, Any]] = []
    start = {"deal": {"players": ["A", "B", "C", "D"], "seed": "bench-replay"}}
    state, _ = deal(v, ["A", "B", "C", "D"], "bench-replay")
    while len(actions) < 300 and state.phase != "ended":
        listed = listing_wire(legal_actions(v, state))["actions"]
        pick = next((a for a in listed if a["type"] == "announce"), None) or rng.choice(listed)
        actions.append(pick)
        state = adjudicate(v, state, action_from_dict(pick)).state
    n = len(actions)
    med, p99_ = timed(lambda: replay(v, start, actions), 20)
    print("Replay")
    line(f"replay of a {n}-step log (with hashes)", f"{med / 1000:8.2f} / {p99_ / 1000:8.2f} ms", "<= 50 ms (300 steps)")


def _poster(client: FlaskClient, path: str, body: bytes) -> Callable[[], TestResponse]:
    """One POST of ``body`` through the app's whole WSGI stack (the test client builds the WSGI
    environ, the app answers it), checked once to be answered 200."""
    def post() -> TestResponse:
        return client.post(path, data=body, content_type="application/json")
    response = post()
    assert response.status_code == 200, (path, response.status_code, response.get_data(as_text=True)[:300])
    return post


def _same_answer(client: FlaskClient, path: str) -> None:
    """Check once that ``path`` answers README's first-turn request with the referee's own bytes."""
    mine = client.post(path, data=BODY, content_type="application/json").get_data()
    referee = client.post("/v1/adjudicate", data=BODY, content_type="application/json").get_data()
    assert mine == referee, f"{path} does not answer as /v1/adjudicate does"


def _game_and_hand_requests(client: FlaskClient) -> tuple[bytes, bytes]:
    """A game-level adjudicate body (``game``) and the hand-level body (``state``) of the same hand
    and the same action: a first turn (draw from the discard pile, discard) in the first hand of a
    game started with /v1/games."""
    started = client.post("/v1/games", json={"variant": VARIANT, "players": ["Andy", "Mark", "John", "Frank"],
                                             "seed": "bench", "stakes": "casino"})
    game = started.get_json()["game"]
    hand = game["hand"]
    player = next(p for p in hand["players"] if p["id"] == hand["to_act"])
    action = {"type": "turn", "actions": [{"type": "draw", "source": "discard"},
                                          {"type": "discard", "card": player["hand"][0]}]}
    game_body = orjson.dumps({"variant": VARIANT, "game": game, "action": action})
    hand_body = orjson.dumps({"variant": VARIANT, "state": hand, "action": action})
    by_game = client.post("/v1/adjudicate", data=game_body, content_type="application/json").get_json()
    by_hand = client.post("/v1/adjudicate", data=hand_body, content_type="application/json").get_json()
    assert by_game["legal"] and by_hand["legal"] and by_game["state"] == by_hand["state"], "not the same hand action"
    return game_body, hand_body


def requests_in_process(rounds: int, n: int, n_legal: int) -> None:
    """The request figures through the Flask test client: the app's WSGI stack in this process,
    no HTTP, no server."""
    from kalooki_referee.api import create_app
    from benchmarks.wsgi import ECHO_PATH, FLOOR_PATH, add_echo
    from kalooki_referee.api.ops import settle_collector

    # the echo is registered on this instance only, for the benchmark; the request log is written
    # (every line formatted and written, as when serving) to /dev/null rather than to the terminal
    app = add_echo(create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb"), "KALOOKI_CLIENT_RATE": 0}))
    client = app.test_client()
    settle_collector()  # (the collector as a serving worker sets it: these figures and all that follow)

    # 1. the referee's own work: what a request costs beyond the echo's, counted in body parses
    _same_answer(client, FLOOR_PATH)
    cases = interleaved({"adjudicate": _poster(client, "/v1/adjudicate", BODY),
                         "echo": _poster(client, ECHO_PATH, BODY),
                         "floor": _poster(client, FLOOR_PATH, BODY),
                         "parse": lambda: orjson.loads(BODY)}, n, rounds)
    adj, echo, floor, parse = (medians(cases[k]) for k in ("adjudicate", "echo", "floor", "parse"))
    own = [(a - e) / p for a, e, p in zip(adj, echo, parse)]
    least = [(f - e) / p for f, e, p in zip(floor, echo, parse)]
    print(f"Requests through the Flask test client, in process (the app's WSGI stack, no HTTP; the collector "
          f"set as a serving worker sets it, api.ops.settle_collector; {rounds} rounds of {n} steps, each step "
          f"calling every case once, in turn, after a warm-up; medians)")
    line("POST /v1/adjudicate, README's first-turn request", f"{statistics.median(adj):8.1f} us", "-")
    line(f"POST {ECHO_PATH} (orjson in and out), same app", f"{statistics.median(echo):8.1f} us", "-")
    line(f"orjson.loads of that body ({len(BODY)} bytes)", f"{statistics.median(parse):8.2f} us", "-")
    line("referee's own work: (adjudicate - echo) / parse", f"{statistics.median(own):8.1f}x", "<= 12x")
    spread("rounds", own, ".1f", "x")
    spread("adjudicate - echo", [a - e for a, e in zip(adj, echo)], ".0f", " us")
    line(f"the floor, {FLOOR_PATH}: (floor - echo) / parse", f"{statistics.median(least):8.1f}x",
         "- (the least any handling costs)")
    spread("rounds", least, ".1f", "x")

    # 3. a game request against the hand request of the same hand and action
    game_body, hand_body = _game_and_hand_requests(client)
    cases = alternating({"game": _poster(client, "/v1/adjudicate", game_body),
                         "hand": _poster(client, "/v1/adjudicate", hand_body)}, n, rounds)
    game, hand = medians(cases["game"]), medians(cases["hand"])
    ratio = [g / h for g, h in zip(game, hand)]
    line(f"game-level adjudicate ({len(game_body)} bytes)", f"{statistics.median(game):8.1f} us", "-")
    line(f"the same action at the hand level ({len(hand_body)} bytes)", f"{statistics.median(hand):8.1f} us", "-")
    line("game request / hand request", f"{statistics.median(ratio):8.2f}x", "<= 2x")
    spread("rounds", ratio, ".2f", "x")

    # 4. legal-actions' worst case through the endpoint: 20 cards holding 4 jokers
    posts: dict[str, Callable[[], object]] = {}
    for name, position in WORST:
        body = orjson.dumps({"variant": VARIANT, "rules": FOUR_JOKERS,
                             "state": expand_setup(position, VARIANT, FOUR_JOKERS, "bench")})
        listing = _poster(client, "/v1/legal-actions", body)().get_json()
        posts[f"{name}: {len(listing['actions'])} actions{' (cut)' if listing['truncated'] else ''}"] = \
            _poster(client, "/v1/legal-actions", body)
    cases = alternating(posts, n_legal, rounds, warm=5)
    print(f"POST /v1/legal-actions, 20 cards with 4 jokers, through the test client (median / p99 of the "
          f"{rounds * n_legal} requests of {rounds} alternating rounds, milliseconds)")
    for name, samples in cases.items():
        pooled = [s for r in samples for s in r]
        line(name, f"{statistics.median(pooled) / 1000:8.2f} / {p99(pooled) / 1000:8.2f} ms", "p99 <= 20 ms")
        spread("rounds' medians", [m / 1000 for m in medians(samples)], ".2f", " ms")


def _crafted_requests(client: FlaskClient) -> dict[str, tuple[str, bytes]]:
    """The crafted slow requests, each as (path, body): bodies built to cost seconds of CPU to refuse
    or to answer, the listings of openings with lay-offs that fuzzing found over 50 ms (tests/api/test_hostile_inputs.py and tests/rules/test_legal_actions.py hold them as tests),
    and the hostile bodies (_hostile_bodies)."""
    from tests.rules.test_legal_actions import CRAFTED, CRAFTED_RULES, LAYOFF, LAYOFF_RULES

    first_turn = json.loads(BODY)
    game = client.post("/v1/games", json={"variant": VARIANT, "players": ["a", "b"], "seed": 1}).get_json()["game"]
    crafted_state = expand_setup(CRAFTED, "kalooki_co_uk", CRAFTED_RULES, "bench")
    sixty = {"variant": "kalooki_co_uk", "rules": CRAFTED_RULES, "state": crafted_state}
    draw = {"type": "draw", "source": "stock"}
    layoffs = {}   # openings counting lay-offs, from 60 cards, against a table of melds (found by fuzzing)
    for minimum in (100, 400):
        rules = {**LAYOFF_RULES, "opening": {"minimum": minimum}}
        layoffs[f"60 cards, openings of {minimum} with lay-offs (USPCC house rule): legal-actions"] = (
            "/v1/legal-actions", orjson.dumps({"variant": "north_american_uspcc", "rules": rules,
                                               "state": expand_setup(LAYOFF, "north_american_uspcc", rules, "bench")}))
    taken = {**LAYOFF, "turn": {"drawn": "4S", "source": "discard", "must_open": True, "must_use": "4S"}}
    layoffs["the same (openings of 100), having taken the discard the opening must hold: legal-actions"] = (
        "/v1/legal-actions", orjson.dumps({"variant": "north_american_uspcc", "rules": LAYOFF_RULES,
                                           "state": expand_setup(taken, "north_american_uspcc", LAYOFF_RULES, "bench")}))
    return {
        "a turn of 10,000 empty steps (422)":
            ("/v1/adjudicate", orjson.dumps({**first_turn, "action": {"type": "turn", "actions": [{}] * 10000}})),
        "a turn of 20,000 empty steps (422)":
            ("/v1/adjudicate", orjson.dumps({**first_turn, "action": {"type": "turn", "actions": [{}] * 20000}})),
        "a replay of 5,001 actions (422)":
            ("/v1/replay", orjson.dumps({"variant": VARIANT, "start": {"game": game}, "actions": [draw] * 5001})),
        "60 cards, 4 decks, 12 jokers, opening 500: take the discard":
            ("/v1/adjudicate", orjson.dumps({**sixty, "action": {"type": "draw", "source": "discard"}})),
        "the same position: legal-actions":
            ("/v1/legal-actions", orjson.dumps(sixty)),
        "a house rule named by 500,000 letters (422)":
            ("/v1/adjudicate", orjson.dumps({**first_turn, "rules": {"x" * 500_000: 1}})),
        "an integer beyond 2^53 beside U+E000 in a replayed game (422)":
            ("/v1/replay", orjson.dumps({"variant": VARIANT, "start": {"game": {**game, "sheet": [
                {"pool": 2**60, "winner": "\ue000"}]}}, "actions": [draw]})),
        **layoffs,
        **_hostile_bodies(first_turn),
    }


MIB = 1024 * 1024


def _hostile_bodies(first_turn: dict[str, Any]) -> dict[str, tuple[str, bytes]]:
    """Hostile bodies, refusals built to cost hundreds of milliseconds or a hundred megabytes, and
    the worst found beside them: each at most 1 MiB (the largest body read)."""
    wide = json.loads(json.dumps(first_turn))
    wide["state"]["players"][0].update({f"k{i}": 1 for i in range(90_000)})
    objects = 74_000
    bodies = {
        "a player object with 90,000 unknown names (422)": orjson.dumps(wide),
        "1 MiB of one name repeated in one object (422)":
            b'{"variant":"british",' + b'"a":1,' * 170_000 + b'"b":1}',
        f"{objects:,} objects each repeating a name (422)":
            b"[" + b",".join([b'{"a":1,"a":2}'] * objects) + b"]",
        f"{objects - 1:,} objects, then one repeating a name (422)":
            b"[" + b",".join([b'{"a":1,"b":2}'] * (objects - 1)) + b',{"a":1,"a":2}]',
        "a member name of 1 MiB in the state (422)":
            orjson.dumps({**first_turn, "state": {**first_turn["state"], "x" * (MIB - 4096): 1}}),
        "a house rule named by 1 MiB (422)": orjson.dumps({**first_turn, "rules": {"x" * (MIB - 4096): 1}}),
        "a variant id of 1 MiB (422)": orjson.dumps({**first_turn, "variant": "x" * (MIB - 4096)}),
        "a house rule's value of 1 MiB (422)": orjson.dumps({**first_turn, "rules": {"opening": "x" * (MIB - 4096)}}),
        "170,000 escaped colons in one string (422)":
            orjson.dumps(first_turn)[:-1] + b',"z":["' + b"\\u003a" * 170_000 + b'"]}',
        "5,000 strings of 200 letters under an unknown name (422)":
            orjson.dumps({**first_turn, "x": [["y" * 200] * 20] * 250}),
        "200,000 integers in lists of 5,000 under an unknown name (422)":
            orjson.dumps({**first_turn, "x": [[1] * 5000] * 40}),
        "nesting 500,000 deep (400)": b"[" * 500_000 + b"]" * 500_000,
    }
    for name, body in bodies.items():
        assert len(body) <= MIB, (name, len(body))
    return {name: ("/v1/adjudicate", body) for name, body in bodies.items()}


def stages(steps: int) -> None:
    """Where the referee's own work on README's first-turn request goes, stage by stage, outside
    Flask: each stage timed once per step between the others (as a request runs them, not warm in a
    loop), in parses of the body timed in the same step; the medians over ``steps`` steps."""
    from kalooki_referee.api import requests
    from kalooki_referee.rules.wire import contract as openapi
    from kalooki_referee.api.wire import plain, repeated_names
    from kalooki_referee.rules.invariants import check_state
    from kalooki_referee.rules.wire.actions import action_from_valid
    from kalooki_referee.rules.wire.state import read_state
    from kalooki_referee.rules.wire.verdicts import verdict_wire

    body = orjson.loads(BODY)
    req = requests.adjudicate_request(body)
    assert isinstance(req, requests.HandRequest)
    verdict = adjudicate(req.variant, req.state, req.action)
    parts: dict[str, Callable[[], object]] = {
        "shape and names checked (api.wire.decode - parse)":
            lambda: (openapi.is_valid("AdjudicateRequest", body), repeated_names(BODY, body)),
        "state read (rules/wire/state.py)": lambda: read_state(body["state"], req.variant),
        "position checked (rules/invariants.py)": lambda: check_state(req.state, req.variant),
        "action read (rules/wire/actions.py)": lambda: action_from_valid(body["action"]),
        "turn adjudicated (rules/engine.py)": lambda: adjudicate(req.variant, req.state, req.action),
        "answer written (verdict_wire, orjson.dumps)":
            lambda: orjson.dumps(verdict_wire(verdict), default=plain, option=orjson.OPT_SORT_KEYS),
    }
    clock = time.perf_counter_ns
    ratios: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(steps):
        t0 = clock()
        orjson.loads(BODY)
        parse = clock() - t0
        for name, fn in parts.items():
            t0 = clock()
            fn()
            ratios[name].append((clock() - t0) / parse)
    print(f"Where the referee's own work goes, outside Flask (each stage once per step between the others, in "
          f"parses of the body timed in the same step; medians of {steps} steps)")
    for name, values in ratios.items():
        line(name, f"{statistics.median(values):8.2f}x", "-")
    line("the stages together", f"{sum(statistics.median(v) for v in ratios.values()):8.2f}x", "-")


BATCH = 8  # requests per timed sample of the crafted requests


def crafted(runs: int) -> None:
    """The CPU time of each crafted slow request through the app in process (the median of ``runs``),
    and the worst of them against the 50 ms target."""
    from kalooki_referee.api import create_app

    client = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb"), "KALOOKI_CLIENT_RATE": 0}).test_client()  # (no log line per request)
    print(f"The crafted slow requests, through the Flask test client (CPU time of the process, "
          f"median of {runs} batches of {BATCH} requests each; the memory is the peak of Python's heap "
          f"over one request beyond what it held before, tracemalloc, the body's own bytes included)")
    import tracemalloc

    worst, heaviest = ("", 0.0), ("", 0.0)
    for name, (path, body) in _crafted_requests(client).items():
        samples = []
        for _ in range(runs):  # each sample the mean of a batch: the CPU clock may tick only every few ms
            t0 = time.process_time_ns()
            for _ in range(BATCH):
                response = client.post(path, data=body, content_type="application/json")
            samples.append((time.process_time_ns() - t0) / BATCH / 1e6)
            assert response.status_code < 500, (name, response.status_code)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        client.post(path, data=body, content_type="application/json")
        peak = (tracemalloc.get_traced_memory()[1] - before) / MIB
        tracemalloc.stop()
        med = statistics.median(samples)
        print(f"    {name}: {med:.1f} ms, {peak:.1f} MB ({response.status_code})")
        if med >= worst[1]:
            worst = (name, med)
        if peak >= heaviest[1]:
            heaviest = (name, peak)
    line("the worst crafted slow request, CPU time", f"{worst[1]:8.1f} ms", "<= 50 ms")
    print(f"    which: {worst[0]}")
    line("the worst crafted slow request, extra memory", f"{heaviest[1]:8.1f} MB", "< 50 MB")
    print(f"    which: {heaviest[0]}")


def fuzzed(count: int, seed: int = 8) -> None:
    """The CPU time of the vectors' requests changed at random (tests/support/fuzz.py, a fixed seed): each
    timed once, the five slowest timed again in batches, and the slowest against the 50 ms target."""
    from kalooki_referee.api import create_app
    from tests.support.fuzz import mutated_requests

    client = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb"), "KALOOKI_CLIENT_RATE": 0}).test_client()
    timed_once = []
    for vector_id, path, body in mutated_requests(seed, count):
        t0 = time.process_time_ns()
        response = client.post(path, data=body, content_type="application/json")
        timed_once.append(((time.process_time_ns() - t0) / 1e6, vector_id, path, body))
        assert response.status_code < 500, (vector_id, response.status_code)
    print(f"The vectors' requests changed at random ({count}, seed {seed}; tests/support/fuzz.py), through the Flask "
          f"test client: the five slowest, CPU time per request over a batch of {BATCH}")
    worst = ("", 0.0)
    for _, vector_id, path, body in sorted(timed_once, key=lambda t: t[0])[-5:]:
        t0 = time.process_time_ns()
        for _ in range(BATCH):
            response = client.post(path, data=body, content_type="application/json")
        ms = (time.process_time_ns() - t0) / BATCH / 1e6
        print(f"    {path} from {vector_id}: {ms:.1f} ms ({response.status_code})")
        if ms >= worst[1]:
            worst = (f"{path} from {vector_id}", ms)
    line("the slowest changed request, CPU time", f"{worst[1]:8.1f} ms", "<= 50 ms")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _load(url: str, body: bytes, seconds: float, threads: int) -> float:
    """Requests per second from ``threads`` Python client threads (urllib), for ``seconds``."""
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


WRK_SCRIPT = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(%s, "rb"))
wrk.body = f:read("*a")
f:close()
"""


def _wrk(wrk: str, script: str, url: str, seconds: int, connections: int) -> float:
    """Requests per second from wrk (2 threads, ``connections`` connections) for ``seconds``.  Failed
    requests are reported; a load with answers other than 2xx counts as none (an error page is no
    measure of the route)."""
    done = subprocess.run([wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", script, url],
                          capture_output=True, text=True, timeout=seconds + 30)
    out = done.stdout
    rate = next((float(ln.split()[1]) for ln in out.splitlines() if ln.startswith("Requests/sec:")), None)
    if done.returncode or rate is None or "Non-2xx" in out or "Socket errors" in out:
        print(f"  ! wrk on {url}: {' '.join(out.split())[-300:]} {done.stderr.strip()[:200]}")
    return 0.0 if rate is None or "Non-2xx" in out else rate


ROUNDS = 8


def _serve(app: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """``app`` (a gunicorn app spec) served by gunicorn with api/gunicorn_conf.py on a free port of
    127.0.0.1, in a session of its own; (the process, its base URL) once it answers."""
    port = _free_port()
    env = {**os.environ, "KALOOKI_BIND": f"127.0.0.1:{port}", "KALOOKI_WORKERS": str(workers)}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # each server its own metrics directory (gunicorn_conf makes one)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen([str(gunicorn), "-c", "python:kalooki_referee.api.gunicorn_conf", "--access-logfile",
                             "/dev/null", app], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            req = urllib.request.Request(base + BARE_ECHO, data=b"{}", headers={"Content-Type": "application/json"})
            urllib.request.urlopen(req).read()
            break
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn serving {app} stopped") from None
            time.sleep(0.1)
    return proc, base


BARE_ECHO = "/bench/echo"  # the route of the bare app and of the referee's echo (benchmarks/wsgi.py) alike


def _group_cpu(pgid: int) -> float:
    """The CPU seconds (user and system) spent so far by process group ``pgid`` (a gunicorn master
    and its workers), read from /proc: each live process's own, and those of the children it reaped
    (a worker replaced after its max_requests counts in its master's)."""
    total = 0
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[2]) == pgid:  # (after the name: state, ppid, pgrp, ...; utime, stime, cutime, cstime at 11-14)
            total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return total / os.sysconf("SC_CLK_TCK")


def http(seconds: int, rounds: int, workers: int, connections: int) -> None:
    """`/v1/adjudicate` and the referee's own echo against the bare echo app (benchmarks/bare.py), the
    two apps served by two gunicorns with the same settings (api/gunicorn_conf.py, the same workers) on
    127.0.0.1, the loads alternating."""
    from benchmarks.wsgi import ECHO_PATH, FLOOR_PATH

    assert ECHO_PATH == BARE_ECHO
    wrk = shutil.which("wrk")
    script = None
    procs = []
    try:
        proc, bare = _serve("benchmarks.bare:create()", workers)
        procs.append(proc)
        proc, base = _serve("benchmarks.wsgi:create()", workers)
        procs.append(proc)
        answers = {}
        for url in (bare + BARE_ECHO, base + ECHO_PATH, base + FLOOR_PATH, base + "/v1/adjudicate"):
            req = urllib.request.Request(url, data=BODY, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req) as r:  # each server answers each, with this worktree's code
                assert r.status == 200, url
                answers[url] = r.read()
        assert answers[base + FLOOR_PATH] == answers[base + "/v1/adjudicate"] and json.loads(answers[base + FLOOR_PATH])["legal"]
        assert json.loads(answers[bare + BARE_ECHO]) == json.loads(answers[base + ECHO_PATH]) == json.loads(BODY)
        threads = max(4, (os.cpu_count() or 2) * 2)
        if wrk:
            fd, script = tempfile.mkstemp(suffix=".lua")
            with os.fdopen(fd, "w") as f:
                f.write(WRK_SCRIPT % json.dumps(str(ROOT / "examples" / "first-turn.json")))
            client = f"wrk, 2 threads, {connections} connections"

            def load(url: str, secs: int) -> float:
                return _wrk(wrk, script, url, secs, connections)
        else:
            client = (f"wrk NOT FOUND (apt-get install wrk): the load comes instead from {threads} Python client "
                      f"threads (urllib) in this process, as before wrk")

            def load(url: str, secs: int) -> float:
                return _load(url, BODY, secs, threads)
        urls = {"bare": bare + BARE_ECHO, "echo": base + ECHO_PATH, "adjudicate": base + "/v1/adjudicate",
                "floor": base + FLOOR_PATH}
        for url in urls.values():  # every worker answers each before measuring
            load(url, 2)
        # alternate the loads, so that a slow spell of the machine weighs on each alike; beside each
        # load's rate, the CPU its server spent per request (steadier on a shared machine, whose
        # stolen time slows the rates but is not counted as the server's CPU time)
        group = {"bare": procs[0].pid, "echo": procs[1].pid, "adjudicate": procs[1].pid, "floor": procs[1].pid}
        rates: dict[str, list[float]] = {name: [] for name in urls}
        cpu: dict[str, list[float]] = {name: [] for name in urls}
        for _ in range(rounds):
            for name, url in urls.items():
                before = _group_cpu(group[name])
                rate = load(url, seconds)
                spent = _group_cpu(group[name]) - before
                rates[name].append(rate)
                cpu[name].append(spent / (rate * seconds) * 1e6 if rate else 0.0)
        # each round's loads ran back to back, so their ratios are the paired comparisons
        ratio = {name: [r / b if b else 0.0 for b, r in zip(rates["bare"], rates[name])] for name in urls}
        print(f"HTTP through gunicorn on 127.0.0.1 (api/gunicorn_conf.py, {workers} workers per app; {client}; "
              f"{rounds} alternating rounds of {seconds} s after a warm-up, medians)")
        line(f"bare echo app (benchmarks/bare.py): POST {BARE_ECHO}", f"{statistics.median(rates['bare']):10.0f} req/s", "-")
        line(f"the referee's own echo: POST {ECHO_PATH}", f"{statistics.median(rates['echo']):10.0f} req/s", "-")
        line("POST /v1/adjudicate, README's first-turn request", f"{statistics.median(rates['adjudicate']):10.0f} req/s", "-")
        line("adjudicate / bare echo (median of the rounds' ratios)", f"{statistics.median(ratio['adjudicate']):10.0%}",
             ">= 80%")
        spread("rounds", [r * 100 for r in ratio["adjudicate"]], ".0f", "%")
        line("the referee's echo / bare echo (around every request)", f"{statistics.median(ratio['echo']):10.0%}",
             ">= 90%")
        spread("rounds", [r * 100 for r in ratio["echo"]], ".0f", "%")
        print("    rounds (bare, echo, adjudicate req/s): "
              + ", ".join(f"{b:.0f}/{e:.0f}/{a:.0f}" for b, e, a in zip(rates["bare"], rates["echo"], rates["adjudicate"])))
        line(f"the floor, {FLOOR_PATH} / bare echo", f"{statistics.median(ratio['floor']):10.0%}", "-")
        spread("rounds", [r * 100 for r in ratio["floor"]], ".0f", "%")
        if all(cpu["bare"]):
            print("  the servers' CPU time per request (user and system, all processes of each gunicorn; "
                  "median of the rounds), and the rate it allows against the bare app's:")
            for name in ("bare", "echo", "adjudicate", "floor"):
                allowed = [b / c if c else 0.0 for b, c in zip(cpu["bare"], cpu[name])]
                print(f"    {name:<12} {statistics.median(cpu[name]):8.0f} us per request   "
                      f"{statistics.median(allowed):6.0%} of the bare app's rate "
                      f"(rounds {min(allowed):.0%} .. {max(allowed):.0%})")
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=10)
        if script:
            os.unlink(script)


def behind_nginx(seconds: int, rounds: int, workers: int, connections: int) -> None:
    """Throughput of README's first-turn request served as "Serving in production" says: one
    instance alone, nginx in front of that one instance, and nginx in front of two instances
    (``workers`` sync workers each), the three loads alternating, with wrk on the same machine."""
    from tests.api.test_serving import gunicorn_instances, nginx_in_front

    wrk = shutil.which("wrk")
    if not wrk:
        print("nginx and instances: wrk NOT FOUND (apt-get install wrk)")
        return
    fd, script = tempfile.mkstemp(suffix=".lua")
    with os.fdopen(fd, "w") as f:
        f.write(WRK_SCRIPT % json.dumps(str(ROOT / "examples" / "first-turn.json")))
    try:
        with gunicorn_instances(2, workers=workers) as [(a, _), (b, _)], \
                nginx_in_front([a]) as one, nginx_in_front([a, b]) as two:
            targets = {"one instance, no proxy": a, "nginx, one instance": one, "nginx, two instances": two}
            for port in targets.values():
                _wrk(wrk, script, f"http://127.0.0.1:{port}/v1/adjudicate", 2, connections)
            rates: dict[str, list[float]] = {name: [] for name in targets}
            for _ in range(rounds):
                for name, port in targets.items():
                    rates[name].append(_wrk(wrk, script, f"http://127.0.0.1:{port}/v1/adjudicate", seconds, connections))
        print(f"POST /v1/adjudicate (README's first-turn request) through nginx (deploy/nginx.conf), {workers} sync "
              f"workers per instance; wrk, 2 threads, {connections} connections, on the same {os.cpu_count()} cores; "
              f"{rounds} alternating rounds of {seconds} s, medians")
        for name, values in rates.items():
            line(name, f"{statistics.median(values):10.0f} req/s", "-")
            spread("rounds", values, ".0f", " req/s")
    finally:
        os.unlink(script)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-http", action="store_true")
    parser.add_argument("--quick", action="store_true", help="4 rounds, shorter loads: about a minute in all")
    parser.add_argument("--seconds", type=int, default=None, help="duration of each HTTP load (default 3, quick 2)")
    parser.add_argument("--rounds", type=int, default=None, help=f"alternating rounds (default {ROUNDS}, quick 4)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers for the HTTP figure (default 2)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (default 16)")
    parser.add_argument("--late", action="store_true",
                        help="only the in-process figures, early and late in a hand among them (no requests)")
    parser.add_argument("--nginx", action="store_true",
                        help="only the throughput of one and two instances behind nginx (deploy/nginx.conf)")
    args = parser.parse_args(argv)
    rounds = args.rounds or (4 if args.quick else ROUNDS)
    seconds = args.seconds or (2 if args.quick else 3)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}")
    if args.nginx:
        behind_nginx(seconds, rounds, args.workers, args.connections)
        return 0
    in_process()
    early_and_late(300 if args.quick else 1000, rounds)
    if args.late:
        return 0
    requests_in_process(rounds, 150 if args.quick else 300, 15 if args.quick else 25)
    stages(1000 if args.quick else 4000)
    crafted(3 if args.quick else 7)
    fuzzed(500 if args.quick else 3000)
    if not args.no_http:
        http(seconds, rounds, args.workers, args.connections)
    return 0


if __name__ == "__main__":
    sys.exit(main())
