"""Lint the vector suite: every file valid against ``vector-file.schema.json`` (an export's lines
against its plain vector), the suite version everywhere, ids stable and unique once inheritance is
resolved, every clause in the registry, every variant known, every decision the variant's own, and
every manifest naming files and vectors that exist; for an export, its manifest.json, its checksums
and its files' headers."""
from __future__ import annotations

from typing import Any

import json
import re
import sys
from pathlib import Path

import jsonschema

from kalooki_referee.rules.clauses import registry
from kalooki_referee.rules.errors import RefereeInputError
from kalooki_referee.rules.invariants import check_state
from kalooki_referee.rules.wire.state import read_state
from kalooki_referee.rules.wire.variant import load_variant, variant_ids

from .export import verify
from .suite import ROOT, load_documents, plain_vectors, resolved

SCHEMA = ROOT / "vector-file.schema.json"


def _schema_problems(name: str, doc: dict[str, Any] | list[dict[str, Any]]) -> list[str]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    if isinstance(doc, list):
        plain = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/plainVector"})
        items = [(f"{name}:{i + 1}", v) for i, v in enumerate(doc)]
        return [f"{where}{'/' + '/'.join(map(str, e.absolute_path)) if e.absolute_path else ''}: {e.message}"
                for where, v in items for e in plain.iter_errors(v)]
    if "vectors" in doc:  # an export's file: its header and its vectors
        validator = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/exportFile"})
    else:
        validator = jsonschema.Draft202012Validator(schema)
    return [f"{name}{'/' + '/'.join(map(str, e.absolute_path)) if e.absolute_path else ''}: {e.message}"
            for e in validator.iter_errors(doc)]


def _manifest_problems(name: str, doc: dict[str, Any], docs: dict[str, dict[str, Any] | list[dict[str, Any]]], known_clauses: set[str]) -> list[str]:
    spec = doc["inherits"]
    problems, parent_ids = [], set()
    for file in spec["files"]:
        parent = docs.get(f"{spec['from']}/{file}")
        if not isinstance(parent, dict) or "groups" not in parent:
            problems.append(f"{name}: inherits {spec['from']}/{file}, which is not a grouped file of the suite")
            continue
        parent_ids |= {v["id"] for v in plain_vectors(parent)}
    for e in spec.get("exclude", []):
        if e["id"] not in parent_ids:
            problems.append(f"{name}: excludes {e['id']}, which no inherited file holds")
    for e in spec.get("exclude_clauses", []):
        if e["clause"] not in known_clauses:
            problems.append(f"{name}: excludes clause {e['clause']}, which is not in the registry")
    return problems


def lint(root: Path = ROOT) -> list[str]:
    known_clauses = set(registry())
    known_variants = set(variant_ids())
    version = (ROOT / "VERSION").read_text().strip()
    problems: list[str] = []
    try:
        docs = dict(load_documents(root))
    except ValueError as exc:
        return [f"not JSON: {exc}"]
    for name, doc in docs.items():
        problems += _schema_problems(name, doc)
        if isinstance(doc, list):
            continue
        if doc.get("suite_version") != version:
            problems.append(f"{name}: suite_version {doc.get('suite_version')} is not the suite's {version}")
        stem = name.split("/")[-1].rsplit(".", 1)[0]
        if name.split("/")[0] != doc.get("variant") or stem != doc.get("topic"):
            problems.append(f"{name}: lives in {name} but says {doc.get('variant')}/{doc.get('topic')}")
        if "inherits" in doc:
            problems += _manifest_problems(name, doc, docs, known_clauses)
    if (root / "manifest.json").is_file():  # an export: its manifest, checksums and headers
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
        check = jsonschema.Draft202012Validator({"$defs": json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"],
                                                 "$ref": "#/$defs/exportManifest"})
        problems += [f"manifest.json: {e.message}" for e in check.iter_errors(manifest)]
        problems += verify(root)
    if problems:
        return problems  # the vectors cannot be resolved from files that are not well formed
    seen: dict[str, str] = {}
    vectors = resolved(root)
    if root == ROOT:  # the suite itself (not an export or a copy): ids of a release withdrawn only in the changelog
        problems += released_id_problems({v["id"] for _, v in vectors})
    for name, v in vectors:
        vid = v["id"]
        if vid in seen:
            problems.append(f"{name}: id {vid} is also used in {seen[vid]}")
        seen[vid] = name
        variant_dir, stem = name.split("/")[0], name.split("/")[-1].rsplit(".", 1)[0]
        if not vid.startswith(f"{variant_dir}.{stem}."):
            problems.append(f"{name}: id {vid} should start with {variant_dir}.{stem}.")
        for c in v["clauses"]:
            if c not in known_clauses:
                problems.append(f"{name}: {vid} cites {c}, which is not in rules/clauses.yaml")
        variant = v["request"].get("variant")
        if variant not in known_variants:
            problems.append(f"{name}: {vid} runs under unknown variant {variant!r}")
        elif v.get("decision") and v["decision"] not in {d.id for d in load_variant(variant).decisions}:
            problems.append(f"{name}: {vid} depends on {v['decision']}, which is not among {variant}'s decisions")
        exp = v["expected"]
        for c in exp.get("violations", []):
            if c not in known_clauses:
                problems.append(f"{name}: {vid} expects a violation of {c}, which is not in the registry")
        if exp.get("legal") is False and not exp.get("violations"):
            problems.append(f"{name}: {vid} is illegal but names no violated clause")
        if exp.get("status", 200) >= 400 and "problem" not in exp:
            problems.append(f"{name}: {vid} expects a {exp['status']} but not its problem code")
        if variant in known_variants:
            problems += [f"{name}: {vid} {p}" for p in count_problems(v)]
    return problems


COUNT_CODES = ("HAND_SIZE", "PILE_SIZE")


def _positions(request: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The hand positions a request carries, with their pointers: its state, a game's hand, a replay's start."""
    found = []
    for at, holder in (("", request), ("/start", request.get("start"))):
        if not isinstance(holder, dict):
            continue
        if isinstance(holder.get("state"), dict):
            found.append((f"{at}/state", holder["state"]))
        game = holder.get("game")
        if isinstance(game, dict) and isinstance(game.get("hand"), dict):
            found.append((f"{at}/game/hand", game["hand"]))
    return found


def count_problems(vector: dict[str, Any]) -> list[str]:
    """What is wrong with a vector's positions and their count (docs/limits.md, "Composed positions"): a
    position whose cards do not add up (/positions/counted) in a vector that expects no refusal, unless
    the vector marks it composed (it sends positions.counted false and says why, in ``composed``); and a
    mark without the other half."""
    request = vector["request"]
    rules = request.get("rules") if isinstance(request.get("rules"), dict) else None
    counted = ((rules or {}).get("positions") or {}).get("counted", True)
    marked = bool(vector.get("composed"))
    if marked and counted is not False:
        return ["says its position is composed (composed) but does not send positions.counted false"]
    if counted is False:
        return [] if marked else ["sends positions.counted false but does not say why its position is composed (composed)"]
    if vector["expected"].get("status", 200) >= 400:
        return []   # (a position refused on purpose)
    try:
        variant = load_variant(request["variant"], rules)
    except RefereeInputError:
        return []   # (house rules refused on purpose)
    found = []
    for at, data in _positions(request):
        try:
            state, _ = read_state(data, variant)
        except (KeyError, TypeError, ValueError, RefereeInputError):
            continue   # (a position the API refuses before counting it)
        found += [f"{at}{p.pointer}: {p.detail}" for p in check_state(state, variant) if p.code in COUNT_CODES]
    return [f"has a position that does not add up and is not marked composed: {'; '.join(found)}"] if found else []


RELEASED = ROOT / "released-ids"


def released_id_problems(current: set[str], released: Path = RELEASED, changelog: Path = ROOT / "CHANGELOG.md") -> list[str]:
    """Every id of a released suite (``released-ids/<version>.txt``, one id a line) that the suite no
    longer holds and that the changelog does not name in a section newer than that release's."""
    text = changelog.read_text(encoding="utf-8")
    problems = []
    for listing in sorted(released.glob("*.txt")):
        version = listing.stem
        heading = re.search(rf"^## {re.escape(version)}\b", text, re.MULTILINE)
        if heading is None:
            problems.append(f"released-ids/{listing.name}: the changelog has no section ## {version}")
            continue
        newer = text[:heading.start()]
        for vid in listing.read_text(encoding="utf-8").split():
            if vid not in current and not re.search(rf"(?<![\w.-]){re.escape(vid)}(?![\w.-])", newer):
                problems.append(f"{vid}: released in {version}, gone from the suite, and named by no newer "
                                f"section of CHANGELOG.md")
    return problems


def main(argv: list[str] | None = None) -> int:
    root = Path(argv[0]) if argv else ROOT
    problems = lint(root)
    for p in problems:
        print(p)
    print(f"vector lint: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
