"""Play anyone now through the real bot: ``/find`` in private pairs two strangers and starts
their game in both private chats, a third is offered the computer (as the computer) after the
wait and takes it; a second tap and a twice-delivered one start nothing twice; Cancel; ``/find``
in a group plays there; a seeker who blocked the bot leaves the pool (when a send is refused,
and at once when Telegram says so); two who wait far apart in rating are paired by the timers
as their windows widen; a wait that runs out says so and offers to look again or the computer;
a stake chosen in the picker is played only with the same stake."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.app import ServicesFactory
from bot.model import Rating
from bot.services import Services, compose
from bot.services.pool import MAX_WAIT
from tests.support.clock import Clock
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness
from tests.support.services import composed

from .gameplay import wait_for_board

LOOKING = "Looking for an opponent… ⏳"


@pytest.fixture
def clock() -> Clock:
    """The services' time, moved on by the test (the wait before the computer's offer)."""
    return Clock(1_800_000_000.0)


@pytest.fixture
def made() -> list[Services]:
    """The services each bot instance of the test was built with, the latest last."""
    return []


@pytest.fixture
def services_factory(clock: Clock, made: list[Services]) -> ServicesFactory:
    """The production services on the test's clock; the computer never answers (its pause is
    an hour), so no worker process starts."""

    return composed(
        lambda store, _: compose(store, random.Random(3), clock=clock, computer_pause=3600),
        made=made,
    )


async def _picker(harness: BotHarness, user: FakeUser, chat: FakeChat) -> FakeMessage:
    """``user`` sends /find in ``chat``; returns the picker."""
    harness.fake.send_text(user, chat, "/find")
    await harness.settle()
    picker = harness.fake.last_message(chat)
    assert "Play anyone now" in (picker.text or ""), picker
    return picker


async def _find(harness: BotHarness, user: FakeUser, chat: FakeChat) -> FakeMessage:
    """``user`` sends /find in ``chat`` and taps 🔎 Find; returns the message (now the wait,
    or the pairing)."""
    picker = await _picker(harness, user, chat)
    harness.fake.press(user, picker, "🔎 Find")
    await harness.settle()
    return picker


def _boards(fake: FakeTelegram, chat: FakeChat) -> list[FakeMessage]:
    return [m for m in fake.messages(chat) if m.photo is not None]


async def test_two_strangers_are_paired_and_a_third_plays_the_computer(
    bot_harness: BotHarness, clock: Clock
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, carol = (
        fake.create_user(name, username=name.lower(), language_code="en")
        for name in ("Alice", "Bob", "Carol")
    )
    chats = {user.id: fake.private_chat(user) for user in (alice, bob, carol)}

    alice_wait = await _find(harness, alice, chats[alice.id])
    assert LOOKING in (alice_wait.text or "")
    assert "long nardy · single game · 90 s per move" in (alice_wait.text or "")
    assert [b.text for b in alice_wait.buttons] == ["✖ Cancel"]
    sent_before = len(fake.messages(chats[alice.id]))

    # Bob asks for the same game; he taps Find twice at once (a second tap in flight)
    bob_picker = await _picker(harness, bob, chats[bob.id])
    find = bob_picker.button("🔎 Find").callback_data
    assert find is not None
    first, second = fake.tap(bob, bob_picker, find), fake.tap(bob, bob_picker, find)
    answers = [await fake.next_answer_to(tap) for tap in (first, second)]
    await harness.settle()
    bob_board = await wait_for_board(fake, chats[bob.id])
    alice_board = await wait_for_board(fake, chats[alice.id])
    assert alice_board.caption and bob_board.caption
    assert "Opponent found: @alice (rating 1500)" in (bob_picker.text or "")
    assert "Opponent found: @bob (rating 1500)" in (alice_wait.text or "")
    assert not alice_wait.buttons and not bob_picker.buttons
    refused = [a for a in answers if a.show_alert]
    assert len(refused) == 1 and "already" in (refused[0].text or ""), answers
    # Alice's wait was edited, nothing sent but her board; one game each
    assert len(fake.messages(chats[alice.id])) == sent_before + 1
    assert len(_boards(fake, chats[alice.id])) == len(_boards(fake, chats[bob.id])) == 1

    # while playing, Find is refused and the picker stays as it was
    again = await _picker(harness, alice, chats[alice.id])
    edits = again.edit_count
    answer = await fake.next_answer_to(fake.press(alice, again, "🔎 Find"))
    assert answer.show_alert and "playing game #1 already" in (answer.text or "")
    assert again.edit_count == edits

    # Carol wants 3 minutes a move: nobody else does, so after her 60 s the computer is offered
    carol_picker = await _picker(harness, carol, chats[carol.id])
    fake.press(carol, carol_picker, "⏱ 90 s")
    await harness.settle()
    assert "✓ 90 s" in [b.text for b in carol_picker.buttons]  # the times, to pick one
    fake.press(carol, carol_picker, "180 s")
    await harness.settle()
    assert "180 s per move" in (carol_picker.text or "")
    fake.press(carol, carol_picker, "🔎 Find")
    await harness.settle()
    assert LOOKING in (carol_picker.text or "")
    clock.now += 61
    offer = await fake.wait_for(
        lambda: next((b for b in carol_picker.buttons if b.text.startswith("🤖")), None),
        timeout=5,
        description="the computer's offer",
    )
    assert offer.text == "🤖 Computer, level 3"
    assert "it is the bot, not a person" in (carol_picker.text or "")
    assert [b.text for b in carol_picker.buttons] == ["🤖 Computer, level 3", "✖ Cancel"]
    tap = fake.press(carol, carol_picker, offer.text)
    await harness.settle()
    fake.redeliver(tap.update_id)  # Telegram unsure: the same update again
    await harness.settle()
    board = await wait_for_board(fake, chats[carol.id])
    assert "🤖" in (board.caption or "")
    assert "You play the computer at level 3" in (carol_picker.text or "")
    assert len(_boards(fake, chats[carol.id])) == 1


async def test_cancel_a_group_and_a_seeker_who_blocked_the_bot(
    bot_harness: BotHarness, clock: Clock
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    dave, erin, frank, gina, hank = (
        fake.create_user(name, username=name.lower(), language_code="en")
        for name in ("Dave", "Erin", "Frank", "Gina", "Hank")
    )
    # Cancel: the wait becomes the picker again, and Dave is out of the pool
    dave_wait = await _find(harness, dave, fake.private_chat(dave))
    cancel = dave_wait.button("✖ Cancel").callback_data
    assert cancel is not None
    fake.press(dave, dave_wait, "✖ Cancel")
    await harness.settle()
    assert "You stopped looking" in (dave_wait.text or "")
    assert dave_wait.buttons[0].text == "🔎 Find"
    edits = dave_wait.edit_count
    late = await fake.next_answer_to(fake.tap(dave, dave_wait, cancel, check=False))
    assert late.show_alert and "does not belong to this message" in (late.text or "")
    assert dave_wait.edit_count == edits

    # in a group: the group's members are paired there, and play there
    group = fake.create_group("Club", [erin, frank])
    erin_wait = await _picker(harness, erin, group)
    answer = await fake.next_answer_to(fake.press(frank, erin_wait, "🔎 Find"))  # Erin's
    assert answer.show_alert and "someone else's search" in (answer.text or "")
    assert erin_wait.edit_count == 0
    fake.press(erin, erin_wait, "🔎 Find")
    await harness.settle()
    assert "@erin is looking for an opponent" in (erin_wait.text or "")
    frank_message = await _find(harness, frank, group)
    board = await wait_for_board(fake, group)
    assert board.caption
    for message in (erin_wait, frank_message):
        assert "@erin plays @frank: the game starts here!" in (message.text or "")
    assert not _boards(fake, fake.private_chat(erin))

    # Gina waits, then blocks the bot: at the offer she leaves the pool, so Hank waits alone
    gina_wait = await _find(harness, gina, fake.private_chat(gina))
    assert LOOKING in (gina_wait.text or "")
    fake.block_bot(gina)
    clock.now += 61
    gina_id = fake.private_chat(gina).id

    def refused() -> bool:
        return any(
            int(r.params.get("chat_id", 0)) == gina_id and r.status == 403
            for r in fake.requests_for("editMessageText")
        )

    await fake.wait_for(refused, timeout=5, description="the refused offer")
    await asyncio.sleep(0.2)  # the refusal handled: Gina out of the pool
    hank_wait = await _find(harness, hank, fake.private_chat(hank))
    assert LOOKING in (hank_wait.text or "")
    assert not _boards(fake, fake.private_chat(hank))


def _requests_to(fake: FakeTelegram, chat: FakeChat, since: int) -> list[str]:
    """The methods the bot called for ``chat`` since request ``since``."""
    return [r.method for r in fake.requests[since:] if str(r.params.get("chat_id")) == str(chat.id)]


async def test_the_only_opponent_is_paired_at_once_however_far_apart(
    bot_harness: BotHarness, clock: Clock, made: list[Services]
) -> None:
    """Two asking for the same game, 300 apart, with nobody else waiting: paired as the second
    asks (the review saw them wait 14 s for the window to widen to them)."""
    harness, fake = bot_harness, bot_harness.fake
    alice, bob = (
        fake.create_user(name, username=name.lower(), language_code="en")
        for name in ("Alice", "Bob")
    )
    alice_wait = await _find(harness, alice, fake.private_chat(alice))
    bob_wait = await _picker(harness, bob, fake.private_chat(bob))  # Bob known to the bot
    await made[-1].store.ratings.set(bob.id, "long", Rating(rating=1800.0))
    fake.press(bob, bob_wait, "🔎 Find")
    await harness.settle()  # no clock moved: nothing waits for the timers
    assert "Opponent found: @bob (rating 1800)" in (alice_wait.text or "")
    assert "Opponent found: @alice (rating 1500)" in (bob_wait.text or "")
    for user in (alice, bob):
        await wait_for_board(fake, fake.private_chat(user))
    await asyncio.sleep(1.0)
    assert len(_boards(fake, fake.private_chat(alice))) == 1  # paired once


async def test_a_wait_that_runs_out_says_so_and_offers_a_new_look_or_the_computer(
    bot_harness: BotHarness, clock: Clock
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    carol, dave, erin = (
        fake.create_user(name, username=name.lower(), language_code="en")
        for name in ("Carol", "Dave", "Erin")
    )
    chat = fake.private_chat(carol)
    wait = await _find(harness, carol, chat)
    clock.now += 61
    await fake.wait_for(lambda: len(wait.buttons) == 2, description="the computer's offer")
    sent = len(fake.messages(chat))
    mark = fake.mark()
    clock.now += MAX_WAIT
    await fake.wait_for(
        lambda: "Nobody looked for the same game within 15 min." in (wait.text or ""),
        description="the end of the wait",
    )
    assert [b.text for b in wait.buttons] == ["🔎 Look again", "🤖 Computer, level 3"]
    assert "long nardy · single game · 90 s per move" in (wait.text or "")
    await asyncio.sleep(1.0)
    assert len(fake.messages(chat)) == sent  # edited, nothing sent
    assert _requests_to(fake, chat, mark) == ["editMessageText"]
    # 🤖 tapped twice at once: one game with the computer
    play = wait.button("🤖 Computer, level 3").callback_data
    assert play is not None
    taps = [fake.tap(carol, wait, play), fake.tap(carol, wait, play)]
    answers = [await fake.next_answer_to(tap) for tap in taps]
    await harness.settle()
    board = await wait_for_board(fake, chat)
    assert "🤖" in (board.caption or "")
    assert "You play the computer at level 3" in (wait.text or "")
    assert len(_boards(fake, chat)) == 1
    assert len([a for a in answers if a.show_alert]) == 1, answers

    # in a group: someone else's tap changes nothing; 🔎 Look again waits once more
    group = fake.create_group("Club", [dave, erin])
    dave_wait = await _find(harness, dave, group)
    clock.now += MAX_WAIT + 1
    await fake.wait_for(lambda: "@dave: nobody looked" in (dave_wait.text or ""))
    edits = dave_wait.edit_count
    for text in ("🔎 Look again", "🤖 Computer, level 3"):
        answer = await fake.next_answer_to(fake.press(erin, dave_wait, text))
        assert answer.show_alert and "someone else's search" in (answer.text or "")
    again = dave_wait.button("🔎 Look again").callback_data
    assert again is not None
    fake.press(dave, dave_wait, "🔎 Look again")
    await harness.settle()
    assert "@dave is looking for an opponent" in (dave_wait.text or "")
    assert dave_wait.edit_count == edits + 1
    late = await fake.next_answer_to(fake.tap(dave, dave_wait, again, check=False))
    assert late.show_alert and "does not belong to this message" in (late.text or "")
    assert not _boards(fake, group)


async def test_a_player_who_blocks_the_bot_leaves_the_pool_at_once(
    bot_harness: BotHarness, clock: Clock
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    gina, hank = (
        fake.create_user(name, username=name.lower(), language_code="en")
        for name in ("Gina", "Hank")
    )
    gina_chat = fake.private_chat(gina)
    await _find(harness, gina, gina_chat)
    mark = fake.mark()
    fake.block_bot(gina, tell=True)  # Telegram tells the bot: my_chat_member, kicked
    await harness.settle()
    hank_wait = await _find(harness, hank, fake.private_chat(hank))
    assert LOOKING in (hank_wait.text or "")  # not paired with Gina
    clock.now += 61  # Hank is offered the computer; Gina, gone, is told nothing
    await fake.wait_for(lambda: len(hank_wait.buttons) == 2, description="Hank's offer")
    await asyncio.sleep(1.0)
    assert _requests_to(fake, gina_chat, mark) == []
    assert not _boards(fake, fake.private_chat(hank))


async def test_a_stake_chosen_in_the_picker_is_played_only_with_the_same_stake(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    ivan, jane, kate = (
        fake.create_user(name, username=name.lower(), language_code="en")
        for name in ("Ivan", "Jane", "Kate")
    )

    async def staked(user: FakeUser) -> FakeMessage:
        picker = await _picker(harness, user, fake.private_chat(user))
        assert "💰 no stake" in [b.text for b in picker.buttons]  # off by default
        fake.press(user, picker, "💰 no stake")
        await harness.settle()
        fake.press(user, picker, "stake 10")
        await harness.settle()
        assert "stake 10 chips" in (picker.text or "")
        fake.press(user, picker, "🔎 Find")
        await harness.settle()
        return picker

    ivan_wait = await staked(ivan)
    assert "stake 10 chips, by the rules" in (ivan_wait.text or "")
    jane_wait = await _find(harness, jane, fake.private_chat(jane))  # no stake
    assert LOOKING in (jane_wait.text or "") and LOOKING in (ivan_wait.text or "")
    kate_wait = await staked(kate)
    assert "Opponent found: @ivan" in (kate_wait.text or "")
    board = await wait_for_board(fake, fake.private_chat(kate))
    assert "💰" in (board.caption or "")
    assert LOOKING in (jane_wait.text or "")
