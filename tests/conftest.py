"""Fixtures every test folder may use: the databases of both backends.

``database`` is parametrized: a test that takes it runs once on an SQLite file and once on a
fresh database of a real PostgreSQL server, started (from the machine's binaries) the first time
a test needs it and stopped when the session ends.

The workers take tests in the order collected, two in hand at a time (``--maxschedchunk 1``
in pyproject.toml's addopts). The tests that drive a running bot (``tests/bot``,
``tests/webapp``) spend much of their time waiting on it, its timers and its servers; the others
compute. The order mixes the two evenly, so that the cores compute while some workers wait, and
the ``slow`` ones (several seconds each: whole games, several bot processes, a browser) all
start in its first part, so that none of them starts last and runs alone while the other
workers wait.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.postgres import PostgresServer, postgres_server

BACKENDS = ("sqlite", "postgresql")

WAITING = frozenset({"bot", "webapp"})
"""The test folders whose tests wait on a running bot more than they compute."""

SLOW_BEFORE = 0.7
"""How far into the order (as a share of it) the last ``slow`` test of each kind comes."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Four groups, the tests that wait and those that compute, each split into its ``slow``
    tests and the others; each group keeps its collected order and is spread evenly over the
    run, the slow ones over its first ``SLOW_BEFORE`` only."""
    spread: list[tuple[float, int, pytest.Item]] = []
    groups = itertools.product((True, False), ((True, SLOW_BEFORE), (False, 1.0)))
    for kind, (waits, (slow, span)) in enumerate(groups):
        group = [
            item
            for item in items
            if (item.path.parent.name in WAITING) is waits
            and (item.get_closest_marker("slow") is not None) is slow
        ]
        spread += [(span * (n + 0.5) / len(group), kind, item) for n, item in enumerate(group)]
    items[:] = [item for *_, item in sorted(spread, key=lambda entry: entry[:2])]


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The tests' PostgreSQL server (one for the session)."""
    with postgres_server() as server:
        yield server


@pytest.fixture(params=BACKENDS)
async def migrated_database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """As ``database``, with the bot's schema built (for the PostgreSQL one, by copying a
    database migrated once)."""
    if request.param == "sqlite":
        return tmp_path / "nardy.sqlite3"  # migrating an SQLite file costs less than copying
    server: PostgresServer = request.getfixturevalue("postgres")
    return await server.new_migrated_database()


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """What :func:`bot.storage.open_database` opens: a new SQLite file's path, or the URL of
    a new PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "nardy.sqlite3"
    server: PostgresServer = request.getfixturevalue("postgres")
    return await server.new_database()
