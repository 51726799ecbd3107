"""A replayed log (rules/replay.py) on the wire: openapi.yaml's ``ReplayRequest`` read into a typed
``Log``, and the answer, ``ReplayResponse``, written with the hash chain over its positions.

The answer gives every step's verdict up to the first illegal one; for that step its index, the
clauses broken (with their statements and sources), a plain explanation and the position before it.
If every step is legal it gives the final position and, when a hand ended, its scoring.

A log may start from a state with unseen cards (a real table's record): the cards its steps show
become seen as they are shown, and a step whose legality the seen cards do not decide ends the replay
with ``undetermined`` (its index, the answer's undetermined entries, the position before it) in place
of ``final``.

Every position carries a hash chained to the one before, so that a log can prove it was not
altered after the fact:

    h(0) = SHA-256( JCS(position 0) )
    h(i) = SHA-256( h(i-1) as 64 lowercase hex characters  ||  JCS(position i) )     (i >= 1)

where ``JCS`` is the JSON Canonicalization Scheme of RFC 8785 (UTF-8) and position ``i`` is the
state (for a hand) or the game (for a game) after step ``i`` as the referee answers it.  A log may
carry the hashes it recorded (``hashes[i]`` for the position after step ``i + 1``, and optionally
``start_hash``); the first recorded hash that differs from the recomputed one is reported as the
step where the record was altered.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Mapping, NotRequired, Sequence, TypedDict

import orjson
import rfc8785

from ..actions import Action
from ..deal import deal
from ..engine import Verdict
from ..errors import MalformedInput, Problem, RefereeInputError, pointer
from ..game import Game, GameAction, GameVerdict, start_game
from ..replay import MAX_STEPS, Log
from ..replay import replay as replay_log
from ..variant import Variant
from .actions import action_from_valid
from .state import state_from_valid, state_wire
from .verdicts import verdict_wire
from .game import game_start_wire, game_verdict_wire, game_wire, read_game, read_game_action, read_stakes

START_KINDS = ("deal", "state", "game", "new_game")


class Start(TypedDict):
    position: Mapping[str, Any]
    hash: str
    record: NotRequired[Mapping[str, Any]]     # how the hand was dealt or the game started


class Step(TypedDict):
    index: int
    legal: bool
    events: list[Any]
    hash: str
    result: NotRequired[Any]                   # the hand's scoring, at a step that ended it
    undetermined: NotRequired[list[Any]]       # a legal step whose settlement depends on unseen cards
    settlement: NotRequired[Any]               # ... and that settlement, figure by figure
    standing: NotRequired[Any]                 # ... and, in a game, each player's standing after it
    outcome: NotRequired[Any]                  # ... and the game's: over, its winner, the payout


class FirstIllegal(TypedDict):
    index: int
    action: Any                                # the step as the log gave it
    violations: list[Any]
    explanation: str
    position_before: Mapping[str, Any]
    hash_before: str


class Altered(TypedDict):
    index: int | None                          # None: the starting position
    at: str
    recorded: str
    computed: str
    explanation: str


class FirstUndetermined(TypedDict):
    index: int
    action: Any                                # the step as the log gave it
    undetermined: list[Any]                    # what the step's legality depends on (cards nobody listed)
    position_before: Mapping[str, Any]
    hash_before: str


class Final(TypedDict):
    position: Mapping[str, Any]
    hash: str
    result: Any
    settlement: NotRequired[Any]               # the last hand won with figures unseen cards leave open
    standing: NotRequired[Any]                 # ... in a game, each player's standing after it
    outcome: NotRequired[Any]                  # ... and the game's


class Replay(TypedDict):
    """The answer to a replay."""
    kind: str
    start: Start
    steps: list[Step]
    first_illegal: FirstIllegal | None
    altered: Altered | None
    final: Final | None
    undetermined: NotRequired[FirstUndetermined]   # the first step the seen cards do not decide


def canonical(doc: Any) -> bytes:
    """RFC 8785 canonical JSON of a position: the one writer of every hashed document.

    Positions hold only strings, integers, booleans, null, lists and objects.  For those, Python's
    ``json.dumps`` (or orjson) with sorted keys, no whitespace and no ASCII escaping writes exactly the JCS
    bytes, except that JCS orders keys by UTF-16 code units where Python orders by code points;
    the two orders can differ only when a key holds a character at or above U+E000.  So the fast
    writer is used when no such character occurs, and the ``rfc8785`` library otherwise.

    A number JCS cannot write exactly is refused (MalformedInput naming its pointer in ``doc``), by
    either writer: a float (whose JCS form Python does not write; the schema's integers are read as
    integers before anything is hashed, so ``1E2`` arrives as 100) and an integer beyond 2^53 - 1 in
    magnitude (JCS writes numbers as IEEE doubles)."""
    try:
        # the same bytes as that json.dumps, faster; an integer beyond 2^53 - 1 is refused here
        data = orjson.dumps(doc, option=orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER)
    except orjson.JSONEncodeError:  # pragma: no cover - only an integer beyond 2^53 - 1 fails here; openapi.yaml bounds every integer a position holds far within it
        _refuse_inexact(doc)
        raise
    if _MAYBE_FLOAT.search(data):  # a float may be there (or only inside a string)
        _refuse_inexact(doc)
    if not data.isascii() and max(data.decode("utf-8")) >= "\ue000":
        return rfc8785.dumps(doc)
    return data


MAX_EXACT_INTEGER = 2**53 - 1
_MAYBE_FLOAT = re.compile(rb"[0-9][.eE]")  # how orjson writes a float (a digit, then a point or an exponent)


def _refuse_inexact(doc: Any) -> None:
    """Raise MalformedInput at the first number of ``doc`` JCS cannot write exactly (no recursion)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(doc, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, float) or (isinstance(node, int) and not isinstance(node, bool)
                                       and abs(node) > MAX_EXACT_INTEGER):
            what = (f"{node!r} is not an integer" if isinstance(node, float)  # pragma: no cover - openapi.yaml admits integers only (1.0 read as 1), and bounded
                    else f"the integer {node} is beyond 2^53 - 1 in magnitude")
            raise MalformedInput(Problem(pointer(*path), f"{what}: the hash chain (RFC 8785) cannot write it exactly"))  # pragma: no cover - (as above)
        if isinstance(node, Mapping):
            stack.extend((v, path + (k,)) for k, v in reversed(list(node.items())))
        elif isinstance(node, (list, tuple)):
            stack.extend((v, path + (i,)) for i, v in reversed(list(enumerate(node))))


def chain(previous: str | None, doc: Any) -> str:
    prefix = previous.encode("ascii") if previous else b""
    return hashlib.sha256(prefix + canonical(doc)).hexdigest()


# -- reading the log ------------------------------------------------------------------------------

def _read_start(variant: Variant, start: Mapping[str, Any]) -> tuple[Log, Mapping[str, Any]]:
    """The log's start as a position (a hand's State or a Game), with no step yet, and the record of
    how it was dealt or started (empty for a position sent as it stands)."""
    kinds = [k for k in START_KINDS if k in start]
    if len(kinds) != 1 or len(start) != 1:  # pragma: no cover - openapi.yaml's ReplayStart is one of four objects, each of one required key
        raise MalformedInput(Problem("/start", f"give exactly one of {', '.join(START_KINDS)}"))
    kind = kinds[0]
    body = start[kind]
    try:
        if kind == "state":
            return Log(state_from_valid(body, variant), ()), {}
        if kind == "game":
            return Log(read_game(body, variant), ()), {}
        if not isinstance(body, Mapping):  # pragma: no cover - openapi.yaml's ReplayDeal and ReplayNewGame are objects
            raise MalformedInput(Problem("", "expected an object"))
        if kind == "deal":
            state, record = deal(variant, list(body["players"]), body["seed"], body.get("dealer"))
            return Log(state, ()), record
        game, started = start_game(variant, list(body["players"]), body["seed"], read_stakes(body.get("stakes")))
        return Log(game, ()), game_start_wire(started)
    except RefereeInputError as exc:
        raise exc.prefixed(f"/start/{kind}") from None


def _read_actions(kind: str, actions: list[Any]) -> tuple[Action | GameAction, ...]:
    """Every action of the log read before anything is replayed, so a malformed log is refused whole."""
    parsed: list[Action | GameAction] = []
    for i, raw in enumerate(actions):
        try:
            parsed.append(read_game_action(raw) if kind == "game" else action_from_valid(raw))
        except RefereeInputError as exc:
            raise exc.prefixed(pointer("actions", i)) from None
    return tuple(parsed)


def read_log(variant: Variant, start: Mapping[str, Any], actions: list[Any]) -> tuple[Log, Mapping[str, Any]]:
    """A ``ReplayRequest``'s ``start`` and ``actions`` as a typed ``Log``, and the start's record."""
    log, record = _read_start(variant, start)
    return Log(log.start, _read_actions(log.kind, actions)), record


# -- the answer -----------------------------------------------------------------------------------

OPEN_KEYS = ("settlement", "standing", "outcome")   # a hand won with figures unseen cards leave open


def _step(i: int, answer: Mapping[str, Any], h: str) -> Step:
    """A legal step of the log: its events and hash, and the hand's result (or, a hand won with unseen
    cards, what is undetermined and the settlement figure by figure) where the step ended the hand."""
    step: Step = {"index": i, "legal": True, "events": answer["events"], "hash": h}
    if answer.get("result") is not None:
        step["result"] = answer["result"]
    if "undetermined" in answer:
        step["undetermined"] = answer["undetermined"]
    for key in OPEN_KEYS:  # standing and outcome: in a game
        if key in answer:
            step[key] = answer[key]  # type: ignore[literal-required]
    return step


def _final(position: Mapping[str, Any], h: str, result: Any, opened: dict[str, Any]) -> Final:
    """The position after the last step, its hash and the last hand's result (or, a hand won with
    figures open, its settlement and, in a game, the standing and outcome)."""
    final: Final = {"position": position, "hash": h, "result": result}
    if result is None:
        final.update(opened)  # type: ignore[typeddict-item]
    return final


def _verdict_wire(verdict: Verdict | GameVerdict) -> dict[str, Any]:
    return game_verdict_wire(verdict) if isinstance(verdict, GameVerdict) else verdict_wire(verdict)


def replay(variant: Variant, start: Mapping[str, Any], actions: list[Any], hashes: Sequence[str] | None = None,
           start_hash: str | None = None, stakes_override: object = None) -> Replay:
    """The answer to ``POST /v1/replay`` for a log as the wire gives it (``start``, ``actions``, the
    ``hashes`` it recorded, its ``start_hash``) and, for a game, the stakes of the house rules sent."""
    if not isinstance(actions, list) or len(actions) > MAX_STEPS:  # pragma: no cover - openapi.yaml: an array of at most 5000 (MAX_STEPS)
        raise MalformedInput(Problem("/actions", f"expected a list of at most {MAX_STEPS} actions"))
    if hashes is not None and len(hashes) > len(actions):
        raise MalformedInput(Problem(pointer("hashes", len(actions)),
                                     f"the log records {len(hashes)} hashes for {len(actions)} actions: "
                                     "it is truncated or a hash has no step"))
    log, record = read_log(variant, start, actions)
    kind = log.kind
    current = game_wire(log.start) if isinstance(log.start, Game) else state_wire(log.start)
    try:
        h = chain(None, current)
    except MalformedInput as exc:  # pragma: no cover - a number the hash cannot write exactly, which openapi.yaml's integer bounds exclude
        raise exc.prefixed(f"/start/{kind}") from None
    out: Replay = {"kind": kind, "start": {"position": current, "hash": h}, "steps": [],
                   "first_illegal": None, "altered": None, "final": None}
    if record:
        out["start"]["record"] = record
    if start_hash is not None and start_hash != h:
        out["altered"] = {"index": None, "at": "/start_hash", "recorded": start_hash, "computed": h,
                          "explanation": "the recorded hash of the starting position does not match it"}
    result: Any = None
    opened: dict[str, Any] = {}
    for i, verdict in enumerate(replay_log(variant, log, stakes_override)):
        answer = _verdict_wire(verdict)
        if verdict.legal is None:  # a log from a position with unseen cards, at a step they decide
            out["undetermined"] = {"index": i, "action": actions[i], "undetermined": answer["undetermined"],
                                   "position_before": current, "hash_before": h}
            break
        if not verdict.legal:
            out["first_illegal"] = {
                "index": i, "action": actions[i], "violations": answer["violations"],
                "explanation": "; ".join(f"{v['message']} ({v['clause']}: {v['statement']})"
                                         for v in answer["violations"]),
                "position_before": current, "hash_before": h}
            break
        current = answer["game"] if kind == "game" else answer["state"]
        h = chain(h, current)
        step = _step(i, answer, h)
        result, opened = step.get("result", result), {k: step[k] for k in OPEN_KEYS if k in step} or opened  # type: ignore[literal-required]
        out["steps"].append(step)
        if hashes is not None and i < len(hashes) and out["altered"] is None and hashes[i] != h:
            out["altered"] = {"index": i, "at": pointer("hashes", i), "recorded": hashes[i], "computed": h,
                              "explanation": f"the position after step {i} is not the one the log recorded: "
                                             "the log was altered at or before this step"}
    if out["first_illegal"] is None and "undetermined" not in out:
        out["final"] = _final(current, h, result, opened)
    return out
