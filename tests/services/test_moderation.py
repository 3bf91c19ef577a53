"""The operators' powers over the database: a ban holds in every worker (within the time a
worker trusts what it read) and after a restart; two workers sending one broadcast take each
recipient once; a held transfer is decided once, whoever asks first."""

from __future__ import annotations

import asyncio
import random

from bot.model import BroadcastState
from bot.services import compose
from bot.services.errors import AlreadyDecided
from bot.services.moderation import SHARED_SECONDS
from bot.storage import Store, open_database
from tests.support.postgres import PostgresServer

from .conftest import Clock, two_people_playing


async def test_a_ban_holds_in_every_worker_and_after_a_restart(postgres: PostgresServer) -> None:
    url = await postgres.new_migrated_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    clock = Clock()
    one, other = (compose(store, random.Random(1), clock=clock) for store in stores)
    try:
        assert not await other.moderation.is_banned(42)  # read now, trusted a while
        assert await one.moderation.ban(42, operator_id=1) is not None
        assert await one.moderation.is_banned(42)
        assert not await other.moderation.is_banned(42)
        clock.now += SHARED_SECONDS + 0.1
        assert await other.moderation.is_banned(42)
        restarted = compose(Store(await open_database(url)), random.Random(2), clock=clock)
        try:
            assert await restarted.moderation.is_banned(42)
            assert await restarted.moderation.ban(42, operator_id=1) is None  # already
            assert await restarted.moderation.unban(42)
        finally:
            await restarted.store.close()
        clock.now += SHARED_SECONDS + 0.1
        assert not await one.moderation.is_banned(42) and not await other.moderation.is_banned(42)
    finally:
        for store in stores:
            await store.close()


async def test_two_workers_take_each_recipient_of_a_broadcast_once(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_migrated_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    workers = [compose(store, random.Random(1)) for store in stores]
    try:
        for user_id in range(1, 41):
            await workers[0].users.see(
                user_id, username=None, first_name="U", language_code="en", private_chat=True
            )
        broadcasts = [w.broadcasts for w in workers]
        draft, count = await broadcasts[0].draft(1, "hello", chat_id=1)
        assert count == 40
        await broadcasts[1].start(draft.id)

        async def take(worker: int) -> list[int]:
            taken = []
            while True:
                current = await broadcasts[worker].get(draft.id)
                if current.state is not BroadcastState.SENDING:
                    return taken
                user_id = await broadcasts[worker].next_recipient(current)
                if user_id is not None:
                    taken.append(user_id)

        first, second = await asyncio.gather(take(0), take(1))
        assert sorted(first + second) == list(range(1, 41))
        assert (await broadcasts[0].get(draft.id)).state is BroadcastState.DONE
    finally:
        for store in stores:
            await store.close()


async def test_a_held_transfer_is_decided_once(postgres: PostgresServer) -> None:
    url = await postgres.new_migrated_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    workers = [compose(store, random.Random(1)) for store in stores]
    try:
        services = workers[0]
        snapshot = await two_people_playing(services)
        game_id = snapshot.stored.id
        await stores[0].chips.balance(1, now=0, grant=1000, floor=100, period=1)
        await stores[0].chips.balance(2, now=0, grant=1000, floor=100, period=1)
        await stores[0].chips.flag(
            game_id=game_id, chat_id=-5, loser_id=1, winner_id=2, amount=30, payments=10,
            paid=300, now=0,
        )  # fmt: skip
        results = await asyncio.gather(
            *(w.moderation.decide(game_id, release=True, operator_id=9) for w in workers),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["AlreadyDecided", "Decision"]
        assert sum(1 for r in results if isinstance(r, AlreadyDecided)) == 1
        statement = await services.score_service.chip_statement(2, 10)
        assert statement.balance == 1030
        assert await services.moderation.held() == []
    finally:
        for store in stores:
            await store.close()
