"""The clause registry: it holds every catalogue id of the variants built so far, each with a
statement and a source, and every clause the engine can cite is registered."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from kalooki_referee.rules import clause_ids
from kalooki_referee.rules.clauses import documents, registry
from kalooki_referee.rules.errors import InvalidRules
from kalooki_referee.rules.wire import variant
from kalooki_referee.rules.wire.variant import all_variants, load_variant

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT.parent / "shared" / "rules-catalogue.yaml"
VARIANTS = ROOT / "rules" / "variants"


def test_every_clause_has_statement_kind_and_source():
    docs = set(documents())
    for cid, c in registry().items():
        assert c.statement.strip(), cid
        assert c.kind in ("action", "outcome"), cid
        assert c.level in ("hand", "game"), cid
        assert c.sources, cid
        for s in c.sources:
            assert s.document in docs, (cid, s)
            assert s.section.strip(), cid


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
    so every constant is a registered clause); tests/rules/test_clause_reach.py proves no literal is left."""
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
            assert registry()[c["id"]].kind == c["kind"], c["id"]


@pytest.mark.skipif(not CATALOGUE.exists(), reason="the shared catalogue is not beside this checkout")
def test_every_variants_clauses_are_the_catalogues():
    """The clauses a variant plays, inherited through ``extends`` with a child's ``clauses_add`` and
    ``clauses_drop``, are exactly those the catalogue (an independent source) lists the variant under,
    with the referee's own clauses the variant files name beside them."""
    catalogue = yaml.safe_load(CATALOGUE.read_text())
    for v in all_variants():
        governed = {c["id"] for c in catalogue["clauses"] if v.id in c["variants"]}
        assert {c for c in v.clauses if not c.startswith("referee.")} == governed, v.id


def test_a_variant_file_says_only_what_differs_from_its_parent():
    """A child names no clause its parent already plays, and drops only clauses its parent plays;
    its loaded clauses are the parent's less those dropped, with those added."""
    by_id = {v.id: v for v in all_variants()}
    for path in sorted(VARIANTS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not data.get("extends"):
            assert "clauses_add" not in data and "clauses_drop" not in data, path.name
            continue
        parent = by_id[data["extends"]]
        add, drop = data.get("clauses_add") or [], data.get("clauses_drop") or []
        assert "clauses" not in data, f"{path.name} restates its clause list"
        assert not set(add) & set(parent.clauses), (path.name, sorted(set(add) & set(parent.clauses)))
        assert set(drop) <= set(parent.clauses), (path.name, sorted(set(drop) - set(parent.clauses)))
        assert set(by_id[data["id"]].clauses) == (set(parent.clauses) - set(drop)) | set(add), path.name


def _house_variations() -> list[Path]:
    """The named house variations of document 000: files extending ``british`` from its
    "Variations" section alone."""
    found = []
    for path in sorted(VARIANTS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("extends") == "british" and data["sources"] == [{"document": "pagat", "sections": ["Variations"]}]:
            found.append(path)
    return found


# files that extend another game's file but describe a game of their own, from their own source
GAMES_OF_THEIR_OWN = {"scarne_east_coast": "Scarne's East Coast game, which document 000 sets beside USPCC's"}


def test_a_house_variation_is_its_changed_lines():
    """Each file that extends another (the named house variations of document 000 among them) is under
    25 lines: the referee's rulings are in rules/decisions.yaml, the clauses inherited."""
    assert len(_house_variations()) >= 10
    children = [p for p in sorted(VARIANTS.glob("*.yaml")) if yaml.safe_load(p.read_text(encoding="utf-8")).get("extends")
                and p.stem not in GAMES_OF_THEIR_OWN]
    assert set(_house_variations()) <= set(children)
    for path in children:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) < 25, f"{path.name}: {len(lines)} lines"


@pytest.mark.parametrize("change, problem", [
    ({"clauses_add": ["players.count.two_to_five"]}, "/clauses_add/0"),
    ({"clauses_drop": ["players.count.jamaican_three_to_eight"]}, "/clauses_drop/0"),
    ({"clauses": ["players.count.two_to_five"]}, "/clauses"),
])
def test_a_child_restating_its_parent_is_refused(change, problem):
    """(Checked on the loaded parent: a variant loaded from a scratch folder would stay in the cache.)"""
    child = {**yaml.safe_load((VARIANTS / "british_max501.yaml").read_text(encoding="utf-8")), **change}
    with pytest.raises(InvalidRules) as caught:
        variant._inherited_clauses(child, load_variant("british"), "british_max501.yaml")
    assert problem in [p.pointer for p in caught.value.problems]


def test_a_root_file_lists_its_clauses_itself(tmp_path):
    data = yaml.safe_load((VARIANTS / "british.yaml").read_text(encoding="utf-8"))
    (tmp_path / "british.yaml").write_text(yaml.safe_dump({**data, "clauses_add": ["elimination.over_100"]}),
                                           encoding="utf-8")
    with pytest.raises(InvalidRules) as caught:
        load_variant("british", directory=tmp_path)
    assert [p.pointer for p in caught.value.problems] == ["/clauses_add"]
