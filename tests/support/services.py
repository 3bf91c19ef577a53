"""Services factories for a bot under test (``services_factory=`` of
:func:`tests.support.harness.running_bot`, or the ``services_factory`` fixture of tests/bot):
the services a test composes itself on the bot's database, with its dice, clock or waits."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from bot.app import ServicesFactory
from bot.config import Settings
from bot.services import Services
from bot.storage import Store, open_database


def composed(
    build: Callable[[Store, Settings], Services],
    *,
    prepare: Callable[[Store], Awaitable[None]] | None = None,
    made: list[Services] | None = None,
) -> ServicesFactory:
    """A factory that opens the settings' database, runs ``prepare`` on its store (rows a test
    needs before the bot starts), yields ``build(store, settings)`` (usually
    :func:`bot.services.compose` with a seeded dice source) and closes the database after.
    Each services built is appended to ``made``, the latest last, for the test to look at."""

    @asynccontextmanager
    async def factory(settings: Settings) -> AsyncIterator[Services]:
        db = await open_database(settings.database)
        try:
            store = Store(db)
            if prepare is not None:
                await prepare(store)
            services = build(store, settings)
            if made is not None:
                made.append(services)
            yield services
        finally:
            await db.close()

    return factory
