"""Markers of the console's tests, and the database fixtures (SQLite, PostgreSQL) it shares with the server's."""

from __future__ import annotations

import pytest

from tests.server.browser import browser, server  # noqa: F401 - fixtures shared with the server tests
from tests.server.conftest import db_url, postgres_server, postgres_url  # noqa: F401 - fixtures shared with the server tests


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real Chromium with Playwright")
