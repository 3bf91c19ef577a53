"""What the bot says to get people started right: a warning to the operator whose inline mode
has no storage chat, an answer to a command it does not know (only where it is surely meant
for it), and a welcome to a group that adds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import BotHarness, fake_telegram_server, running_bot, watch_logs


@pytest.mark.parametrize(
    ("inline_mode", "storage", "warned"),
    [(True, "", True), (True, "-1001234567890", False), (False, "", False)],
)
async def test_inline_mode_without_a_storage_chat_is_warned_of_at_start(
    database_path: Path, inline_mode: bool, storage: str, warned: bool
) -> None:
    async with fake_telegram_server(inline_mode=inline_mode) as fake:
        with watch_logs(fake, "bot.app") as logs:
            async with running_bot(fake, database_path, storage_chat_id=storage):
                pass
    assert logs.count("inline mode is on (@BotFather /setinline) but STORAGE_CHAT_ID") == warned


async def test_an_unknown_command_is_answered_only_where_it_is_meant_for_the_bot(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    fake.privacy_mode = False  # the bot sees every message of the group, other bots' commands too
    alice = fake.create_user("Alice", username="alice", language_code="en")
    boris = fake.create_user("Boris", username="boris", language_code="ru")
    group = fake.create_group("Club", [alice, boris])
    async with running_bot(fake, database_path) as harness:
        for text in ("/foo", "/foo@nardy_test_bot", "/foo@Nardy_Test_Bot bar"):
            sent = fake.send_text(alice, fake.private_chat(alice), text)
            reply = await fake.wait_for_message(fake.private_chat(alice), after=sent)
            assert reply.text == (
                "I do not know the command /foo. Send /help for the list of commands."
            )
            assert reply.reply_to is sent
        sent = fake.send_text(boris, fake.private_chat(boris), "/игра")
        reply = await fake.wait_for_message(fake.private_chat(boris), after=sent)
        assert reply.text == (
            "Я не знаю команды /игра. Отправьте /help, чтобы увидеть список команд."
        )
        # in the group: another bot's command, a bare one (maybe another bot's), plain text
        mark = fake.mark()
        for text in ("/foo", "/foo@other_bot", "/play@other_bot", "a / b", "/"):
            fake.send_text(alice, group, text)
        await harness.settle()
        assert not fake.requests_for("sendMessage", since=mark)
        sent = fake.send_text(alice, group, "/foo@nardy_test_bot")
        reply = await fake.wait_for_message(group, after=sent)
        assert "I do not know the command /foo" in (reply.text or "") and reply.reply_to is sent
        # a known command addressed to the bot is its own, not unknown
        sent = fake.send_text(alice, group, "/help@nardy_test_bot")
        reply = await fake.wait_for_message(group, after=sent)
        assert "Commands" in (reply.text or "")


async def test_a_group_that_adds_the_bot_is_welcomed_and_told_of_the_pin_right(
    bot_harness: BotHarness,
) -> None:
    fake = bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    boris = fake.create_user("Boris", username="boris", language_code="ru")
    club = fake.chat_between(alice, boris, title="Club")
    fake.add_bot(club, by=alice)
    welcome = await fake.wait_for_message(club)
    text = welcome.text or ""
    assert text.startswith("Hello, Club! I am a bot for playing nardy here, together.")
    for command in ("/play @friend", "/tournament", "/league", "/help"):
        assert command in text
    assert "admin with the right to pin messages" in text
    # made an admin that may pin at once: not asked for it; in the adder's language
    other = fake.chat_between(alice, boris, title="Клуб")
    fake.add_bot(other, by=boris, admin=True)
    welcome = await fake.wait_for_message(other)
    text = welcome.text or ""
    assert text.startswith("Привет, Клуб!") and "/tournament" in text
    assert "правом закреплять" not in text
    # promoted later, or removed: nothing more is said
    mark = fake.mark()
    fake.set_bot_admin(club, by=alice)
    fake.block_bot(alice, tell=True)
    await bot_harness.settle()
    assert not fake.requests_for("sendMessage", since=mark)
