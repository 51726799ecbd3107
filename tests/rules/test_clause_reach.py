"""Every clause one step from its code.

``rules/clause_ids.py`` is generated from the registry and up to date; code names clauses only
through its constants (no clause-id string literal is left in ``rules/*.py`` or ``api/*.py``); and
every clause a variant file lists is named in code by its constant (found by parsing the code), or
reached through the variant's ``clause_map`` from a clause code names, or says under ``enforced_by``
in the registry which parameters and functions decide it, and those resolve."""
from __future__ import annotations

import ast
import dataclasses
import importlib
import types
import typing
from functools import lru_cache
from pathlib import Path

from kalooki_referee.rules import clause_ids
from tools import clause_tools
from kalooki_referee.rules.clauses import registry
from kalooki_referee.rules.params import Rules
from kalooki_referee.rules.variant import all_variants

ROOT = Path(__file__).resolve().parents[2]


def test_clause_ids_is_up_to_date_with_the_registry():
    assert clause_tools.TARGET.read_text(encoding="utf-8") == clause_tools.generate(), (
        "rules/clause_ids.py is out of date: run python -m tools.clause_tools --generate")


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


def _function_problem(dotted: str) -> str | None:
    parts = ["kalooki_referee", *dotted.split(".")]  # the registry names code within the distribution
    for i in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return f"{dotted}: no {attr!r} in {'.'.join(parts[:i])}"
        return None if callable(obj) else f"{dotted} is not a function"
    return f"{dotted}: no such module"


def enforced_by_problems(cid: str) -> list[str]:
    spec = registry()[cid].get("enforced_by")
    if not spec:
        return ["no enforced_by"]
    unknown = set(spec) - {"parameters", "functions", "note"}
    problems = [f"unknown enforced_by keys {sorted(unknown)}"] if unknown else []
    if not spec.get("parameters") and not spec.get("functions"):
        problems.append("enforced_by names neither a parameter nor a function")
    problems += [p for p in map(_pointer_problem, spec.get("parameters") or []) if p]
    problems += [p for p in map(_function_problem, spec.get("functions") or []) if p]
    return problems


def test_every_enforced_by_resolves():
    bad = {cid: enforced_by_problems(cid) for cid, c in registry().items() if "enforced_by" in c}
    bad = {cid: p for cid, p in bad.items() if p}
    assert not bad, bad


def test_every_clause_of_every_variant_is_one_step_from_its_code():
    named = named_in_code()
    nothing: dict[str, list[str]] = {}
    for v in all_variants():
        reached = {own for general, own in v.clause_map.items() if general in named}
        for cid in v.clauses:
            if cid in named or cid in reached or cid in v.not_enforced:  # a preview's clauses to come
                continue
            if "enforced_by" in registry()[cid] and not enforced_by_problems(cid):
                continue
            nothing.setdefault(cid, []).append(v.id)
    assert not nothing, "clauses enforced by nothing (name the constant where the clause is enforced, " \
                        "or say under enforced_by what decides it):\n" + \
                        "\n".join(f"  {cid}: {', '.join(vs)}" for cid, vs in sorted(nothing.items()))


def test_enforced_by_only_where_no_code_names_the_clause():
    """A clause named in code is found by "find usages" of its constant; enforced_by is for the rest
    (it would go stale beside a constant)."""
    both = sorted(cid for cid, c in registry().items() if "enforced_by" in c and cid in named_in_code())
    assert not both, both


def test_a_clause_fixing_a_parameter_holds_under_every_variants_own_parameters():
    """A clause whose statement fixes a parameter's value (its registry ``parameter``) gives way to
    its ``otherwise`` only under a house rule: under every variant's own parameters no verdict cites
    an ``otherwise`` clause."""
    reg = registry()
    fixing = {cid: c["parameter"] for cid, c in reg.items() if "parameter" in c}
    assert fixing
    for cid, p in fixing.items():
        assert _pointer_problem(p["pointer"]) is None, cid
        assert p["otherwise"] in reg, cid
    otherwise = {p["otherwise"] for p in fixing.values()}
    for v in all_variants():
        for cid in v.clauses:
            if cid in fixing:
                assert v.parameter(fixing[cid]["pointer"]) == fixing[cid]["value"], (v.id, cid)
        cited = {v.cite(c) for c in named_in_code()}
        assert not cited & otherwise, (v.id, cited & otherwise)
