"""Shared fixtures, in the style of the Flask tutorial: an app per test and its test client."""
from __future__ import annotations

import os

import pytest

# The per-client budget of worker time (api/budget.py) is off for the suite, in process and in the servers the
# slow tests start (they inherit this environment): the suite sends thousands of requests from one
# address.  The tests of the budget itself turn it on.
os.environ.setdefault("KALOOKI_CLIENT_RATE", "0")

from kalooki_referee.api import create_app


@pytest.fixture
def app():
    app = create_app({"TESTING": True})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


# Figures a test measures and the run prints at its end (e.g. the vectors-only coverage of rules/):
# a test appends a line to ``summary_lines``; pytest's terminal summary prints them.
_SUMMARY: list[str] = []


@pytest.fixture
def summary_lines() -> list[str]:
    return _SUMMARY


def pytest_terminal_summary(terminalreporter):
    if _SUMMARY:
        terminalreporter.section("figures")
        for line in _SUMMARY:
            terminalreporter.write_line(line)
