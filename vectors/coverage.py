"""Clause coverage: which registry clauses the vectors test, as each clause's kind asks.

An ``action`` clause is covered by a vector citing it where the action is legal and one where it is
not (a verdict with ``legal: false``, or a refused request); an ``outcome`` clause by a vector citing
it that checks a computed result (state, response fields, result or events)."""
from __future__ import annotations

from dataclasses import dataclass

from kalooki_referee.rules.clauses import registry
from kalooki_referee.rules.wire.variant import load_variant

from .suite import Vector


@dataclass(frozen=True)
class ClauseCoverage:
    clause: str
    kind: str
    level: str
    legal: int
    illegal: int
    outcome: int

    @property
    def covered(self) -> bool:
        if self.kind == "action":
            return self.legal > 0 and self.illegal > 0
        return self.outcome > 0

    @property
    def missing(self) -> str:
        if self.covered:
            return ""
        if self.kind == "action":
            return " and ".join(w for w, n in (("a legal vector", self.legal), ("an illegal vector", self.illegal)) if not n)
        return "a vector checking the result"


def _is_legal(v: Vector) -> bool | None:
    exp = v.expected
    if exp.get("status", 200) >= 400:
        return False
    if "legal" in exp:
        return bool(exp["legal"]) if exp["legal"] is not None else None
    response = exp.get("response", {})
    if v.endpoint == "melds/check" and "/valid" in response:
        return bool(response["/valid"]) if response["/valid"] is not None else None
    if v.endpoint == "scoresheet":
        if response.get("/inconsistency") is None and "/inconsistency" in response:
            return True
        if "/inconsistency/clause" in response:
            return False
    if v.endpoint in ("games", "deal"):  # a 200 answer: the players, stakes and seed were accepted
        return True
    return None


def _checks_result(v: Vector) -> bool:
    exp = v.expected
    return any(k in exp for k in ("state", "response", "result", "events"))


def coverage(vectors: list[Vector], variant: str, level: str | None = None) -> list[ClauseCoverage]:
    """Coverage of the registry clauses of ``variant`` (optionally only those of one ``level``) by the
    vectors run for that variant."""
    mine = [v for v in vectors if v.variant == variant]
    governed = set(load_variant(variant).clauses)  # the variant file's clauses (rules/variants/<id>.yaml)
    out = []
    for cid, c in registry().items():
        if cid not in governed or (level and c.level != level):
            continue
        citing = [v for v in mine if cid in v.data["clauses"]]
        legal = sum(1 for v in citing if _is_legal(v) is True)
        illegal = sum(1 for v in citing if _is_legal(v) is False)
        outcome = sum(1 for v in citing if _checks_result(v))
        out.append(ClauseCoverage(cid, c.kind, c.level, legal, illegal, outcome))
    return out


def format_report(rows: list[ClauseCoverage], variant: str) -> str:
    lines = [f"clause coverage for {variant}:"]
    for r in rows:
        mark = "ok " if r.covered else "GAP"
        lines.append(f"  {mark} {r.clause:<48} {r.kind:<7} {r.level:<4} legal={r.legal} illegal={r.illegal} "
                     f"checked={r.outcome}" + (f"  needs {r.missing}" if r.missing else ""))
    done = sum(1 for r in rows if r.covered)
    lines.append(f"  {done}/{len(rows)} clauses covered ({100 * done // max(1, len(rows))}%)")
    return "\n".join(lines)
