"""The clause registry: it holds every catalogue id of the variants built so far, each with a
statement and a source, and every clause the engine can cite is registered."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from kalooki_referee.rules import clause_ids
from kalooki_referee.rules.clauses import documents, registry
from kalooki_referee.rules.variant import all_variants

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT.parent / "shared" / "rules-catalogue.yaml"


def test_every_clause_has_statement_kind_and_source():
    docs = set(documents())
    for cid, c in registry().items():
        assert c["statement"].strip(), cid
        assert c["kind"] in ("action", "outcome"), cid
        assert c.get("level") in ("hand", "game"), cid
        assert c["sources"], cid
        for s in c["sources"]:
            assert s["document"] in docs, (cid, s)
            assert s["section"].strip(), cid


def test_variant_files_cite_only_registered_clauses():
    reg = registry()
    for v in all_variants():
        missing = [c for c in v.clauses if c not in reg]
        assert not missing, (v.id, missing)
        # clause_map: a clause the engine names -> the variant's own statement of the same rule
        for general, own in v.clause_map.items():
            assert general in reg and own in reg, (v.id, general, own)
        # one step: a variant's own statement is not itself mapped on
        assert not set(v.clause_map.values()) & set(v.clause_map), v.id


def test_engine_cites_only_registered_clauses():
    """Code names clauses through the constants of rules/clause_ids.py (generated from the registry,
    so every constant is a registered clause); tests/test_clause_reach.py proves no literal is left."""
    constants = {n for n in vars(clause_ids) if n.isupper()}
    named = set()
    for path in list((ROOT / "rules").glob("*.py")) + list((ROOT / "api").glob("*.py")):
        if path.name == "clause_ids.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in constants}
    assert named, "no clause constants found in the engine"
    assert {getattr(clause_ids, n) for n in named} <= set(registry())


@pytest.mark.skipif(not CATALOGUE.exists(), reason="the shared catalogue is not beside this checkout")
def test_registry_holds_every_catalogue_id_of_built_variants():
    catalogue = yaml.safe_load(CATALOGUE.read_text())
    built = {v.id for v in all_variants()}
    wanted = {c["id"] for c in catalogue["clauses"] if built & set(c["variants"])}
    assert wanted <= set(registry()), sorted(wanted - set(registry()))
    for c in catalogue["clauses"]:
        if c["id"] in registry():
            assert registry()[c["id"]]["kind"] == c["kind"], c["id"]


def test_variant_files_list_every_clause_the_registry_gives_them():
    for v in all_variants():
        registered = {cid for cid, c in registry().items() if v.id in c["variants"]}
        assert registered <= set(v.clauses), (v.id, sorted(registered - set(v.clauses)))
