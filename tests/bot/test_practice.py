"""Practice positions through the real bot and a fake Telegram: from ``/learn``, the easiest
position first (the daily positions of earlier days, seeded here with rankings of their own),
answered once with the turn buttons and ✅ Confirm, the verdict with a streak, then the next."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from bot.app import ServicesFactory
from bot.callbacks import LessonAction, LessonMove, PracticeAction
from bot.config import Settings
from bot.services import Services, compose
from bot.storage import Store, open_database
from tests.bot.test_daily import BEST_BUTTON, WORSE_BUTTON, puzzle
from tests.support.harness import BotHarness

NOON = dt.datetime(2026, 12, 3, 12, 0, tzinfo=dt.UTC).timestamp()


@pytest.fixture
def services_factory() -> ServicesFactory:
    """The production services at noon of 3 December, with the long positions of the two
    days before seeded as daily positions."""

    @asynccontextmanager
    async def factory(settings: Settings) -> AsyncIterator[Services]:
        db = await open_database(settings.database)
        try:
            store = Store(db)
            for shift, day in enumerate(("2026-12-01", "2026-12-02")):
                game, ranking = puzzle(shift)
                await store.daily.add_position(
                    variant="long",
                    day=day,
                    key=f"{game.position.to_text()} {game.dice}",
                    game=game,
                    ranking=ranking,
                    source_game_id=None,
                    now=NOON,
                )
            yield compose(store, random.Random(5), clock=lambda: NOON)
        finally:
            await db.close()

    return factory


async def test_practice_positions_one_after_another_with_a_streak(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", language_code="en")
    chat = fake.private_chat(anna)
    sent = fake.send_text(anna, chat, "/learn")
    course = await fake.wait_for_message(chat, after=sent)
    practice = LessonAction(move=LessonMove.PRACTICE, arg=0).pack()
    await fake.next_answer_to(fake.tap(anna, course, practice))
    first = await fake.wait_for_message(chat, after=course)
    assert first.photo is not None and "Practice · long nardy" in first.content
    assert not (await fake.next_answer_to(fake.press(anna, first, WORSE_BUTTON))).show_alert
    assert "Your move so far" in first.content
    assert not (await fake.next_answer_to(fake.press(anna, first, "✅"))).show_alert
    assert "❌" in first.content and "Practice streak: 0" in first.content
    # answered once: its old buttons are refused
    confirm = PracticeAction(position=1, taps="A", confirm=True).pack()
    again = await fake.next_answer_to(fake.tap(anna, first, confirm, check=False))
    assert again.show_alert
    await fake.next_answer_to(fake.press(anna, first, "▶ Next position"))
    second = await fake.wait_for_message(chat, after=first)
    assert second.photo is not None and second.photo != first.photo
    assert not (await fake.next_answer_to(fake.press(anna, second, BEST_BUTTON))).show_alert
    assert not (await fake.next_answer_to(fake.press(anna, second, "✅"))).show_alert
    await harness.settle()
    assert "✅" in second.content and "Practice streak: 1 right in a row (best 1)" in (
        second.content
    )
