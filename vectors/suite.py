"""Loading the vector files and checking an answer against a vector's expectations."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent
_MISSING = object()


@dataclass(frozen=True)
class Vector:
    file: str
    data: dict

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def variant(self) -> str:
        return self.data["request"]["variant"]

    @property
    def endpoint(self) -> str:
        return self.data["endpoint"]

    @property
    def expected(self) -> dict:
        return self.data["expected"]


def vector_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in root.glob("*/*.json"))


def load_vectors(root: Path = ROOT, variants: set[str] | None = None) -> list[Vector]:
    out = []
    for path in vector_files(root):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for v in doc["vectors"]:
            vec = Vector(str(path.relative_to(root)), v)
            if variants is None or vec.variant in variants:
                out.append(vec)
    return out


def resolve(doc: Any, pointer: str) -> Any:
    if pointer == "":
        return doc
    node = doc
    for raw in pointer.lstrip("/").split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if token not in node:
                return _MISSING
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return _MISSING
            node = node[int(token)]
        else:
            return _MISSING
    return node


@dataclass(frozen=True)
class Difference:
    pointer: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        actual = "(absent)" if self.actual is _MISSING else json.dumps(self.actual)
        return f"at {self.pointer or '/'}: expected {json.dumps(self.expected)}, got {actual}"


def _subset(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    return expected == actual


def compare(vector: Vector, status: int, body: Any) -> list[Difference]:
    """Every way the answer (status, body) departs from the vector's expectations."""
    exp = vector.expected
    diffs: list[Difference] = []
    want_status = exp.get("status", 200)
    if status != want_status:
        return [Difference("(status)", want_status, status)]
    if status >= 400:
        pointers = [e.get("pointer") for e in (body or {}).get("errors", [])] if isinstance(body, dict) else []
        for p in exp.get("problems", []):
            if p not in pointers:
                diffs.append(Difference("/errors", f"a problem at {p}", pointers))
        return diffs
    if "legal" in exp and resolve(body, "/legal") != exp["legal"]:
        diffs.append(Difference("/legal", exp["legal"], resolve(body, "/legal")))
    if "violations" in exp:
        got = [v.get("clause") for v in body.get("violations", [])]
        if got != exp["violations"]:
            diffs.append(Difference("/violations", exp["violations"], got))
    if "step" in exp:
        got = resolve(body, "/violations/0/step")
        if got != exp["step"]:
            diffs.append(Difference("/violations/0/step", exp["step"], got))
    if "ambiguous" in exp:
        got = bool(resolve(body, "/violations/0/ambiguous") is True or resolve(body, "/ambiguous") is True)
        if got != exp["ambiguous"]:
            diffs.append(Difference("/violations/0/ambiguous", exp["ambiguous"], got))
    for ptr, value in exp.get("state", {}).items():
        got = resolve(body, "/state" + ptr)
        if got != value:
            diffs.append(Difference("/state" + ptr, value, got))
    for ptr, value in exp.get("response", {}).items():
        got = resolve(body, ptr)
        if got != value:
            diffs.append(Difference(ptr, value, got))
    if "result" in exp:
        got = resolve(body, "/result")
        if got != exp["result"]:
            diffs.append(Difference("/result", exp["result"], got))
    if "events" in exp:
        events = body.get("events", [])
        pos = 0
        for want in exp["events"]:
            while pos < len(events) and not _subset(want, events[pos]):
                pos += 1
            if pos == len(events):
                diffs.append(Difference("/events", want, events))
                break
            pos += 1
    return diffs


def iter_clause_citations(vectors: list[Vector]) -> Iterator[tuple[str, Vector]]:
    for v in vectors:
        for c in v.data["clauses"]:
            yield c, v
