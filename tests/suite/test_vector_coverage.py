"""The vectors alone reach at least 97% of the rules core (statements and branches together, as
coverage.py counts them with ``--branch``): tools/vector_coverage.py runs every vector in process
under coverage, and nothing else.  The figure is printed at the end of the test run."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tools import vector_coverage

ROOT = Path(__file__).resolve().parents[2]
LEAST = 97.0


def test_the_vectors_alone_cover_the_rules_core(tmp_path, summary_lines):
    out = tmp_path / "coverage.json"
    proc = subprocess.run([sys.executable, "-m", "tools.vector_coverage", "--min", str(LEAST), "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    figures = json.loads(out.read_text(encoding="utf-8"))
    summary_lines.append(f"vectors-only coverage of rules/: {figures['combined']:.1f}% of statements and branches "
                         f"(statements {figures['statements']:.1f}%, branches {figures['branches']:.1f}%; least {LEAST:g}%)")
    assert figures["combined"] >= LEAST, proc.stdout[-4000:]
    assert not [m for m in figures["marks"] if not m["reason"]], proc.stdout[-2000:]
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    # every runtime module is measured (none left out by a path the tool did not expect)
    measured = {m["path"] for m in figures["modules"]}
    folder = vector_coverage.runtime_dir()
    runtime = {f"rules/{p.relative_to(folder).as_posix()}" for p in folder.rglob("*.py")} - {f"rules/{name}" for name in vector_coverage.NOT_MEASURED}
    assert measured == runtime


def test_a_mark_without_a_reason_is_found(tmp_path):
    (tmp_path / "m.py").write_text("x = 1  # pragma: no cover\n"
                                   "y = 2  # pragma: no cover - the API never sends a seat twice\n"
                                   "if x:  # pragma: no branch\n    pass\n")
    found = vector_coverage.marks(tmp_path)
    assert [(m.line, m.kind, bool(m.reason)) for m in found] == [(1, "cover", False), (2, "cover", True), (3, "branch", False)]
    assert found[1].reason == "the API never sends a seat twice"
