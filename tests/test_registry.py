"""The clause registry: it holds every catalogue id of the variants built so far, each with a
statement and a source, and every clause the engine can cite is registered."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rules.clauses import default_citations, documents, registry
from rules.variant import all_variants

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
        for slot, cid in v.clause_map.items():
            assert cid in reg, (v.id, slot, cid)
    for slot, cid in default_citations().items():
        assert cid in reg, (slot, cid)


def test_engine_cites_only_registered_clauses():
    reg = registry()
    cited = set()
    for path in (ROOT / "rules").glob("*.py"):
        cited |= set(re.findall(r'"((?:[a-z_]+\.)+[a-z0-9_]+)"', path.read_text()))
    cited = {c for c in cited if c.split(".")[0] in {k.split(".")[0] for k in reg}}
    assert cited, "no clause ids found in the engine"
    assert not sorted(cited - set(reg))


@pytest.mark.skipif(not CATALOGUE.exists(), reason="the shared catalogue is not beside this checkout")
def test_registry_holds_every_catalogue_id_of_built_variants():
    catalogue = yaml.safe_load(CATALOGUE.read_text())
    built = {v.id for v in all_variants()}
    wanted = {c["id"] for c in catalogue["clauses"] if built & set(c["variants"])}
    assert wanted <= set(registry()), sorted(wanted - set(registry()))
    for c in catalogue["clauses"]:
        if c["id"] in registry():
            assert registry()[c["id"]]["kind"] == c["kind"], c["id"]


# Clauses a variant file leaves out of its list although the catalogue assigns them to it; each is
# explained in the variant file's description (the Blackpool tournament is outside a single game).
LEFT_OUT = {"british_blackpool": {"buyin.blackpool_moves_to_new_table", "tournament.blackpool_semis_and_final"}}


def test_variant_files_list_every_clause_the_registry_gives_them():
    for v in all_variants():
        registered = {cid for cid, c in registry().items() if v.id in c["variants"]}
        assert registered - set(v.clauses) == LEFT_OUT.get(v.id, set()), v.id
        for cid in LEFT_OUT.get(v.id, ()):
            assert cid in v.to_dict()["description"] if "description" in v.to_dict() else True
