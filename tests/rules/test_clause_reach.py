"""Every clause one step from its code.

``rules/clause_ids.py`` is generated from the registry and up to date; code names clauses only
through its constants (no clause-id string literal is left in ``rules/*.py`` or ``api/*.py``); and
every clause a variant file lists is named in code by its constant (found by parsing the code), or
reached through the variant's ``clause_map`` from a clause code names (``@enforces`` names a clause on
the function that decides it where no verdict cites it); a clause's ``parameters`` resolve."""
from __future__ import annotations

import ast
import dataclasses
import types
import typing
from functools import lru_cache
from pathlib import Path

import yaml

from kalooki_referee.rules import clause_ids
from tools import clause_tools
from kalooki_referee.rules.clauses import REFEREE_PATH, REGISTRY_PATH, registry
from kalooki_referee.rules.params import Rules
from kalooki_referee.rules.wire.variant import all_variants

ROOT = Path(__file__).resolve().parents[2]


def test_one_constant_per_clause():
    names = clause_tools.constants()
    assert set(names) == set(registry())
    for cid, name in names.items():
        assert getattr(clause_ids, name) == cid


def test_no_clause_id_literal_left_in_code():
    found = [line for path in clause_tools.code_files() for line in clause_tools.leftovers(path)]
    assert not found, "run python -m tools.clause_tools --rewrite:\n" + "\n".join(found)


def test_the_rewrite_and_the_lint_see_literals_and_slots():
    path = ROOT / "rules" / "engine.py"
    planted = path.read_text(encoding="utf-8") + (
        '\n\nX = "draw.only_top_card"\nY = f"see (stock.reshuffle_once)"\nZ = "{x} (void.no_score_no_payment)"\n'
        'W = clause_for(variant, "identical_set")\n')
    assert len(clause_tools.leftovers_in(planted, "engine.py")) == 4
    rewritten = clause_tools.rewrite_source(planted, path)
    assert clause_tools.leftovers_in(rewritten, "engine.py") == []
    tail = rewritten[rewritten.index("X = "):]
    assert tail == ('X = DRAW_ONLY_TOP_CARD\nY = f"see ({STOCK_RESHUFFLE_ONCE})"\n'
                    'Z = f"{{x}} ({VOID_NO_SCORE_NO_PAYMENT})"\nW = MELD_SET_GRIFFIN_IDENTICAL_TRIPLE\n')
    imported = {a.name for n in ast.parse(rewritten).body if isinstance(n, ast.ImportFrom)
                and n.module == "clause_ids" for a in n.names}
    assert {"DRAW_ONLY_TOP_CARD", "STOCK_RESHUFFLE_ONCE", "VOID_NO_SCORE_NO_PAYMENT"} <= imported
    assert clause_tools.rewrite_source(rewritten, path) == rewritten  # re-runnable


@lru_cache(maxsize=1)
def named_in_code() -> dict[str, list[str]]:
    """Clause id -> the files that name it through its constant (a name or ``clause_ids.NAME``)."""
    constants = {n: v for n, v in vars(clause_ids).items() if n.isupper() and isinstance(v, str)}
    named: dict[str, list[str]] = {}
    for path in clause_tools.code_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in constants and not isinstance(getattr(node, "ctx", None), ast.Store):
                named.setdefault(constants[name], []).append(path.name)
    return named


def _pointer_problem(pointer: str) -> str | None:
    """Why ``pointer`` is not a parameter of ``Rules`` read by the code (None when it is)."""
    if not pointer.startswith("/"):
        return f"{pointer!r} is not a JSON pointer"
    t: typing.Any = Rules
    parts = pointer[1:].split("/")
    for part in parts:
        if not dataclasses.is_dataclass(t):
            return f"{pointer}: {part!r} is inside a value, not a parameter group"
        hints = typing.get_type_hints(t)
        if part not in hints:
            return f"{pointer}: no parameter {part!r} (rules/params.py)"
        t = hints[part]
        present = [a for a in typing.get_args(t) if a is not type(None)]
        if typing.get_origin(t) in (typing.Union, types.UnionType) and len(present) == 1:
            t = present[0]  # an optional group (a contract game's contract)
    # read as variant.rules.deal.cards_each, or through its group (self.cards_each in Deal.cards_for,
    # a group bound to a name, a stake looked up by its key)
    dotted, leaf = "rules." + ".".join(parts), parts[-1]
    for path in clause_tools.code_files():
        text = path.read_text(encoding="utf-8")
        if dotted in text or f".{leaf}" in text or f'"{leaf}"' in text:
            return None
    return f"{pointer}: no code reads {dotted}"


def test_every_parameters_entry_resolves():
    """A clause's ``parameters`` (the pointers GET /v1/clauses serves) are parameters the code reads."""
    bad = {cid: [p for p in map(_pointer_problem, c.parameters) if p] for cid, c in registry().items()}
    bad = {cid: p for cid, p in bad.items() if p}
    assert not bad, bad


def test_no_clause_points_at_code_by_name():
    """No registry entry names the code that decides it (``enforced_by``, dotted names that go stale):
    the code names the clause instead, by its constant."""
    written = [c for path in (REGISTRY_PATH, REFEREE_PATH) for c in yaml.safe_load(path.read_text(encoding="utf-8"))["clauses"]]
    assert len(written) == len(registry())
    assert not [c["id"] for c in written if "enforced_by" in c or "functions" in c]


@lru_cache(maxsize=1)
def sites() -> dict[str, list[str]]:
    """Clause id -> the lines of rules/ and api/ (``file:line``) that name its constant."""
    constants = {n: v for n, v in vars(clause_ids).items() if n.isupper() and isinstance(v, str)}
    found: dict[str, list[str]] = {}
    for path in clause_tools.code_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in constants and not isinstance(getattr(node, "ctx", None), ast.Store):  # (an import is an alias)
                found.setdefault(constants[name], []).append(f"{path.name}:{node.lineno}")
    return found


def test_every_clause_of_every_variant_is_one_step_from_its_code():
    """For every clause a variant plays, the lines that name its constant (where a verdict cites it, or
    the ``@enforces`` of the function that decides it), or those of the clause it stands for in the
    variant's clause_map."""
    where = sites()
    nothing: dict[str, list[str]] = {}
    for v in all_variants():
        mapped_from = {}
        for general, own in v.clause_map.items():
            mapped_from.setdefault(own, []).append(general)
        for cid in v.clauses:
            if cid in v.not_enforced:  # a preview's clauses to come
                continue
            lines = where.get(cid) or [line for general in mapped_from.get(cid, ()) for line in where.get(general, ())]
            if not lines:
                nothing.setdefault(cid, []).append(v.id)
    assert not nothing, "clauses no code names (name the constant where the clause is enforced, with " \
                        "@enforces on the function that decides it where no verdict cites it):\n" + \
                        "\n".join(f"  {cid}: {', '.join(vs)}" for cid, vs in sorted(nothing.items()))


def test_a_site_is_a_line_of_the_code():
    """The lines found are real uses: ELIMINATION_OVER_150 where the game checks the limit, and the
    cards dealt (DEAL_SINGLY_THIRTEEN_EACH) on the deal."""
    where = sites()
    assert any(s.startswith("deal.py:") for s in where["deal.singly_thirteen_each"])
    assert any(s.startswith("game.py:") for s in where["elimination.over_150"])


def test_a_clause_fixing_a_parameter_holds_under_every_variants_own_parameters():
    """A clause whose statement fixes a parameter's value (its registry ``parameter``) gives way to
    its ``otherwise`` only under a house rule: under every variant's own parameters no verdict cites
    an ``otherwise`` clause."""
    reg = registry()
    fixing = {cid: c.parameter for cid, c in reg.items() if c.parameter is not None}
    assert fixing
    for cid, p in fixing.items():
        assert _pointer_problem(p.pointer) is None, cid
        assert p.otherwise in reg, cid
    otherwise = {p.otherwise for p in fixing.values()}
    for v in all_variants():
        for cid in v.clauses:
            if cid in fixing:
                assert v.parameter(fixing[cid].pointer) == fixing[cid].value, (v.id, cid)
        cited = {v.cite(c) for c in named_in_code()}
        assert not cited & otherwise, (v.id, cited & otherwise)
