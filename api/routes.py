"""The v1 blueprint: thin handlers over the rules core."""
from __future__ import annotations

import functools
import gc
import re
from collections.abc import Mapping
from pathlib import Path

import orjson

from flask import Blueprint, Response, request

from kalooki_referee import __version__
from kalooki_referee.rules import adjudicate, all_variants, deal, load_variant
from kalooki_referee.rules.cards import CardError
from kalooki_referee.rules.clause_ids import TURN_DRAW_MELD_DISCARD
from kalooki_referee.rules.clauses import citation
from kalooki_referee.rules.errors import MalformedInput, Problem, RefereeInputError, UnknownVariant, pointer
from kalooki_referee.rules.game import adjudicate_game, start_game
from kalooki_referee.rules.legal import legal_actions
from kalooki_referee.rules.replay import replay
from kalooki_referee.rules.scoresheet import score_sheet
from kalooki_referee.rules.melds import Failure, Token, meld_value, parse_token, read_meld

from . import openapi, requests
from .problems import from_error, problem

bp = Blueprint("v1", __name__)

VERSION = __version__
SUITE = "kalooki-referee-vectors"
SUITE_VERSION = (Path(__file__).resolve().parent.parent / "vectors" / "VERSION").read_text(encoding="utf-8").strip()


def _plain(value):
    """What orjson cannot serialise by itself: read-only mappings (frozen variant data)."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _json(body, status: int = 200) -> Response:
    # compact, keys sorted, UTF-8 as is: the same bytes as json.dumps(..., sort_keys=True,
    # separators=(",", ":"), ensure_ascii=False), faster (orjson)
    text = orjson.dumps(body, default=_plain, option=orjson.OPT_SORT_KEYS)
    return Response(text, status=status, mimetype="application/json")


def _body(component: str):
    """The request body, checked against openapi.yaml's ``component`` schema."""
    if not request.is_json:
        raise _BadRequest(problem(415, "Unsupported media type", "send the request body as application/json",
                                  "unsupported-media-type"))
    try:
        raw = request.get_data(cache=False) or b"null"
        body = orjson.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise _BadRequest(problem(400, "Malformed JSON", f"the body is not valid JSON: {str(exc)[:200]}",
                                  "malformed-json", [{"pointer": "", "detail": "not valid JSON"}]))
    # Nothing may recurse on a deeply nested body (the full validator, the rules core's merges, the
    # answer's serialiser).  A body the schema accepts can nest freely only in its free-form parts
    # (`rules`, a game's `sheet` rows), so only those are measured; any other body is measured whole
    # before the full validator lists its problems.
    if openapi.is_valid(component, body):
        if isinstance(body, dict) and _free_depth(body) > MAX_JSON_DEPTH:
            raise _too_deep()
        return body
    if _depth(raw) > MAX_JSON_DEPTH:
        raise _too_deep()
    openapi.validate(component, body)
    return body


REQUEST_COMPONENTS = ("AdjudicateRequest", "DealRequest", "GameStartRequest", "LegalActionsRequest",
                      "MeldCheckRequest", "ReplayRequest", "ScoreSheetRequest")


def warm() -> None:
    """Fill the caches every request reads (variants, clause registry, compiled validators)."""
    all_variants()
    citation(TURN_DRAW_MELD_DISCARD)
    for component in REQUEST_COMPONENTS:
        openapi.is_valid(component, None)


def _too_deep() -> _BadRequest:
    return _BadRequest(problem(400, "Malformed JSON", f"the body is nested more than {MAX_JSON_DEPTH} levels deep",
                               "malformed-json", [{"pointer": "", "detail": "nested too deeply"}]))


def _free_depth(body: dict) -> int:
    """How deeply the schema's free-form parts of a request nest."""
    game = body.get("game")
    parts = [body.get("rules"), game.get("sheet") if isinstance(game, dict) else None]
    return max([_value_depth(p) for p in parts if p is not None] or [0])


def _value_depth(value) -> int:
    """How deeply arrays and objects nest in ``value`` (iterative: no recursion on hostile input)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            if deepest > MAX_JSON_DEPTH:
                break
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node)
                         if isinstance(child, (dict, list)))
    return deepest


MAX_JSON_DEPTH = 32  # the deepest valid request (a turn's swap_joker placing a meld) is under 10


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(rb"[\[\]{}]")


def _depth(raw: bytes) -> int:
    """How deeply arrays and objects nest in ``raw``, a JSON text already parsed (so its strings are
    well formed): the strings are blanked out, then the brackets counted, without recursion."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b'""', raw)):
        if bracket in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class _BadRequest(Exception):
    def __init__(self, response: Response):
        self.response = response


@bp.errorhandler(_BadRequest)
def _bad_request(exc: _BadRequest):
    return exc.response


@bp.errorhandler(RefereeInputError)
def _input_error(exc: RefereeInputError):
    return from_error(exc, 404 if isinstance(exc, UnknownVariant) and request.method == "GET" else 422)


@bp.post("/v1/adjudicate")
def adjudicate_route():
    req = requests.adjudicate_request(_body("AdjudicateRequest"))
    try:
        if isinstance(req, requests.GameRequest):
            verdict = adjudicate_game(req.variant, req.game, req.action, req.stakes_override)
        else:
            verdict = adjudicate(req.variant, req.state, req.action)
    except MalformedInput as exc:  # a reference the state cannot resolve, e.g. an unknown meld id
        raise exc.prefixed("/action") from None
    return _json(verdict.to_dict())


@bp.post("/v1/deal")
def deal_route():
    req = requests.deal_request(_body("DealRequest"))
    state, record = deal(req.variant, req.players, req.seed, req.dealer)
    return _json({"state": state.to_dict(), "deal": record})


@bp.post("/v1/games")
def game_start_route():
    req = requests.game_start_request(_body("GameStartRequest"))
    game, record = start_game(req.variant, req.players, req.seed, req.stakes)
    return _json({"game": game.to_dict(), "seating": {k: record[k] for k in ("seating", "seats", "dealer")},
                  "events": record["events"]})


@bp.post("/v1/scoresheet")
def scoresheet_route():
    req = requests.score_sheet_request(_body("ScoreSheetRequest"))
    return _json(score_sheet(req.variant, req.players, req.hands, req.stakes, req.dealer))


@bp.post("/v1/melds/check")
def meld_check_route():
    req = requests.meld_check_request(_body("MeldCheckRequest"))
    variant = req.variant
    tokens: list[Token] = []
    problems = []
    for i, code in enumerate(req.cards):
        try:
            tokens.append(parse_token(code))
        except CardError as exc:
            problems.append(Problem(f"/cards/{i}", str(exc)))
    declared = req.jokers
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
    reading = read_meld(tokens, variant, req.kind)
    if isinstance(reading, Failure):
        clause = variant.cite(reading.clause)
        violation = {"clause": clause, "message": reading.message, **citation(clause, variant.documents)}
        return _json({"valid": False, "ambiguous": reading.ambiguous, "kind": None, "cards": None, "jokers": [],
                      "value": None, "readings": [dict(r) for r in reading.readings], "violation": violation})
    return _json({"valid": True, "ambiguous": False, "kind": reading.kind, "cards": reading.codes,
                  "jokers": [s.stands_for for s in reading.slots if s.is_joker],
                  "value": meld_value(reading, variant), "readings": [reading.to_dict()], "violation": None})


def collector_paused(view):
    """``view`` answered with the cyclic garbage collector paused, for the routes that make thousands
    of objects a request (a listing, a replay) and keep none: reference counting frees them as they
    go, while a collection in the middle of one would walk them all, promote them to older
    generations, and lead to collections of every object of the process (tens of milliseconds at
    the tail of a listing).  It runs again when the answer is made; a host that runs without it
    keeps it off."""
    @functools.wraps(view)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return view(*args, **kwargs)
        gc.disable()
        try:
            return view(*args, **kwargs)
        finally:
            gc.enable()
    return paused


@bp.post("/v1/legal-actions")
@collector_paused
def legal_actions_route():
    req = requests.legal_actions_request(_body("LegalActionsRequest"))
    return _json(legal_actions(req.variant, req.state, req.cap))


@bp.post("/v1/replay")
@collector_paused
def replay_route():
    req = requests.replay_request(_body("ReplayRequest"))
    return _json(replay(req.variant, req.start, req.actions, req.hashes, req.start_hash, req.stakes_override))


@bp.get("/v1/capabilities")
def capabilities_route():
    return _json({"implementation": {"name": "kalooki-referee", "version": VERSION},
                  "variants": [v.id for v in all_variants()],
                  "vector_suite": {"name": SUITE, "version": SUITE_VERSION},
                  "endpoints": ["adjudicate", "deal", "melds/check", "games", "scoresheet", "replay", "legal-actions"]})


@bp.get("/v1/variants")
def variants_route():
    return _json({"variants": [{"id": v.id, "name": v.name, "family": v.family, "extends": v.extends,
                                "sources": v.to_dict()["sources"], "parameters": v.to_dict()["parameters"]}
                               for v in all_variants()]})


@bp.get("/v1/variants/<variant_id>")
def variant_route(variant_id: str):
    return _json(load_variant(variant_id).to_dict())


@bp.get("/openapi.yaml")
def openapi_route():
    return Response(openapi.openapi_text(), mimetype="application/yaml")


@bp.get("/health")
def health_route():
    return _json({"status": "ok", "version": VERSION})
