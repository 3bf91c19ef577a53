"""The operators (``OWNER_IDS``) through the real bot: a ban that turns a user away (one short
answer, nothing changed) and ends their challenges, their wait in /find and their tournament
entry, across a restart, until /unban; a broadcast confirmed first, then sent once to each
user, across a restart; the held chip transfers released or refunded; /ops; commands and menus
that only operators have."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services import chips
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot, watch_logs

from .gameplay import wait_for_board

OWNER_ID = 777_000_001
BANNED = "You are banned from this bot."


@pytest.fixture
async def harness(fake_telegram: FakeTelegram, database_path: Path) -> AsyncIterator[BotHarness]:
    async with running_bot(fake_telegram, database_path, owner_ids=(OWNER_ID,)) as running:
        yield running


def _owner(fake: FakeTelegram) -> tuple[FakeUser, FakeChat]:
    owner = fake.users.get(OWNER_ID) or fake.create_user("Olga", username="olga", user_id=OWNER_ID)
    return owner, fake.private_chat(owner)


async def _say(harness: BotHarness, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    """``user`` writes ``text``; returns the bot's first answer in ``chat``."""
    sent = harness.fake.send_text(user, chat, text)
    answer = await harness.fake.wait_for_message(chat, after=sent)
    await harness.settle()
    return answer


async def _tap(harness: BotHarness, user: FakeUser, message: FakeMessage, label: str) -> str:
    """``user`` presses ``label``; returns the answer's text (alert or not)."""
    answer = await harness.fake.next_answer_to(harness.fake.press(user, message, label))
    await harness.idle()
    return answer.text or ""


async def test_a_banned_user_is_turned_away_and_what_they_had_open_ends(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    owner, office = _owner(fake)
    carol = fake.create_user("Carol", username="carol")
    dave = fake.create_user("Dave", username="dave")
    group = fake.create_group("Club", [owner, carol, dave], creator=dave)
    for user in (owner, carol, dave):
        await _say(harness, user, fake.private_chat(user), "/start")
    # what Carol has open: a challenge in the group, a wait in /find, a tournament entry of 10
    challenge = await _say(harness, carol, group, "/play")
    picker = await _say(harness, carol, fake.private_chat(carol), "/find")
    await _tap(harness, carol, picker, "🔎 Find")
    assert "Looking for an opponent" in picker.content
    signup = await _say(harness, dave, group, "/tournament")
    await _tap(harness, dave, signup, "💰 free")
    assert await _tap(harness, dave, signup, "✅ Create") == ""
    assert await _tap(harness, carol, signup, "✅ Join") == ""
    assert "@carol" in signup.content

    # nobody else has the operators' commands: they are unknown
    refused = await _say(harness, dave, fake.private_chat(dave), "/ban @carol")
    assert refused.text == "I do not know the command /ban. Send /help for the list of commands."
    # an operator cannot be banned, even by another; a ban needs someone named
    answer = await _say(harness, owner, office, f"/ban {OWNER_ID}")
    assert answer.text == "Operators cannot be banned."
    assert "Name the user" in (await _say(harness, owner, office, "/ban")).content
    for nobody in ("@nobody", "1" * 30):  # nobody known; a number no id can be
        assert "I do not know @" in (await _say(harness, owner, office, f"/ban {nobody}")).content

    answer = await _say(harness, owner, office, "/ban @carol")
    assert answer.text == (
        "🚫 @carol is banned: their commands and taps change nothing now.\n"
        "open challenges cancelled: 1; left /find; left tournaments: #1"
    )
    await harness.idle()
    assert not challenge.buttons and challenge.content == "@carol withdrew the challenge."
    assert picker.content == "✖ This search has ended." and not picker.buttons
    assert "@carol" not in signup.content
    assert (await _say(harness, owner, office, "/ban @carol")).text == "@carol is banned already."

    # Carol: a command gets one short answer a minute, a tap an alert; nothing changes
    mark = fake.mark()
    assert (await _say(harness, carol, group, "/play @dave")).text == BANNED
    fake.send_text(carol, group, "/play @dave")
    fake.send_text(carol, fake.private_chat(carol), "hello")
    await harness.settle()
    assert [r.method for r in fake.requests_for("sendMessage", since=mark)] == ["sendMessage"]
    tap = fake.tap(carol, signup, signup.button("✅ Join").callback_data or "")
    answer = await fake.next_answer_to(tap)
    assert answer.show_alert and answer.text == BANNED
    await harness.settle()
    assert "@carol" not in signup.content
    # the ban is stored: it holds after a restart, until it is lifted (here by id)
    await harness.restart()
    tap = fake.tap(carol, signup, signup.button("✅ Join").callback_data or "")
    assert (await fake.next_answer_to(tap)).text == BANNED
    answer = await _say(harness, owner, office, f"/unban {carol.id}")
    assert answer.text == "@carol may use the bot again."
    assert (await _say(harness, owner, office, "/unban @carol")).text == "@carol is not banned."
    # her entry came back when she was taken off the list
    statement = await _say(harness, carol, fake.private_chat(carol), "/chips")
    assert "Your chips: 1000" in statement.content
    # a ban in reply to a message, in the group
    sent = fake.send_text(carol, group, "@nardy_test_bot spam")
    fake.send_text(owner, group, "/ban", reply_to=sent)
    reply = await fake.wait_for_message(group, where=lambda m: "is banned" in m.content)
    assert reply.content.startswith("🚫 @carol is banned")


async def test_operators_get_their_menu_once_they_have_written(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    owner, office = _owner(fake)
    scope = {"type": "chat", "chat_id": OWNER_ID}
    with watch_logs(fake, "bot.app") as logs:
        async with running_bot(fake, database_path, owner_ids=(OWNER_ID,)) as harness:
            assert logs.count(f"the operator menu of user {OWNER_ID} was refused") == 1
            await _say(harness, owner, office, "/start")
            await harness.restart()
            everyone = [command for command, _ in fake.commands()]
            menu = [command for command, _ in fake.commands(scope=scope)]
            assert menu == [*everyone, "ops", "ban", "unban", "broadcast"]
            assert not {"ops", "ban", "unban", "broadcast"} & set(everyone)
            # the language they choose keeps their menu theirs, in it
            await _say(harness, owner, office, "/language ru")
            menu = [command for command, _ in fake.commands(scope=scope)]
            assert menu == [*everyone, "ops", "ban", "unban", "broadcast"]
            assert dict(fake.commands(scope=scope))["ban"].startswith(
                "🛠 Заблокировать пользователя"
            )
            # anyone else's chosen language gives them everyone's menu
            dave = fake.create_user("Dave", username="dave")
            await _say(harness, dave, fake.private_chat(dave), "/language ru")
            theirs = {"type": "chat", "chat_id": dave.id}
            assert [command for command, _ in fake.commands(scope=theirs)] == everyone


async def test_a_broadcast_is_confirmed_then_reaches_each_user_once_across_a_restart(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    owner, office = _owner(fake)
    users = [fake.create_user(f"User{n}", username=f"user{n}") for n in range(6)]
    for user in users:
        await _say(harness, user, fake.private_chat(user), "/start")
    await _say(harness, owner, office, "/start")
    lurker = fake.create_user("Lurker", username="lurker")  # only in a group: no private chat
    group = fake.create_group("Club", [lurker, users[0]])
    await _say(harness, lurker, group, "/help")
    fake.block_bot(users[1], tell=True)  # blocked, and the bot knows it
    fake.block_bot(users[2])  # blocked, and the bot learns it when it sends
    await _say(harness, owner, office, "/ban @user3")
    await harness.settle()
    # the recipients: owner, users 0, 2 (who blocked the bot unbeknown), 4 and 5

    usage = await _say(harness, owner, office, "/broadcast")
    assert "Write the message after the command" in usage.content
    draft = await _say(harness, owner, office, "/broadcast New: <b>crazy</b> gul-bara!")
    assert draft.text == (
        "📣 Recipients (everyone with a private chat with the bot): 5. It says:\n\n"
        "New: <b>crazy</b> gul-bara!"  # what the operator typed, as typed: not markup
    )
    assert [b.text for b in draft.buttons] == ["📣 Send (5)", "✖ Cancel"]
    await harness.idle()

    def received(user: FakeUser) -> list[FakeMessage]:
        chat = fake.private_chat(user)
        return [m for m in fake.messages(chat) if m.content.startswith("New: ")]

    assert all(received(u) == [] for u in users)  # nothing before the confirmation
    # users[4]'s chat stalls; the bot stops while that send waits: it is never carried out
    fake.hold_chats(fake.private_chat(users[4]))
    assert await _tap(harness, owner, draft, "📣 Send (5)") == "Sending…"
    await fake.wait_for(lambda: fake.holding == 1, description="the held send")
    await harness.stop(settle=False)
    fake.release_chats()
    await harness.start()
    await fake.wait_for(
        lambda: "is done" in draft.content, timeout=10, description="the broadcast's end"
    )
    await harness.idle()
    for user in users + [owner, lurker]:
        expected = 1 if user in (owner, users[0], users[5]) else 0  # users[4]'s was lost
        assert len(received(user)) == expected, user
    [sent] = received(owner)
    assert sent.text == "New: <b>crazy</b> gul-bara!" and not sent.entities
    assert draft.content.startswith("📣 Broadcast #1 is done: 3 of 5 sent, 1 not reached")
    assert not draft.buttons
    # users[2]'s block, found by the broadcast, is noted: the next one counts 4
    again = await _say(harness, owner, office, "/broadcast Second")
    assert "Recipients (everyone with a private chat with the bot): 4." in again.content
    stopped = await _tap(harness, owner, again, "✖ Cancel")
    assert stopped == "Stopped." and "cancelled: nothing was sent" in again.content
    assert not any("Second" in m.content for m in fake.messages(fake.private_chat(users[0])))


async def test_held_transfers_are_released_or_refunded_by_an_operator(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every payment held, however early: each staked game makes a flag
    monkeypatch.setattr(chips, "DUMP_PAYMENTS", 1)
    monkeypatch.setattr(chips, "MIN_LOSER_TURNS", 0)
    fake = harness.fake
    owner, office = _owner(fake)
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("Club", [alice, bob])
    fake.set_member_status(group, alice, "creator")
    assert (await _say(harness, owner, office, "/flags")).text == "No chip transfers are held."
    games = []
    for stake in (10, 50):  # resigned: a mars, twice the stake
        challenge = await _say(harness, alice, group, f"/play @bob {stake}")
        await _tap(harness, bob, challenge, "✅ Accept")
        board = await fake.wait_for_message(
            group, after=challenge, where=lambda m: m.photo is not None
        )
        question = await _say(harness, alice, group, "/resign")
        await _tap(harness, alice, question, "🏳")
        found = re.search(r"#(\d+)", board.content)
        assert found
        games.append(int(found[1]))
    await harness.idle()
    listed = await _say(harness, owner, office, "/flags")
    assert f"Game #{games[1]} in chat {group.id}: @alice → @bob, 100 chips" in listed.content
    assert [b.text for b in listed.buttons] == [
        f"✅ #{games[1]}",
        f"↩ #{games[1]}",
        f"✅ #{games[0]}",
        f"↩ #{games[0]}",
    ]
    assert await _tap(harness, owner, listed, f"✅ #{games[1]}") == (
        f"Game #{games[1]}: 100 chips paid to @bob."
    )
    assert await _tap(harness, owner, listed, f"↩ #{games[0]}") == (
        f"Game #{games[0]}: refunded, the chips stay with @alice."
    )
    assert listed.text == "No chip transfers are held." and not listed.buttons
    # a decision taken already (a second operator's stale list): refused, nothing moves
    stale = fake.tap(owner, listed, f"h:{games[1]}:1", check=False)
    answer = await fake.next_answer_to(stale)
    assert answer.show_alert and answer.text == "This transfer has been decided already."
    for user, balance in ((alice, 900), (bob, 1100)):
        statement = await _say(harness, user, fake.private_chat(user), "/chips")
        assert f"Your chips: {balance}" in statement.content
    shown = await _say(harness, alice, group, "/flags")  # the group's admins see none held
    assert shown.content.startswith("No transfers are held back in this group.")


async def test_ops_shows_the_bot_at_a_glance(harness: BotHarness) -> None:
    fake = harness.fake
    owner, office = _owner(fake)
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    for user in (alice, bob):
        await _say(harness, user, fake.private_chat(user), "/start")
    group = fake.create_group("Club", [alice, bob])
    await _say(harness, alice, group, "/play @bob")
    await _tap(harness, bob, fake.last_message(group), "✅ Accept")
    await wait_for_board(fake, group)
    await _say(harness, owner, office, "/ban @bob")
    shown = await _say(harness, owner, office, "/ops")
    assert shown.text == "\n".join(
        [
            "🛠 The bot at a glance",
            "Users: 3 (2 reachable in private, 1 banned)",
            "Games today (UTC): 1 started, 0 finished; 1 in progress now",
            "Failed updates since this worker started: 0",
            "Worker restarts: computer 0, planner 0",
            "Waiting: 0 games for their analysis, 0 players in /find, 0 recipients of broadcasts",
        ]
    )
    assert (
        "I do not know the command /ops"
        in (await _say(harness, alice, fake.private_chat(alice), "/ops")).content
    )
