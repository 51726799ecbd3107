"""Loading the vector files and checking an answer against a vector's expectations."""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent
_MISSING = object()


@dataclass(frozen=True)
class Vector:
    file: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def variant(self) -> str:
        return str(self.data["request"]["variant"])

    @property
    def endpoint(self) -> str:
        return str(self.data["endpoint"])

    @property
    def expected(self) -> dict[str, Any]:
        expected: dict[str, Any] = self.data["expected"]
        return expected


def vector_files(root: Path = ROOT) -> list[Path]:
    """The suite's files: the grouped files and the manifests (``<variant>/<topic>.json``), or the
    files of an export (``<variant>/<topic>.jsonl``)."""
    return sorted(p for p in root.glob("*/*.json")) + sorted(root.glob("*/*.jsonl"))


def plain_vectors(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The tests of a grouped file as plain self-contained vectors: each test's request is its
    group's ``variant``, ``rules`` and ``request`` with the test's own ``request`` over them."""
    for group in doc["groups"]:
        shared: dict[str, Any] = {"variant": group["variant"]}
        if "rules" in group:
            shared["rules"] = group["rules"]
        shared.update(group.get("request", {}))
        for test in group["tests"]:
            vec = {"id": test["id"], "description": test["description"], "clauses": test["clauses"],
                   "source": group["source"]}
            if group.get("decision"):
                vec["decision"] = group["decision"]
            vec.update({"endpoint": group["endpoint"], "request": {**copy.deepcopy(shared), **test.get("request", {})},
                        "expected": test["expected"]})
            yield vec


def _positions(request: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The hand states a request carries: its ``state``, or the hand of its ``game``."""
    if isinstance(request.get("state"), dict):
        yield request["state"]
    if isinstance(request.get("game"), dict) and isinstance(request["game"].get("hand"), dict):
        yield request["game"]["hand"]


def inherited_vectors(manifest: dict[str, Any], load: Callable[[str], dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The vectors an inheriting variant runs, resolved from its manifest: every test of the parent's
    listed files that no exclusion names (by id, by a clause it cites or expects, by its endpoint),
    renamed ``<variant>.<topic>.<parent id without its variant, dots as dashes>``, run under the
    variant, with the variant's extra cards at the bottom of each position's stock (of its discard
    pile where the group says ``fill: discard``).  ``load`` reads a parent file by its name."""
    spec = manifest["inherits"]
    variant, topic = manifest["variant"], manifest["topic"]
    by_id = {e["id"] for e in spec.get("exclude", [])}
    by_clause = {e["clause"] for e in spec.get("exclude_clauses", [])}
    by_endpoint = {e["endpoint"] for e in spec.get("exclude_endpoints", [])}
    extra = list(spec.get("extra_cards", []))
    for name in spec["files"]:
        doc = load(f"{spec['from']}/{name}")
        for group in doc["groups"]:
            fill = group.get("fill", "stock")
            for vec in plain_vectors({"groups": [group]}):
                cited = (set(vec["clauses"]) | set(vec["expected"].get("violations", []))
                         | set(vec["expected"].get("undetermined", [])))
                if vec["id"] in by_id or cited & by_clause or vec["endpoint"] in by_endpoint:
                    continue
                parent_id = vec["id"]
                vec["id"] = f"{variant}.{topic}.{parent_id.split('.', 1)[1].replace('.', '-')}"
                vec["description"] += f" (Inherited from {parent_id}.)"
                vec["request"]["variant"] = variant
                for position in _positions(vec["request"]):
                    if fill == "stock" and "stock_hidden" in position:  # the stock's unlisted cards lie at its bottom
                        position["stock_hidden"] += len(extra)
                    else:
                        position[fill] = list(position.get(fill, [])) + extra
                vec["expected"] = copy.deepcopy(vec["expected"])  # the parent's own stays as it is
                with_variant_rulings(vec["expected"], spec.get("rulings", {}))
                yield vec


# where an answer names a clause whose rulings it also gives (beside each violation's own)
CLAUSE_POINTERS = ("/violation/clause", "/inconsistency/clause")


def with_variant_rulings(expected: dict[str, Any], rulings: dict[str, list[str]]) -> None:
    """An inherited vector's expected rulings made the inheriting variant's (its manifest's
    ``rulings``, by clause), in place."""
    response = expected.get("response")
    if not response:
        return
    for i, clause in enumerate(expected.get("violations", [])):
        if f"/violations/{i}/rulings" in response:
            response[f"/violations/{i}/rulings"] = list(rulings.get(clause, []))
    for pointer in CLAUSE_POINTERS:
        target = pointer.rsplit("/", 1)[0] + "/rulings"
        if pointer in response and target in response:
            response[target] = list(rulings.get(response[pointer], []))


def load_documents(root: Path = ROOT) -> list[tuple[str, dict[str, Any] | list[dict[str, Any]]]]:
    """Every file of the suite, parsed: a grouped file or a manifest as its object, an export's file
    as its list of vectors."""
    out: list[tuple[str, dict[str, Any] | list[dict[str, Any]]]] = []
    for path in vector_files(root):
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(root))
        out.append((name, [json.loads(line) for line in text.splitlines() if line.strip()]
                    if path.suffix == ".jsonl" else json.loads(text)))
    return out


def resolved(root: Path = ROOT) -> list[tuple[str, dict[str, Any]]]:
    """(file, plain vector) for every vector of the suite, inheritance resolved."""
    docs = load_documents(root)
    by_name = {name: doc for name, doc in docs}

    def load(name: str) -> dict[str, Any]:
        doc = by_name.get(name)
        if not isinstance(doc, dict) or "groups" not in doc:
            raise ValueError(f"a manifest names {name}, which is not a grouped vector file of the suite")
        return doc
    out = []
    for name, doc in docs:
        if isinstance(doc, list):
            out += [(name, v) for v in doc]
        elif "inherits" in doc:
            out += [(name, v) for v in inherited_vectors(doc, load)]
        else:
            out += [(name, v) for v in plain_vectors(doc)]
    return out


def load_vectors(root: Path = ROOT, variants: set[str] | None = None) -> list[Vector]:
    out = []
    for name, data in resolved(root):
        vec = Vector(name, data)
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
    return bool(expected == actual)


def _at(body: Any, expected: dict[str, Any], prefix: str = "") -> list[Difference]:
    """Where the values ``expected`` at pointers (under ``prefix``) into ``body`` differ from it."""
    return [Difference(prefix + ptr, value, got) for ptr, value in expected.items()
            if (got := resolve(body, prefix + ptr)) != value]


def compare(vector: Vector, status: int, body: Any) -> list[Difference]:
    """Every way the answer (status, body) departs from the vector's expectations."""
    exp = vector.expected
    diffs: list[Difference] = []
    want_status = exp.get("status", 200)
    if status != want_status:
        return [Difference("(status)", want_status, status)]
    if status >= 400:
        if "problem" in exp:  # the problem's code: the last segment of its type URI
            kind = body.get("type") if isinstance(body, dict) else None
            code = kind.rsplit("/", 1)[-1] if isinstance(kind, str) else None
            if code != exp["problem"]:
                diffs.append(Difference("/type", f".../{exp['problem']}", kind))
        pointers = [e.get("pointer") for e in (body or {}).get("errors", [])] if isinstance(body, dict) else []
        for p in exp.get("problems", []):
            if p not in pointers:
                diffs.append(Difference("/errors", f"a problem at {p}", pointers))
        return diffs + _at(body, exp.get("response", {}))  # a problem's body too: /errors, /status...
    if "legal" in exp and resolve(body, "/legal") != exp["legal"]:
        diffs.append(Difference("/legal", exp["legal"], resolve(body, "/legal")))
    if "violations" in exp:
        clauses = [v.get("clause") for v in body.get("violations", [])]
        if clauses != exp["violations"]:
            diffs.append(Difference("/violations", exp["violations"], clauses))
    if "undetermined" in exp:
        open_clauses = [u.get("clause") for u in body.get("undetermined", [])] if isinstance(body, dict) else None
        if open_clauses != exp["undetermined"]:
            diffs.append(Difference("/undetermined", exp["undetermined"], open_clauses))
    if "step" in exp:
        got = resolve(body, "/violations/0/step")
        if got != exp["step"]:
            diffs.append(Difference("/violations/0/step", exp["step"], got))
    if "ambiguous" in exp:
        ambiguous = bool(resolve(body, "/violations/0/ambiguous") is True or resolve(body, "/ambiguous") is True)
        if ambiguous != exp["ambiguous"]:
            diffs.append(Difference("/violations/0/ambiguous", exp["ambiguous"], ambiguous))
    diffs += _at(body, exp.get("state", {}), "/state")
    diffs += _at(body, exp.get("response", {}))
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
