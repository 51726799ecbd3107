"""The v1 blueprint: thin handlers over the rules core."""
from __future__ import annotations

import functools
import gc
import json
import re
from collections import Counter
from collections.abc import Mapping
from operator import itemgetter
from pathlib import Path

import orjson

from flask import Blueprint, Response, abort, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from kalooki_referee import __version__
from kalooki_referee.rules import adjudicate, all_variants, deal, load_variant
from kalooki_referee.rules.variant import loaded_variant_count, variant_ids
from kalooki_referee.rules.cards import CardError
from kalooki_referee.rules.clause_ids import TURN_DRAW_MELD_DISCARD
from kalooki_referee.rules.clauses import citation
from kalooki_referee.rules.errors import MalformedInput, Problem, RefereeInputError, UnknownVariant, pointer
from kalooki_referee.rules.game import adjudicate_game, start_game
from kalooki_referee.rules.legal import legal_actions
from kalooki_referee.rules.replay import replay
from kalooki_referee.rules.scoresheet import score_sheet
from kalooki_referee.rules.tournament import adjudicate_tournament
from kalooki_referee.rules.views import commitment, view_of
from kalooki_referee.rules.melds import Failure, Token, meld_value, parse_token, read_meld

from . import MAX_BODY_BYTES, openapi, ops, requests, resources, signing
from .openapi import MAX_PROBLEMS
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
    # (the usual header compared as it is; werkzeug's parse of the media type only for any other)
    if request.environ.get("CONTENT_TYPE") != "application/json" and not request.is_json:
        raise _BadRequest(problem(415, "Unsupported media type", "send the request body as application/json",
                                  "unsupported-media-type"))
    raw = request.get_data(cache=False) or b"null"
    if len(raw) > MAX_BODY_BYTES:  # sent without a Content-Length (chunked): werkzeug let one byte more through
        raise RequestEntityTooLarge()
    try:
        body = orjson.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise _BadRequest(problem(400, "Malformed JSON", f"the body is not valid JSON: {str(exc)[:200]}",
                                  "malformed-json", [{"pointer": "", "detail": "not valid JSON"}]))
    valid = openapi.is_valid(component, body)
    if not valid:  # a size no request reaches (a list, an object, a name, a string): named before any walk
        openapi.refuse_overlong(body)
    repeated = repeated_names(raw, body)
    if repeated:
        raise MalformedInput([Problem(where, "this name appears more than once in its object (which of its "
                                             "values was meant is not guessed)") if where else
                              Problem("", f"names appear more than once in the objects of this body; in a body over "
                                          f"{LOCATED_BYTES // 1024} KiB they are not located one by one")
                              for where in repeated[:MAX_PROBLEMS]])
    # Nothing may recurse on a deeply nested body (the full validator, the rules core's merges, the
    # answer's serialiser).  A body the schema accepts can nest freely only in its free-form parts
    # (`rules`, a game's `sheet` rows), so only those are measured; any other body is measured whole
    # before the full validator lists its problems.
    if valid:
        if isinstance(body, dict) and _free_depth(body) > MAX_JSON_DEPTH:
            raise _too_deep()
        return body
    if _depth(raw) > MAX_JSON_DEPTH:
        raise _too_deep()
    openapi.validate(component, body, checked=True)
    return body


class _Repeats(dict):
    """An object read from JSON text in which some names appear more than once."""
    repeated: list[str]


LOCATED_BYTES = 64 * 1024  # a longer body is refused for its repeated names without reading it again


def _member_reader():
    """A hook for json.loads that marks the objects repeating a name (at most MAX_PROBLEMS of them)."""
    marked = [0]

    def members(pairs: list[tuple[str, object]]) -> dict:
        obj = dict(pairs)
        if len(obj) == len(pairs) or marked[0] >= MAX_PROBLEMS:
            return obj
        marked[0] += 1
        counts = Counter(map(itemgetter(0), pairs))  # (in C: no Python step per member)
        out = _Repeats(obj)
        out.repeated = [k for k, n in counts.items() if n > 1][:MAX_PROBLEMS]
        return out
    return members


def _colons(text: bytes) -> int:
    """The colons of a JSON text, each written as itself or escaped (\\u003a: a literal backslash
    before the letters counts on both sides of the comparison below, so it cancels out)."""
    return text.count(b":") + text.count(b"\\u003a") + text.count(b"\\u003A")


def repeated_names(raw: bytes, body) -> list[str]:
    """The pointers of the object members of ``raw`` whose name its object gives more than once
    (orjson keeps the last value without a word).

    The fast test: every member of every object is written with one colon outside any string;
    orjson writes ``body`` back with the same strings and one colon per member it kept, and writes
    a colon inside a string as itself where ``raw`` may have escaped it.  So the same count of
    colons, escaped ones included, means no name was dropped.  Otherwise the text is read again,
    noting the names each object repeats (at most MAX_PROBLEMS objects marked) when it is at most
    LOCATED_BYTES long; a longer one gets one problem with no pointer, so that the cost of finding
    them is bounded whatever the body."""
    try:
        if _colons(raw) == _colons(orjson.dumps(body)):
            return []
    except orjson.JSONEncodeError:  # nested deeper than orjson writes: read again below
        pass
    if len(raw) > LOCATED_BYTES:
        return [""]
    try:
        tree = json.loads(raw, object_pairs_hook=_member_reader())
    except (ValueError, RecursionError):  # nested too deeply to read here: refused for its depth
        return []
    found, stack = [], [(tree, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, _Repeats):
            found += [where + pointer(k) for k in node.repeated]
        if isinstance(node, dict):
            stack.extend((v, where + pointer(k)) for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, where + pointer(i)) for i, v in enumerate(node) if isinstance(v, (dict, list)))
    return sorted(found)


REQUEST_COMPONENTS = ("AdjudicateRequest", "DealRequest", "GameStartRequest", "LegalActionsRequest",
                      "MeldCheckRequest", "ReplayRequest", "ScoreSheetRequest", "TournamentRequest",
                      "ViewRequest")


def warm() -> None:
    """Fill the caches every request reads (variants, clause registry, compiled validators)."""
    all_variants()
    citation(TURN_DRAW_MELD_DISCARD)
    for component in REQUEST_COMPONENTS:
        openapi.is_valid(component, None)
    resources.clauses()
    resources.sources()


def readiness() -> tuple[bool, dict[str, int]]:
    """Whether ``warm`` has filled what it fills (every variant file loaded, every request validator
    compiled), with the counts."""
    report = {"variants_loaded": loaded_variant_count(), "variants": len(variant_ids()),
              "validators_compiled": openapi.compiled_count(), "validators": len(REQUEST_COMPONENTS)}
    return (report["variants_loaded"] >= report["variants"]
            and report["validators_compiled"] >= report["validators"]), report


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


_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')  # (runs of plain bytes matched whole, not byte by byte)
_NOT_BRACKETS = re.compile(rb"[^\[\]{}]+")
_INNERMOST = re.compile(rb"\[\]|\{\}")


def _depth(raw: bytes) -> int:
    """How deeply arrays and objects nest in ``raw``, a JSON text already parsed (so its strings are
    well formed and its brackets balanced), counted up to one past MAX_JSON_DEPTH: the strings
    blanked out and everything but the brackets dropped, then the innermost pairs removed level by
    level, each level one pass of the regular expression engine (no Python loop over the text)."""
    brackets = _NOT_BRACKETS.sub(b"", _STRINGS.sub(b'""', raw))
    depth = 0
    while brackets and depth <= MAX_JSON_DEPTH:
        brackets = _INNERMOST.sub(b"", brackets)
        depth += 1
    return depth


class _BadRequest(Exception):
    def __init__(self, response: Response):
        self.response = response


@bp.errorhandler(_BadRequest)
def _bad_request(exc: _BadRequest):
    return exc.response


@bp.errorhandler(RefereeInputError)
def _input_error(exc: RefereeInputError):
    return from_error(exc, 404 if isinstance(exc, UnknownVariant) and request.method == "GET" else 422)


def _sign_option() -> bool:
    """The ``sign`` query parameter of ``POST /v1/adjudicate``: ``true`` or ``false`` (the default)."""
    if not request.environ.get("QUERY_STRING"):  # (most requests: no need to parse request.args)
        return False
    value = request.args.get("sign")
    if value is None or value == "false":
        return False
    if value == "true":
        return True
    raise _BadRequest(problem(400, "Bad query parameter", "the query parameter sign is true or false",
                              "bad-query-parameter"))


def signing_key() -> signing.SigningKey:
    """The key this app signs rulings with (read by create_app)."""
    key: signing.SigningKey = current_app.extensions["kalooki_signing_key"]
    return key


def _signed(body, answer: dict) -> dict:
    """``answer`` with its ``signature`` over the request ``body`` and the answer as written on the wire."""
    try:
        signing.check_shared(signing_key(), request.environ)
    except signing.SigningUnavailable as exc:
        raise _BadRequest(problem(503, "Signing unavailable", str(exc), "signing-unavailable"))
    wire = orjson.loads(orjson.dumps(answer, default=_plain))
    return {**wire, "signature": signing_key().sign(body, wire)}


@bp.post("/v1/adjudicate")
def adjudicate_route():
    sign = _sign_option()
    body = _body("AdjudicateRequest")
    req = requests.adjudicate_request(body)
    try:
        if isinstance(req, requests.GameRequest):
            verdict = adjudicate_game(req.variant, req.game, req.action, req.stakes_override)
        else:
            verdict = adjudicate(req.variant, req.state, req.action)
    except MalformedInput as exc:  # a reference the state cannot resolve, e.g. an unknown meld id
        raise exc.prefixed("/action") from None
    ops.note_verdict(verdict.legal)
    answer = verdict.to_dict()
    return _json(_signed(body, answer) if sign else answer)


@bp.post("/v1/deal")
def deal_route():
    req = requests.deal_request(_body("DealRequest"))
    state, record = deal(req.variant, req.players, req.seed, req.dealer, hand=req.hand)
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
    sheet = score_sheet(req.variant, req.players, req.hands, req.stakes, req.dealer)
    ops.note_verdict(sheet["inconsistency"] is None)
    return _json(sheet)


@bp.post("/v1/tournaments")
def tournament_route():
    req = requests.tournament_request(_body("TournamentRequest"))
    try:
        verdict = adjudicate_tournament(req.variant, req.tournament, req.event)
    except MalformedInput as exc:  # the event names a table or a player the tournament does not have
        raise exc.prefixed("/event") from None
    ops.note_verdict(verdict.legal)
    return _json(verdict.to_dict())


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
        violation = {"message": reading.message, **variant.citation(reading.clause).to_dict()}
        ops.note_verdict(False)
        return _json({"valid": False, "ambiguous": reading.ambiguous, "kind": None, "cards": None, "jokers": [],
                      "value": None, "readings": [dict(r) for r in reading.readings], "violation": violation})
    ops.note_verdict(True)
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
    replayed = replay(req.variant, req.start, req.actions, req.hashes, req.start_hash, req.stakes_override)
    ops.note_verdict(replayed["first_illegal"] is None)
    return _json(replayed)


@bp.post("/v1/views")
def views_route():
    """A seat's view of a whole position, with the salted commitment to what it hides when a salt is sent."""
    req = requests.view_request(_body("ViewRequest"))
    answer = {"view": view_of(req.state, req.seat).to_dict()}
    if req.salt is not None:
        answer["commitment"] = commitment(req.state, req.seat, req.salt)
    return _json(answer)


@bp.get("/v1/capabilities")
def capabilities_route():
    return _json({"implementation": {"name": "kalooki-referee", "version": VERSION},
                  "variants": [v.id for v in all_variants()],
                  "vector_suite": {"name": SUITE, "version": SUITE_VERSION},
                  "endpoints": ["adjudicate", "deal", "melds/check", "games", "scoresheet", "replay", "legal-actions",
                                "tournaments", "views"],
                  "previews": {v.id: list(v.not_enforced) for v in all_variants() if v.status == "preview"}})


@bp.get("/v1/variants")
def variants_route():
    listed = []
    for v in all_variants():
        whole = v.to_dict()
        listed.append({"id": v.id, "name": v.name, "family": v.family, "extends": v.extends,
                       "sources": whole["sources"], "parameters": whole["parameters"],
                       "status": v.status, "not_enforced": list(v.not_enforced)})
    return _json({"variants": listed})


@bp.get("/v1/variants/<variant_id>")
def variant_route(variant_id: str):
    return _json(load_variant(variant_id).to_dict())


@bp.get("/v1/variants/<variant_id>/rulings")
def variant_rulings_route(variant_id: str):
    return _json(resources.variant_rulings(load_variant(variant_id)))


@bp.get("/v1/clauses")
def clauses_route():
    """Every clause; ``?variant=`` keeps those the variant plays under, ``?category=`` those of a topic."""
    found = list(resources.clauses().values())
    variant_id, category = _text_option("variant"), _text_option("category")
    if variant_id is not None:
        found = [c for c in found if load_variant(variant_id).id in c["variants"]]  # 404 when unknown
    if category is not None:
        found = [c for c in found if c["category"] == category]
    return _json({"clauses": found})


def _text_option(name: str, longest: int = 64) -> str | None:
    """A query parameter that is a name: absent, or 1 to ``longest`` characters (else a 400)."""
    value = request.args.get(name)
    if value is not None and not 1 <= len(value) <= longest:
        raise _BadRequest(problem(400, "Bad query parameter",
                                  f"the query parameter {name} is 1 to {longest} characters long",
                                  "bad-query-parameter"))
    return value


@bp.get("/v1/clauses/<clause_id>")
def clause_route(clause_id: str):
    found = resources.clauses().get(clause_id)
    if found is None:
        abort(404, description="no clause has this id; GET /v1/clauses lists them")
    return _json(found)


@bp.get("/v1/sources")
def sources_route():
    return _json({"sources": list(resources.sources().values())})


@bp.get("/v1/sources/<source_id>")
def source_route(source_id: str):
    found = resources.sources().get(source_id)
    if found is None:
        abort(404, description=f"no source document has this id; known: {', '.join(resources.sources())}")
    return _json(found)


@bp.get("/v1/keys")
def keys_route():
    return _json({"keys": [signing_key().published()]})


@bp.get("/openapi.yaml")
def openapi_route():
    return Response(openapi.openapi_text(), mimetype="application/yaml")


@bp.get("/health")
def health_route():
    """Liveness: the process answers."""
    return _json({"status": "ok", "version": VERSION})


@bp.get("/ready")
def ready_route():
    """Readiness: the warm-up of create_app is done (every variant loaded, every validator compiled),
    so the first requests are served as fast as the rest."""
    ready, report = readiness()
    if ready:
        return _json({"status": "ready", "version": VERSION, **report})
    return problem(503, "Not ready", "the variants and validators are not all loaded yet", "not-ready", **report)
