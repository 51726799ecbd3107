"""The conformance runner: run the vector suite against a Kalooki implementation.

    kalooki-conformance                                     # in-process, this referee
    kalooki-conformance --base-url http://127.0.0.1:8000    # any server speaking the API
    kalooki-conformance --variant <id> --coverage           # one variant, with clause coverage
    kalooki-conformance --jsonl report.jsonl --junit report.xml
    kalooki-conformance --vectors DIR                       # the vectors of an export (or another copy)
    kalooki-conformance export DIR                          # write plain self-contained vectors

The runner first asks the target what it supports (``GET /v1/capabilities``: implementation name
and version, variants, endpoints, vector suite version); it runs every vector of a supported variant
and endpoint and skips the others with the reason.  A failure prints the first difference as a
JSON pointer with the expected and the actual value.  It prints the pass, fail, error and skip
counts, optionally writes one JSON object per vector (JSON Lines) and a JUnit XML report, and exits
1 when anything fails or errors (2 when the target cannot be reached at all).

``export DIR`` writes the suite as plain self-contained vectors, inheritance resolved: one JSON
object per line (a vector with its whole request and expected answer) in ``DIR/<variant>/<topic>.jsonl``.
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

from .suite import ROOT, Vector, compare, load_vectors

if TYPE_CHECKING:
    from flask import Flask

Poster = Callable[[str, dict[str, Any]], tuple[int, Any]]
Getter = Callable[[str], tuple[int, Any]]
SUITE = "kalooki-referee-vectors"


@dataclass(frozen=True)
class Target:
    post: Poster
    get: Getter
    name: str


def in_process_target(app: Flask | None = None) -> Target:
    if app is None:
        from kalooki_referee.api import create_app
        # in-process, the app's JSON request log would flood the runner's own output: it goes nowhere
        app = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb")})
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


def export(directory: Path, root: Path = ROOT) -> int:
    """Write every vector of the suite at ``root``, inheritance resolved, as one JSON object per line
    in ``directory/<variant>/<topic>.jsonl``; the number of vectors written."""
    by_file: dict[str, list[Vector]] = {}
    for vec in load_vectors(root):
        by_file.setdefault(vec.file.rsplit(".", 1)[0] + ".jsonl", []).append(vec)
    for name, vectors in by_file.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(v.data, ensure_ascii=False, separators=(",", ":")) + "\n" for v in vectors),
                        encoding="utf-8")
    return sum(len(v) for v in by_file.values())


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="kalooki-conformance export",
                                     description="Write the suite as plain self-contained vectors (inheritance resolved), "
                                                 "one JSON object per line in DIR/<variant>/<topic>.jsonl.")
    parser.add_argument("directory", type=Path, help="where to write the vectors")
    parser.add_argument("--vectors", type=Path, default=ROOT, help="the suite to export (default: this package's)")
    args = parser.parse_args(argv)
    count = export(args.directory, args.vectors)
    print(f"exported {count} vectors to {args.directory}")
    return 0


def main(argv: list[str] | None = None, target: Target | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["export"]:
        return export_main(argv[1:])
    parser = argparse.ArgumentParser(description="Run the Kalooki referee's conformance vectors against an implementation "
                                                 "(the default command), or write them out (kalooki-conformance export DIR).")
    parser.add_argument("--base-url", help="a running implementation, e.g. http://127.0.0.1:8000 (default: in-process)")
    parser.add_argument("--variant", action="append", help="only this variant (repeatable)")
    parser.add_argument("--vectors", type=Path, default=ROOT,
                        help="the suite to run: a grouped suite or an export's directory (default: this package's)")
    parser.add_argument("--coverage", action="store_true", help="print clause coverage per variant")
    parser.add_argument("--jsonl", help="write one JSON object per vector to this file")
    parser.add_argument("--junit", help="write a JUnit XML report to this file")
    parser.add_argument("--skip-decision", action="append", default=[], metavar="DECISION",
                        help="skip vectors that depend on this referee ruling (repeatable)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list passing and skipped vectors too")
    args = parser.parse_args(argv)
    if target is None:
        target = http_target(args.base_url) if args.base_url else in_process_target()
    try:
        caps = capabilities(target)
    except Exception as exc:
        print(f"cannot ask {target.name} what it supports: {exc}", file=sys.stderr)
        return 2
    impl = caps.get("implementation", {})
    suite_version = (caps.get("vector_suite") or {}).get("version")
    print(f"target: {impl.get('name')} {impl.get('version')} at {target.name}; "
          f"claims vector suite {suite_version}; variants: {', '.join(caps.get('variants', []))}")
    vectors = load_vectors(args.vectors, variants=set(args.variant) if args.variant else None)
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
