"""Every generated file is what its sources give (``python -m tools.generate --check``), and the check
names the file that is not."""
from __future__ import annotations

from tools import clause_tools, generate


def test_every_generated_file_is_up_to_date():
    assert generate.stale() == [], "run python -m tools.generate"


def test_the_check_names_a_stale_file(monkeypatch):
    monkeypatch.setattr(clause_tools, "generate", lambda: "# not what the registry gives\n")
    assert generate.stale() == ["rules/clause_ids.py"]
    assert generate.main(["--check"]) == 1
