"""The automatic analysis's queue on real databases: rated games queued as they end (and only
they), the queue surviving a restart with a worker's claim left behind (not lost, not done
twice), two workers of one PostgreSQL database racing for the claims, the backlog's cap."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path

from bot.ai.analysis import Review
from bot.ai.luck import RollLuck, luck_and_review
from bot.engine import Game, Side, Turn
from bot.model import StoredGame, Terms, User
from bot.services import Services, compose
from bot.services.autoanalysis import CLAIM_SECONDS
from bot.services.computer import Brain
from bot.storage import Store, open_database
from tests.support.postgres import PostgresServer

from .conftest import Clock

TURNS = 8


class InProcessBrain(Brain):
    """Works the analysis's parts in the test's process (the pool's function, called here),
    counting them."""

    def __init__(self) -> None:
        super().__init__()
        self.parts = 0

    async def luck_and_review(
        self, played: Sequence[tuple[Game, Turn]], indices: range, ply: int
    ) -> tuple[list[RollLuck], list[Review]]:
        self.parts += 1
        return luck_and_review(played, indices, ply)


async def _people(services: Services) -> list[User]:
    return [
        await services.users.see(i, username=name, first_name=name.title(), language_code="en")
        for i, name in ((1, "anna"), (2, "boris"))
    ]


async def _finished(
    services: Services, users: list[User], *, variant: str = "short", hints: bool = False
) -> StoredGame:
    """A game of anna and boris in group -5, :data:`TURNS` turns (the first step offered each
    time), then resigned by the side to move: rated (unless with hints)."""
    service = services.game_service
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="en"
    )
    while challenge.terms.variant != variant:
        challenge = await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "variant"
        )
    if hints:
        challenge = await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "hints"
        )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    for _ in range(TURNS):
        mover = snapshot.stored.player(snapshot.game.turn)
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    snapshot = await service.resign(snapshot.stored.id, snapshot.stored.player(snapshot.game.turn))
    assert snapshot.game.is_over
    return snapshot.stored


async def test_the_queue_survives_a_restart_and_does_each_game_once(tmp_path: Path) -> None:
    path, clock = tmp_path / "nardy.sqlite3", Clock()
    db = await open_database(path)
    store = Store(db)
    services = compose(store, random.Random(3), InProcessBrain(), clock=clock)
    users = await _people(services)
    services.auto_analyses.backlog = 2
    dropped = await _finished(services, users)  # the oldest, dropped when the queue is full
    first = await _finished(services, users)
    assert services.auto_analyses.dropped == 0
    second = await _finished(services, users)
    assert services.auto_analyses.dropped == 1
    await _finished(services, users, hints=True)  # hints on: not rated, not queued
    assert await store.luck.backlog() == 2
    # a worker claims the first game and dies with the process
    dead = await store.luck.claim("dead", clock(), timeout=CLAIM_SECONDS)
    assert dead is not None and dead.game_id == first.id
    await db.close()

    db = await open_database(path)  # the restart
    store = Store(db)
    brain = InProcessBrain()
    services = compose(store, random.Random(4), brain, clock=clock)
    auto = services.auto_analyses
    try:
        done = await auto.work_one()  # the first is still claimed: the second
        assert done is not None and done.game_id == second.id and len(done.figures) == 2
        assert await auto.work_one() is None
        clock.now += CLAIM_SECONDS + 1  # the dead claim runs out: taken over
        done = await auto.work_one()
        assert done is not None and done.game_id == first.id and done.stored is not None
        parts = brain.parts
        assert await auto.work_one() is None and await store.luck.backlog() == 0
        assert await store.luck.of_game(dropped.id) == []
        # the dead worker, had it lived, records nothing: the game is counted once
        assert not await store.luck.finish(dead, done.figures)
        figures = await store.luck.of_game(first.id)
        assert figures == list(done.figures) and brain.parts == parts
        assert [f.side for f in figures] == [Side.WHITE, Side.BLACK]
        assert {f.user_id for f in figures} == {1, 2}
        for one in figures:
            assert one.decisions > 0 and one.rolls > 0 and one.pr >= 0
            assert abs(one.error_rate - 2 * one.pr) < 1e-9
        snapshot = await services.game_service.snapshot(first.id)
        assert snapshot.luck == done.figures
        trend = await auto.trend(1)
        assert [f.game_id for f in trend] == [first.id, second.id]  # as they ended
    finally:
        await db.close()


async def test_two_workers_race_for_the_claims(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    try:
        services = compose(stores[0], random.Random(5), InProcessBrain())
        await _people(services)
        ids = []
        for n in range(24):  # games stored, not played: the queue needs only their ids
            started = await services.game_service.start(
                chat_id=-5,
                white_id=1,
                black_id=2,
                terms=Terms(variant="short"),
                locale="en",
                boards=[],
                match_id=None,
            )
            ids.append(started.id)
            await stores[0].luck.enqueue(started.id, float(n), cap=100)

        async def worker(store: Store, name: str) -> list[int]:
            got = []
            while (
                job := await store.luck.claim(f"{name}-{len(got)}", 1e9, timeout=60)
            ) is not None:
                got.append(job.game_id)
                await asyncio.sleep(0)
            return got

        a, b, c = await asyncio.gather(
            worker(stores[0], "a"), worker(stores[1], "b"), worker(stores[1], "c")
        )
        assert not set(a) & set(b) and not set(b) & set(c) and not set(a) & set(c)
        assert sorted(a + b + c) == ids
        assert a and (b or c)  # both workers took some

        # claimed jobs are never dropped for the cap, whatever it is
        assert await stores[0].luck.enqueue(ids[0], 1e9, cap=10) == 0
        assert await stores[1].luck.backlog() == 24
    finally:
        for store in stores:
            await store.close()
