"""The code type-checks under ``mypy --strict`` (the ``[tool.mypy]`` section of pyproject.toml): the
rules core, the web layer, the vectors' Python, the tools and the benchmarks; and no function of
the web layer is longer than a screen."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytest.importorskip("mypy.api")

from tools import package_tree  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

_ERROR = re.compile(r"^(?P<path>[^:\n]+):\d+(?::\d+)?: error: ", re.MULTILINE)


@pytest.fixture(scope="module")
def mypy_report() -> tuple[str, int]:
    """(mypy's report, its exit status) with the project's configuration, over the package laid out as
    the wheel lays it out (tools/package_tree.py: mypy reads folders, not the checkout's finder)."""
    return package_tree.mypy()


def _errors(report: str) -> list[tuple[str, str]]:
    """(file, line of the report) for every error mypy reports."""
    return [(package_tree.source_path(m["path"]), line) for line in report.splitlines() if (m := _ERROR.match(line))]


def test_the_code_is_strictly_typed(mypy_report: tuple[str, int]) -> None:
    report, status = mypy_report
    errors = _errors(report)
    assert not errors and status == 0, f"mypy --strict reports {len(errors)} error(s):\n{report}"


def test_every_part_is_checked(mypy_report: tuple[str, int]) -> None:
    # mypy read every module of the five parts (its count of source files)
    report, _ = mypy_report
    found = re.search(r"in (\d+) source files", report)
    parts = [ROOT / "kalooki_referee", *(ROOT / p for p in (*package_tree.MAPPED, *package_tree.BESIDE))]
    sources = [f for p in parts for f in p.rglob("*.py") if not {"node_modules", "__pycache__"} & set(f.parts)]
    assert found and int(found[1]) == len(sources), report


LONGEST_FUNCTION = 60  # lines, in api/ and rules/ (issues 24 and 25): each function does one job a reader takes in at once


def long_functions(root: Path) -> list[str]:
    """The functions of ``root``'s modules longer than LONGEST_FUNCTION lines, as path:line name (n)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > LONGEST_FUNCTION:
                    found.append(f"{path.relative_to(root.parent).as_posix()}:{node.lineno} {node.name} ({length})")
    return found


def test_no_function_of_the_web_layer_is_over_60_lines() -> None:
    assert long_functions(ROOT / "api") == []


def test_no_function_of_the_rules_core_is_over_60_lines() -> None:
    assert long_functions(ROOT / "rules") == []


def test_the_length_check_sees_a_long_function(tmp_path: Path) -> None:
    (tmp_path / "api").mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(LONGEST_FUNCTION))
    (tmp_path / "api" / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}")
    assert long_functions(tmp_path / "api") == [f"api/m.py:5 long ({LONGEST_FUNCTION + 1})"]


# -- the wire, gathered: JSON-shaped values (``Mapping[str, Any]``, ``dict[str, Any]``) belong to
# rules/wire/ alone; every other module of the core takes and returns typed values.
JSON_SHAPED = re.compile(r"\b(?:Mapping|dict)\[str, Any\]")


def json_shaped(root: Path) -> dict[str, int]:
    """Module (relative to ``root``) -> how many JSON-shaped annotations it has, outside ``wire/``."""
    counts = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if not rel.startswith("wire/") and (n := len(JSON_SHAPED.findall(path.read_text(encoding="utf-8")))):
            counts[rel] = n
    return counts


def test_json_shaped_values_only_leave_the_rules_core_for_the_wire() -> None:
    assert json_shaped(ROOT / "rules") == {}


def test_the_json_shape_count_sees_a_mapping(tmp_path: Path) -> None:
    (tmp_path / "wire").mkdir()
    (tmp_path / "wire" / "w.py").write_text("def f(d: Mapping[str, Any]) -> dict[str, Any]: ...\n")
    (tmp_path / "m.py").write_text("def f(d: Mapping[str, Any], e: Mapping[str, int]) -> dict[str, Any]: ...\n")
    assert json_shaped(tmp_path) == {"m.py": 2}
