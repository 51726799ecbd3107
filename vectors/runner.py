"""Run the vector suite against the referee, in-process or over HTTP.

    python -m vectors.runner                      # in-process (the Flask app)
    python -m vectors.runner --base-url http://127.0.0.1:8000
    python -m vectors.runner --variant british --coverage

Prints one line per failing vector with the first difference (a JSON pointer, the expected and the
actual value), then the counts; exits 1 if any vector fails or errors.
"""
from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from typing import Any, Callable

from .coverage import coverage, format_report
from .suite import Vector, compare, load_vectors

Poster = Callable[[str, dict], tuple[int, Any]]


def in_process_poster() -> Poster:
    from api import create_app
    client = create_app().test_client()

    def post(path: str, body: dict) -> tuple[int, Any]:
        r = client.post(path, json=body)
        return r.status_code, r.get_json(silent=True)
    return post


def http_poster(base_url: str, timeout: float = 30.0) -> Poster:
    base = base_url.rstrip("/")

    def post(path: str, body: dict) -> tuple[int, Any]:
        req = urllib.request.Request(base + path, data=json.dumps(body).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                return err.code, json.loads(raw or b"null")
            except ValueError:
                return err.code, None
    return post


def run_vector(post: Poster, vector: Vector) -> tuple[str, str]:
    """("pass" | "fail" | "error", detail)."""
    try:
        status, body = post("/v1/" + vector.endpoint, vector.data["request"])
    except Exception as exc:  # network trouble: an error, not a failure
        return "error", f"{type(exc).__name__}: {exc}"
    diffs = compare(vector, status, body)
    if diffs:
        return "fail", str(diffs[0]) + (f" (+{len(diffs) - 1} more)" if len(diffs) > 1 else "")
    return "pass", ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Kalooki referee's test vectors.")
    parser.add_argument("--base-url", help="a running referee, e.g. http://127.0.0.1:8000 (default: in-process)")
    parser.add_argument("--variant", action="append", help="only this variant (repeatable)")
    parser.add_argument("--coverage", action="store_true", help="print clause coverage per variant")
    parser.add_argument("-v", "--verbose", action="store_true", help="list passing vectors too")
    args = parser.parse_args(argv)
    post = http_poster(args.base_url) if args.base_url else in_process_poster()
    vectors = load_vectors(variants=set(args.variant) if args.variant else None)
    counts = {"pass": 0, "fail": 0, "error": 0}
    for vec in vectors:
        outcome, detail = run_vector(post, vec)
        counts[outcome] += 1
        if outcome != "pass" or args.verbose:
            print(f"{outcome.upper():5} {vec.id} [{vec.file}] {detail}".rstrip())
    if args.coverage:
        for variant in sorted({v.variant for v in vectors}):
            print(format_report(coverage(vectors, variant), variant))
    print(f"vectors: {counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors")
    return 0 if counts["fail"] == 0 and counts["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
