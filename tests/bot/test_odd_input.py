"""Odd input through the real bot: numbers that are not ASCII digits or too long for an id,
forged callback numbers, messages sent on behalf of a group or a channel, arguments thousands
of characters long. Each gets a clear answer; none reaches the error handler (the harness fails
a test on any exception that escapes a handler)."""

from __future__ import annotations

import re
from typing import Final

import pytest

from bot.views.texts import ECHO_LENGTH
from tests.support.fake_telegram import FakeChat, FakeUser
from tests.support.harness import BotHarness

APOLOGY: Final = "Something went wrong"
ODD_NUMBERS: Final = ("²", "٣", "-5", "+5", "1_000", "9" * 20, "1" * 19)
"""What ``str.isdigit`` or ``int`` accepts and an id is not: a superscript, an Arabic-Indic
digit, a sign, an underscore, 2**63 and more."""
NOT_A_GAME: Final = "This game does not exist."
ANSWERS: Final = {
    "/moves {}": NOT_A_GAME,
    "/analyse {}": NOT_A_GAME,
    "/position {}": NOT_A_GAME,
    "/verify {}": "",  # its usage, or no such game for a long number
    "/unwatch {}": "Send /unwatch to stop watching every game, or /unwatch 12 for game #12.",
    "/play from {}": "is not a position ID",
    "/from {}": "is not a position ID",
    "/play {}": "is looking for an opponent",  # a word /play does not know: the buttons decide
    "/play bot level {}": "the computer",
}
"""Each command with an odd number in it, and what its answer says."""
NO_SENDER: Final = "I cannot tell who you are"


async def _ask(harness: BotHarness, user: FakeUser, chat: FakeChat, text: str) -> list[str]:
    fake = harness.fake
    sent = fake.send_text(user, chat, text)
    await harness.settle()
    return [m.content for m in fake.messages(chat) if m.message_id > sent.message_id]


async def test_odd_numbers_in_commands_get_a_clear_answer(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    chat = fake.private_chat(alice)
    for command, expected in ANSWERS.items():
        for number in ODD_NUMBERS:
            answers = await _ask(harness, alice, chat, command.format(number))
            assert answers, f"no answer to {command.format(number)!r}"
            assert expected in answers[0], (command.format(number), answers)
            assert not any(APOLOGY in answer for answer in answers)
    assert (await _ask(harness, alice, chat, "/verify ²"))[0].startswith("Send the game's number")
    assert await _ask(harness, alice, chat, "/verify " + "9" * 20) == [NOT_A_GAME]
    for number in ODD_NUMBERS:  # not a link's: the greeting, or the link's thing is not there
        for link in (f"/start c{number}", f"/start w{number}"):
            answers = await _ask(harness, alice, chat, link)
            assert answers and APOLOGY not in answers[0], (link, answers)
    assert await _ask(harness, alice, chat, "/start c" + "9" * 20) == [
        "This challenge does not exist."
    ]
    assert await _ask(harness, alice, chat, "/start w" + "9" * 20) == [NOT_A_GAME]


@pytest.mark.parametrize(
    "data",
    [
        "v:-5",
        "v:+5",
        "v:1_000",
        "v: 7 ",
        "v:7.0",
        "v:²",
        "v:" + "9" * 20,
        "a:" + "9" * 20,
        "f:" + "9" * 20,
        "g:" + "9" * 20 + ":1:1:0",
        "g:1:" + "9" * 20 + ":1:0",
        "g:1:1:01:" + "9" * 12,
        "c:" + "9" * 20 + ":0:1",
        "r:1:2:yes",
        "s:1:-1:1",
        "l:-1",
    ],
)
async def test_forged_callback_numbers_match_no_button(bot_harness: BotHarness, data: str) -> None:
    """Callback data whose numbers are not ASCII digits, or too long, is no button of the bot:
    the fallback's alert, nothing sent, nothing edited."""
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    chat = fake.private_chat(alice)
    fake.send_text(alice, chat, "/start")
    await harness.settle()
    greeting = fake.last_message(chat)
    mark = fake.mark()
    tap = fake.tap(alice, greeting, data, check=False)
    answer = await fake.next_answer_to(tap)
    await harness.settle()
    assert answer.show_alert and answer.text == "This button is no longer valid."
    assert {r.method for r in fake.requests[mark:]} <= {"answerCallbackQuery", "getUpdates"}
    assert greeting.edit_count == 0 and fake.last_message(chat) is greeting


@pytest.mark.parametrize("as_channel", [False, True], ids=["anonymous admin", "channel"])
async def test_a_message_sent_as_a_chat_is_told_to_write_as_oneself(
    bot_harness: BotHarness, as_channel: bool
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    group = fake.create_group("Nardy club", [alice])
    channel = fake.create_channel("Alice's channel") if as_channel else None
    for command in ("/play", "/play bot", "/stats", "/score", "/games", "/chips", "/history"):
        sent = fake.send_as_chat(group, command, sender_chat=channel)
        await harness.settle()
        answers = [m for m in fake.messages(group) if m.message_id > sent.message_id]
        assert [m.content for m in answers] == [
            "I cannot tell who you are: this message was sent on behalf of a group or a "
            "channel. Write as yourself (not anonymously) to use this command."
        ], command
        assert not answers[0].buttons  # no challenge, no game
    sent = fake.send_as_chat(group, "/rules", sender_chat=channel)  # needs nobody: answered
    await harness.settle()
    assert "Long nardy" in fake.last_message(group).content
    assert fake.last_message(group).message_id > sent.message_id


async def test_the_sender_message_is_in_every_language(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="ru")
    group = fake.create_group("Клуб", [alice])
    fake.send_text(alice, group, "/language ru")  # the creator chooses the group's language
    await harness.settle()
    fake.send_as_chat(group, "/stats")
    await harness.settle()
    assert fake.last_message(group).content.startswith("Я не знаю, кто вы")


@pytest.mark.parametrize("command", ["/score", "/language", "/play from", "/unwatch", "/play @-"])
async def test_a_very_long_argument_is_cut_in_the_answer(
    bot_harness: BotHarness, command: str
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    chat = fake.private_chat(alice)
    argument = "x" * (4096 - len(command))  # the longest message Telegram delivers
    command += "" if command.endswith("-") else " "
    answers = await _ask(harness, alice, chat, f"{command}{argument}")
    assert answers and not any(APOLOGY in answer for answer in answers)
    assert all(len(answer) < 500 for answer in answers)
    if "unwatch" not in command:  # they echo the word, cut
        echoed = re.search("x+…", answers[0])
        assert echoed is not None and len(echoed.group()) <= ECHO_LENGTH, answers[0]
