"""How much of the rules core the vectors alone reach: statement and branch coverage of the runtime
modules of ``rules/``, with every vector run in process and nothing else.

    python -m tools.vector_coverage [--min 97] [--missing] [--json FILE]

The vectors go through the in-process service (the Flask test client), as ``tools.mutation
vectors`` runs them; coverage (branch mode) records only the ``kalooki_referee.rules`` package, and
the unit tests are not run, so a line counts as reached only when some vector reaches it.  The
measured modules are every module of the package but two: the maintainer's generator
``clause_tools.py``, if present, and the contract's check, ``wire/contract.py``, which is JSON
Schema machinery rather than a rule, and is held to the reference validator by its own test
(tests/api/test_decoder.py) on the vectors, the fuzz corpus and generated bodies.

A line the API cannot reach may be marked, on the line itself, ``# pragma: no cover - <reason>``
(or ``# pragma: no branch - <reason>`` for a branch that can go only one way); the report lists
every such mark with its reason, and refuses a mark without one.

It prints a line per module and the totals: statements and branches apart, and together as
coverage.py counts them with ``--branch`` (reached statements and branch arcs over all statements
and arcs).  It exits 1 when that combined figure is below ``--min`` percent (or a mark has no reason,
or a vector fails).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import coverage

PACKAGE = "kalooki_referee.rules"
NOT_MEASURED = ("clause_tools.py", "wire/contract.py")  # (paths within rules/: see above)
# a coverage mark and the reason after it: `# pragma: no cover - why` / `# pragma: no branch - why`
MARK = re.compile(r"#\s*pragma:\s*no (cover|branch)\b(.*)$")
REASON = re.compile(r"^\s*[-:(]\s*\S.{8,}")


@dataclass(frozen=True)
class ModuleCoverage:
    path: str
    statements: int
    statements_hit: int
    branches: int
    branches_hit: int
    missing: str

    @staticmethod
    def share(hit: int, total: int) -> float:
        return 100.0 if total == 0 else 100.0 * hit / total


@dataclass(frozen=True)
class Mark:
    path: str
    line: int
    kind: str
    reason: str


def runtime_dir() -> Path:
    """The folder the ``kalooki_referee.rules`` package is imported from (without importing it)."""
    import importlib.util
    spec = importlib.util.find_spec(PACKAGE)
    assert spec is not None and spec.submodule_search_locations, PACKAGE
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def marks(folder: Path) -> list[Mark]:
    """Every coverage mark in the runtime modules, with its reason ('' where it gives none)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        if path.relative_to(folder).as_posix() in NOT_MEASURED:
            continue
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = MARK.search(text)
            if m:
                reason = m.group(2)
                found.append(Mark(f"rules/{path.relative_to(folder).as_posix()}", n, m.group(1),
                                  reason.strip(" -:()") if REASON.match(reason) else ""))
    return found


def _coverage(data_file: str | None) -> "coverage.Coverage":
    import coverage
    folder = runtime_dir()
    return coverage.Coverage(branch=True, data_file=data_file, source_pkgs=[PACKAGE],
                             omit=[str(folder / name) for name in NOT_MEASURED])


def _measure_shard(data_file: str, shard: int, shards: int) -> int:
    """Run the vectors of one shard (every ``shards``-th, from the ``shard``-th) under coverage, saving
    the data to ``data_file``: the exit status of the vectors' run."""
    cov = _coverage(data_file)
    cov.start()
    try:
        from tools.mutation import vectors_main
        status = vectors_main(shard=(shard, shards))
    finally:
        cov.stop()
    cov.save()
    return status


def measure(shards: int = 2) -> list[ModuleCoverage]:
    """Run every vector in process under coverage; the coverage of each runtime module.  The vectors
    are dealt round-robin to ``shards`` processes that run side by side (coverage is several times
    slower than the run alone, and the test run is otherwise one process); their data is combined."""
    import multiprocessing
    with tempfile.TemporaryDirectory() as tmp:
        files = [str(Path(tmp) / f"shard.{i}") for i in range(shards)]
        with multiprocessing.get_context("spawn").Pool(shards) as pool:
            statuses = pool.starmap(_measure_shard, [(f, i, shards) for i, f in enumerate(files)])
        if any(statuses):
            raise SystemExit("a vector fails: the coverage of a failing suite is not measured")
        cov = _coverage(str(Path(tmp) / "combined"))
        cov.combine(files, keep=True)
        out = Path(tmp) / "coverage.json"
        cov.json_report(outfile=str(out), show_contexts=False)
        data = json.loads(out.read_text(encoding="utf-8"))
    modules = []
    folder = runtime_dir().resolve()
    for name, f in sorted(data["files"].items()):
        s = f["summary"]
        modules.append(ModuleCoverage(
            path=f"rules/{Path(name).resolve().relative_to(folder).as_posix()}", statements=s["num_statements"],
            statements_hit=s["covered_lines"],
            branches=s["num_branches"], branches_hit=s["covered_branches"],
            missing=_ranges(f["missing_lines"], f.get("missing_branches", []))))
    return modules


def _ranges(lines: list[int], branches: list[list[int]]) -> str:
    parts = [str(n) for n in lines]
    parts += [f"{a}->{b if b > 0 else 'exit'}" for a, b in branches if a not in lines]
    return ", ".join(parts)


def totals(modules: list[ModuleCoverage]) -> tuple[float, float, float]:
    """(statements %, branches %, both together %) over all the modules."""
    s = sum(m.statements for m in modules)
    sh = sum(m.statements_hit for m in modules)
    b = sum(m.branches for m in modules)
    bh = sum(m.branches_hit for m in modules)
    return ModuleCoverage.share(sh, s), ModuleCoverage.share(bh, b), ModuleCoverage.share(sh + bh, s + b)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vector_coverage", description=__doc__.split("\n")[0])
    parser.add_argument("--min", type=float, default=97.0, help="the least percent of statements and branches together")
    parser.add_argument("--missing", action="store_true", help="list the lines and branches no vector reaches")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--processes", type=int, default=2, help="how many processes share the vectors (default 2)")
    args = parser.parse_args(argv)
    modules = measure(max(1, args.processes))
    print(f"{'module':24} {'statements':>16} {'branches':>16}")
    for m in modules:
        print(f"{m.path:24} {m.statements_hit:5}/{m.statements:<5} {m.share(m.statements_hit, m.statements):5.1f}%"
              f" {m.branches_hit:5}/{m.branches:<5} {m.share(m.branches_hit, m.branches):5.1f}%")
        if args.missing and m.missing:
            print(f"    not reached: {m.missing}")
    stmts, branches, both = totals(modules)
    print(f"vectors-only coverage of rules/: {both:.1f}% of statements and branches together (least {args.min:g}%); "
          f"statements {stmts:.1f}%, branches {branches:.1f}%")
    found = marks(runtime_dir())
    unexplained = [mark for mark in found if not mark.reason]
    print(f"lines marked unreachable through the API: {len(found)} ({len(unexplained)} without a reason)")
    for mark in unexplained:
        print(f"    {mark.path}:{mark.line}: `pragma: no {mark.kind}` without a reason")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "combined": round(both, 2), "statements": round(stmts, 2), "branches": round(branches, 2), "minimum": args.min,
            "modules": [m.__dict__ for m in modules], "marks": [m.__dict__ for m in found]}, indent=1), encoding="utf-8")
    return 0 if both >= args.min and not unexplained else 1


if __name__ == "__main__":
    sys.exit(main())
