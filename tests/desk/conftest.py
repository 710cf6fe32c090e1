"""The desk's database tests run on SQLite and on a real PostgreSQL server (the server tests' fixtures)."""

from tests.server.conftest import db_url, postgres_server, postgres_url  # noqa: F401 - fixtures shared with the server tests
