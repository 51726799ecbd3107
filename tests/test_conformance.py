"""The conformance runner against real HTTP servers: the referee itself passes every vector; a
deliberately wrong implementation (the referee with one rule altered) fails exactly the vectors of
that clause, with a readable first difference; unsupported variants are skipped with a reason; the
JSON Lines and JUnit reports are written."""
from __future__ import annotations

import dataclasses
import json
from xml.etree import ElementTree as ET

import pytest

from kalooki_referee.api import create_app
import kalooki_referee.rules.variant as variant_module
from kalooki_referee.vectors import runner
from kalooki_referee.vectors.suite import load_vectors
from tests.helpers import serving


def test_the_referee_passes_every_vector_over_http(tmp_path, capsys):
    with serving(create_app()) as url:
        code = runner.main(["--base-url", url, "--jsonl", str(tmp_path / "r.jsonl"), "--junit", str(tmp_path / "r.xml")])
    out = capsys.readouterr().out
    assert code == 0, out
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(lines) == len(load_vectors()) and all(x["outcome"] == "pass" for x in lines)
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    assert suite.get("tests") == str(len(lines)) and suite.get("failures") == "0"


# The wrong implementation: the referee, except that three cards may go on one end of a run in a turn.
ALTERED_CLAUSE = "build.run_max_two_per_end_per_turn"


@pytest.fixture
def three_per_end(monkeypatch):
    real = variant_module.load_rules

    def altered(params):
        typed, errors = real(params)
        if typed is not None and typed.building.max_per_run_end_per_turn == 2:
            typed = dataclasses.replace(typed, building=dataclasses.replace(typed.building, max_per_run_end_per_turn=3))
        return typed, errors
    monkeypatch.setattr(variant_module, "load_rules", altered)
    variant_module._load_variant.cache_clear()
    variant_module._RESOLVED.clear()
    yield
    monkeypatch.undo()
    variant_module._load_variant.cache_clear()
    variant_module._RESOLVED.clear()


def test_a_wrong_implementation_fails_exactly_the_vectors_of_the_altered_rule(three_per_end, tmp_path, capsys):
    victims = {v.id for v in load_vectors() if ALTERED_CLAUSE in v.expected.get("violations", [])}
    assert victims, "the suite has no vector where that rule is broken"
    with serving(create_app()) as url:
        code = runner.main(["--base-url", url, "--jsonl", str(tmp_path / "r.jsonl")])
    out = capsys.readouterr().out
    assert code == 1
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    failed = {x["id"] for x in lines if x["outcome"] == "fail"}
    assert failed == victims
    # the first difference is readable: a pointer, what was expected and what came back
    for vid in victims:
        line = next(x for x in out.splitlines() if vid in x)
        assert line.startswith("FAIL") and " at /" in line and "expected" in line and ", got " in line


def test_unsupported_variants_and_endpoints_are_skipped_with_a_reason(capsys):
    real = runner.in_process_target()

    def get(path):
        status, body = real.get(path)
        if path == "/v1/capabilities":
            body = {**body, "variants": [], "endpoints": ["adjudicate"]}
        return status, body
    target = runner.Target(real.post, get, "restricted")
    code = runner.main([], target=target)
    out = capsys.readouterr().out
    assert code == 0
    assert f"0 passed, 0 failed, 0 errors, {len(load_vectors())} skipped" in out
    outcomes = runner.run_suite(target, load_vectors(), {"variants": ["british"], "endpoints": ["adjudicate"]})
    skipped = [o for o in outcomes if o.outcome == "skip"]
    for o in skipped:
        if o.vector.variant == "british":
            assert "endpoint" in o.detail and o.vector.endpoint != "adjudicate"
        else:
            assert "variant" in o.detail
    assert any(o.vector.variant == "british" for o in skipped) and any(o.vector.variant != "british" for o in skipped)
    assert all(o.outcome == "pass" for o in outcomes if o.vector.variant == "british" and o.vector.endpoint == "adjudicate")


def test_an_unreachable_target_exits_2(capsys):
    assert runner.main(["--base-url", "http://127.0.0.1:9"]) == 2
