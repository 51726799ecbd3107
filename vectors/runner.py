"""The conformance runner: run the vector suite against a Kalooki implementation.

    kalooki-conformance                                     # in-process, this referee
    kalooki-conformance --base-url http://127.0.0.1:8000    # any server speaking the API
    kalooki-conformance --variant <id> --coverage           # one variant, with clause coverage
    kalooki-conformance --jsonl report.jsonl --junit report.xml
    kalooki-conformance --vectors DIR                       # the vectors of an export (or another copy)
    kalooki-conformance export DIR                          # write plain self-contained vectors
    kalooki-conformance ids                                 # list the vectors' ids
    ... --id 'british.draw.*' --topic T --clause 'build.*' --endpoint E --decision D   # select vectors

The runner first asks the target what it supports (``GET /v1/capabilities``: implementation name
and version, variants, endpoints, vector suite version); it runs every vector of a supported variant
and endpoint and skips the others with the reason.  A failure prints the first difference as a
JSON pointer with the expected and the actual value.  It prints the pass, fail, error and skip
counts, optionally writes one JSON object per vector (JSON Lines) and a JUnit XML report, and exits
1 when anything fails or errors (2 when the target cannot be reached at all, or when the selection
takes no vector: a run, an export or a listing of nothing is a mistake, not a success).  The default
in-process target needs the ``server`` extra; ``--base-url`` uses the standard library only.

``export DIR`` writes the suite as plain self-contained vectors, inheritance resolved, with a
manifest, the schema, a README and the comparison rules (``vectors/export.py``).  The selection
options take part of the suite in the run, the export and ``ids`` alike.
"""
from __future__ import annotations

import os

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable
from xml.etree import ElementTree as ET

from .coverage import coverage, format_report
from pathlib import Path

from .build import SUITE
from .export import export
from .suite import ROOT, Selection, Vector, compare, load_vectors

if TYPE_CHECKING:
    from flask import Flask

Poster = Callable[[str, dict[str, Any]], tuple[int, Any]]
Getter = Callable[[str], tuple[int, Any]]


@dataclass(frozen=True)
class Target:
    post: Poster
    get: Getter
    name: str


class NoServer(RuntimeError):
    """The in-process target needs the web layer, which the base install leaves out."""


def in_process_target(app: Flask | None = None) -> Target:
    if app is None:
        try:
            from kalooki_referee.api import create_app
        except ImportError as exc:
            raise NoServer(f"the in-process run needs the service ({exc.name} is missing): install "
                           "kalooki-referee[server], or run against a server with --base-url URL") from exc
        # in-process, the app's JSON request log would flood the runner's own output: it goes nowhere;
        # and the one caller is no client among others, so no share of the workers' time is kept for it
        app = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb"), "KALOOKI_CLIENT_RATE": 0})
    client = app.test_client()

    def post(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        r = client.post(path, json=body)
        return r.status_code, r.get_json(silent=True)

    def get(path: str) -> tuple[int, Any]:
        r = client.get(path)
        return r.status_code, r.get_json(silent=True)
    return Target(post, get, "in-process")


def in_process_poster() -> Poster:
    return in_process_target().post


def http_target(base_url: str, timeout: float = 30.0) -> Target:
    base = base_url.rstrip("/")

    def call(req: urllib.request.Request) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                return err.code, json.loads(raw or b"null")
            except ValueError:
                return err.code, None

    def post(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        return call(urllib.request.Request(base + path, data=json.dumps(body).encode("utf-8"), method="POST",
                                           headers={"Content-Type": "application/json", "Accept": "application/json"}))

    def get(path: str) -> tuple[int, Any]:
        return call(urllib.request.Request(base + path, headers={"Accept": "application/json"}))
    return Target(post, get, base)


def http_poster(base_url: str, timeout: float = 30.0) -> Poster:
    return http_target(base_url, timeout).post


def run_vector(post: Poster, vector: Vector) -> tuple[str, str]:
    """("pass" | "fail" | "error", detail)."""
    try:
        status, body = post("/v1/" + vector.endpoint, vector.data["request"])
    except Exception as exc:  # network trouble: an error, not a failure
        return "error", f"{type(exc).__name__}: {exc}"
    if status >= 500:
        return "error", f"the target answered {status}"
    diffs = compare(vector, status, body)
    if diffs:
        return "fail", str(diffs[0]) + (f" (+{len(diffs) - 1} more)" if len(diffs) > 1 else "")
    return "pass", ""


def capabilities(target: Target) -> dict[str, Any]:
    status, body = target.get("/v1/capabilities")
    if status != 200 or not isinstance(body, dict):
        raise RuntimeError(f"GET /v1/capabilities answered {status}")
    return body


def skip_reason(vector: Vector, caps: dict[str, Any], skip_decisions: frozenset[str] = frozenset()) -> str | None:
    if vector.data.get("decision") in skip_decisions:
        return f"depends on the referee's ruling {vector.data['decision']}, which the target does not share"
    if vector.variant not in caps.get("variants", []):
        return f"variant {vector.variant} not supported by the target"
    endpoints = caps.get("endpoints")
    if endpoints is not None and vector.endpoint not in endpoints:
        return f"endpoint {vector.endpoint} not supported by the target"
    return None


@dataclass(frozen=True)
class Outcome:
    vector: Vector
    outcome: str  # pass, fail, error, skip
    detail: str
    seconds: float


def run_suite(target: Target, vectors: list[Vector], caps: dict[str, Any],
              skip_decisions: frozenset[str] = frozenset()) -> list[Outcome]:
    out = []
    for vec in vectors:
        reason = skip_reason(vec, caps, skip_decisions)
        if reason:
            out.append(Outcome(vec, "skip", reason, 0.0))
            continue
        t0 = time.perf_counter()
        outcome, detail = run_vector(target.post, vec)
        out.append(Outcome(vec, outcome, detail, time.perf_counter() - t0))
    return out


def write_jsonl(path: str, outcomes: list[Outcome]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for o in outcomes:
            fh.write(json.dumps({"id": o.vector.id, "file": o.vector.file, "variant": o.vector.variant,
                                 "clauses": o.vector.data["clauses"], "outcome": o.outcome, "detail": o.detail,
                                 "seconds": round(o.seconds, 6)}, sort_keys=True) + "\n")


def write_junit(path: str, outcomes: list[Outcome], caps: dict[str, Any]) -> None:
    impl = caps.get("implementation", {})
    suite = ET.Element("testsuite", {
        "name": f"{SUITE} against {impl.get('name', '?')} {impl.get('version', '')}".strip(),
        "tests": str(len(outcomes)),
        "failures": str(sum(o.outcome == "fail" for o in outcomes)),
        "errors": str(sum(o.outcome == "error" for o in outcomes)),
        "skipped": str(sum(o.outcome == "skip" for o in outcomes)),
        "time": f"{sum(o.seconds for o in outcomes):.6f}"})
    for o in outcomes:
        case = ET.SubElement(suite, "testcase", {"classname": o.vector.file.replace("/", ".").removesuffix(".json"),
                                                 "name": o.vector.id, "time": f"{o.seconds:.6f}"})
        if o.outcome in ("fail", "error", "skip"):
            tag = {"fail": "failure", "error": "error", "skip": "skipped"}[o.outcome]
            ET.SubElement(case, tag, {"message": o.detail})
    root = ET.Element("testsuites")
    root.append(suite)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def add_selection(parser: argparse.ArgumentParser) -> None:
    """The options that select vectors (the same for a run, an export and a listing of ids)."""
    group = parser.add_argument_group("selection", "each option is repeatable (any of its values matches); "
                                                   "a vector is taken when every option given matches")
    group.add_argument("--id", action="append", default=[], metavar="GLOB",
                       help="vectors whose id matches this shell-style pattern, e.g. 'british.draw.*'")
    group.add_argument("--topic", action="append", default=[], help="vectors of this topic (the file's name: draw, builds...)")
    group.add_argument("--clause", action="append", default=[], metavar="GLOB",
                       help="vectors that cite this clause or expect its violation (a pattern: 'build.*')")
    group.add_argument("--endpoint", action="append", default=[], help="vectors of this endpoint (adjudicate, melds/check...)")
    group.add_argument("--decision", action="append", default=[],
                       help="vectors that depend on this referee ruling (dec.*); 'none': those that depend on none")
    group.add_argument("--variant", action="append", default=[], help="vectors run under this variant")


def selection_of(args: argparse.Namespace) -> Selection:
    return Selection(ids=tuple(args.id), topics=tuple(args.topic), clauses=tuple(args.clause),
                     endpoints=tuple(args.endpoint), decisions=tuple(args.decision), variants=tuple(args.variant))


def selected(root: Path, selection: Selection) -> list[Vector]:
    """The vectors the selection takes; SystemExit(2) with a one-line message when it takes none."""
    vectors = load_vectors(root, selection=selection)
    if not vectors:
        print(f"kalooki-conformance: no vector of {root} matches the selection {selection.to_dict()}", file=sys.stderr)
        raise SystemExit(2)
    return vectors


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="kalooki-conformance export",
                                     description="Write the suite as plain self-contained vectors (inheritance resolved): "
                                                 "DIR/<variant>/<topic>.json (a header, then one vector a line), "
                                                 "DIR/manifest.json, the schema, a README and the comparison rules.")
    parser.add_argument("directory", type=Path, help="where to write the vectors")
    parser.add_argument("--vectors", type=Path, default=ROOT, help="the suite to export (default: this package's)")
    add_selection(parser)
    args = parser.parse_args(argv)
    selected(args.vectors, selection_of(args))
    count = export(args.directory, args.vectors, selection_of(args))
    print(f"exported {count} vectors to {args.directory}")
    return 0


def ids_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="kalooki-conformance ids",
                                     description="Print the id of every vector the selection takes, one a line, sorted "
                                                 "(a release's list: vectors/released-ids/<version>.txt).")
    parser.add_argument("--vectors", type=Path, default=ROOT, help="the suite to list (default: this package's)")
    add_selection(parser)
    args = parser.parse_args(argv)
    for vid in sorted(v.id for v in selected(args.vectors, selection_of(args))):
        print(vid)
    return 0


def main(argv: list[str] | None = None, target: Target | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["export"]:
        return export_main(argv[1:])
    if argv[:1] == ["ids"]:
        return ids_main(argv[1:])
    parser = argparse.ArgumentParser(description="Run the Kalooki referee's conformance vectors against an implementation "
                                                 "(the default command), write them out (kalooki-conformance export DIR) "
                                                 "or list their ids (kalooki-conformance ids).")
    parser.add_argument("--base-url", help="a running implementation, e.g. http://127.0.0.1:8000 (default: in-process)")
    parser.add_argument("--vectors", type=Path, default=ROOT,
                        help="the suite to run: a grouped suite or an export's directory (default: this package's)")
    parser.add_argument("--coverage", action="store_true", help="print clause coverage per variant")
    parser.add_argument("--jsonl", help="write one JSON object per vector to this file")
    parser.add_argument("--junit", help="write a JUnit XML report to this file")
    parser.add_argument("--skip-decision", action="append", default=[], metavar="DECISION",
                        help="skip vectors that depend on this referee ruling (repeatable)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list passing and skipped vectors too")
    add_selection(parser)
    args = parser.parse_args(argv)
    vectors = selected(args.vectors, selection_of(args))
    if target is None:
        try:
            target = http_target(args.base_url) if args.base_url else in_process_target()
        except NoServer as exc:
            print(f"kalooki-conformance: {exc}", file=sys.stderr)
            return 2
    try:
        caps = capabilities(target)
    except Exception as exc:
        print(f"cannot ask {target.name} what it supports: {exc}", file=sys.stderr)
        return 2
    impl = caps.get("implementation", {})
    suite_version = (caps.get("vector_suite") or {}).get("version")
    print(f"target: {impl.get('name')} {impl.get('version')} at {target.name}; "
          f"claims vector suite {suite_version}; variants: {', '.join(caps.get('variants', []))}")
    outcomes = run_suite(target, vectors, caps, frozenset(args.skip_decision))
    for o in outcomes:
        if o.outcome in ("fail", "error") or (args.verbose and o.outcome in ("pass", "skip")):
            print(f"{o.outcome.upper():5} {o.vector.id} [{o.vector.file}] {o.detail}".rstrip())
    if args.jsonl:
        write_jsonl(args.jsonl, outcomes)
    if args.junit:
        write_junit(args.junit, outcomes, caps)
    if args.coverage:
        for variant in sorted({v.variant for v in vectors}):
            print(format_report(coverage(vectors, variant), variant))
    counts = {k: sum(o.outcome == k for o in outcomes) for k in ("pass", "fail", "error", "skip")}
    print(f"vectors: {counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors, {counts['skip']} skipped")
    return 0 if counts["fail"] == 0 and counts["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
