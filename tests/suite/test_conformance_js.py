"""The second runner (tools/conformance-js/, JavaScript, written from docs/conformance.md) agrees with
the Python runner: its own unit tests pass (node's test runner), and, slow, over an export of the whole
suite it passes every vector against the referee (as the Python runner does), and against a referee
that answers most requests wrongly (a test-only hook that corrupts answers in several ways, chosen by a hash of the
request) both fail, error and pass exactly the same vectors, at the same first difference."""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from flask import request

from kalooki_referee.api import create_app
from kalooki_referee.vectors import runner
from kalooki_referee.vectors.export import export
from kalooki_referee.vectors.suite import Selection
from tests.support.helpers import serving

JS = Path(__file__).resolve().parents[2] / "tools" / "conformance-js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node (18 or later) is not installed")


@needs_node
def test_the_javascript_comparison_rules_pass_their_own_tests():
    done = subprocess.run([NODE, "--test", "test/"], cwd=JS, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout


@needs_node
def test_the_javascript_runner_refuses_an_unknown_option_and_an_empty_selection(tmp_path):
    def run(*args):
        return subprocess.run([NODE, str(JS / "runner.mjs"), *args], capture_output=True, text=True, timeout=60)
    done = run("--base-url", "http://127.0.0.1:9", "--vectors", str(tmp_path), "--no-such-option")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--no-such-option" in done.stderr and "usage:" in done.stderr
    # a selection that takes nothing fails before the target is asked anything (none listens on port 9)
    export(tmp_path, selection=Selection(variants=("denexa_caloochi",), topics=("draw",)))
    done = run("--base-url", "http://127.0.0.1:9", "--vectors", str(tmp_path), "--id", "no.such.vector.*")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "matches the selection" in done.stderr, done
    # the same export, selected, does run (and here, with nothing listening, cannot reach the target)
    done = run("--base-url", "http://127.0.0.1:9", "--vectors", str(tmp_path), "--id", "denexa_caloochi.*")
    assert done.returncode == 2 and "cannot ask" in done.stderr


def _plain(value):
    """The request as both runners send it, whatever their number formatting (1.0 and 1 alike; an
    integer beyond 2**53 as JavaScript reads it, rounded to the nearest double)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        try:
            return int(float(value))
        except OverflowError:  # beyond any double: JavaScript reads it as Infinity, which JSON cannot send
            return value
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def corruption(raw: bytes) -> int:
    """Which way an answer is broken (0 to 6; 7: not at all), from the request alone."""
    try:
        sent = json.dumps(_plain(json.loads(raw)), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return 7
    return int(hashlib.sha256(sent.encode()).hexdigest(), 16) % 8


def corrupting_app():
    """The referee, except that most answers are broken, each in one way chosen by a hash of its
    request: the verdict's legality (to a number, where `true` must not equal `1`), an event dropped,
    a violation dropped, who acts next, the result, the problem's type, a 500; one in eight is left alone."""
    app = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb")})
    inner = app.wsgi_app

    def hashed(environ, start_response):  # the body is read here first: the app consumes its stream
        raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
        environ["wsgi.input"] = io.BytesIO(raw)
        environ["test.corruption"] = corruption(raw)
        return inner(environ, start_response)
    app.wsgi_app = hashed

    @app.after_request
    def corrupt(response):
        if request.method != "POST" or not request.path.startswith("/v1/"):
            return response
        kind = request.environ["test.corruption"]
        body = response.get_json(silent=True)
        if not isinstance(body, dict) or kind == 7:
            return response
        if kind == 0 and "legal" in body:
            body["legal"] = {True: 1, False: True, None: False}[body["legal"]]
        elif kind == 1 and body.get("events"):
            body["events"] = body["events"][:-1]
        elif kind == 2 and body.get("violations"):
            body["violations"] = body["violations"][1:]
        elif kind == 3 and isinstance(body.get("state"), dict):
            body["state"]["to_act"] = "nobody"
        elif kind == 4 and "result" in body:
            body["result"] = None if body["result"] is not None else {"winner": "nobody"}
        elif kind == 5 and isinstance(body.get("type"), str):
            body["type"] = body["type"].rsplit("/", 1)[0] + "/something-else"
        elif kind == 6:
            response.status_code = 500
        response.set_data(json.dumps(body))
        return response
    return app


def _report(path: Path) -> dict[str, tuple[str, str | None]]:
    """By vector id: the outcome and, for a failure, the pointer of the first difference."""
    out = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        pointer = row["detail"].split(": expected", 1)[0].removeprefix("at ") if row["outcome"] == "fail" else None
        out[row["id"]] = (row["outcome"], pointer)
    return out


def _both(url: str, vectors: Path, tmp: Path, name: str) -> tuple[dict, dict]:
    runner.main(["--base-url", url, "--vectors", str(vectors), "--jsonl", str(tmp / f"{name}-py.jsonl")])
    done = subprocess.run([NODE, str(JS / "runner.mjs"), "--base-url", url, "--vectors", str(vectors),
                           "--jsonl", str(tmp / f"{name}-js.jsonl")], capture_output=True, text=True, timeout=1200)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith("vectors: ")
    return _report(tmp / f"{name}-py.jsonl"), _report(tmp / f"{name}-js.jsonl")


@pytest.mark.slow
@needs_node
def test_both_runners_agree_on_every_vector_right_and_wrong_answers_alike(tmp_path, capsys):
    vectors = tmp_path / "export"
    count = export(vectors)
    with serving(create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb")})) as url:  # (the Python runner passes them all: tests/suite/test_conformance.py)
        done = subprocess.run([NODE, str(JS / "runner.mjs"), "--base-url", url, "--vectors", str(vectors),
                               "--jsonl", str(tmp_path / "referee-js.jsonl")], capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    javascript = _report(tmp_path / "referee-js.jsonl")
    assert len(javascript) == count and {outcome for outcome, _ in javascript.values()} == {"pass"}

    with serving(corrupting_app()) as url:
        python, javascript = _both(url, vectors, tmp_path, "corrupt")
    capsys.readouterr()
    assert len(python) == count
    differ = {vid: (python[vid], javascript.get(vid)) for vid in python if python[vid] != javascript.get(vid)}
    assert differ == {}, list(differ.items())[:5]
    outcomes = [outcome for outcome, _ in python.values()]
    # the broken answers are caught, each kind of break by both runners at the same place
    pointers = {pointer for outcome, pointer in python.values() if outcome == "fail"}
    assert {"/legal", "/events", "/violations", "/state/to_act", "/type"} <= pointers, pointers
    assert outcomes.count("error") > count / 20 and outcomes.count("fail") > count / 10 and outcomes.count("pass") > count / 3
