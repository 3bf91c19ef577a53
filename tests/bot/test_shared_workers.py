"""Two workers over one PostgreSQL database, in one test process: each its own pool of
connections, services and publisher, as two ``python -m bot`` processes would have. What one
process kept in step by itself (a lock per game, one clock loop, one pace) must hold across them.

``tests/bot/test_workers.py`` runs real worker processes (and kills one); here the races are
made on purpose, at the moments that matter.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TypeAlias

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.callbacks import GameButton
from bot.i18n import create_i18n
from bot.messages.boards import BoardPublisher
from bot.model import User
from bot.outbox import Outbox
from bot.outbox.pace import SharedRateLimiter
from bot.services import Games, GameSnapshot, Services, Terms, compose
from bot.services import errors as e
from bot.services.computer import Brain
from bot.services.coordination import Coordination
from bot.storage import Store, open_database
from tests.support.clock import Clock
from tests.support.fake_telegram import FakeChat, FakeTelegram
from tests.support.postgres import PostgresServer

BY_MAIL = Terms(move_seconds=86_400)


@dataclass
class Worker:
    store: Store
    services: Services
    brain: Brain

    @property
    def service(self) -> Games:
        return self.services.games


Workers: TypeAlias = tuple[Worker, Worker, Clock]
"""Two workers on one PostgreSQL database, and their clock."""


@pytest.fixture
async def workers(postgres: PostgresServer) -> AsyncIterator[Workers]:
    url = await postgres.new_database()
    clock = Clock()
    made = []
    for seed in (1, 2):
        store = Store(await open_database(url))
        brain = Brain()
        services = compose(store, random.Random(seed), brain, move_seconds=60, clock=clock)
        made.append(Worker(store, services, brain))
    yield made[0], made[1], clock
    for worker in made:
        worker.brain.close()
        await worker.store.close()


async def _players(services: Services, pairs: int = 1) -> list[User]:
    """Two players for each of ``pairs`` games at once: one game at one sitting each."""
    return [
        await services.users.see(i, username=f"p{i}", first_name=f"P{i}", language_code="en")
        for i in range(1, 2 * pairs + 1)
    ]


async def _game(services: Services, users: list[User], chat_id: int = -5) -> GameSnapshot:
    challenge = await services.challenges.open(
        chat_id=chat_id, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    return snapshot


async def _play(service: Games, snapshot: GameSnapshot, turns: int) -> GameSnapshot:
    """Plays ``turns`` turns, the first step offered each time (rolling when asked)."""
    played = 0
    while played < turns and not snapshot.game.is_over:
        game_id, mover = snapshot.stored.id, snapshot.stored.player(snapshot.game.to_act)
        if snapshot.turn_input is None:
            snapshot = await service.roll(game_id, mover, snapshot.stored.version)
            continue
        while not snapshot.turn_input.is_complete:
            snapshot = await service.choose(game_id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(game_id, mover, snapshot.stored.version)
        played += 1
    return snapshot


async def test_the_same_tap_on_two_workers_is_applied_once(workers: Workers) -> None:
    one, two, _ = workers
    users = await _players(one.services)
    snapshot = await _game(one.services, users)
    while snapshot.turn_input is None:  # a forced opening: the next player's turn
        snapshot = await one.service.snapshot(snapshot.stored.id)
    game_id, version = snapshot.stored.id, snapshot.stored.version
    mover = snapshot.stored.player(snapshot.game.turn)
    results = await asyncio.gather(
        *(w.service.choose(game_id, mover, version, 0) for w in (one, two, one, two)),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, GameSnapshot)]
    assert len(applied) == 1, results
    assert all(isinstance(r, e.StaleAction) for r in results if r not in applied)
    assert (await two.service.snapshot(game_id)).stored.version == version + 1


async def test_an_update_is_claimed_by_one_worker_only(workers: Workers) -> None:
    one, two, _ = workers
    claims = await asyncio.gather(*(w.services.updates.claim(77) for w in (one, two) * 3))
    assert sorted(claims) == [False] * 5 + [True]


async def test_a_deadline_fires_once_across_workers_and_rates_once(workers: Workers) -> None:
    one, two, clock = workers
    users = await _players(one.services, pairs=3)
    games = [
        await _play(one.service, await _game(one.services, users[n : n + 2]), 8)
        for n in range(0, 6, 2)
    ]
    # every player to move has run out of time, and the grace of a board not shown (none is)
    clock.now += 121
    ended = await asyncio.gather(one.services.timeouts.timeouts(), two.services.timeouts.timeouts())
    ids = sorted(s.stored.id for batch in ended for s in batch)
    assert ids == sorted(g.stored.id for g in games)  # each once, by one worker or the other
    ratings = [await one.store.ratings.get(u.id, "long") for u in users]
    assert [r.games for r in ratings] == [1] * 6  # each result rated once
    assert (
        await one.services.timeouts.timeouts() == []
        and await two.services.timeouts.timeouts() == []
    )


async def test_results_of_concurrent_games_keep_chips_and_ratings_whole(workers: Workers) -> None:
    one, two, _ = workers
    users = await _players(one.services)
    games = []
    for _ in range(6):
        challenge = await one.services.challenges.open(  # by mail: six at once
            chat_id=-5, challenger=users[0], target=users[1], locale="en", terms=BY_MAIL
        )
        challenge = await one.services.challenges.change_option(  # a stake of 50
            challenge.id, users[0].id, challenge.version, "stake", 2
        )
        _, snapshot = await two.services.lobby.accept(challenge.id, users[1])
        games.append(await _play(two.service, snapshot, 8))  # past an early concession
    assert {g.stored.stake for g in games} == {50}
    # both players resign half the games each, on alternate workers, all at once
    await asyncio.gather(
        *(
            (one if i % 2 else two).service.resign(g.stored.id, users[i % 2].id)
            for i, g in enumerate(games)
        )
    )
    row = await one.store.database.fetch_one(
        """SELECT (SELECT SUM(chips) FROM wallets),
                  (SELECT SUM(delta) FROM ledger WHERE kind = 'grant'),
                  (SELECT COUNT(*) FROM ledger WHERE kind = 'game')"""
    )
    assert row is not None and row[0] == row[1]  # no chip made or lost
    ratings = [await one.store.ratings.get(u.id, "long") for u in users]
    assert [r.games for r in ratings] == [6, 6]


async def test_the_computer_answers_once_across_workers(workers: Workers) -> None:
    one, two, clock = workers
    [anna, _] = await _players(one.services)
    challenge = await one.services.challenges.against_computer(
        chat_id=anna.id, challenger=anna, level=1, locale="en"
    )
    _, snapshot = await one.services.lobby.accept(challenge.id, anna)
    if not snapshot.stored.computer_to_act:  # anna opens: she plays her turn
        snapshot = await _play(one.service, snapshot, 1)
    assert snapshot.stored.computer_to_act
    version = snapshot.stored.version
    clock.now += 60
    answers = await asyncio.gather(
        *(w.services.timeouts.computer_move(snapshot.stored.id) for w in (one, two, one, two))
    )
    assert len([a for a in answers if a is not None]) == 1
    after = await one.service.snapshot(snapshot.stored.id)
    assert after.stored.version > version


async def test_an_outage_is_made_up_for_once(workers: Workers) -> None:
    one, two, clock = workers
    users = await _players(one.services)
    snapshot = await _game(one.services, users)
    deadline = snapshot.stored.deadline
    assert deadline is not None
    began = clock.now - 5
    moved = [
        await one.services.deadlines.postpone(began, 20),
        await two.services.deadlines.postpone(began + 0.3, 19.6),  # the same outage, seen later
    ]
    assert moved == [1, 0]
    assert (await two.service.snapshot(snapshot.stored.id)).stored.deadline == deadline + 20


async def test_leases_and_the_pace_are_shared(workers: Workers) -> None:
    one, two, clock = workers
    a = Coordination(one.store, shared=True, owner="a", clock=clock)
    b = Coordination(two.store, shared=True, owner="b", clock=clock)
    assert await a.claim("board 1", seconds=30)
    assert not await b.claim("board 1", seconds=30)
    assert await a.claim("board 1", seconds=30)  # renewed by its holder
    clock.now += 31  # ran out: the holder died
    assert await b.claim("board 1", seconds=30)
    await b.release("board 1")
    assert await a.claim("board 1")
    # one group's pace, 3 at once then 1 every 3 s, taken by both workers in turn
    rate, overall = (3.0, 1 / 3), (30.0, 30.0)
    waits = [await (a if i % 2 else b).reserve(-5, rate=rate, overall=overall) for i in range(5)]
    assert waits[:3] == [0, 0, 0]
    assert waits[3] == pytest.approx(3.0) and waits[4] == pytest.approx(6.0)
    clock.now += 100
    assert await b.reserve(-5, rate=rate, overall=overall) == 0


def _shown_version(markup: object) -> int:
    """The version a board's buttons were drawn for."""
    rows = json.loads(markup) if isinstance(markup, str) else markup
    assert isinstance(rows, dict)
    for row in rows["inline_keyboard"]:
        for button in row:
            data = button.get("callback_data", "")
            if data.startswith("g:"):
                return GameButton.unpack(data).version
    raise AssertionError("no game button")


async def test_two_workers_boards_never_go_back_and_end_on_the_last_state(
    workers: Workers,
    fake_telegram: FakeTelegram,
) -> None:
    one, two, _ = workers
    fake = fake_telegram
    alice = fake.create_user("Anna", username="anna")
    bob = fake.create_user("Boris", username="boris")
    group: FakeChat = fake.create_group("club", [alice, bob])
    users = [
        await one.services.users.see(
            u.id, username=u.username, first_name=u.first_name, language_code="en"
        )
        for u in (alice, bob)
    ]
    snapshot = await _game(one.services, users, chat_id=group.id)
    while snapshot.turn_input is None:
        snapshot = await one.service.snapshot(snapshot.stored.id)
    bots, publishers = [], []
    for worker in (one, two):
        bot = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.url)))
        pace = SharedRateLimiter(worker.services.coordination, group=(100, 100.0))
        bots.append(bot)
        publishers.append(BoardPublisher(bot, worker.services, create_i18n(), Outbox.create(pace)))
    publishers[0].publish(snapshot)
    await publishers[0].drain()
    board = fake.last_message(group)
    mark = fake.mark()
    mover = snapshot.stored.player(snapshot.game.turn)
    # taps alternate between the workers; each publishes what it saved, at once
    for index in range(8):
        which = index % 2
        game_id, version = snapshot.stored.id, snapshot.stored.version
        service = (one, two)[which].service
        if index % 2 == 0:
            snapshot = await service.choose(game_id, mover, version, 0)
        else:
            snapshot = await service.undo(game_id, mover, version)
        publishers[which].publish(snapshot)
        await asyncio.sleep(0.01)
    await asyncio.gather(*(p.drain() for p in publishers))
    edits = fake.requests_for("editMessageMedia", since=mark)
    versions = [_shown_version(r.params["reply_markup"]) for r in edits]
    assert versions == sorted(set(versions)), versions  # one at a time, never an older one
    assert versions[-1] == snapshot.stored.version
    assert _shown_version(board.reply_markup) == snapshot.stored.version
    for publisher, bot in zip(publishers, bots, strict=True):
        await publisher.close()
        await bot.session.close()


async def test_a_users_choice_on_one_worker_reaches_the_other(workers: Workers) -> None:
    one, two, clock = workers
    [anna, _] = await _players(one.services)
    assert not (await two.services.users.get(anna.id)).quick  # type: ignore[union-attr]
    await one.services.users.set_quick(anna.id, True)
    clock.now += 3  # past what a worker trusts a user it read
    assert (await two.services.users.get(anna.id)).quick  # type: ignore[union-attr]


async def test_a_correspondence_reminder_is_sent_by_one_worker_once(workers: Workers) -> None:
    one, two, clock = workers
    users = [
        await one.services.users.see(
            i, username=name, first_name=name.title(), language_code="en", private_chat=True
        )
        for i, name in ((1, "anna"), (2, "boris"))
    ]
    challenge = await one.services.challenges.open(
        chat_id=-5,
        challenger=users[0],
        target=users[1],
        locale="en",
        terms=Terms(move_seconds=3600),
    )
    _, snapshot = await two.services.lobby.accept(challenge.id, users[1])
    clock.now += 29 * 60
    assert (
        await one.services.deadlines.reminders() == []
        and await two.services.deadlines.reminders() == []
    )
    clock.now += 2 * 60  # past half the hour
    found = await asyncio.gather(*(w.services.deadlines.reminders() for w in (one, two, one, two)))
    reminded = [player.id for batch in found for _, player in batch]
    assert reminded == [snapshot.stored.player(snapshot.game.to_act)]
    assert await one.services.deadlines.reminders() == []


async def test_a_lease_held_for_a_block_outlives_its_length_and_ends_with_it(
    workers: Workers,
) -> None:
    one, two, _ = workers
    a = Coordination(one.store, shared=True, owner="a", lease_seconds=0.3)
    b = Coordination(two.store, shared=True, owner="b", lease_seconds=0.3)
    async with a.leased("board 5") as held:
        assert held
        async with b.leased("board 5") as other:
            assert not other
        await asyncio.sleep(0.8)  # more than twice its length: renewed meanwhile
        assert not await b.claim("board 5")
    assert await b.claim("board 5")  # released with the block


async def test_languages_chosen_on_one_worker_reach_the_other(workers: Workers) -> None:
    one, two, clock = workers
    [anna, _] = await _players(one.services)
    assert (await two.services.users.get(anna.id)).locale is None  # type: ignore[union-attr]
    assert await two.services.chats.locale(-5) is None  # both read and kept in memory
    await one.services.users.set_locale(anna.id, "hy")
    await one.services.chats.set_locale(-5, "ka")
    assert await one.services.chats.locale(-5) == "ka"  # the worker that chose knows at once
    clock.now += 3  # past what a worker trusts what it read
    assert (await two.services.users.get(anna.id)).locale == "hy"  # type: ignore[union-attr]
    assert await two.services.chats.locale(-5) == "ka"


async def test_watchers_share_of_the_shared_pace_leaves_the_others_theirs(workers: Workers) -> None:
    one, two, clock = workers
    a, b = one.services.coordination, two.services.coordination
    private, overall = (3.0, 1.0), (30.0, 30.0)

    async def spare(worker: Coordination, chat_id: int) -> float:
        return await worker.take_spare(chat_id, rate=private, overall=overall, share=1 / 3)

    # watchers' boards of both workers together: ten at once, then ten a second
    waits = [await spare(a if n % 2 else b, 100 + n) for n in range(11)]
    assert waits[:10] == [0.0] * 10 and waits[10] == pytest.approx(0.1)
    # the twenty left go to the others at once, and a watcher's board then waits for them
    assert [await a.reserve(300 + n, rate=private, overall=overall) for n in range(20)] == [0] * 20
    clock.now += 0.1  # the watchers' own slot is back, the overall pace's three are not theirs
    assert await spare(b, 400) > 0
    assert await b.reserve(401, rate=private, overall=overall) == pytest.approx(0, abs=1e-6)


@pytest.mark.slow
async def test_watchers_on_two_workers_never_hold_up_the_players_boards(
    workers: Workers,
    fake_telegram: FakeTelegram,
) -> None:
    one, two, _ = workers
    fake = fake_telegram
    people = [fake.create_user(name.title(), username=name) for name in ("anna", "boris")]
    people += [fake.create_user(f"W{n}", username=f"watcher{n}") for n in range(3)]
    for person in people:
        fake.private_chat(person).started = True
    users = [
        await one.services.users.see(
            u.id, username=u.username, first_name=u.first_name, language_code="en"
        )
        for u in people
    ]
    challenge = await one.services.challenges.open(
        chat_id=users[0].id, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await one.services.lobby.accept(challenge.id, users[1])
    game_id = snapshot.stored.id
    while snapshot.turn_input is None:
        snapshot = await one.service.snapshot(game_id)
    for watcher in users[2:]:
        await two.services.lobby.watch(game_id, watcher.id)
    bots, publishers = [], []
    for worker in (one, two):
        bot = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.url)))
        # the pace on the real clock (the test's stands still): a watcher's board waits for
        # its chat's burst to be whole again
        real_time = Coordination(worker.store, shared=True, clock=time.time)
        pace = SharedRateLimiter(real_time, private=(3, 20.0), overall=(100, 100.0))
        bots.append(bot)
        publishers.append(BoardPublisher(bot, worker.services, create_i18n(), Outbox.create(pace)))
    publishers[0].publish(snapshot)
    await publishers[0].drain()
    white = fake.last_message(fake.private_chat(people[0]))
    watched = [fake.last_message(fake.private_chat(w)) for w in people[2:]]
    assert all(board.photo == white.photo and board.buttons == [] for board in watched)

    # the watchers' link stalls while worker one shows them a change; the players play on,
    # on both workers, and their boards follow at once
    fake.hold_chats(*(fake.private_chat(w) for w in people[2:]))
    mover = snapshot.stored.player(snapshot.game.turn)
    for index, which in enumerate((0, 1)):  # a step, then Undo: back to the board before
        service = (one, two)[which].service
        game_version = snapshot.stored.version
        if index % 2 == 0:
            snapshot = await service.choose(game_id, mover, game_version, 0)
        else:
            snapshot = await service.undo(game_id, mover, game_version)
        publishers[which].publish(snapshot)
        await fake.wait_for(lambda: fake.holding == 1)
    to_act = fake.last_message(fake.private_chat(fake.users[mover]))
    await fake.wait_for(lambda: _shown_version(to_act.reply_markup) == snapshot.stored.version)
    await publishers[1].drain()  # worker two left its change to the watchers' lease holder
    assert fake.holding == 1  # one watcher's edit waits, and nothing else

    fake.release_chats()  # the holder of the watchers' lease finds worker two's change
    await asyncio.gather(*(p.drain() for p in publishers))
    assert all(board.photo == white.photo for board in watched)
    assert all(board.caption == watched[0].caption for board in watched)
    assert "You are watching this game" in (watched[0].caption or "")
    leases = await one.store.database.fetch_all("SELECT name FROM leases")
    assert leases == []
    for publisher, bot in zip(publishers, bots, strict=True):
        await publisher.close()
        await bot.session.close()
