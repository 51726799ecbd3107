"""Every generated file of the repository, written or checked by one command.

    python -m tools.generate            # rewrite every generated file, in the order they depend on
    python -m tools.generate --check    # exit 1 and name each generated file that is out of date

The generated files and what they come from, in the order they are written (a later one reads
earlier ones):

1. ``rules/clause_ids.py``, from the clause registry (``tools.clause_tools``);
2. ``rules/variant.schema.yaml``'s generated half, openapi.yaml's ``Rules`` block and
   ``docs/parameters.md``, from ``rules/params.py`` (``tools.params``);
3. the vector files ``vectors/<variant>/<topic>.json``, from ``vectors/src/`` (``vectors.build``);
4. openapi.yaml's examples block, from the vectors and ``examples/`` (``tools.openapi_examples``).

Each tool keeps its own ``--write``/``--check`` for work on one kind; this command runs them all.
``tests/project/test_generated.py`` runs the check in the default test run.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass

from kalooki_referee.vectors import build
from tools import clause_tools, openapi_examples, params


@dataclass(frozen=True)
class Generated:
    """One kind of generated file: what it is, which of its files are stale, how to rewrite them."""
    name: str
    stale: Callable[[], list[str]]
    write: Callable[[], object]


def _clause_ids_stale() -> list[str]:
    target = clause_tools.TARGET
    fresh = target.exists() and target.read_text(encoding="utf-8") == clause_tools.generate()
    return [] if fresh else [str(target.relative_to(clause_tools.ROOT))]


def _params_stale() -> list[str]:
    return [str(path.relative_to(params.ROOT)) for path in params.stale()]


def _quiet(run: Callable[[], int]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = run()
    return code, out.getvalue()


def _vectors_stale() -> list[str]:
    code, said = _quiet(lambda: build.main(["--check"]))
    if code == 0:
        return []
    return [line.strip() for line in said.splitlines() if line.startswith("  ")] or ["vectors/: " + said.strip()]


def _vectors_write() -> None:
    code, said = _quiet(lambda: build.main([]))
    if code:
        raise SystemExit(said)


def _examples_stale() -> list[str]:
    code, _ = _quiet(lambda: openapi_examples.main(["--check"]))
    return ["openapi.yaml (examples block)"] if code else []


GENERATED: tuple[Generated, ...] = (
    Generated("clause ids", _clause_ids_stale, lambda: clause_tools.main(["--generate"])),
    Generated("parameters", _params_stale, lambda: params.main(["--write"])),
    Generated("vectors", _vectors_stale, _vectors_write),
    Generated("openapi examples", _examples_stale, lambda: openapi_examples.main(["--write"])),
)


def stale() -> list[str]:
    """Every generated file that is not what its sources give, named from the repository root."""
    return [path for kind in GENERATED for path in kind.stale()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 and name each generated file out of date")
    args = parser.parse_args(argv)
    if args.check:
        out = stale()
        for path in out:
            print(f"{path} is out of date: run python -m tools.generate")
        return 1 if out else 0
    for kind in GENERATED:
        kind.write()
        print(f"wrote the {kind.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
