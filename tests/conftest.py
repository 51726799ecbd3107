"""Shared fixtures, in the style of the Flask tutorial: an app per test and its test client."""
from __future__ import annotations

import pytest

from kalooki_referee.api import create_app


@pytest.fixture
def app():
    app = create_app({"TESTING": True})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()
