"""The daily position through the real bot and a fake Telegram: a group's admins turn the
morning post on, it is posted at 09:00 in the group's time zone, players answer in private
with the turn buttons (once each, told nothing of the verdict until the day ends), the post
is edited as answers come and shows the best move when the day is over, a restart posts
nothing twice, and ``/top daily`` lists the streaks of players with rated games.

The day's positions are seeded straight into the positions table with a ranking of their own
(choosing one takes the computer, which the service tests cover): the bot's clock is the
test's."""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app import ServicesFactory
from bot.config import Settings
from bot.engine import Dice, Game, Position
from bot.model import RankedTurn
from bot.services import Services, compose
from bot.storage import Store, open_database
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness

MOSCOW_MORNING = dt.datetime(2026, 12, 3, 6, 0, tzinfo=dt.UTC).timestamp()
"""09:00 in Moscow, 3 December 2026."""
DAY = 86_400.0
# the turns of this roll, best first, and the buttons that play them (whole-turn buttons)
PUZZLE = "long w / 24:14 13:1 / 24:15"
EQUITIES = {"13/7 7/2": 0.30, "24/18 13/8": 0.10, "24/18 18/13": 0.05, "13/7 24/19": -0.2}
BEST_BUTTON = "13→2"
WORSE_BUTTON = "24→18 13→8"


class Clock:
    def __init__(self) -> None:
        self.now = MOSCOW_MORNING - 60

    def __call__(self) -> float:
        return self.now


def puzzle(shift: int = 0) -> tuple[Game, tuple[RankedTurn, ...]]:
    """A long-nardy roll with four ways to play it, ranked by :data:`EQUITIES`; ``shift``
    moves a checker so that each day's position differs."""
    text = PUZZLE if not shift else "long w / 24:13 20:1 13:1 / 24:15"
    game = Game.setup(Position.from_text(text)).with_dice(Dice(6, 5))
    ranking = []
    for turn in game.legal_turns():
        equity = EQUITIES.get(str(turn), -0.5)
        ranking.append(RankedTurn(str(turn), turn.position.to_text(), equity))
    ranking.sort(key=lambda r: -r.equity)
    return game, tuple(ranking)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def services_factory(clock: Clock) -> ServicesFactory:
    """The production services on the test's clock, with today's and tomorrow's long
    positions seeded."""

    @asynccontextmanager
    async def factory(settings: Settings) -> AsyncIterator[Services]:
        db = await open_database(settings.database)
        try:
            store = Store(db)
            for shift, day in enumerate(("2026-12-03", "2026-12-04")):
                game, ranking = puzzle(shift)
                await store.daily.add_position(
                    variant="long",
                    day=day,
                    key=f"{game.position.to_text()} {game.dice}",
                    game=game,
                    ranking=ranking,
                    source_game_id=None,
                    now=clock(),
                )
            yield compose(store, random.Random(5), clock=clock)
        finally:
            await db.close()

    return factory


def _posts(fake: FakeTelegram, group: FakeChat) -> list[FakeMessage]:
    return [m for m in fake.messages(group) if m.photo and "Daily position" in m.content]


async def _say(harness: BotHarness, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    sent = harness.fake.send_text(user, chat, text)
    reply = await harness.fake.wait_for_message(chat, after=sent)
    await harness.settle()
    return reply


async def _answer(harness: BotHarness, user: FakeUser, link: str, button: str) -> FakeMessage:
    """``user`` opens the group post's link in private, taps ``button`` and confirms."""
    fake = harness.fake
    chat = fake.private_chat(user)
    puzzle_message = await _say(harness, user, chat, "/start " + link.rsplit("=", 1)[1])
    assert puzzle_message.photo and "Find the best move" in puzzle_message.content
    assert not (await fake.next_answer_to(fake.press(user, puzzle_message, button))).show_alert
    assert "Your move so far" in puzzle_message.content
    assert not (await fake.next_answer_to(fake.press(user, puzzle_message, "✅"))).show_alert
    return puzzle_message


async def test_a_groups_morning_post_edited_as_answers_come(
    bot_harness: BotHarness, clock: Clock, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob, carol])

    refusal = await _say(harness, carol, group, "/daily on Europe/Moscow")
    assert refusal.text == "Only the group's admins can do that."
    bad = await _say(harness, alice, group, "/daily on Mars/Olympus")
    assert "not a time zone" in bad.content
    on = await _say(harness, alice, group, "/daily on Europe/Moscow")
    assert "every morning at 09:00 (Europe/Moscow)" in on.content
    assert not _posts(fake, group)  # 08:59 in Moscow: nothing yet

    clock.now = MOSCOW_MORNING + 1
    await fake.wait_for(lambda: _posts(fake, group), description="the morning post")
    [post] = _posts(fake, group)
    assert "No answers yet." in post.content
    link = post.button("Answer").url
    assert link is not None and link.endswith("?start=d1")

    assert "shown to all when the day ends" in post.content
    with sqlite3.connect(database_path, timeout=5) as db:  # Bob has played rated games
        db.execute(
            """INSERT INTO users (id, first_name, updated_at) VALUES (?, 'Bob', 0)
               ON CONFLICT (id) DO NOTHING""",
            (bob.id,),
        )
        db.execute(
            """INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games)
               VALUES (?, 'long', 1500, 300, 0.06, 3)""",
            (bob.id,),
        )
    bob_puzzle = await _answer(harness, bob, link, BEST_BUTTON)
    # his answer, and nothing that tells a second account whether it is right
    assert "Your answer: 13/7 7/2. Your verdict and the best move are shown" in bob_puzzle.content
    assert "Best:" not in bob_puzzle.content and "%" not in bob_puzzle.content
    assert "1 answered so far." in bob_puzzle.content
    assert "Streak: 0 days in a row (best 0)." in bob_puzzle.content  # as the day began
    assert bob_puzzle.button("The best move, after 00:00 UTC").url == link
    await fake.wait_for(lambda: "1 answered" in post.content, description="the post edited")

    carol_chat = fake.private_chat(carol)
    spare = await _say(harness, carol, carol_chat, "/start " + link.rsplit("=", 1)[1])
    carol_puzzle = await _answer(harness, carol, link, WORSE_BUTTON)
    assert "Your answer: 24/18 13/8." in carol_puzzle.content
    assert "2 answered so far." in carol_puzzle.content
    await fake.wait_for(lambda: "2 answered so far" in post.content, description="edited again")
    assert "13/7 7/2" not in post.content

    # a second answer, from the puzzle opened before: refused, nothing edited
    again = await fake.next_answer_to(fake.press(carol, spare, BEST_BUTTON))
    assert again.show_alert and "answered this position already" in (again.text or "")
    # a puzzle's button forged onto the verdict: refused, the verdict stays
    forged = await fake.next_answer_to(fake.tap(carol, carol_puzzle, "z:1:A:1", check=False))
    assert forged.show_alert and "does not belong to this message" in (forged.text or "")
    assert spare.edit_count == 0 and carol_puzzle.edit_count == 2
    await harness.settle()
    assert "2 answered so far" in post.content
    assert "1. @bob" not in (await _say(harness, carol, group, "/top daily")).content

    # a restart posts nothing again; the next morning brings the next day's post, and the
    # post of the day over shows its best move and how everyone did
    await harness.restart()
    clock.now = MOSCOW_MORNING + DAY + 1
    await fake.wait_for(lambda: len(_posts(fake, group)) == 2, description="the next post")
    await fake.wait_for(lambda: "Best: 13/7 7/2" in post.content, description="the reveal")
    assert "2 answered, 50% found the best move." in post.content
    await harness.settle()
    assert len(_posts(fake, group)) == 2
    assert "2026-12-04" in _posts(fake, group)[1].content
    verdict = await _say(harness, carol, carol_chat, "/start " + link.rsplit("=", 1)[1])
    assert "❌ Your 24/18 13/8: −0.20 against the best." in verdict.content
    assert "Best: 13/7 7/2" in verdict.content
    assert [b.text for b in verdict.buttons] == ["🧩 short nardy"]  # no link: it is shown

    top = await _say(harness, carol, group, "/top daily")
    assert "1. @bob: 1 days (best 1)" in top.content and "carol" not in top.content


async def test_daily_in_private_with_the_start_button_and_undo(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    dave = fake.create_user("Dave", username="dave", language_code="en")
    chat = fake.private_chat(dave)
    greeting = await _say(harness, dave, chat, "/start")
    mark = fake.mark()
    fake.press(dave, greeting, "🧩 Daily position")
    shown = await fake.wait_for_message(chat, after=greeting, where=lambda m: bool(m.photo))
    assert len(fake.requests_for("sendPhoto", since=mark)) == 1
    assert "Daily position · long nardy · 2026-12-03" in shown.content
    labels = [b.text for b in shown.buttons]
    assert BEST_BUTTON in labels and "✅ Confirm" not in labels
    await fake.next_answer_to(fake.press(dave, shown, WORSE_BUTTON))
    assert "Your move so far: 24/18 13/8" in shown.content
    await fake.next_answer_to(fake.press(dave, shown, "↩"))  # undo: back to the start
    assert "Your move so far" not in shown.content
    await fake.next_answer_to(fake.press(dave, shown, BEST_BUTTON))
    await fake.next_answer_to(fake.press(dave, shown, "✅"))
    assert "Your answer: 13/7 7/2." in shown.content and "the best move!" not in shown.content
    # asked again: the answer, no buttons to answer with
    again = await _say(harness, dave, chat, "/daily")
    assert "Your answer: 13/7 7/2." in again.content and "1 answered so far" in again.content
    assert BEST_BUTTON not in [b.text for b in again.buttons]
    forged = await fake.next_answer_to(fake.tap(dave, shown, "z:99:A:1", check=False))
    assert forged.show_alert
