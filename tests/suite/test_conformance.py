"""The conformance runner.  Slow (each walks the whole suite again, over a real HTTP server): the
referee itself passes every vector, and passes the exported plain vectors exactly as it passes the
grouped ones; a deliberately wrong implementation (the referee with one rule altered) fails exactly
the vectors of that clause, with a readable first difference; the JSON Lines and JUnit reports are
written.  Quick: unsupported variants and endpoints are skipped with a reason; an unreachable
target exits 2; the default command and the export subcommand are parsed apart."""
from __future__ import annotations

import dataclasses
import json
from xml.etree import ElementTree as ET

import pytest

from kalooki_referee.api import create_app
import kalooki_referee.rules.wire.variant as variant_module
from kalooki_referee.vectors import runner
from kalooki_referee.vectors.suite import load_vectors
from tests.support.helpers import serving


@pytest.mark.slow
def test_the_referee_passes_every_vector_over_http_grouped_and_exported_alike(tmp_path, capsys):
    assert runner.main(["export", str(tmp_path / "plain")]) == 0
    with serving(create_app()) as url:
        code = runner.main(["--base-url", url, "--jsonl", str(tmp_path / "r.jsonl"), "--junit", str(tmp_path / "r.xml")])
        plain = runner.main(["--base-url", url, "--vectors", str(tmp_path / "plain"), "--jsonl", str(tmp_path / "p.jsonl")])
    out = capsys.readouterr().out
    assert code == 0 and plain == 0, out
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert len(lines) == len(load_vectors()) and all(x["outcome"] == "pass" for x in lines)
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    assert suite.get("tests") == str(len(lines)) and suite.get("failures") == "0"
    exported = [json.loads(x) for x in (tmp_path / "p.jsonl").read_text().splitlines()]
    assert {x["id"]: x["outcome"] for x in exported} == {x["id"]: x["outcome"] for x in lines}


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


@pytest.mark.slow
def test_a_wrong_implementation_fails_exactly_the_vectors_of_the_altered_rule(three_per_end, tmp_path, capsys):
    # the vectors where that rule is broken, and the listings that cite it (a listing shows every
    # action the rule allows, so a looser rule lists more)
    victims = {v.id for v in load_vectors() if ALTERED_CLAUSE in v.expected.get("violations", [])
               or (v.endpoint == "legal-actions" and ALTERED_CLAUSE in v.data["clauses"])}
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
    # one vector of each variant and endpoint is enough to see what is skipped and what is run
    sample = list({(v.variant, v.endpoint): v for v in load_vectors()}.values())
    outcomes = runner.run_suite(target, sample, {"variants": ["british"], "endpoints": ["adjudicate"]})
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


def test_export_is_a_subcommand_and_the_run_stays_the_default(tmp_path, capsys):
    assert runner.main(["export", str(tmp_path)]) == 0
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    assert "british/draw.json" in written and "swedish/inherited.json" in written and "manifest.json" in written
    first = json.loads((tmp_path / "british" / "draw.json").read_text())["vectors"][0]
    assert {"id", "endpoint", "request", "expected"} <= set(first) and first["request"]["variant"] == "british"
    # the run's options still parse without a subcommand: an unreachable target is asked first
    assert runner.main(["--base-url", "http://127.0.0.1:9", "--vectors", str(tmp_path)]) == 2


def test_an_in_process_run_prints_its_report_and_not_the_apps_request_log(capfd):
    assert runner.main(["--variant", "denexa_caloochi"]) == 0
    out, err = capfd.readouterr()
    assert "vectors:" in out and " 0 failed" in out
    assert '"event"' not in out + err  # no JSON request-log line per vector


def test_a_problem_answer_is_compared_to_its_expected_response_too():
    # a 4xx vector's `response` pointers (its /errors, say) are checked, as a 200's are
    from kalooki_referee.vectors.suite import Vector, compare
    vector = Vector("x.json", {"id": "x", "expected": {"status": 422, "problem": "impossible-state",
                                                       "problems": ["/state/stock"],
                                                       "response": {"/errors/0/detail": "one short"}}})
    body = {"type": "https://kalooki-referee.example/problems/impossible-state",
            "errors": [{"pointer": "/state/stock", "detail": "one short"}]}
    assert compare(vector, 422, body) == []
    wrong = {**body, "errors": [{"pointer": "/state/stock", "detail": "two short"}]}
    assert [str(d) for d in compare(vector, 422, wrong)] == ['at /errors/0/detail: expected "one short", got "two short"']
