"""Inline mode end to end: ``@bot`` in a chat the bot is not in, an invitation posted through a
user, a game played to the end in that inline message, with boards shown by file id (or as
text without a storage chat), paced per chat, watched by a third user whose taps change
nothing."""

from __future__ import annotations

import logging
import random
import re
import statistics
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app import ServicesFactory
from bot.callbacks import GameButton, InlineInvite, InviteOption
from bot.config import Settings
from bot.services import Services, compose
from bot.services.actions import GameAction
from bot.storage import Store, open_database
from tests.support.fake_telegram import (
    FakeChat,
    FakeInlineAnswer,
    FakeMessage,
    FakeTelegram,
    FakeUser,
    RecordedRequest,
)
from tests.support.harness import BotHarness, running_bot

from .gameplay import ask, first_choice, is_over, mover, play_turn, tap_and_wait, version

Players = tuple[FakeUser, FakeUser, FakeUser, FakeChat]
logger = logging.getLogger(__name__)


@pytest.fixture
def storage(fake_telegram: FakeTelegram) -> FakeChat:
    """The operator's private channel for board pictures."""
    return fake_telegram.create_channel("nardy boards")


@pytest.fixture
async def harness(
    fake_telegram: FakeTelegram, database_path: Path, storage: FakeChat
) -> AsyncIterator[BotHarness]:
    async with running_bot(fake_telegram, database_path, storage_chat_id=storage.id) as running:
        yield running


def _people(fake: FakeTelegram) -> Players:
    """Alice, Bob and Carol in a group the bot is not in."""
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    carol = fake.create_user("Carol", username="carol")
    return alice, bob, carol, fake.chat_between(alice, bob, carol, title="Friends")


async def _invite(
    harness: BotHarness, user: FakeUser, chat: FakeChat, query: str = "", pick: int = 0
) -> tuple[FakeInlineAnswer, FakeMessage]:
    """``user`` types ``@bot query`` in ``chat`` and posts the ``pick``-th game offered."""
    fake = harness.fake
    asked = fake.inline_query(user, query, chat=chat)
    answer = await fake.next_inline_answer(asked)
    invitation = fake.choose_inline_result(asked, answer.results[pick]["id"])
    await harness.settle()  # the chosen result made the challenge
    return answer, invitation


def _edits(fake: FakeTelegram, message: FakeMessage) -> list[RecordedRequest]:
    """The bot's successful edits of an inline message, in order."""
    return [
        r
        for r in fake.requests
        if r.method.startswith("editMessage")
        and r.params.get("inline_message_id") == message.inline_message_id
        and r.ok
    ]


async def _join(fake: FakeTelegram, user: FakeUser, invitation: FakeMessage) -> None:
    tap = fake.press(user, invitation, "✅ Join")
    assert not (await fake.next_answer_to(tap)).show_alert
    await fake.wait_for(lambda: invitation.photo is not None or "🎲" in (invitation.text or ""))


async def test_an_inline_game_played_to_the_end_with_a_watcher(
    harness: BotHarness, storage: FakeChat
) -> None:
    fake = harness.fake
    alice, bob, carol, chat = _people(fake)
    answer, invitation = await _invite(harness, alice, chat)
    # the variants, then the first as a match to 5 and to 7
    assert answer.titles[:5] == [
        "Long nardy",
        "Short nardy",
        "Abkhaz nardy",
        "Gul-bara",
        "Crazy gul-bara",
    ]
    descriptions = [str(r.get("description")) for r in answer.results]
    assert any("match to 5" in d for d in descriptions)
    assert any("match to 7" in d for d in descriptions)
    assert answer.is_personal
    # the invitation is Alice's message "via" the bot; the bot posts nothing itself
    assert invitation.sender == alice and invitation.via_bot == fake.bot_user
    assert "@alice invites you" in (invitation.text or "")
    assert [b.text for b in invitation.buttons] == ["✅ Join", "✖ Decline"]
    assert not fake.messages(chat)
    own = await fake.next_answer_to(fake.press(alice, invitation, "✅ Join"))
    assert own.show_alert and "your own" in (own.text or "")
    join = fake.tap(bob, invitation, invitation.button("✅ Join").callback_data or "")
    await fake.wait_for(lambda: invitation.photo is not None, timeout=10)
    assert not (await fake.next_answer_to(join)).show_alert
    caption = invitation.caption or ""
    assert "@alice" in caption and "@bob" in caption and invitation.text is None
    # Carol comes late to Join, then taps the board: she watches, nothing changes
    late = await fake.next_answer_to(fake.tap(carol, invitation, join.data, check=False))
    assert late.show_alert and "watching" in (late.text or "")
    edits = invitation.edit_count
    step = first_choice(invitation)
    watched = await fake.next_answer_to(fake.tap(carol, invitation, step.pack()))
    assert watched.show_alert and "watching" in (watched.text or "")
    await harness.settle()
    assert invitation.edit_count == edits and version(invitation) == step.version
    taps_from = len(fake.taps)
    for _ in range(400):
        if is_over(invitation):
            break
        await play_turn(fake, invitation, [alice, bob])
    assert is_over(invitation), invitation.caption
    await harness.settle()
    assert [b.text for b in invitation.buttons] == [
        "🔁 Play again",
        "🏆 Leaderboard",
        "📊 Analysis",
    ]
    # every board went by a file id the storage channel gave, never as an upload, and each
    # upload was deleted once shown
    media = [r for r in _edits(fake, invitation) if r.method == "editMessageMedia"]
    uploads = {
        r.response["result"]["photo"][-1]["file_id"]
        for r in fake.requests_for("sendPhoto")
        if r.ok and r.response is not None and r.params["chat_id"] == str(storage.id)
    }
    assert media and all(not r.files and r.params["media"]["media"] in uploads for r in media)
    await fake.wait_for(lambda: not fake.messages(storage), description="no upload left")
    # a tap's edit: how long after it the board was edited (printed with -s)
    delays = []
    for tap in list(fake.taps.values())[taps_from:]:
        after = [r.at for r in media if r.at > tap.at]
        if after and tap.user in (alice, bob):
            delays.append(min(after) - tap.at)
    median = statistics.median(delays)
    logger.info("inline board: %d taps, from a tap to its edit: median %.3f s", len(delays), median)
    assert len(delays) > 20 and median < 0.5, median
    # the result counts everywhere: both players' /stats, and the chat's leaderboard
    for player in (alice, bob):
        private = fake.private_chat(player)
        sent = fake.send_text(player, private, "/stats")
        stats = await fake.wait_for_message(private, after=sent)
        assert "Games: 1," in stats.text
    top = await fake.next_answer_to(fake.press(carol, invitation, "🏆 Leaderboard"))
    assert top.show_alert and "@alice" in (top.text or "") and "@bob" in (top.text or "")
    assert fake.requests_for("answerInlineQuery")[0].params["cache_time"] == "30"


async def test_an_invitation_shows_its_dice_commitment_before_anyone_can_join(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice, bob, _carol, chat = _people(fake)
    asked = fake.inline_query(alice, "short", chat=chat)
    answer = await fake.next_inline_answer(asked)
    invitation = fake.choose_inline_result(asked, answer.results[0]["id"])
    posted = invitation.button("✅ Join").callback_data or ""  # drawn before the challenge
    assert "🔒" not in (invitation.text or "")
    await fake.wait_for(lambda: "🔒" in (invitation.text or ""), description="the commitment")
    shown = re.search(r"🔒 Fair dice ([0-9a-f]{16})…", invitation.text or "")
    assert shown is not None, invitation.text
    assert "invites you to a game" in (invitation.text or "")  # the rest of it unchanged
    edited = invitation.edit_count
    # a Join from the buttons as posted, before the commitment showed, counts for nothing; a
    # seal that is not the commitment's is forged
    early = await fake.next_answer_to(fake.tap(bob, invitation, posted, check=False))
    assert early.show_alert and "commitment" in (early.text or "")
    forged = InlineInvite(challenger=alice.id, option=InviteOption.JOIN, seal=1).pack()
    refused = await fake.next_answer_to(fake.tap(bob, invitation, forged, check=False))
    assert refused.show_alert
    await harness.settle()
    assert invitation.edit_count == edited and invitation.photo is None
    await _join(fake, bob, invitation)
    # the game plays the seed whose commitment the invitation showed before the Join
    game = GameButton.unpack(first_choice(invitation).pack()).game
    verified = await ask(harness, bob, fake.private_chat(bob), f"/verify {game}")
    commitment = re.findall(r"\b[0-9a-f]{64}\b", verified.text or "")
    assert len(commitment) == 1 and commitment[0].startswith(shown.group(1)), verified.text


async def test_a_reserved_invitation_is_for_the_friend_alone(harness: BotHarness) -> None:
    fake = harness.fake
    alice, bob, carol, chat = _people(fake)
    _answer, invitation = await _invite(harness, alice, chat, "@bob short")
    assert "only @bob can join" in (invitation.text or "")
    assert "short nardy" in (invitation.text or "")
    edited = invitation.edit_count  # the commitment added
    for user in (carol,):
        refused = await fake.next_answer_to(fake.press(user, invitation, "✅ Join"))
        assert refused.show_alert and "someone else" in (refused.text or "")
        refused = await fake.next_answer_to(fake.press(user, invitation, "✖ Decline"))
        assert refused.show_alert and "someone else" in (refused.text or "")
    await harness.settle()
    assert invitation.edit_count == edited and invitation.photo is None
    fake.press(bob, invitation, "✖ Decline")
    await fake.wait_for(lambda: "declined" in (invitation.text or ""))
    assert not invitation.buttons


async def test_refused_queries_offer_no_game(harness: BotHarness) -> None:
    fake = harness.fake
    alice, _bob, _carol, chat = _people(fake)
    for query, why in (("@alice", "yourself"), ("@helper_bot", "Bots do not play")):
        answer = await fake.next_inline_answer(fake.inline_query(alice, query, chat=chat))
        assert answer.results == []
        assert answer.button is not None and why in answer.button["text"]


async def test_stale_forged_and_repeated_taps_on_an_inline_board_change_nothing(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice, bob, _carol, chat = _people(fake)
    _answer, invitation = await _invite(harness, alice, chat)
    invited = invitation.edit_count  # the edit that showed the dice commitment
    join = fake.press(bob, invitation, "✅ Join")
    await fake.wait_for(lambda: invitation.photo is not None, timeout=10)
    fake.redeliver(join.update_id)  # a Join delivered twice starts one game
    await harness.settle()
    player = mover(invitation, [alice, bob])
    step = first_choice(invitation)
    edits = invitation.edit_count
    forged = [
        "g:999999:0:1:0",  # a game that does not exist
        GameButton(game=step.game, version=step.version, action=GameAction.STEP, arg=97).pack(),
        InlineInvite(challenger=bob.id, option=InviteOption.JOIN).pack(),  # not Bob's invitation
        "i:not:numbers",
    ]
    for data in forged:
        answer = await fake.next_answer_to(fake.tap(player, invitation, data, check=False))
        assert answer.show_alert, data
    await harness.settle()
    assert invitation.edit_count == edits and version(invitation) == step.version
    await tap_and_wait(fake, player, invitation, step)
    stale = await fake.next_answer_to(fake.tap(player, invitation, step.pack(), check=False))
    assert stale.show_alert and "out of date" in (stale.text or "")
    await harness.settle()
    pictures = len([r for r in fake.requests_for("sendPhoto") if r.ok])
    assert pictures == invitation.edit_count - invited


async def test_an_inline_board_keeps_to_the_pace_of_its_chat(
    fake_telegram: FakeTelegram, database_path: Path, storage: FakeChat
) -> None:
    fake = fake_telegram
    per_minute = 120  # 2 edits a second after a burst of 3, instead of 20 a minute
    async with running_bot(
        fake,
        database_path,
        storage_chat_id=storage.id,
        group_messages_per_minute=per_minute,
    ) as harness:
        alice, bob, _carol, chat = _people(fake)
        _answer, invitation = await _invite(harness, alice, chat)
        # the edit that shows the dice commitment comes before any tap names the chat (a
        # chosen result has no chat_instance): paced by the message itself, apart
        invited = len(_edits(fake, invitation))
        await _join(fake, bob, invitation)
        while len(_edits(fake, invitation)) < invited + 9 and not is_over(invitation):
            await play_turn(fake, invitation, [alice, bob])
    times = [r.at for r in _edits(fake, invitation)][invited:]
    assert len(times) >= 8
    rate, burst = per_minute / 60, 3
    for first in range(len(times)):
        for last in range(first + 1, len(times)):
            edits = last - first + 1
            assert edits <= burst + rate * (times[last] - times[first]) + 0.05, (first, last)
    # and the pace did hold the edits back: without it they come far faster
    assert times[-1] - times[0] >= (len(times) - burst) / rate - 0.1


async def test_without_a_storage_chat_the_board_is_text(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    async with running_bot(fake, database_path) as harness:
        alice, bob, _carol, chat = _people(fake)
        _answer, invitation = await _invite(harness, alice, chat, "short")
        await _join(fake, bob, invitation)
        text = invitation.text or ""
        assert "short nardy" in text and "pips" in text and invitation.photo is None
        for _ in range(3):
            await play_turn(fake, invitation, [alice, bob])
        assert invitation.photo is None and invitation.edit_count >= 4
    assert not fake.requests_for("sendPhoto") and not fake.requests_for("editMessageMedia")


async def test_several_storage_chats_take_turns(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    first, second = fake.create_channel("boards 1"), fake.create_channel("boards 2")
    async with running_bot(
        fake, database_path, storage_chat_id=f"{first.id},{second.id}"
    ) as harness:
        alice, bob, _carol, chat = _people(fake)
        _answer, invitation = await _invite(harness, alice, chat)
        await _join(fake, bob, invitation)
        await play_turn(fake, invitation, [alice, bob])
        await fake.wait_for(lambda: not fake.messages(first) and not fake.messages(second))
    chats = [int(r.params["chat_id"]) for r in fake.requests_for("sendPhoto") if r.ok]
    assert len(chats) >= 2 and chats[:2] == [first.id, second.id]
    assert set(chats) == {first.id, second.id}


async def test_a_match_goes_on_in_the_same_message_and_survives_a_restart(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice, bob, carol, chat = _people(fake)
    answer, invitation = await _invite(harness, alice, chat, "3")  # a match to 3, first
    assert "match to 3" in str(answer.results[0].get("description"))
    await _join(fake, bob, invitation)
    await play_turn(fake, invitation, [alice, bob])
    caption = invitation.caption
    await harness.restart()
    assert invitation.caption == caption  # nothing to catch up: the board was current
    await play_turn(fake, invitation, [alice, bob])
    # Bob resigns from his private chat with the bot: the only chat he can write to
    private = fake.private_chat(bob)
    fake.send_text(bob, private, "/resign")
    await harness.settle()
    fake.press(bob, fake.last_message(private), "🏳 Yes, resign")
    await fake.wait_for(lambda: is_over(invitation))
    assert "resignation" in (invitation.caption or "") and "#1" in (invitation.caption or "")
    assert [b.text for b in invitation.buttons] == ["▶ Next game", "📊 Analysis"]
    # Carol never opened a chat with the bot: the analysis could not reach her
    refused = await fake.next_answer_to(fake.press(carol, invitation, "📊 Analysis"))
    assert refused.show_alert and "private chat" in (refused.text or "")
    fake.press(alice, invitation, "▶ Next game")
    await fake.wait_for(lambda: "#2" in (invitation.caption or "") and not is_over(invitation))
    assert "Match to 3 · game 2" in (invitation.caption or "")
    await play_turn(fake, invitation, [alice, bob])


@pytest.fixture
def expiring() -> ServicesFactory:
    """The production services, with challenges that expire after one second."""

    @asynccontextmanager
    async def factory(settings: Settings) -> AsyncIterator[Services]:
        db = await open_database(settings.database_path)
        try:
            services = compose(Store(db), random.Random(1), challenge_seconds=1)
            yield services
        finally:
            await db.close()

    return factory


async def test_an_unanswered_inline_invitation_expires(
    fake_telegram: FakeTelegram, database_path: Path, expiring: ServicesFactory
) -> None:
    fake = fake_telegram
    async with running_bot(fake, database_path, services_factory=expiring) as harness:
        alice, bob, _carol, chat = _people(fake)
        _answer, invitation = await _invite(harness, alice, chat)
        await fake.wait_for(lambda: "expired" in (invitation.text or ""), timeout=10)
        assert not invitation.buttons
        join = InlineInvite(challenger=alice.id, option=InviteOption.JOIN).pack()
        late = await fake.next_answer_to(fake.tap(bob, invitation, join, check=False))
        assert late.show_alert and "closed" in (late.text or "")
