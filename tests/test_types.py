"""The rules core type-checks under ``mypy --strict`` (the ``[tool.mypy]`` section of pyproject.toml)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("mypy.api")

from tools import package_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

_ERROR = re.compile(r"^(?P<path>[^:\n]+):\d+(?::\d+)?: error: ", re.MULTILINE)


@pytest.fixture(scope="module")
def mypy_report() -> tuple[str, int]:
    """(mypy's report, its exit status) with the project's configuration, over the package laid out as
    the wheel lays it out (tools/package_tree.py: mypy reads folders, not the checkout's finder)."""
    return package_tree.mypy(targets=("kalooki_referee/rules",))


def _errors(report: str) -> list[tuple[str, str]]:
    """(file, line of the report) for every error mypy reports."""
    return [(package_tree.source_path(m["path"]), line) for line in report.splitlines() if (m := _ERROR.match(line))]


def test_rules_package_is_strictly_typed(mypy_report: tuple[str, int]) -> None:
    report, status = mypy_report
    errors = _errors(report)
    assert not errors and status == 0, f"mypy --strict reports {len(errors)} error(s):\n{report}"
