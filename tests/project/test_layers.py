"""The module layering and the privacy of names.

The import-linter contracts in pyproject.toml (the rules core never imports the web layer, Flask or
the vectors; the packages and the modules of the rules core in layers, so without cycles) are run as
a test, and no module of ``rules``, ``api`` or ``vectors`` reaches for another module's private
name (``from X import _name``, or ``module._name`` through an imported module).  import-linter reads
folders, so it runs over the package laid out as the wheel lays it out (tools/package_tree.py)."""
from __future__ import annotations

import ast
from pathlib import Path

from tools import package_tree

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "api", "vectors")
DIST = "kalooki_referee"  # the one installed package that holds them


def _lint(config: Path) -> int:
    report, status = package_tree.imports(config=config)
    assert "Could not find package" not in report, report
    return status


def test_the_import_contracts_are_kept():
    report, status = package_tree.imports()
    assert status == 0 and "0 broken" in report, report


def test_a_broken_contract_fails(tmp_path):
    # the same run fails when a contract is broken: here the rules core put above the web layer
    config = tmp_path / "broken.toml"
    config.write_text('[tool.importlinter]\nroot_packages = ["kalooki_referee"]\n\n'
                      '[[tool.importlinter.contracts]]\nname = "upside down"\ntype = "layers"\n'
                      'layers = ["kalooki_referee.rules", "kalooki_referee.api"]\n')
    assert _lint(config) != 0


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_names(root: Path, package: str) -> set[str]:
    """The dotted names of the modules and packages of ``package``."""
    names = set()
    for path in (root / package).rglob("*.py"):
        parts = (DIST, *path.relative_to(root).with_suffix("").parts)
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def private_imports(root: Path = ROOT) -> list[str]:
    """Every place in ``rules``, ``api`` and ``vectors`` that takes a private name from another module."""
    modules = set().union(*(_module_names(root, p) for p in PACKAGES))
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root)
            where = (DIST, *rel.with_suffix("").parts)  # a package's __init__ included: relative imports resolve from it
            tree = ast.parse(path.read_text(), str(rel))
            bound: set[str] = set()  # local names bound to modules
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    base = list(where[:-node.level]) if node.level else []
                    source = ".".join(base + ([node.module] if node.module else []))
                    if any(_private(p) for p in source.split(".")):
                        found.append(f"{rel}:{node.lineno}: from {source} import ...")
                    for alias in node.names:
                        if _private(alias.name):
                            found.append(f"{rel}:{node.lineno}: from {source} import {alias.name}")
                        elif f"{source}.{alias.name}" in modules:
                            bound.add(alias.asname or alias.name)
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        if any(_private(p) for p in alias.name.split(".")):
                            found.append(f"{rel}:{node.lineno}: import {alias.name}")
                        bound.add(alias.asname or alias.name.split(".")[0])
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id in bound and _private(node.attr)):
                    found.append(f"{rel}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_private_name_is_imported_across_modules():
    assert private_imports() == []


def test_the_privacy_check_sees_a_private_import(tmp_path):
    # the check itself: a module reaching for another's private name is reported
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "rules" / "a.py").write_text("def _hidden():\n    pass\n")
    (tmp_path / "rules" / "b.py").write_text("from .a import _hidden\nfrom . import a\n\na._hidden()\n")
    (tmp_path / "api" / "c.py").write_text("import kalooki_referee.rules.a\nfrom kalooki_referee.rules import a as x\n\nx._hidden()\n")
    assert sorted(private_imports(tmp_path)) == ["api/c.py:4: x._hidden", "rules/b.py:1: from kalooki_referee.rules.a import _hidden",
                                         "rules/b.py:4: a._hidden"]
