"""docs/library.md: every `python` block runs, in order, in one namespace, from the repository's root
(so the examples' own assertions are the test); and every name the page imports exists."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "library.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_the_library_page_has_examples():
    assert len(BLOCK.findall(PAGE.read_text())) >= 6


def test_every_example_of_the_library_page_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "library_md"}
    for i, code in enumerate(BLOCK.findall(PAGE.read_text())):
        exec(compile(code, f"{PAGE.name} block {i + 1}", "exec"), namespace)
