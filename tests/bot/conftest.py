"""Fixtures that run the real bot against a fake Telegram server (see tests/support/harness.py).

Override ``services_factory`` in a test module to hand the handlers prepared services (a
seeded dice source, a clock of the test's own; :func:`tests.support.services.composed`)::

    @pytest.fixture
    def services_factory(clock: Clock) -> ServicesFactory:
        return composed(lambda store, _: compose(store, random.Random(1), clock=clock))
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import ServicesFactory
from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import BotHarness, running_bot


@pytest.fixture
def services_factory() -> ServicesFactory | None:
    """The services of the bot under test; None means ``bot.app.build_services`` (production)."""
    return None


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    """The SQLite file of the bot under test; it survives :meth:`BotHarness.restart`."""
    return tmp_path / "nardy.sqlite3"


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A fake Bot API server on 127.0.0.1, alone (no bot)."""
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot_harness(
    fake_telegram: FakeTelegram,
    database_path: Path,
    services_factory: ServicesFactory | None,
) -> AsyncIterator[BotHarness]:
    """The real bot, polling ``fake_telegram``; handler errors fail the test at teardown."""
    async with running_bot(
        fake_telegram, database_path, services_factory=services_factory
    ) as harness:
        yield harness


@pytest.fixture
async def any_backend_bot(
    fake_telegram: FakeTelegram, migrated_database: Path | str, tmp_path: Path
) -> AsyncIterator[BotHarness]:
    """The bot under test (as ``bot_harness``) on each backend in turn."""
    database = migrated_database
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    async with running_bot(fake_telegram, tmp_path / "unused.sqlite3", database_url=url) as harness:
        yield harness
