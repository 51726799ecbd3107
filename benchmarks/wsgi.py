"""The referee with two extra routes, for the benchmarks only (the served app, `api.create_app()`,
has neither):

- `/bench/echo`, a JSON echo on the referee's own app: in process (Flask's test client),
  `/v1/adjudicate` minus this echo is the referee's own work; over HTTP, this echo against the
  separate bare echo app (benchmarks/bare.py, same gunicorn configuration) is the cost of what runs
  around every request (logs, metrics, request ids, CORS, headers, the deadline);
- `/bench/floor`, the least any referee built on this design could do for README's first-turn
  request (see ``floor``): what the speed targets leave room for, measured rather than argued.

Serve with: gunicorn -c python:kalooki_referee.api.gunicorn_conf 'benchmarks.wsgi:create()'."""
from __future__ import annotations

from collections import Counter

from typing import Any

import orjson
from flask import Flask, Response, request

from kalooki_referee.api import create_app, ops
from kalooki_referee.rules.wire import contract as openapi
from kalooki_referee.api.wire import repeated_names
from kalooki_referee.rules import load_variant
from kalooki_referee.rules.cards import pack_counts, pack_order

ECHO_PATH = "/bench/echo"
FLOOR_PATH = "/bench/floor"


def echo() -> Response:
    """Parse the body with orjson and send it back with orjson: a request's HTTP and JSON work, no
    validation, no rules (the referee's own routes parse and answer with orjson too)."""
    return Response(orjson.dumps(orjson.loads(request.get_data())), mimetype="application/json")


# the canonical order of a hand on the wire (each card's own place, rules.cards.CANONICAL), by code
_ORDER = {card.code: card.order for card in pack_order(1, 1)}
_FRESH_TURN: dict[str, Any] = {"builds": {}, "drawn": None, "must_open": False, "opened_this_turn": False, "pending_jokers": 0,
               "source": None}


def floor() -> Response:
    """A lower bound, not a referee: the steps no handling of README's first-turn request can skip
    under this design, each done as cheaply as Python allows, and nothing else.

    - the body read and parsed with orjson (as the echo does);
    - its shape checked against openapi.yaml (jsonschema-rs) and its object names checked for
      repeats (the edge's own check, ``api.wire``);
    - the position checked only for what it cannot lack: the cards counted against the pack (by
      code, in one C-level Counter) and the player ids;
    - the one action this route knows (a turn: draw from the discard pile, then discard) applied to
      the wire dicts themselves, with no turn machine, no variant parameter and no clause;
    - the referee's answer written (state and events; the benchmark checks once that it is the
      referee's own answer, byte for byte) with orjson, and the verdict noted for the log.

    Any other request is answered 501.  The referee's general machinery (typed values, the turn
    machine, obligations, citations) can only add to what this costs."""
    raw = request.get_data(cache=False)
    body = orjson.loads(raw)
    if not openapi.is_valid("AdjudicateRequest", body) or repeated_names(raw, body):
        return Response(b"{}", status=400)
    state, steps = body["state"], body["action"].get("actions") or []
    players = state["players"]
    ids = [p["id"] for p in players]
    if (state["phase"] != "draw" or len(steps) != 2 or steps[0] != {"type": "draw", "source": "discard"}
            or steps[1]["type"] != "discard" or state.get("turn") not in (None, _FRESH_TURN)):
        return Response(b"{}", status=501)
    held = list(state["stock"])
    held += state["discard"]
    for p in players:
        held += p["hand"]
    for m in state["melds"]:
        held += m["cards"]
    pack = load_variant(body["variant"]).rules.pack_for(len(players))
    if (Counter(held) != pack_counts(pack.decks, pack.jokers) or len(set(ids)) != len(ids)
            or state["dealer"] not in ids or state["to_act"] not in ids or not state["discard"]):
        return Response(b"{}", status=501)
    seat = ids.index(state["to_act"])
    player = players[seat]
    hand, discard = list(player["hand"]), list(state["discard"])
    drawn, thrown = discard.pop(), steps[1]["card"]
    hand.append(drawn)
    hand.remove(thrown)
    discard.append(thrown)
    players = list(players)
    players[seat] = {**player, "hand": sorted(hand, key=_ORDER.__getitem__)}
    ops.note_verdict(True)
    return Response(orjson.dumps({
        "events": [{"card": drawn, "player": player["id"], "source": "discard", "type": "drew"},
                   {"card": thrown, "player": player["id"], "type": "discarded"}],
        "legal": True, "result": None, "violations": [],
        "state": {**state, "players": players, "discard": discard, "first_play": False, "turn": _FRESH_TURN,
                  "to_act": ids[(seat + 1) % len(ids)]}}, option=orjson.OPT_SORT_KEYS), mimetype="application/json")


def add_echo(app: Flask) -> Flask:
    """Register the echo and the floor on ``app`` (before its first request, as Flask requires)."""
    app.add_url_rule(ECHO_PATH, "bench_echo", echo, methods=["POST"])
    app.add_url_rule(FLOOR_PATH, "bench_floor", floor, methods=["POST"])
    return app


def create() -> Flask:
    """The referee with the echo and the floor, without the per-client budget (api/budget.py): every
    request of a benchmark comes from one address, and a benchmark measures what a request costs, not
    how soon that address is refused."""
    return add_echo(create_app({"KALOOKI_CLIENT_RATE": 0}))
