"""Correspondence games: a day a move, a reminder in private when half of it is gone (once a
move, across restarts), the date on the board, and ``/games`` with links to the boards. The
bot's clock is the test's, moved by hours at a time."""

from __future__ import annotations

import random

import pytest

from bot.app import ServicesFactory
from bot.services import compose
from tests.support.clock import Clock
from tests.support.fake_telegram import FakeChat, FakeTelegram, FakeUser
from tests.support.harness import BotHarness
from tests.support.services import composed

from .gameplay import is_over, mover, play_turn, wait_for_board

HOUR = 3600.0


@pytest.fixture
def clock() -> Clock:
    return Clock(1_800_000_000.0)


@pytest.fixture
def services_factory(clock: Clock) -> ServicesFactory:
    """The game and score services of ``bot.app.build_services``, on the test's clock."""

    return composed(lambda store, _: compose(store, random.Random(4), move_seconds=90, clock=clock))


def _people(fake: FakeTelegram) -> tuple[FakeUser, FakeUser]:
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    return alice, bob


async def _open_private(harness: BotHarness, *users: FakeUser) -> None:
    """Each user starts the bot in private, so that it may write to them there."""
    for user in users:
        harness.fake.send_text(user, harness.fake.private_chat(user), "/start")
    await harness.settle()


def _reminders(fake: FakeTelegram, user: FakeUser) -> list[str]:
    return [
        m.text or ""
        for m in fake.messages(fake.private_chat(user))
        if m.from_bot and "half your time" in (m.text or "")
    ]


async def test_a_day_a_move_reminds_once_at_half_time_across_a_restart(
    bot_harness: BotHarness, clock: Clock
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob = _people(fake)
    group: FakeChat = fake.create_group("club", [alice, bob], supergroup=True)
    await _open_private(harness, alice, bob)
    fake.send_text(alice, group, "/play @bob 1d")
    await harness.settle()
    challenge = fake.last_message(group)
    assert "1 day per move" in (challenge.text or "")
    assert "⏱ 1 day" in [b.text for b in challenge.buttons]
    fake.press(bob, challenge, "✅ Accept")
    board = await wait_for_board(fake, group)
    caption = board.caption or ""
    assert "1 day a move, until 2027-01-1" in caption  # a date: the deadline is tomorrow
    # a moment each reader's app shows in their own time zone, the date too
    assert any(e["type"] == "date_time" and e["date_time_format"] == "dt" for e in board.entities)
    first = mover(board, [alice, bob])
    await harness.restart()  # the reminder is in the database, not in this process
    clock.now += 11 * HOUR
    await harness.settle()
    assert _reminders(fake, first) == []  # not yet half the day
    clock.now += 1.5 * HOUR
    await fake.wait_for(lambda: _reminders(fake, first), timeout=10)
    [text] = _reminders(fake, first)
    assert "Game #1 with" in text and "UTC" in text
    link = fake.last_message(fake.private_chat(first))
    assert any("t.me/c/" in str(e.get("url", "")) for e in link.entities)  # the board's link
    await harness.restart()
    clock.now += HOUR
    await harness.settle()
    assert len(_reminders(fake, first)) == 1  # once a move, restart or not
    # /games lists the game, with its board
    fake.send_text(first, fake.private_chat(first), "/games")
    await harness.settle()
    listing = fake.last_message(fake.private_chat(first))
    assert "#1" in (listing.text or "") and "your move" in (listing.text or "")
    # the move is played: now the other player's day runs, and they are reminded in turn
    await play_turn(fake, board, [alice, bob])
    second = mover(board, [alice, bob])
    assert second != first
    clock.now += 13 * HOUR
    await fake.wait_for(lambda: _reminders(fake, second), timeout=10)
    # and a day without a move loses on time, as any game
    clock.now += 12 * HOUR
    await fake.wait_for(lambda: is_over(board), timeout=10)
    assert "time ran out" in (board.caption or "")


async def test_a_private_games_reminder_answers_its_board(
    bot_harness: BotHarness, clock: Clock
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob = _people(fake)
    await _open_private(harness, alice, bob)
    fake.send_text(alice, fake.private_chat(alice), "/play @bob 12h")
    await harness.settle()
    invitation = fake.last_message(fake.private_chat(bob))
    fake.press(bob, invitation, "✅ Accept")
    board = await wait_for_board(fake, fake.private_chat(alice))
    await wait_for_board(fake, fake.private_chat(bob))
    first = mover(board, [alice, bob])
    clock.now += 6.5 * HOUR
    await fake.wait_for(lambda: _reminders(fake, first), timeout=10)
    reminder = fake.last_message(fake.private_chat(first))
    mine = [m for m in fake.messages(fake.private_chat(first)) if m.photo]
    assert reminder.reply_to is not None and reminder.reply_to.message_id == mine[-1].message_id
    assert "t.me/c/" not in (reminder.text or "")  # no link: the reply leads to the board
