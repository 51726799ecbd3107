"""Every clause one step from its code: ``rules/clause_ids.py`` is generated from the registry and up
to date, and code names clauses only through its constants."""
from __future__ import annotations

from rules import clause_ids, clause_tools
from rules.clauses import registry


def test_clause_ids_is_up_to_date_with_the_registry():
    assert clause_tools.TARGET.read_text(encoding="utf-8") == clause_tools.generate(), (
        "rules/clause_ids.py is out of date: run python -m rules.clause_ids --generate")


def test_one_constant_per_clause():
    names = clause_tools.constants()
    assert set(names) == set(registry())
    for cid, name in names.items():
        assert getattr(clause_ids, name) == cid
