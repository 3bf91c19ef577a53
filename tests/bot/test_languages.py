"""Languages through the real bot and a fake Telegram: a game in each new language (its
challenge, captions, buttons and the words drawn on the board), ``/language`` in a private chat
and in a group (admins only), forged language buttons, the command menu of a chat that chose."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.callbacks import Language, PickLanguage
from bot.i18n import LANGUAGE_NAMES, create_i18n
from bot.services import compose
from bot.services.actions import GameAction
from bot.services.errors import ForeignButton
from bot.storage import Store, open_database
from bot.views.boards import board_position, board_view
from bot.views.common import translator
from bot.views.texts import REFUSALS
from render import render_board
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeUser
from tests.support.harness import BotHarness

from .gameplay import first_choice, game_buttons, mover, tap_and_wait, wait_for_board

I18N = create_i18n()
NEW_LANGUAGES = ("uk", "az", "hy", "ka", "kk")


def said(locale: str, msgid: str) -> str:
    """``msgid`` as the bot says it in ``locale`` (English when the catalog lacks it)."""
    return I18N.gettext(msgid, locale=locale)


def head(text: str) -> str:
    """The words of a translated text before its first placeholder."""
    return text.split("{")[0].strip()


def shows(text: str, message: str) -> bool:
    """Whether ``message`` has a line that is the translated ``text`` with its placeholders
    filled in by anything."""
    parts = re.split(r"\{[^}]*\}", text)
    line = re.compile("^" + ".+?".join(map(re.escape, parts)) + "$", re.MULTILINE)
    return line.search(message) is not None


async def _say(harness: BotHarness, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    """``user`` writes ``text`` in ``chat``; returns the bot's reply once all is handled."""
    sent = harness.fake.send_text(user, chat, text)
    reply = await harness.fake.wait_for_message(chat, after=sent)
    await harness.settle()
    return reply


async def _drawn(database_path: Path, game_id: int, locale: str) -> bytes:
    """The picture of the game's board as it stands, drawn with the words of ``locale``, from
    the bot's own database file."""
    database = await open_database(database_path)
    try:
        services = compose(Store(database), random.Random(0))
        service = services.game_service
        snapshot = await service.snapshot(game_id)
        [board] = await services.board_messages.boards(game_id)
        view = board_view(snapshot, board.viewer, translator(I18N, locale))
        if locale != "en":  # the view carries the catalog's words, not the English ones
            assert view.pip_label == said(locale, "pips") != "pips"
            assert view.result is not None and said(locale, "resignation") in view.result
        return render_board(board_position(snapshot), view=view)
    finally:
        await database.close()


@pytest.mark.parametrize("locale", NEW_LANGUAGES)
async def test_a_game_in_each_new_language(
    bot_harness: BotHarness, database_path: Path, locale: str
) -> None:
    """Two players whose Telegram is in ``locale`` play short nardy in a group: the challenge,
    its buttons, the captions, the game's buttons, the result and the board's words (pips, the
    result) are in ``locale``."""
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code=locale)
    bob = fake.create_user("Bob", username="bob", language_code=locale)
    group = fake.create_group("Nardy club", [alice, bob])
    challenge = await _say(harness, alice, group, "/play @bob short")
    assert said(locale, "short nardy") in challenge.content
    assert head(said(locale, "The challenge expires in 15 minutes.")) in challenge.content
    texts = [b.text for b in challenge.buttons]
    assert texts[:2] == ["✅ " + said(locale, "Accept"), "✖ " + said(locale, "Decline")]
    assert "🎲 " + said(locale, "short nardy") in texts
    fake.press(bob, challenge, "✅ " + said(locale, "Accept"))
    board = await wait_for_board(fake, group)
    await harness.settle()
    caption = board.caption or ""
    assert f"{said(locale, 'short nardy')} · {said(locale, 'standard')}" in caption
    assert shows(said(locale, "⏳ {duration} a move, until {time} UTC"), caption)
    assert shows(said(locale, "🎲 {dice} — {mark} {name} to move"), caption)
    assert "⚔ @alice — @bob" in challenge.content  # the challenge message says it started
    for _ in range(2):  # two turns, tapped step by step, confirmed with the translated button
        player = mover(board, [alice, bob])
        await tap_and_wait(fake, player, board, first_choice(board))
        while not any(b.action is GameAction.CONFIRM for b in game_buttons(board)):
            await tap_and_wait(fake, player, board, first_choice(board))
        controls = {b.text for b in board.buttons}
        assert {"✅ " + said(locale, "Confirm"), "↩ " + said(locale, "Undo")} <= controls
        confirm = next(b for b in game_buttons(board) if b.action is GameAction.CONFIRM)
        await tap_and_wait(fake, player, board, confirm)
    question = await _say(harness, alice, group, "/resign")
    assert head(said(locale, "Resign game #{game} against {name}? You lose {points} pt.")) in (
        question.content
    )
    fake.press(alice, question, "🏳 " + said(locale, "Yes, resign"))
    await fake.wait_for(lambda: "🏆" in (board.caption or ""))
    await harness.settle()
    caption = board.caption or ""
    assert said(locale, "resignation") in caption
    assert [b.text for b in board.buttons] == [
        "🔁 " + said(locale, "Rematch"),
        "📊 " + said(locale, "Analysis"),
        "🎞 " + said(locale, "Replay"),
        "🔎 " + said(locale, "Play anyone"),
    ]
    game_id = int(caption.split(" · #")[1].split()[0])
    assert board.photo == await _drawn(database_path, game_id, locale)
    assert board.photo != await _drawn(database_path, game_id, "en")  # the words make it differ


async def test_language_in_private_is_kept_confirmed_in_it_and_sets_the_chats_menu(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", language_code="ru")
    chat = fake.private_chat(alice)
    menu = await _say(harness, alice, chat, "/language")
    assert menu.content == said("ru", "🌐 Your language: {language}. Choose another:").format(
        language="Русский"
    )
    names = [LANGUAGE_NAMES[language.locale] for language in Language]
    assert [b.text for b in menu.buttons] == [
        "✅ " + name if name == "Русский" else name for name in names
    ]
    assert not (await fake.next_answer_to(fake.press(alice, menu, "ქართული"))).show_alert
    await harness.settle()
    assert menu.content == "✅ თქვენი ენა ახლა: ქართული." and menu.buttons == []
    chat_menu = fake.commands(scope={"type": "chat", "chat_id": alice.id})
    assert ("play", said("ka", "Start a new game (/play bot: with the computer)")) in chat_menu
    assert (await _say(harness, alice, chat, "/start")).content.startswith("გამარჯობა, Alice!")
    await harness.restart()  # the choice is stored, not remembered
    assert (await _say(harness, alice, chat, "/help")).content.startswith("ბრძანებები")
    # /language with a word chooses at once; an unknown word is explained and changes nothing
    assert (await _say(harness, alice, chat, "/language Українська")).content == (
        "✅ Ваша мова тепер: Українська."
    )
    unknown = await _say(harness, alice, chat, "/language klingon")
    assert unknown.content == "Я не знаю мови «klingon». Оберіть одну з цих:"
    assert "✅ Українська" in [b.text for b in unknown.buttons]
    assert (await _say(harness, alice, chat, "/start")).content.startswith("Привіт, Alice!")
    english = await _say(harness, alice, chat, "/language en")
    assert english.content == "✅ Your language is now English."
    chat_menu = fake.commands(scope={"type": "chat", "chat_id": alice.id})
    assert ("play", "Start a new game (/play bot: with the computer)") in chat_menu


@pytest.mark.parametrize("data", ["l:99", "l:0", "l:uk", "l:", "l:3:4"])
async def test_forged_language_buttons_are_refused_and_change_nothing(
    bot_harness: BotHarness, data: str
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", language_code="uk")
    chat = fake.private_chat(alice)
    menu = await _say(harness, alice, chat, "/language")
    shown, mark = menu.content, fake.mark()
    answer = await fake.next_answer_to(fake.tap(alice, menu, data, check=False))
    assert answer.show_alert and answer.text == said("uk", "This button is no longer valid.")
    await harness.settle()
    assert menu.content == shown and menu.edit_count == 0
    assert fake.requests_for("setMyCommands", since=mark) == []
    assert (await _say(harness, alice, chat, "/start")).content.startswith("Привіт, Alice!")
    assert PickLanguage(language=Language.UK).pack() == "l:3"  # a real one, for comparison


async def test_a_language_button_forged_onto_another_message_is_refused_and_edits_nothing(
    bot_harness: BotHarness,
) -> None:
    """A valid language button's data tapped on a message of the bot's that shows no language
    buttons (the /start greeting): refused as a foreign button; the message, the language and
    the menu stay as they are (found by tests/bot/test_fuzz.py)."""
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", language_code="uk")
    chat = fake.private_chat(alice)
    greeting = await _say(harness, alice, chat, "/start")
    shown, mark = greeting.content, fake.mark()
    forged = PickLanguage(language=Language.RU).pack()
    answer = await fake.next_answer_to(fake.tap(alice, greeting, forged, check=False))
    assert answer.show_alert and answer.text == said("uk", REFUSALS[ForeignButton.code])
    await harness.settle()
    assert greeting.content == shown and greeting.edit_count == 0
    assert fake.requests_for("setMyCommands", since=mark) == []
    assert (await _say(harness, alice, chat, "/start")).content.startswith("Привіт, Alice!")


async def test_a_groups_language_is_set_by_its_admins_only_and_its_messages_follow(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")  # the creator
    bob = fake.create_user("Bob", username="bob", language_code="ru")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    refused = await _say(harness, bob, group, "/language hy")
    assert refused.content == said("ru", "Only the group's admins can do that.")
    assert (await _say(harness, carol, group, "/help")).content.startswith("Commands")
    menu = await _say(harness, alice, group, "/language")
    assert menu.content.startswith("🌐 This group has no language of its own")
    press = fake.press(bob, menu, "Հայերեն")  # not an admin: an alert, nothing changes
    answer = await fake.next_answer_to(press)
    assert answer.show_alert and answer.text == said("ru", "Only the group's admins can do that.")
    await harness.settle()
    assert menu.edit_count == 0
    assert (await _say(harness, carol, group, "/help")).content.startswith("Commands")
    fake.set_member_status(group, carol, "administrator")  # another admin may choose
    assert not (await fake.next_answer_to(fake.press(carol, menu, "Հայերեն"))).show_alert
    await harness.settle()
    assert menu.content == said(
        "hy",
        "✅ This group's language is now {language}: its messages, challenges and boards use it.",
    ).format(language="Հայերեն")
    group_menu = fake.commands(scope={"type": "chat", "chat_id": group.id})
    assert ("play", said("hy", "Start a new game (/play bot: with the computer)")) in group_menu
    # everyone in the group now reads Armenian, whatever their own language: commands,
    # challenges, refusals on buttons and the board
    assert (await _say(harness, bob, group, "/help")).content.startswith("Հրամաններ")
    challenge = await _say(harness, bob, group, "/play @alice")
    assert said("hy", "long nardy") in challenge.content
    assert (
        said("hy", "This challenge is for someone else.")
        == (
            await fake.next_answer_to(fake.press(carol, challenge, "✅ " + said("hy", "Accept")))
        ).text
    )
    fake.press(alice, challenge, "✅ " + said("hy", "Accept"))
    board = await wait_for_board(fake, group)
    await harness.settle()
    assert f"{said('hy', 'long nardy')} · {said('hy', 'classic')}" in (board.caption or "")
    # in private, each keeps their own language
    bob_chat = fake.private_chat(bob)
    assert (await _say(harness, bob, bob_chat, "/start")).content.startswith("Привет, Bob!")
    assert (await _say(harness, alice, group, "/language")).content == said(
        "hy", "🌐 This group's language: {language}. Admins can choose another:"
    ).format(language="Հայերեն")


def test_language_buttons_match_the_catalogs_and_fit_telegrams_limit() -> None:
    assert [language.locale for language in Language] == list(LANGUAGE_NAMES)
    assert all(len(PickLanguage(language=language).pack()) <= 64 for language in Language)
