"""The verdicts blueprint: a turn, a tournament's event, a score sheet, a meld and a replayed record
judged (``POST /v1/adjudicate``, ``/v1/tournaments``, ``/v1/scoresheet``, ``/v1/melds/check``,
``/v1/replay``)."""
from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint, Response, request

from kalooki_referee.rules import adjudicate
from kalooki_referee.rules.cards import CardError
from kalooki_referee.rules.errors import MalformedInput, Problem
from kalooki_referee.rules.game import GameVerdict, adjudicate_game
from kalooki_referee.rules.melds import Failure, Token, meld_value, parse_token, read_meld
from kalooki_referee.rules.engine import Verdict
from kalooki_referee.rules.scoresheet import settle_sheet
from kalooki_referee.rules.tournament import adjudicate_tournament
from kalooki_referee.rules.wire.clauses import cited_wire
from kalooki_referee.rules.wire.game import game_verdict_wire
from kalooki_referee.rules.wire.replay import replay
from kalooki_referee.rules.wire.scoresheet import sheet_wire
from kalooki_referee.rules.wire.tournament import tournament_verdict_wire
from kalooki_referee.rules.wire.verdicts import verdict_wire

from . import ops, requests, signing
from .errors import bad_query, refusal
from .keys import signing_key
from .wire import View, as_written, json_answer, json_body

bp = Blueprint("verdicts", __name__)


def sign_option(view: View) -> View:
    """The view is called with ``sign``, the ``sign`` query parameter: ``true`` or ``false`` (the
    default), read before the body."""
    @functools.wraps(view)
    def with_sign(*args: Any, **kwargs: Any) -> Response:
        return view(*args, sign=_sign_requested(), **kwargs)
    return with_sign


def _sign_requested() -> bool:
    if not request.environ.get("QUERY_STRING"):  # (most requests: no need to parse request.args)
        return False
    value = request.args.get("sign")
    if value is None or value == "false":
        return False
    if value == "true":
        return True
    raise bad_query("the query parameter sign is true or false")


def signed(body: Any, answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with its ``signature`` over the request ``body`` and the answer as written on the wire."""
    try:
        signing.check_shared(signing_key(), request.environ)
    except signing.SigningUnavailable as exc:
        raise refusal(503, "Signing unavailable", str(exc), "signing-unavailable") from None
    wire = as_written(answer)
    return {**wire, "signature": signing_key().sign(body, wire)}


@bp.post("/v1/adjudicate")
@sign_option
@json_body("AdjudicateRequest")
def adjudicate_route(body: Any, sign: bool) -> Response:
    req = requests.adjudicate_request(body)
    verdict: Verdict | GameVerdict
    try:
        if isinstance(req, requests.GameRequest):
            verdict = adjudicate_game(req.variant, req.game, req.action, req.stakes_override)
        else:
            verdict = adjudicate(req.variant, req.state, req.action)
    except MalformedInput as exc:  # a reference the state cannot resolve, e.g. an unknown meld id
        raise exc.prefixed("/action") from None
    ops.note_verdict(verdict.legal)
    answer = game_verdict_wire(verdict) if isinstance(verdict, GameVerdict) else verdict_wire(verdict)
    return json_answer(signed(body, answer) if sign else answer)


@bp.post("/v1/tournaments")
@json_body("TournamentRequest")
def tournament_route(body: Any) -> Response:
    req = requests.tournament_request(body)
    try:
        verdict = adjudicate_tournament(req.variant, req.tournament, req.event)
    except MalformedInput as exc:  # the event names a table or a player the tournament does not have
        raise exc.prefixed("/event") from None
    ops.note_verdict(verdict.legal)
    return json_answer(tournament_verdict_wire(verdict))


@bp.post("/v1/scoresheet")
@json_body("ScoreSheetRequest")
def scoresheet_route(body: Any) -> Response:
    req = requests.score_sheet_request(body)
    sheet = settle_sheet(req.variant, req.players, req.entries, req.stakes, req.dealer)
    ops.note_verdict(sheet.inconsistency is None)
    return json_answer(sheet_wire(req.variant, sheet))


@bp.post("/v1/replay")
@ops.collector_paused
@json_body("ReplayRequest")
def replay_route(body: Any) -> Response:
    req = requests.replay_request(body)
    replayed = replay(req.variant, req.start, req.actions, req.hashes, req.start_hash, req.stakes_override)
    ops.note_verdict(replayed["first_illegal"] is None)
    return json_answer(replayed)


@bp.post("/v1/melds/check")
@json_body("MeldCheckRequest")
def meld_check_route(body: Any) -> Response:
    req = requests.meld_check_request(body)
    variant = req.variant
    reading = read_meld(_tokens(req.cards, req.jokers), variant, req.kind)
    if isinstance(reading, Failure):
        violation = {"message": reading.message, **cited_wire(variant.citation(reading.clause))}
        ops.note_verdict(False)
        return json_answer({"valid": False, "ambiguous": reading.ambiguous, "kind": None, "cards": None, "jokers": [],
                            "value": None, "readings": [dict(r) for r in reading.readings], "violation": violation})
    ops.note_verdict(True)
    return json_answer({"valid": True, "ambiguous": False, "kind": reading.kind, "cards": reading.codes,
                        "jokers": [s.stands_for for s in reading.slots if s.is_joker],
                        "value": meld_value(reading, variant), "readings": [reading.to_dict()], "violation": None})


def _tokens(cards: list[str], declared: list[str]) -> list[Token]:
    """The cards of a meld to check, each undeclared joker given the declaration sent for it in turn."""
    tokens: list[Token] = []
    problems = []
    for i, code in enumerate(cards):
        try:
            tokens.append(parse_token(code))
        except CardError as exc:
            problems.append(Problem(f"/cards/{i}", str(exc)))
    plain = [i for i, t in enumerate(tokens) if t.card.is_joker and not t.declared]
    if len(declared) > len(plain):
        problems.append(Problem("/declarations/jokers", f"{len(declared)} declarations for {len(plain)} undeclared jokers"))
    if problems:
        raise MalformedInput(problems)
    for k, (i, code) in enumerate(zip(plain, declared)):
        try:
            tokens[i] = parse_token(f"JK(={code})")
        except CardError as exc:
            raise MalformedInput(Problem(f"/declarations/jokers/{k}", str(exc))) from None
    return tokens
