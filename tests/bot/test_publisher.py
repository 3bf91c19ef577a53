"""The board publisher against the fake Telegram: pacing, coalescing, and Telegram's answers."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.i18n import create_i18n
from bot.messages.boards import BoardPublisher
from bot.outbox import Outbox
from bot.outbox.pace import RateLimiter
from bot.services import GameService, GameSnapshot, Services, compose
from bot.storage import Store, open_database
from tests.support.fake_telegram import FakeChat, FakeTelegram


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_rate_limiter_paces_groups_and_private_chats() -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    assert [limiter.delay(-1) for _ in range(3)] == [0, 0, 0]  # a burst of three
    assert limiter.delay(-1) == pytest.approx(3.0)  # then 20 a minute
    assert [limiter.delay(7) for _ in range(3)] == [0, 0, 0]
    assert limiter.delay(7) == pytest.approx(1.0)  # one a second in a private chat
    clock.now += 10
    assert limiter.delay(-1) == 0 and limiter.delay(7) == 0


@pytest.fixture
async def world(
    tmp_path: Path, fake_telegram: FakeTelegram
) -> AsyncIterator[tuple[Services, Bot, FakeChat, GameSnapshot]]:
    db = await open_database(tmp_path / "p.sqlite3")
    services = compose(Store(db), random.Random(5), move_seconds=600)
    fake = fake_telegram
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("club", [alice, bob])
    users = [
        await services.users.see(
            u.id, username=u.username, first_name=u.first_name, language_code="en"
        )
        for u in (alice, bob)
    ]
    challenge = await services.challenges.open(
        chat_id=group.id, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    bot = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.url)))
    yield services, bot, group, snapshot
    await bot.session.close()
    await db.close()


async def _taps(service: GameService, snapshot: GameSnapshot, count: int) -> list[GameSnapshot]:
    """Alternately taps the first step and Undo, ``count`` times."""
    mover = snapshot.stored.player(snapshot.game.turn)
    found = []
    for index in range(count):
        game_id, version = snapshot.stored.id, snapshot.stored.version
        if index % 2 == 0:
            snapshot = await service.choose(game_id, mover, version, 0)
        else:
            snapshot = await service.undo(game_id, mover, version)
        found.append(snapshot)
    return found


async def test_edits_are_coalesced_when_the_chat_is_busy(world, fake_telegram) -> None:  # type: ignore[no-untyped-def]
    services, bot, group, snapshot = world
    service = services.game_service
    clock = Clock()
    limiter = RateLimiter(clock=clock, group=(1, 1 / 3600))  # one message, then an hour's wait
    publisher = BoardPublisher(bot, services, create_i18n(), Outbox.create(limiter))
    publisher.publish(snapshot)
    await publisher.drain()
    board = fake_telegram.last_message(group)
    for later in await _taps(service, snapshot, 5):
        publisher.publish(later)
    clock.now += 3600  # the next message may go now; four of the five states are skipped
    await publisher.drain()
    assert board.edit_count == 1
    assert "Undo" in [b.text.split()[-1] for b in board.buttons]  # the fifth state: one step


async def test_retry_after_is_honoured_and_a_deleted_board_is_posted_again(  # type: ignore[no-untyped-def]
    world, fake_telegram
) -> None:
    services, bot, group, snapshot = world
    service = services.game_service
    unpaced = RateLimiter(group=(100, 100.0))  # only Telegram's own retry_after slows it
    publisher = BoardPublisher(bot, services, create_i18n(), Outbox.create(unpaced))
    publisher.publish(snapshot)
    await publisher.drain()
    board = fake_telegram.last_message(group)
    fake_telegram.flood_next("editMessageMedia", retry_after=1)
    [tapped] = await _taps(service, snapshot, 1)
    publisher.publish(tapped)
    await publisher.drain()
    assert board.edit_count == 1
    assert len(fake_telegram.requests_for("editMessageMedia")) == 2  # refused once, then sent
    board.deleted = True  # someone deleted the board
    untapped = (await _taps(service, tapped, 2))[-1]
    publisher.publish(untapped)
    await publisher.drain()
    reposted = fake_telegram.last_message(group)
    assert reposted is not board and reposted.photo is not None
    boards = await services.board_messages.boards(snapshot.stored.id)
    assert boards[0].message_id == reposted.message_id


async def test_an_old_snapshot_never_replaces_a_newer_one(world, fake_telegram) -> None:  # type: ignore[no-untyped-def]
    services, bot, group, snapshot = world
    service = services.game_service
    publisher = BoardPublisher(bot, services, create_i18n(), Outbox.create())
    [newer] = await _taps(service, snapshot, 1)
    publisher.publish(newer)
    publisher.publish(snapshot)  # late, older
    await publisher.drain()
    board = fake_telegram.last_message(group)
    assert "Undo" in [b.text.split()[-1] for b in board.buttons]
    assert len(fake_telegram.messages(group)) == 1


def test_watchers_take_a_third_of_the_pace_and_make_nobody_wait() -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock)  # 30 messages a second overall, 30 at once
    # watchers' boards alone: a third of the burst at once, then a third of the rate
    assert [limiter.take_spare(100 + n) for n in range(10)] == [0.0] * 10
    assert limiter.take_spare(200) == pytest.approx(0.1)
    # the others still have the two thirds left, at once: nobody waits for the watchers
    assert [limiter.delay(300 + n) for n in range(20)] == [0.0] * 20
    assert limiter.delay(400) == pytest.approx(1 / 30)  # the pace itself, as without watchers
    clock.now += 1.0  # 29 free again, the watchers' own ten too
    taken = 0
    while limiter.take_spare(500 + taken) == 0:
        taken += 1
    assert taken == 9  # down to the twenty left to the others, never below
    # a watcher's refused slot is not taken: the others' next slots are as they were
    assert [limiter.delay(600 + n) for n in range(20)] == [0.0] * 20
    # in a private chat (three at once, one a second) a watcher's board leaves two of the
    # three to the chat's other messages (the watcher's own game)
    clock.now += 10.0
    assert limiter.take_spare(700) == 0.0
    assert limiter.take_spare(700) == pytest.approx(1.0)
    assert [limiter.delay(700) for _ in range(2)] == [0.0] * 2
