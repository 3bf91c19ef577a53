"""A database outage seen by two workers over one PostgreSQL database, each with its own view
of when it began and ended: the running game's deadline is moved later once, by the outage's
length, and neither worker's timers may act until that is done."""

from __future__ import annotations

import asyncio
import random

from bot.model import DatabaseUnavailable
from bot.services import compose
from bot.services.database_outages import DatabaseWatch
from bot.storage import Store, open_database
from tests.support.postgres import PostgresServer

from .conftest import Clock, two_people_playing


async def test_two_workers_make_up_for_one_outage_once(postgres: PostgresServer) -> None:
    url = await postgres.new_migrated_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    clock = Clock()
    workers = [compose(store, random.Random(1), move_seconds=60, clock=clock) for store in stores]
    watches = [
        DatabaseWatch(w.store, w.game_service, clock=clock, probe_seconds=0.01) for w in workers
    ]
    try:
        services = workers[0]
        snapshot = await two_people_playing(services)
        deadline = snapshot.stored.deadline
        assert deadline is not None
        # both workers' last answers, then the outage: each notices it at its own moment
        for watch in watches:
            watch.answered()
        clock.now += 10
        watches[0].failed(DatabaseUnavailable("refused"))
        assert not watches[0].reachable.is_set() and watches[1].reachable.is_set()
        clock.now += 1
        watches[1].failed(DatabaseUnavailable("refused"))
        assert not watches[1].reachable.is_set()
        clock.now += 29  # back 40 s after the last answer
        await asyncio.wait_for(
            asyncio.gather(*(watch.reachable.wait() for watch in watches)), timeout=10
        )
        stored = await stores[1].games.get(snapshot.stored.id)
        assert stored is not None and stored.deadline == deadline + 40
    finally:
        for watch in watches:
            await watch.close()
        for store in stores:
            await store.close()
