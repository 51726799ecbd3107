"""The decoder equals the contract.

The edge's decoder (``api.wire.decode``: the body parsed, checked against openapi.yaml by the
compiled validator, jsonschema-rs, and its objects checked for repeated names) must accept exactly
the bodies that openapi.yaml accepts, as the reference validator (the ``jsonschema`` package, the
full one, reading the same document) judges them; and a refused body must get every problem with a
pointer into it.  The bodies: every vector's request, the fuzz corpus (the vectors' requests changed
at random, tests/support/fuzz.py) and bodies generated from openapi.yaml (schemathesis, schema-valid
and schema-breaking).  The default run takes a sample of each; the slow step takes them all.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kalooki_referee.rules.wire import contract as openapi
from kalooki_referee.rules.wire.contract import MAX_PROBLEMS
from kalooki_referee.api.wire import decode
from kalooki_referee.rules.wire import contract
from kalooki_referee.rules.errors import MalformedInput
from kalooki_referee.vectors.suite import load_vectors
from tests.support.fuzz import mutated_requests

ROOT = Path(__file__).resolve().parents[2]


def _components() -> dict[str, str]:
    """Each POST endpoint's request component, as openapi.yaml names it."""
    paths = openapi.openapi_document()["paths"]
    return {path: op["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
            for path, op in paths.items() if "post" in op and "requestBody" in op["post"]}


COMPONENTS = _components()


def contract_accepts(component: str, body: Any) -> bool:
    """Whether openapi.yaml's ``component`` accepts ``body``, by the reference validator."""
    return not any(True for _ in contract._validator(component).iter_errors(body))


def _resolves(body: Any, where: str) -> bool:
    """Whether the JSON pointer ``where`` names a place of ``body``, or a member its object lacks."""
    node = body
    parts = [p.replace("~1", "/").replace("~0", "~") for p in where.split("/")[1:]] if where else []
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(node, dict):
            if part not in node:
                return last  # a missing member is pointed at where it belongs
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def _locations(component: str, body: Any) -> set[str]:
    """Where the reference validator finds the body broken: the pointer of each top-level error."""
    return {"".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}" for p in err.absolute_path)
            for err in contract._validator(component).iter_errors(body)}


def judge(path: str, raw: bytes) -> None:
    """The decoder's verdict on ``raw`` sent to ``path`` agrees with the contract's."""
    component = COMPONENTS[path]
    body = orjson.loads(raw)
    accepted = contract_accepts(component, body)
    try:
        decoded = decode(component, raw)
    except MalformedInput as exc:
        assert not accepted, f"{path}: the decoder refused a body openapi.yaml accepts: {exc.detail[:300]}"
        problems = exc.problems
        assert problems, f"{path}: refused with no problem listed"
        for p in problems:
            if not p.pointer.endswith("..."):  # (a name too long to repeat whole is cut, and says so)
                assert _resolves(body, p.pointer), f"{path}: {p.pointer!r} points nowhere in the body"
        if len(problems) < MAX_PROBLEMS and not any("no " in p.detail and ("may hold more" in p.detail
                                                                        or "is longer" in p.detail) for p in problems):
            # (every broken place is under a problem's pointer, unless the answer lists as many problems
            # as it ever lists, or the body was refused for a size no request reaches, which is named
            # before anything else is looked at)
            # (or the break lies in an item past those the decoder checks of a list it cut: its answer
            # lists the problems of the items it read, and says which lists it cut where they hold one)
            pointers = [p.pointer for p in problems]
            _, cut = openapi.cut_body(component, body)
            for where in _locations(component, body):
                assert any(pt == where or pt.startswith(where + "/") or where.startswith(pt + "/") or pt == ""
                           for pt in pointers) or _past_the_checked_items(where, cut), \
                    f"{path}: the break at {where!r} is not among {pointers[:10]}"
        return
    assert accepted, f"{path}: the decoder accepted a body openapi.yaml refuses"
    assert decoded == body


def _past_the_checked_items(where: str, cut: list[tuple[str, int, int]]) -> bool:
    """Whether ``where`` lies in an item of a cut list (its place, length, items kept) past those kept."""
    for place, _, kept in cut:
        if where.startswith(place + "/"):
            index = where[len(place) + 1:].split("/")[0]
            if index.isdigit() and int(index) >= kept:
                return True
    return False


def _vector_requests(every: int = 1) -> list[tuple[str, str, bytes]]:
    """(id, path, body) of each vector's request, each distinct request once (inherited vectors
    repeat their parent's under another variant id), every ``every``-th of them."""
    seen, out = set(), []
    for v in load_vectors():
        body = v.data["request"]
        key = (v.endpoint, json.dumps({k: x for k, x in body.items() if k != "variant"}, sort_keys=True))
        if key not in seen:
            seen.add(key)
            out.append((v.id, "/v1/" + v.endpoint, orjson.dumps(body)))
    return out[::every]


def test_the_decoder_and_the_contract_agree_on_a_sample_of_the_vectors_requests():
    sample = _vector_requests(every=20)
    assert len(sample) > 80
    for vector_id, path, raw in sample:
        judge(path, raw)
        # the same request with a member the schema does not know: both refuse it
        broken = orjson.dumps({**orjson.loads(raw), "unexpected": True})
        with pytest.raises(MalformedInput):
            decode(COMPONENTS[path], broken)
        assert not contract_accepts(COMPONENTS[path], orjson.loads(broken)), vector_id


def test_the_decoder_and_the_contract_agree_on_the_fuzz_corpus():
    for _, path, raw in mutated_requests(seed=15, count=200):
        judge(path, raw)


@pytest.mark.slow
def test_the_decoder_and_the_contract_agree_on_every_vector_request_and_a_larger_fuzz_corpus():
    for _, path, raw in _vector_requests():
        judge(path, raw)
    for _, path, raw in mutated_requests(seed=16, count=5000):
        judge(path, raw)


# -- bodies generated from openapi.yaml ------------------------------------------------------------

SCHEMA = schemathesis.openapi.from_path(ROOT / "openapi.yaml")
POSTS = sorted(COMPONENTS)


def _generated(mode: schemathesis.GenerationMode, examples: int):
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(path: str, data: st.DataObject) -> None:
        case = data.draw(SCHEMA[path]["POST"].as_strategy(generation_mode=mode))
        try:
            raw = orjson.dumps(case.body)
        except (TypeError, orjson.JSONEncodeError):  # (a body that is no JSON value is never sent)
            return
        judge(path, raw)
    return check


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("mode", [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
                         ids=["valid", "breaking"])
def test_the_decoder_and_the_contract_agree_on_generated_bodies(path, mode):
    _generated(mode, 4)(path)


@pytest.mark.slow
@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("mode", [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE],
                         ids=["valid", "breaking"])
def test_the_decoder_and_the_contract_agree_on_many_generated_bodies(path, mode):
    _generated(mode, 80)(path)


# -- the places where a compiled validator and the reference one could part ------------------------

FIRST_TURN = json.loads((ROOT / "examples" / "first-turn.json").read_text())


@pytest.mark.parametrize("body", [
    {**FIRST_TURN, "action": {"type": "draw", "source": "stock", "count": 2.0}},
    {**FIRST_TURN, "action": {"type": "draw", "source": "pile"}},
    {**FIRST_TURN, "state": {**FIRST_TURN["state"], "reshuffles": 1.5}},
    {**FIRST_TURN, "state": {**FIRST_TURN["state"], "reshuffles": 1.0}},   # an integer written 1.0 is one
    {**FIRST_TURN, "state": {**FIRST_TURN["state"], "discard": ["9S", "1S"]}},
    {**FIRST_TURN, "state": {**FIRST_TURN["state"], "discard": ["9S", "\u0661S"]}},  # a digit of another script
    {**FIRST_TURN, "rules": {"opening": {"minimum": "40"}}},
    {**FIRST_TURN, "rules": {"opening": {"minimum": 40.0}}},
    {**FIRST_TURN, "action": {"type": "turn", "actions": [{"type": "turn", "actions": []}]}},
    {**FIRST_TURN, "variant": "british\n"},
    {**FIRST_TURN, "state": {**FIRST_TURN["state"], "dealer": ""}},
], ids=["count-2.0", "unknown-source", "reshuffles-1.5", "reshuffles-1.0", "card-1S", "card-arabic-digit",
        "minimum-string", "minimum-40.0", "turn-in-turn", "variant-newline", "dealer-empty"])
def test_the_decoder_and_the_contract_agree_where_validators_could_part(body):
    judge("/v1/adjudicate", orjson.dumps(body))
