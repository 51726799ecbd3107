"""The installed package's shape, made from a checkout for the static checks (mypy, import-linter).

The repository keeps ``rules/``, ``api/`` and ``vectors/`` at its top and maps them into the package
``kalooki_referee`` when it is built (pyproject.toml's ``package-dir``); at run time a checkout finds
them through ``kalooki_referee``'s checkout finder.  The static checks read folders, not finders, so
they run over a copy of the Python sources laid out as the wheel lays them out:

    build/package-tree/kalooki_referee/{__init__.py, cli.py, rules/, api/, vectors/}
    build/package-tree/{tools,benchmarks}/

    python -m tools.package_tree mypy      # mypy --strict (pyproject's [tool.mypy]) over the tree
    python -m tools.package_tree imports   # import-linter's contracts (pyproject's [tool.importlinter])

The copies keep their sources' times, so mypy's cache (the repository's .mypy_cache) still serves.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "package-tree"
PACKAGE = "kalooki_referee"
MAPPED = ("rules", "api", "vectors")    # mapped into the package
BESIDE = ("tools", "benchmarks")        # top-level packages of their own, checked beside it
TYPED = (PACKAGE, *BESIDE)              # what mypy checks


def _copy_sources(src: Path, dest: Path) -> None:
    shutil.copytree(src, dest, ignore=lambda d, names: [n for n in names if not (
        n.endswith(".py") or n == "py.typed" or ((Path(d) / n).is_dir() and n not in ("__pycache__", "node_modules")))])


def build(root: Path = ROOT, tree: Path = TREE) -> Path:
    """The tree, made afresh from ``root``'s sources; returns its folder."""
    if tree.exists():
        shutil.rmtree(tree)
    _copy_sources(root / PACKAGE, tree / PACKAGE)
    for name in MAPPED:
        _copy_sources(root / name, tree / PACKAGE / name)
    for name in BESIDE:
        _copy_sources(root / name, tree / name)
    return tree


def source_path(path: str, root: Path = ROOT, tree: Path = TREE) -> str:
    """A path of a report on the tree, as the repository's file it copies."""
    parts = Path(path).parts
    if parts[:1] == (PACKAGE,) and len(parts) > 1 and parts[1] in MAPPED:
        parts = parts[1:]
    return Path(*parts).as_posix()


def mypy(root: Path = ROOT, targets: tuple[str, ...] = TYPED) -> tuple[str, int]:
    """(mypy's report, its exit status) over the tree (or ``targets`` in it), with the project's
    configuration."""
    from mypy import api
    tree = build(root)
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        stdout, stderr, status = api.run(["--config-file", str(root / "pyproject.toml"),
                                          "--cache-dir", str(root / ".mypy_cache"), *targets])
    finally:
        os.chdir(cwd)
    return stdout + stderr, status


def imports(root: Path = ROOT, config: Path | None = None) -> tuple[str, int]:
    """(import-linter's report, its exit status) over the tree; a process of its own, in which
    ``kalooki_referee`` is the tree's."""
    tree = build(root)
    code = ("import sys; from importlinter import cli; "
            f"sys.exit(cli.lint_imports(config_filename={str(config or root / 'pyproject.toml')!r}, "
            "no_cache=True, no_logo=True))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, timeout=300)
    return done.stdout + done.stderr, done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.package_tree", description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=("mypy", "imports"))
    args = parser.parse_args(argv)
    report, status = mypy() if args.check == "mypy" else imports()
    print(report, end="")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
