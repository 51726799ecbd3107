"""No function of the rules core runs over 60 lines: each does one job a reader takes in at once
(issue 24).  Lines are counted from the ``def`` to the function's last line, its docstring included."""
from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
LIMIT = 60


def long_functions(root: Path = RULES, limit: int = LIMIT) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > limit:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({size} lines)")
    return found


def test_no_function_in_the_rules_core_runs_over_60_lines():
    assert long_functions() == []


def test_the_count_finds_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n\n\ndef short():\n    return 1\n", encoding="utf-8")
    assert [line.split(" ")[1] for line in long_functions(tmp_path)] == ["long"]
