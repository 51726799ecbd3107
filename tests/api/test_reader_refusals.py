"""The library's readers refuse what the API refuses, at the same pointers.

Every body the suite expects the API to refuse as malformed input, and every body of the fuzz
corpus (the vectors' requests changed at random, tests/support/fuzz.py) the API refuses so, is sent
to the API; each part of it that a public reader reads (a ``state``, an ``action``, a ``game``, a
``cut``, a replay's starting state or game and its actions) is then given straight to that reader.
Where the API refused the body for its shape (openapi.yaml), the reader refuses its part with
MalformedInput at the pointers the API gave under that part (relative to it); where the API named
nothing under the part, the part is one the contract accepts.  Where the API read the body and
refused it for a rule (a meld id already on the table, a buy-in by a stranger), the reader, which
the API runs too, refuses the part only at pointers the API gave.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest

from kalooki_referee.api import create_app
from kalooki_referee.rules import MalformedInput, RefereeInputError, Variant, action_from_dict, load_variant, state_from_dict
from kalooki_referee.rules.errors import pointer
from kalooki_referee.rules.wire import actions, contract, deal, game, state
from kalooki_referee.rules.wire.deal import cut_from_dict
from kalooki_referee.rules.wire.game import game_action_from_dict, game_from_dict
from kalooki_referee.vectors.suite import load_vectors
from tests.support.fuzz import mutated_requests

COMPONENTS = {path.removeprefix("/v1/"): op["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
              .rsplit("/", 1)[1] for path, op in contract.openapi_document()["paths"].items()
              if "requestBody" in op.get("post", {})}
Reader = Callable[[Any, Variant], object]
READERS: dict[str, tuple[str, Reader]] = {   # a reader, and the component it reads
    "state": ("State", lambda value, variant: state_from_dict(value, variant)),
    "action": ("Action", lambda value, variant: action_from_dict(value)),
    "game": ("Game", lambda value, variant: game_from_dict(value, variant)),
    "game action": ("GameOrHandAction", lambda value, variant: game_action_from_dict(value)),
    "cut": ("ReportedCutOrNull", lambda value, variant: cut_from_dict(value)),
}


def _parts(endpoint: str, body: dict[str, Any]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(where, which reader) of each part of a request a public reader reads."""
    if endpoint in ("adjudicate", "legal-actions", "views", "notation"):
        yield ("state",), "state"
    if endpoint == "adjudicate":
        yield ("game",), "game"
        yield ("action",), "game action" if "game" in body else "action"
    if endpoint in ("deal", "games"):
        yield ("cut",), "cut"
    if endpoint == "replay":
        yield ("start", "state"), "state"
        yield ("start", "game"), "game"
        if isinstance(body.get("actions"), list):
            yield from ((("actions", i), "game action") for i in range(len(body["actions"])))


_ABSENT = object()


def _at(body: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        if isinstance(body, dict) and isinstance(step, str) and step in body:
            body = body[step]
        elif isinstance(body, list) and isinstance(step, int) and step < len(body):
            body = body[step]
        else:
            return _ABSENT
    return body


def _variant(body: dict[str, Any]) -> Variant:
    try:
        return load_variant(body["variant"])
    except (RefereeInputError, KeyError, TypeError):  # (only the shape matters to the readers' checks)
        return load_variant("british")


def _overlong(errors: list[dict[str, str]]) -> bool:
    """Whether the API refused the body for a size no request reaches (named before anything else)."""
    return any("no " in e["detail"] and ("may hold more" in e["detail"] or "is longer" in e["detail"]) for e in errors)


def judge(client: Any, endpoint: str, body: Any) -> int:
    """Send ``body``; if the API refuses it as malformed input, compare each reader's verdict on its
    part with the API's.  Returns the number of parts compared."""
    answer = client.post(f"/v1/{endpoint}", data=orjson.dumps(body), content_type="application/json")
    problem = answer.get_json(silent=True) or {}
    if answer.status_code != 422 or not str(problem.get("type", "")).endswith("/malformed-input"):
        return 0
    errors = problem["errors"]
    given = [e["pointer"] for e in errors]
    by_shape = not contract.is_valid(COMPONENTS[endpoint], body)
    complete = len(given) < contract.MAX_PROBLEMS and not _overlong(errors)
    compared = 0
    for path, kind in _parts(endpoint, body):
        part = _at(body, path)
        if part is _ABSENT:
            continue
        at = pointer(*path)
        if any(at.startswith(p + "/") for p in given):
            continue  # the API named a place enclosing the part (a request matching no branch of its schema)
        under = sorted({p[len(at):] for p in given if p == at or p.startswith(at + "/")})
        component, reader = READERS[kind]
        if isinstance(part, str) and kind in ("action", "game action"):
            component = "ActionText"   # an action written as a move's text (docs/moves.md)
        found: list[str] | None = None
        try:
            reader(part, _variant(body))
        except MalformedInput as exc:
            found = sorted({p.pointer for p in exc.problems})
        except RefereeInputError:  # an impossible position, an unknown variant: no malformed input
            pass
        context = f"{endpoint} {at}: the API gave {given[:8]}, the reader {found if found is None else found[:8]}"
        if by_shape and under:
            assert found is not None, context
            if complete:
                assert found == under, context
            else:  # the API's list was cut at MAX_PROBLEMS: the reader's is cut too, perhaps at other items
                assert set(under) <= set(found) or len(found) >= contract.MAX_PROBLEMS, context
        elif by_shape:
            if complete:  # the API found nothing wrong here: neither does the contract
                contract.check(component, part)
        else:  # refused for a rule, the values read by these readers
            contract.check(component, part)
            assert found is None or set(found) <= set(under), context
        compared += 1
    return compared


def malformed_vectors() -> list[tuple[str, str, dict[str, Any]]]:
    return [(v.id, v.endpoint, v.data["request"]) for v in load_vectors()
            if v.expected.get("problem") == "malformed-input"]


@pytest.fixture(scope="module")
def api() -> Any:
    return create_app({"TESTING": True}).test_client()


def test_the_readers_refuse_every_malformed_body_of_the_suite_as_the_api_does(api):
    bodies = malformed_vectors()
    assert len(bodies) > 300
    compared = sum(judge(api, endpoint, body) for _, endpoint, body in bodies)
    assert compared > 100


def test_the_readers_refuse_the_fuzz_corpus_as_the_api_does(api):
    compared = sum(judge(api, path.removeprefix("/v1/"), orjson.loads(raw))
                   for _, path, raw in mutated_requests(seed=15, count=300))
    assert compared > 100


@pytest.mark.slow
def test_the_readers_refuse_a_larger_fuzz_corpus_as_the_api_does(api):
    compared = sum(judge(api, path.removeprefix("/v1/"), orjson.loads(raw))
                   for _, path, raw in mutated_requests(seed=17, count=4000))
    assert compared > 1000


def test_the_comparison_fails_for_readers_that_trust_the_shape(api, monkeypatch):
    # the same comparison, the readers' check of the contract taken out: it must find them wrong
    for module in (state, actions, game, deal):
        monkeypatch.setattr(module, "check", lambda component, data: None)
    failures: list[type[BaseException]] = []
    for _, endpoint, body in malformed_vectors():
        try:
            judge(api, endpoint, body)
        except Exception as exc:  # (an assertion, or the bare KeyError of a reader trusting the shape)
            failures.append(type(exc))
    assert AssertionError in failures
