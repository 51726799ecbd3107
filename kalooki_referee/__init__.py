"""The Kalooki referee: a stateless REST service that adjudicates the Kalooki family of rummy games.

The distribution installs one package, ``kalooki_referee``, holding the project's three packages:
``kalooki_referee.rules`` (the pure rules core), ``kalooki_referee.api`` (the Flask edge) and
``kalooki_referee.vectors`` (the conformance suite and its runner).  In the repository they are the
top-level folders ``rules/``, ``api/`` and ``vectors/``, mapped into this package by pyproject.toml's
``package-dir`` (the wheel holds them inside it).  Run from a checkout, where this folder holds no
``rules/``, a finder placed first on ``sys.meta_path`` reads the three names from the folders beside
this one: a checkout (a worktree, the mutation tool's scratch copy) imports its own code, never an
installed copy's, and no symbolic link is needed.
"""
from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path
from types import ModuleType
from typing import Sequence

__version__ = "0.2.0"  # the one place the version is written; pyproject.toml and the service read it

SUBPACKAGES = ("rules", "api", "vectors")
_HERE = Path(__file__).resolve().parent


class CheckoutFinder(MetaPathFinder):
    """Finds ``kalooki_referee.rules``, ``.api`` and ``.vectors`` in the checkout's top-level folders."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        parent, _, child = fullname.rpartition(".")
        if parent != __name__ or child not in SUBPACKAGES:
            return None
        return PathFinder.find_spec(fullname, [self.root])


if not (_HERE / "rules").is_dir() and (_HERE.parent / "rules" / "__init__.py").is_file():
    sys.meta_path.insert(0, CheckoutFinder(_HERE.parent))
