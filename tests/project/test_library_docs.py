"""docs/library.md: every `python` block runs, in order, in one namespace, from an empty temporary
folder (so the examples' own assertions are the test, and no example leans on the checkout's files);
what the blocks print is shown on the page; and every name the page imports exists."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "library.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_the_library_page_has_examples():
    assert len(BLOCK.findall(PAGE.read_text())) >= 6


def test_the_page_opens_with_a_table_played_on():
    text = PAGE.read_text()
    first = BLOCK.findall(text)[0]
    assert text.index("```python") < text.index("\n## ")   # before the first section
    for step in ("Table.dealt(", ".legal_moves", ".push(\"", "except IllegalMove", ".pop()", "print(table)"):
        assert step in first, step


def test_every_example_of_the_library_page_runs(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "library_md"}
    text = PAGE.read_text()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for i, code in enumerate(BLOCK.findall(text)):
            exec(compile(code, f"{PAGE.name} block {i + 1}", "exec"), namespace)
    lines = [line for line in printed.getvalue().splitlines() if line.strip()]
    assert len(lines) >= 8
    shown = {m.strip() for m in re.findall(r"# (.*)$", text, re.M)}
    missing = [line for line in lines if line.strip() not in shown and not any(s.startswith(line.strip()) for s in shown)]
    assert missing == [], "printed but not shown on the page"
    assert list(tmp_path.iterdir()) == []
