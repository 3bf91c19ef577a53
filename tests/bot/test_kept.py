"""A message kept in place (:class:`bot.messages.kept.KeptMessage`) against the fake Telegram:
sent once and recorded, then edited; posted again when deleted; its group followed into a
supergroup; never sent twice when a send's answer is lost; given up in a chat that refuses the
bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer

from bot.messages.kept import KeptText
from bot.outbox.link import TelegramLink
from bot.outbox.pace import RateLimiter
from bot.outbox.session import TelegramSession
from tests.support.fake_telegram import FakeTelegram


def unpaced() -> RateLimiter:
    """A pace that never waits in these tests."""
    return RateLimiter(group=(100, 100.0), private=(100, 100.0))


class Recorded(KeptText):
    """A kept text that notes what its hooks were told."""

    def __init__(self, bot: Bot, chat_id: int, message_id: int | None = None) -> None:
        super().__init__(bot, chat_id, message_id, text="first", what="a test message")
        self.records: list[tuple[str, int, int]] = []

    async def sent(self, chat_id: int, message_id: int) -> None:
        self.records.append(("sent", chat_id, message_id))

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        self.records.append(("moved", old_chat_id, new_chat_id))

    async def forbidden(self, chat_id: int) -> None:
        self.records.append(("forbidden", chat_id, 0))


@pytest.fixture
async def bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    """A bot over the link the real bot uses (so a lost answer is an uncertain send)."""
    session = TelegramSession(api=TelegramAPIServer.from_base(fake_telegram.url))
    link = TelegramLink()
    session.middleware(link)
    bot = Bot(fake_telegram.token, session=session)
    assert await link.connect(bot, asyncio.Event())
    yield bot
    await bot.session.close()


async def test_a_kept_text_is_sent_recorded_edited_and_posted_again_when_deleted(
    bot: Bot, fake_telegram: FakeTelegram
) -> None:
    pace = unpaced()
    alice = fake_telegram.create_user("Alice")
    group = fake_telegram.create_group("club", [alice])
    kept = Recorded(bot, group.id)
    assert await kept.show(pace)
    first = fake_telegram.last_message(group)
    assert kept.records == [("sent", group.id, first.message_id)]
    assert kept.message_id == first.message_id
    kept.text = "second"
    assert await kept.show(pace)
    assert first.text == "second" and first.edit_count == 1
    assert await kept.show(pace)  # "not modified" counts as shown
    first.deleted = True
    kept.text = "third"
    assert await kept.show(pace)
    again = fake_telegram.last_message(group)
    assert again is not first and again.text == "third"
    assert kept.records[-1] == ("sent", group.id, again.message_id)


async def test_a_group_that_became_a_supergroup_is_followed(
    bot: Bot, fake_telegram: FakeTelegram
) -> None:
    pace = unpaced()
    alice = fake_telegram.create_user("Alice")
    group = fake_telegram.create_group("club", [alice])
    supergroup = fake_telegram.migrate_to_supergroup(group)
    kept = Recorded(bot, group.id)
    assert await kept.show(pace)
    sent = fake_telegram.last_message(supergroup)
    assert kept.chat_id == supergroup.id
    assert kept.records == [
        ("moved", group.id, supergroup.id),
        ("sent", supergroup.id, sent.message_id),
    ]


async def test_a_send_whose_answer_is_lost_is_not_sent_again(
    bot: Bot, fake_telegram: FakeTelegram
) -> None:
    pace = unpaced()
    alice = fake_telegram.create_user("Alice")
    group = fake_telegram.create_group("club", [alice])
    fake_telegram.drop_answer_next("sendMessage")
    kept = Recorded(bot, group.id)
    assert not await kept.show(pace)
    assert len(fake_telegram.requests_for("sendMessage")) == 1
    assert len(fake_telegram.messages(group)) == 1  # posted, but the bot never heard so
    assert kept.records == [] and kept.message_id is None


async def test_a_chat_that_refuses_the_bot_ends_it(bot: Bot, fake_telegram: FakeTelegram) -> None:
    alice = fake_telegram.create_user("Alice")
    chat = fake_telegram.private_chat(alice)
    fake_telegram.block_bot(alice)
    kept = Recorded(bot, chat.id)
    assert not await kept.show(unpaced())
    assert kept.records == [("forbidden", chat.id, 0)]
