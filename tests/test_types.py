"""The rules core type-checks under ``mypy --strict`` (the ``[tool.mypy]`` section of pyproject.toml)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parent.parent

_ERROR = re.compile(r"^(?P<path>[^:\n]+):\d+(?::\d+)?: error: ", re.MULTILINE)


@pytest.fixture(scope="module")
def mypy_report() -> tuple[str, int]:
    """(mypy's report, its exit status) for ``rules/`` with the project's configuration."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        stdout, stderr, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "kalooki_referee/rules"])
    finally:
        os.chdir(cwd)
    return stdout + stderr, status


def _errors(report: str) -> list[tuple[str, str]]:
    """(file, line of the report) for every error mypy reports."""
    return [(Path(m["path"]).as_posix(), line) for line in report.splitlines() if (m := _ERROR.match(line))]


def test_rules_package_is_strictly_typed(mypy_report: tuple[str, int]) -> None:
    report, status = mypy_report
    errors = _errors(report)
    assert not errors and status == 0, f"mypy --strict reports {len(errors)} error(s):\n{report}"
