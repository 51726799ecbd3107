"""Lint the vector files: schema-valid, ids stable and unique, every clause in the registry, every
variant known, sources named by document id, and files up to date with their sources."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema

from kalooki_referee.rules.clauses import registry
from kalooki_referee.rules.variant import load_variant, variant_ids

from .suite import ROOT, vector_files


def lint(root: Path = ROOT) -> list[str]:
    schema = json.loads((root / "vector-file.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    known_clauses = set(registry())
    known_variants = set(variant_ids())
    version = (root / "VERSION").read_text().strip()
    seen: dict[str, str] = {}
    problems = []
    for path in vector_files(root):
        name = str(path.relative_to(root))
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            problems.append(f"{name}: not JSON ({exc})")
            continue
        for err in validator.iter_errors(doc):
            problems.append(f"{name}{'/' + '/'.join(map(str, err.absolute_path)) if err.absolute_path else ''}: {err.message}")
        if doc.get("suite_version") != version:
            problems.append(f"{name}: suite_version {doc.get('suite_version')} is not the suite's {version}")
        if path.parent.name != doc.get("variant") or path.stem != doc.get("topic"):
            problems.append(f"{name}: lives in {path.parent.name}/{path.stem} but says {doc.get('variant')}/{doc.get('topic')}")
        for v in doc.get("vectors", []):
            vid = v.get("id", "?")
            if vid in seen:
                problems.append(f"{name}: id {vid} is also used in {seen[vid]}")
            seen[vid] = name
            if not vid.startswith(f"{doc.get('variant')}.{doc.get('topic')}."):
                problems.append(f"{name}: id {vid} should start with {doc.get('variant')}.{doc.get('topic')}.")
            for c in v.get("clauses", []):
                if c not in known_clauses:
                    problems.append(f"{name}: {vid} cites {c}, which is not in rules/clauses.yaml")
            variant = (v.get("request") or {}).get("variant")
            if variant not in known_variants:
                problems.append(f"{name}: {vid} runs under unknown variant {variant!r}")
            elif v.get("decision") and v["decision"] not in {d["id"] for d in load_variant(variant).decisions}:
                problems.append(f"{name}: {vid} depends on {v['decision']}, which is not among {variant}'s decisions")
            exp = v.get("expected", {})
            for c in exp.get("violations", []):
                if c not in known_clauses:
                    problems.append(f"{name}: {vid} expects a violation of {c}, which is not in the registry")
            if exp.get("legal") is False and not exp.get("violations"):
                problems.append(f"{name}: {vid} is illegal but names no violated clause")
    return problems


def main() -> int:
    problems = lint()
    for p in problems:
        print(p)
    print(f"vector lint: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
