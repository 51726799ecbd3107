"""The games blueprint: hands dealt, games started, the legal actions of a position and a seat's view
of it (``POST /v1/deal``, ``/v1/games``, ``/v1/legal-actions``, ``/v1/views``)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from kalooki_referee.rules import deal
from kalooki_referee.rules.game import start_game
from kalooki_referee.rules.legal import legal_actions
from kalooki_referee.rules.views import view_of
from kalooki_referee.rules.wire.legal import listing_wire
from kalooki_referee.rules.wire.state import state_wire
from kalooki_referee.rules.wire.game import game_start_wire, game_wire
from kalooki_referee.rules.wire.views import commitment

from . import ops, requests
from .wire import json_answer, json_body

bp = Blueprint("games", __name__)


@bp.post("/v1/deal")
@json_body("DealRequest")
def deal_route(body: Any) -> Response:
    req = requests.deal_request(body)
    state, record = deal(req.variant, req.players, req.seed, req.dealer, hand=req.hand, cut=req.cut)
    return json_answer({"state": state_wire(state), "deal": record})


@bp.post("/v1/games")
@json_body("GameStartRequest")
def game_start_route(body: Any) -> Response:
    req = requests.game_start_request(body)
    game, started = start_game(req.variant, req.players, req.seed, req.stakes, req.cut)
    record = game_start_wire(started)
    return json_answer({"game": game_wire(game), "seating": {k: record[k] for k in ("seating", "seats", "dealer")},
                        "events": record["events"]})


@bp.post("/v1/legal-actions")
@ops.collector_paused
@json_body("LegalActionsRequest")
def legal_actions_route(body: Any) -> Response:
    req = requests.legal_actions_request(body)
    return json_answer(listing_wire(legal_actions(req.variant, req.state, req.cap)))


@bp.post("/v1/views")
@json_body("ViewRequest")
def views_route(body: Any) -> Response:
    """A seat's view of a whole position, with the salted commitment to what it hides when a salt is sent."""
    req = requests.view_request(body)
    answer: dict[str, Any] = {"view": state_wire(view_of(req.state, req.seat))}
    if req.salt is not None:
        answer["commitment"] = commitment(req.state, req.seat, req.salt)
    return json_answer(answer)
