"""``/privacy`` in every language and ``/forget`` through the real bot: refused in a group and
while a game holds the user, kept on Cancel, done on the confirmation tap; afterwards no row
of the database holds the user's id or name, and their opponent sees "deleted player" (in
their own language) where they played. And the operator's ``python -m bot forget``."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest
from aiogram import html

from bot.i18n import LOCALES, create_i18n
from bot.storage import Store, open_database
from bot.views.common import DELETED_PLAYER
from bot.views.privacy import FORGET_ASK, FORGET_DONE, FORGET_KEPT, FORGET_PRIVATE, SECTIONS, TITLE
from tests.support.harness import BotHarness

from .gameplay import is_over, start_private_game

I18N = create_i18n()
ROOT = Path(__file__).resolve().parents[2]


def said(locale: str, msgid: str) -> str:
    return I18N.gettext(msgid, locale=locale)


async def _cells_holding(database: Path, *values: int | str) -> list[str]:
    """``table.column`` of every cell, in every table the file has, holding one of ``values``
    (a text cell: containing it, a number as a whole word: a game's dice seed in hex holds a
    user's id, ``1001``, by chance once in some thousand games)."""
    patterns = [
        re.compile(rf"(?<![0-9A-Za-z]){value}(?![0-9A-Za-z])" if isinstance(value, int) else
                   re.escape(value))
        for value in values
    ]  # fmt: skip
    db = await open_database(database)
    found = []
    try:
        tables = await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
        for entry in tables:
            table = entry[0]
            for row in await db.fetch_all(f"SELECT * FROM {table}"):
                for column in row.keys():  # noqa: SIM118 - a Row's columns
                    cell = row[column]
                    if cell in values or (
                        isinstance(cell, str) and any(p.search(cell) for p in patterns)
                    ):
                        found.append(f"{table}.{column}")
    finally:
        await db.close()
    return found


async def test_privacy_is_answered_in_every_language(bot_harness: BotHarness) -> None:
    fake = bot_harness.fake
    for locale in LOCALES:
        user = fake.create_user(f"Reader {locale}", language_code=locale)
        chat = fake.private_chat(user)
        fake.send_text(user, chat, "/privacy")
        await bot_harness.settle()
        text = fake.last_message(chat).text or ""
        assert text.startswith(html.quote(said(locale, TITLE))), locale
        assert "/forget" in text and text.count("\n\n") == len(SECTIONS)  # after the title
        if locale != "en":
            assert said(locale, TITLE) != TITLE, locale  # translated, not English


@pytest.mark.slow
async def test_forget_deletes_the_user_but_not_their_opponents_games(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, boards = await start_private_game(harness)
    alice_chat = fake.private_chat(alice)
    group = fake.create_group("club", [alice, bob])
    fake.send_text(alice, group, "/forget")
    await harness.settle()
    assert fake.last_message(group).text == said("en", FORGET_PRIVATE)

    fake.send_text(alice, alice_chat, "/forget")  # in a game: refused at once
    await harness.settle()
    assert "(game #1)" in (fake.last_message(alice_chat).text or "")
    fake.send_text(alice, alice_chat, "/resign")
    await harness.settle()
    fake.press(alice, fake.last_message(alice_chat), "🏳 Yes, resign")
    await fake.wait_for(lambda: is_over(boards[bob]), description="the game's result")

    fake.send_text(alice, alice_chat, "/forget")
    await harness.settle()
    question = fake.last_message(alice_chat)
    assert question.text == said("en", FORGET_ASK)
    fake.press(alice, question, "Cancel")
    await harness.settle()
    assert question.text == said("en", FORGET_KEPT)
    assert await _cells_holding(database_path, alice.id)  # nothing was deleted

    fake.send_text(alice, alice_chat, "/forget")
    await harness.settle()
    question = fake.last_message(alice_chat)
    fake.press(alice, question, "🗑 Delete my data")
    await harness.settle()
    assert question.text == said("en", FORGET_DONE)
    assert await _cells_holding(database_path, alice.id, "Alice", "alice") == []

    # Bob's game stayed his, against a deleted player, named in his language
    bob_chat = fake.private_chat(bob)
    fake.send_text(bob, bob_chat, "/language")
    await harness.settle()
    fake.press(bob, fake.last_message(bob_chat), "Русский")
    await harness.settle()
    fake.send_text(bob, bob_chat, "/history")
    await harness.settle()
    history = fake.last_message(fake.private_chat(bob)).text or ""
    assert "удалённый игрок" in history and said("ru", DELETED_PLAYER) == "удалённый игрок"
    fake.send_text(bob, bob_chat, "/stats")  # his win still counts, as a game with a person
    await harness.settle()
    won = said("ru", "Games: {games}, wins: {wins} ({rate}%)").format(games=1, wins=1, rate=100)
    assert won in (fake.last_message(bob_chat).text or "")
    db = await open_database(database_path)
    try:
        kept = await Store(db).games.get(1)
    finally:
        await db.close()
    assert kept is not None and kept.game.is_over and bob.id in (kept.white_id, kept.black_id)

    # a rematch offered to a deleted player is sent to nobody else (they have no chat)
    mark = fake.mark()
    fake.press(bob, boards[bob], "🔁 Rematch")
    await harness.settle()
    sent = [r.params.get("chat_id") for r in fake.requests_for("sendMessage", since=mark)]
    assert sent and all(chat is not None and int(chat) == bob.id for chat in sent)

    # Alice writes again: the bot starts afresh
    fake.send_text(alice, alice_chat, "/start")
    await harness.settle()
    assert "users.id" in await _cells_holding(database_path, alice.id)

    # the operator's command, for a request by mail: Bob
    await harness.stop()
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite:///{database_path}",
    }
    for expected in (0, 1):  # forgotten; then there is nothing left to forget
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "forget", str(bob.id), env=environment, cwd=ROOT / "tests",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await process.communicate()
        assert process.returncode == expected, err
        assert (out if expected == 0 else err).decode().count("\n") == 1
    assert await _cells_holding(database_path, bob.id, "Bob", "bob") == []
