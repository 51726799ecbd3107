"""openapi.yaml as a contract for tools: every operation has an example request and answer, each
answer is what the service answers today to that request, the examples block is what
`python -m tools.openapi_examples --write` writes from its sources (vectors and examples/), and every
event the core can emit is documented as its own schema."""
from __future__ import annotations

import dataclasses
import json
import posixpath
from urllib.parse import quote

import pytest

from kalooki_referee.rules.wire import contract as openapi
from kalooki_referee.rules import events
from tools import openapi_examples

DOC = openapi.openapi_document()
METHODS = ("get", "post", "put", "patch", "delete")


def _resolve(node: dict) -> dict:
    """A `$ref` into this document, followed (the examples and schemas use local refs only)."""
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        target = DOC
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _operations():
    for path, item in DOC["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def _cases():
    """(operation id, example name, method, url, request body or None, documented answer)."""
    cases = []
    for path, method, op in _operations():
        answers = next(iter(op["responses"]["200"]["content"].values())).get("examples", {})
        requests = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("examples", {})
        for name, example in answers.items():
            example = _resolve(example)
            url, query = path, []
            for param in op.get("parameters", []):
                value = _resolve(param["examples"][name])["value"]
                value = json.dumps(value) if isinstance(value, bool) else str(value)
                if param["in"] == "path":
                    url = url.replace("{" + param["name"] + "}", value)
                else:
                    query.append(f"{param['name']}={quote(value, safe='')}")
            url += "?" + "&".join(query) if query else ""
            body = _resolve(requests[name])["value"] if "requestBody" in op else None
            cases.append(pytest.param(op["operationId"], method, path, url, body, example, id=f"{op['operationId']}-{name}"))
    return cases


def test_every_operation_has_an_example_request_and_answer():
    for path, method, op in _operations():
        content = next(iter(op["responses"]["200"]["content"].values()))
        answers = content.get("examples", {})
        assert answers, f"{method.upper()} {path} documents no example answer"
        if "requestBody" in op:
            requests = op["requestBody"]["content"]["application/json"].get("examples", {})
            assert set(requests) == set(answers), f"{method.upper()} {path}: each request example has its answer"
        for param in op.get("parameters", []):
            assert set(param.get("examples", {})) == set(answers), f"{path}: {param['name']} has a value per example"


@pytest.fixture(scope="module")
def client():
    return openapi_examples.example_client()


@pytest.mark.parametrize("operation_id, method, path, url, body, example", _cases())
def test_each_documented_answer_is_the_service_answer(client, operation_id, method, path, url, body, example):
    if "externalValue" in example:
        # the example is a document elsewhere (GET /openapi.yaml: an example cannot hold the document
        # that holds it): the reference, read relative to the operation's URL, is served and is the answer
        response = client.open(url, method=method)
        target = posixpath.join(posixpath.dirname(url), example["externalValue"])
        assert response.status_code == 200
        assert client.get(target).data == response.data
        return
    status, answer = openapi_examples.answer(client, method.upper(), url, body)
    assert status == 200, (operation_id, answer)
    assert answer == example["value"], f"{operation_id}: openapi.yaml's example answer is not the service's answer " \
                                       "(run python -m tools.openapi_examples --write)"


def test_each_request_example_passes_the_request_validator():
    components = {"/v1/adjudicate": "AdjudicateRequest", "/v1/deal": "DealRequest", "/v1/games": "GameStartRequest",
                  "/v1/scoresheet": "ScoreSheetRequest", "/v1/melds/check": "MeldCheckRequest",
                  "/v1/replay": "ReplayRequest", "/v1/legal-actions": "LegalActionsRequest",
                  "/v1/tournaments": "TournamentRequest", "/v1/views": "ViewRequest",
                  "/v1/notation": "NotationRequest"}
    checked = 0
    for path, method, op in _operations():
        for example in op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("examples", {}).values():
            openapi.validate(components[path], _resolve(example)["value"])
            checked += 1
    assert checked >= len(components)


def test_every_event_is_documented_as_its_own_schema():
    schemas = DOC["components"]["schemas"]
    union = schemas["Event"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type"
    assert {cls.type for cls in events.EVENT_TYPES} == set(mapping)
    assert len(union["oneOf"]) == len(events.EVENT_TYPES)
    for cls in events.EVENT_TYPES:
        schema = _resolve({"$ref": mapping[cls.type]})
        assert {"$ref": mapping[cls.type]} in union["oneOf"]
        assert schema["properties"]["type"] == {"const": cls.type}
        names = [f.name for f in dataclasses.fields(cls)]
        assert set(schema["properties"]) == {"type", *names}, cls.__name__
        assert set(schema["required"]) == {"type", *(n for n in names if n not in cls.optional)}, cls.__name__


def test_action_unions_are_discriminated_by_type():
    schemas = DOC["components"]["schemas"]
    for name in ("Action", "Step", "GameOrHandAction"):
        union = schemas[name]
        assert union["discriminator"]["propertyName"] == "type"
        for value, ref in union["discriminator"]["mapping"].items():
            assert {"$ref": ref} in union["oneOf"], (name, value)
            type_schema = _resolve({"$ref": ref})["properties"]["type"]
            assert type_schema.get("const") == value or value in type_schema.get("enum", []), (name, value)
        assert len(set(union["discriminator"]["mapping"].values())) == len(union["oneOf"]), name


def test_no_union_has_an_inline_object_branch():
    def walk(node, where):
        if isinstance(node, dict):
            for key in ("oneOf", "anyOf"):
                for i, branch in enumerate(node.get(key, [])):
                    assert "$ref" in branch or (branch.get("type") != "object" and "properties" not in branch), \
                        f"{where}/{key}/{i} is an inline object: name it under components/schemas"
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")
    walk(DOC["paths"], "#/paths")
    walk(DOC["components"]["schemas"], "#/components/schemas")
