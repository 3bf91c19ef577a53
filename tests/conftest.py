"""Fixtures every test folder may use: the databases of both backends.

``database`` is parametrized: a test that takes it runs once on an SQLite file and once on a
fresh database of a real PostgreSQL server, started (from the machine's binaries) the first time
a test needs it and stopped when the session ends.

Tests marked ``slow`` (several seconds each: whole games, several bot processes, a browser)
are collected first. The workers take tests in the order collected, two in hand at a time
(``--maxschedchunk 1`` in pyproject.toml's addopts), so the long ones start early, spread over
every worker, and share the cores with the many short ones, instead of one of them starting
last and running alone while the other workers wait.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.postgres import PostgresServer, postgres_server

BACKENDS = ("sqlite", "postgresql")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``slow`` tests first, each group in its collected order."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The tests' PostgreSQL server (one for the session)."""
    with postgres_server() as server:
        yield server


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """What :func:`bot.storage.open_database` opens: a new SQLite file's path, or the URL of
    a new PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "nardy.sqlite3"
    server: PostgresServer = request.getfixturevalue("postgres")
    return await server.new_database()
