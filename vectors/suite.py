"""Loading the vector files and checking an answer against a vector's expectations."""
from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import orjson

ROOT = Path(__file__).resolve().parent
_MISSING = object()
_INDEX = re.compile("0|[1-9][0-9]*")


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
    def topic(self) -> str:
        """The topic of the file it comes from (``<variant>/<topic>.json``)."""
        return self.file.rsplit("/", 1)[-1].split(".", 1)[0]

    @property
    def expected(self) -> dict[str, Any]:
        expected: dict[str, Any] = self.data["expected"]
        return expected


@dataclass(frozen=True)
class Selection:
    """Which vectors to take.  Each criterion is a list of alternatives (any may match; an empty list
    takes every vector) and a vector is taken when every criterion matches.  ``ids`` and ``clauses``
    are shell-style glob patterns (``british.draw.*``, ``build.*``); a clause matches a vector that
    cites it (``clauses``) or expects its violation or its undetermined entry; ``decisions`` matches
    the vector's ``decision`` (``none`` matches the vectors that depend on no ruling)."""
    ids: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()
    endpoints: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return any((self.ids, self.topics, self.clauses, self.endpoints, self.decisions, self.variants))

    def matches(self, vector: "Vector") -> bool:
        data = vector.data
        cited = set(data["clauses"]) | set(data["expected"].get("violations", [])) \
            | set(data["expected"].get("undetermined", []))
        return ((not self.ids or any(fnmatch.fnmatchcase(vector.id, p) for p in self.ids))
                and (not self.topics or vector.topic in self.topics)
                and (not self.clauses or any(fnmatch.fnmatchcase(c, p) for p in self.clauses for c in cited))
                and (not self.endpoints or vector.endpoint in self.endpoints)
                and (not self.decisions or (data.get("decision") or "none") in self.decisions)
                and (not self.variants or vector.variant in self.variants))

    def to_dict(self) -> dict[str, list[str]]:
        """The criteria given, by their command-line names (``id``, ``topic``, ...)."""
        named = {"id": self.ids, "topic": self.topics, "clause": self.clauses, "endpoint": self.endpoints,
                 "decision": self.decisions, "variant": self.variants}
        return {k: list(v) for k, v in named.items() if v}


def vector_files(root: Path = ROOT) -> list[Path]:
    """The suite's files: the grouped files and the manifests (``<variant>/<topic>.json``), or the
    files of an export (``<variant>/<topic>.json`` with a header and its ``vectors``; an export of
    suite 2.3.0 or earlier: ``<variant>/<topic>.jsonl``, one vector a line)."""
    return sorted(p for p in root.glob("*/*.json")) + sorted(root.glob("*/*.jsonl"))


def _copied(value: Any) -> Any:
    """A copy of a JSON value: orjson's round trip, several times faster than ``copy.deepcopy`` (which
    the suite's loading spent most of its time in); by hand for a value orjson cannot write (an
    integer beyond 64 bits, which some hostile requests carry)."""
    try:
        return orjson.loads(orjson.dumps(value))
    except orjson.JSONEncodeError:
        if isinstance(value, dict):
            return {k: _copied(v) for k, v in value.items()}
        if isinstance(value, list):
            return [_copied(v) for v in value]
        return value


def pack_rest(position: dict[str, Any], variant_id: str, rules: dict[str, Any] | None) -> list[str]:
    """The cards of the variant's pack (the pack its rules give the position's number of players) that
    the position holds nowhere (hands, piles, melds, a turn's pending jokers), in the pack's order."""
    from collections import Counter

    from kalooki_referee.rules.cards import pack_order, parse_card
    from kalooki_referee.rules.melds import parse_token
    from kalooki_referee.rules.wire.variant import load_variant

    table_pack = load_variant(variant_id, rules).rules.pack_for(len(position.get("players", ())))
    held = Counter(parse_card(c).code for p in position.get("players", []) for c in p.get("hand", []))
    held.update(parse_card(c).code for key in ("discard", "stock") for c in position.get(key, []))
    held.update(parse_token(c).card.code for m in position.get("melds", []) for c in m["cards"])
    held["JK"] += (position.get("turn") or {}).get("pending_jokers", 0)
    rest = []
    for card in pack_order(table_pack.decks, table_pack.jokers):
        if held[card.code] > 0:
            held[card.code] -= 1
        else:
            rest.append(card.code)
    return rest


def with_stock_rest(request: dict[str, Any], variant_id: str, rules: dict[str, Any] | None) -> dict[str, Any]:
    """A group's request with its position's stock completed (the group says ``rest: "stock"``): the
    pack's cards the position holds nowhere go at the bottom of its stock, in the pack's order."""
    request = _copied(request)
    for position in [*hand_states(request), *hand_states(request.get("start") or {})]:
        position["stock"] = list(position.get("stock", [])) + pack_rest(position, variant_id, rules)
    return request


def plain_vectors(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The tests of a grouped file as plain self-contained vectors: each test's request is its
    group's ``variant``, ``rules`` and ``request`` with the test's own ``request`` over them, its
    sources the group's, and its reason for a composed position its own or the group's (where the group
    names no endpoint, variant or sources: the file's)."""
    for group in doc["groups"]:
        shared: dict[str, Any] = {"variant": group.get("variant", doc.get("variant"))}
        if "rules" in group:
            shared["rules"] = group["rules"]
        request = group.get("request", {})
        shared.update(with_stock_rest(request, shared["variant"], group.get("rules")) if group.get("rest") == "stock" else request)
        for test in group["tests"]:
            vec = {"id": test["id"], "description": test["description"], "clauses": test["clauses"],
                   "source": group.get("source", doc.get("source"))}
            if test.get("composed", group.get("composed")):
                vec["composed"] = test.get("composed", group.get("composed"))
            if group.get("decision"):
                vec["decision"] = group["decision"]
            vec.update({"endpoint": group.get("endpoint", doc.get("endpoint")),
                        "request": {**_copied(shared), **test.get("request", {})},
                        "expected": test["expected"]})
            yield vec


def hand_states(request: dict[str, Any]) -> Iterator[dict[str, Any]]:
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
    composed = spec.get("composed")
    for name in spec["files"]:
        doc = load(f"{spec['from']}/{name}")
        for group in doc["groups"]:
            fill = group.get("fill", "stock")
            for vec in plain_vectors({**{k: doc[k] for k in ("source", "endpoint", "variant") if k in doc}, "groups": [group]}):
                cited = (set(vec["clauses"]) | set(vec["expected"].get("violations", []))
                         | set(vec["expected"].get("undetermined", [])))
                if vec["id"] in by_id or cited & by_clause or vec["endpoint"] in by_endpoint:
                    continue
                parent_id = vec["id"]
                vec["id"] = f"{variant}.{topic}.{parent_id.split('.', 1)[1].replace('.', '-')}"
                vec["description"] += f" (Inherited from {parent_id}.)"
                vec["request"]["variant"] = variant
                for position in hand_states(vec["request"]):
                    if fill == "stock" and "stock_hidden" in position:  # the stock's unlisted cards lie at its bottom
                        position["stock_hidden"] += len(extra)
                    else:
                        position[fill] = list(position.get(fill, [])) + extra
                vec["expected"] = _copied(vec["expected"])  # the parent's own stays as it is
                if composed:
                    _composed(vec, composed)
                with_variant_rulings(vec["expected"], spec.get("rulings", {}))
                yield vec


def _composed(vec: dict[str, Any], why: str) -> None:
    """An inherited vector sent as composed (its position adds up to the parent's deal, not this
    variant's): ``positions.counted`` false in its rules, unless it sets it, and ``why`` as its reason."""
    rules = dict(vec["request"].get("rules") or {})
    positions = dict(rules.get("positions") or {})
    if "counted" in positions:
        return
    vec["request"]["rules"] = {**rules, "positions": {**positions, "counted": False}}
    vec.setdefault("composed", why)


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
    """Every file of the suite, parsed: a grouped file, a manifest or an export's file as its object,
    an older export's ``.jsonl`` file as its list of vectors."""
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
        elif "vectors" in doc:  # an export's file: its header, then its plain vectors
            out += [(name, v) for v in doc["vectors"]]
        elif "inherits" in doc:
            out += [(name, v) for v in inherited_vectors(doc, load)]
        else:
            out += [(name, v) for v in plain_vectors(doc)]
    return out


def load_vectors(root: Path = ROOT, variants: set[str] | None = None,
                 selection: Selection = Selection()) -> list[Vector]:
    out = []
    for name, data in resolved(root):
        vec = Vector(name, data)
        if (variants is None or vec.variant in variants) and selection.matches(vec):
            out.append(vec)
    return out


def resolve(doc: Any, pointer: str) -> Any:
    """The value at a JSON pointer (RFC 6901), or the absent marker (docs/conformance.md, "Terms")."""
    if pointer == "":
        return doc
    if not pointer.startswith("/"):
        return _MISSING
    node = doc
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if token not in node:
                return _MISSING
            node = node[token]
        elif isinstance(node, list):
            if not _INDEX.fullmatch(token) or int(token) >= len(node):
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


def same(a: Any, b: Any) -> bool:
    """JSON equality (docs/conformance.md, "Terms"): of the same JSON type, numbers by value, arrays
    item by item, objects key by key; ``true`` is not ``1``, and an absent value equals nothing."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    return isinstance(a, str) and isinstance(b, str) and a == b


def _subset(expected: Any, actual: Any) -> bool:
    """Containment (docs/conformance.md): an expected object's keys, recursively; anything else equal."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    return same(expected, actual)


def _at(body: Any, expected: dict[str, Any], prefix: str = "") -> list[Difference]:
    """Where the values ``expected`` at pointers (under ``prefix``) into ``body`` differ from it."""
    return [Difference(prefix + ptr, value, got) for ptr, value in expected.items()
            if not same(got := resolve(body, prefix + ptr), value)]


def _clauses(body: Any, key: str) -> list[Any]:
    entries = body.get(key) if isinstance(body, dict) else None
    return [e.get("clause") if isinstance(e, dict) else None for e in entries] if isinstance(entries, list) else []


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
        errors = body.get("errors") if isinstance(body, dict) else None
        pointers = [e.get("pointer") if isinstance(e, dict) else None for e in errors] if isinstance(errors, list) else []
        for p in exp.get("problems", []):
            if p not in pointers:
                diffs.append(Difference("/errors", f"a problem at {p}", pointers))
        return diffs + _at(body, exp.get("response", {}))  # a problem's body too: /errors, /status...
    if "legal" in exp and not same(got := resolve(body, "/legal"), exp["legal"]):
        diffs.append(Difference("/legal", exp["legal"], got))
    for key in ("violations", "undetermined"):
        if key in exp and not same(got := _clauses(body, key), exp[key]):
            diffs.append(Difference("/" + key, exp[key], got))
    if "step" in exp and not same(got := resolve(body, "/violations/0/step"), exp["step"]):
        diffs.append(Difference("/violations/0/step", exp["step"], got))
    if "ambiguous" in exp:
        got = resolve(body, "/violations/0/ambiguous") is True or resolve(body, "/ambiguous") is True
        if got != exp["ambiguous"]:
            diffs.append(Difference("/violations/0/ambiguous", exp["ambiguous"], got))
    diffs += _at(body, exp.get("state", {}), "/state")
    diffs += _at(body, exp.get("response", {}))
    if "result" in exp and not same(got := resolve(body, "/result"), exp["result"]):
        diffs.append(Difference("/result", exp["result"], got))
    if "events" in exp:
        events = body.get("events") if isinstance(body, dict) else None
        events = events if isinstance(events, list) else []
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
