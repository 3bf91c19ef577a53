"""Board edits cost Telegram's budget: a refused tap edits nothing, a board behind catches up
once, and a turn takes few edits (whole-turn buttons, forced remainders, quick mode)."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import GameButton
from bot.handlers.middlewares import TapThrottle
from bot.i18n import create_i18n
from bot.services import compose
from bot.services.actions import GameAction
from bot.storage import Store, open_database
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot

from .gameplay import (
    first_choice,
    game_buttons,
    mover,
    play_turn,
    tap_and_wait,
    version,
    wait_for_board,
)

EDITS: tuple[str, ...] = ("editMessageMedia", "editMessageCaption", "editMessageReplyMarkup")
SENDS: tuple[str, ...] = ("sendPhoto", "sendMessage", "sendDocument")


@pytest.fixture
async def harness(fake_telegram: FakeTelegram, database_path: Path) -> AsyncIterator[BotHarness]:
    async with running_bot(fake_telegram, database_path, move_seconds=300) as running:
        yield running


async def _group_game(
    harness: BotHarness,
) -> tuple[FakeUser, FakeUser, FakeUser, FakeChat, FakeMessage]:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    carol = fake.create_user("Carol", username="carol")
    group = fake.create_group("Club", [alice, bob, carol])
    fake.send_text(alice, group, "/play @bob")
    await harness.settle()
    fake.press(bob, fake.last_message(group), "✅ Accept")
    board = await wait_for_board(fake, group)
    await harness.settle()
    return alice, bob, carol, group, board


def _chat_state(fake: FakeTelegram, chat: FakeChat) -> list[tuple[Any, ...]]:
    """Every message of ``chat`` as Telegram shows it: text, caption, photo bytes, keyboard."""
    return [
        (m.message_id, m.text, m.caption, m.photo, m.reply_markup, m.edit_count, m.deleted)
        for m in fake.messages(chat, from_bot=None)
    ]


def _writes_since(fake: FakeTelegram, mark: int) -> list[str]:
    return [
        request.method
        for method in (*EDITS, *SENDS)
        for request in fake.requests_for(method, since=mark)
    ]


async def test_refused_taps_answer_with_an_alert_and_leave_every_message_unchanged(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice, bob, carol, group, board = await _group_game(harness)
    players = [alice, bob]
    old = first_choice(board)
    await tap_and_wait(fake, mover(board, players), board, old)  # the board moves on
    confirm = game_buttons(board)[-1]
    assert confirm.action is GameAction.CONFIRM
    redelivered = fake.tap(mover(board, players), board, confirm.pack())
    await fake.wait_for(lambda: version(board) != confirm.version)
    await harness.idle()  # and any edit the group's pace held back is shown
    current = game_buttons(board)[0]
    player = mover(board, players)
    waiting = bob if player is alice else alice
    state, mark = _chat_state(fake, group), fake.mark()

    forged = [
        old.pack(),  # a button of the board before
        GameButton(game=current.game, version=current.version - 1, action=GameAction.UNDO).pack(),
        GameButton(
            game=current.game, version=current.version + 7, action=GameAction.CONFIRM
        ).pack(),
        GameButton(
            game=current.game, version=current.version, action=GameAction.FINISH, arg=99
        ).pack(),
        GameButton(
            game=current.game + 1, version=0, action=GameAction.STEP
        ).pack(),  # another game's
        "g:" + ":".join(["9" * 15] * 4),  # out of range
        "g:1:2",  # fields missing
        "x" * 64,
        os.urandom(24).hex(),
        bytes(random.Random(5).getrandbits(8) for _ in range(30)).decode("latin-1"),
    ]
    for batch in (forged[:6], forged[6:]):  # within the player's allowance of taps (8 at once)
        taps = [fake.tap(player, board, data, check=False) for data in batch]
        for tap in taps:
            answer = await fake.next_answer_to(tap)
            assert answer.show_alert, tap.data
        await asyncio.sleep(1.5)  # the allowance comes back at two refusals a second
    for user in (carol, waiting):  # an onlooker, and the player who waits
        assert (await fake.next_answer_to(fake.tap(user, board, current.pack()))).show_alert
    fake.redeliver(redelivered.update_id)
    await harness.idle()

    assert _chat_state(fake, group) == state
    assert _writes_since(fake, mark) == []
    for _ in range(2):  # and the game goes on
        await play_turn(fake, board, players)


async def test_a_board_left_behind_by_a_stop_catches_up_once_at_start(
    harness: BotHarness, database_path: Path
) -> None:
    fake = harness.fake
    alice, bob, _carol, group, board = await _group_game(harness)
    players = [alice, bob]
    shown = (board.photo, board.reply_markup)
    await harness.stop()
    # The bot saved a turn and stopped before it could edit the board: play that turn here.
    db = await open_database(database_path)
    try:
        services = compose(Store(db), random.Random(3), move_seconds=300)
        service = services.game_service
        [game] = await service.active_games(alice.id)
        snapshot = await service.snapshot(game.id)
        user = snapshot.user(snapshot.game.turn)
        finishes = snapshot.finishes
        assert finishes, "the opening roll leaves few ways to play"
        saved = await service.finish(game.id, user.id, snapshot.stored.version, 0)
    finally:
        await db.close()
    mark = fake.mark()
    await harness.start()
    await fake.wait_for(lambda: f"g:{game.id}:{saved.stored.version}:" in str(board.reply_markup))
    await harness.settle()
    assert board.photo != shown[0] and board.reply_markup != shown[1]
    assert [r.method for r in fake.requests_for("editMessageMedia", since=mark)] == [
        "editMessageMedia"
    ]
    # now current: a tap on the old buttons changes nothing, and a restart edits nothing
    state = _chat_state(fake, group)
    stale = GameButton(game=game.id, version=snapshot.stored.version, action=GameAction.FINISH)
    tap = fake.tap(fake.users[user.id], board, stale.pack(), check=False)
    assert (await fake.next_answer_to(tap)).show_alert
    await harness.settle()
    assert _chat_state(fake, group) == state
    await harness.restart()
    assert _chat_state(fake, group) == state
    await play_turn(fake, board, players)


async def test_a_whole_turn_is_one_tap_and_quick_mode_confirms_it(harness: BotHarness) -> None:
    fake = harness.fake
    alice, bob, _carol, group, board = await _group_game(harness)
    players = [alice, bob]
    for user in players:
        fake.send_text(user, group, "/quick")
    await harness.idle()
    assert "Quick mode is on" in fake.last_message(group).text
    turns = 0
    while turns < 6:
        user = mover(board, players)
        finishes = [b for b in game_buttons(board) if b.action is GameAction.FINISH]
        if not finishes:
            await play_turn(fake, board, players)
            continue
        before = board.edit_count
        await tap_and_wait(fake, user, board, finishes[-1])
        await harness.idle()  # every board the tap scheduled is shown, at the group's pace
        # one tap, one edit: the turn is played and the next roll is on the board
        assert board.edit_count == before + 1
        assert not any(b.action is GameAction.CONFIRM for b in game_buttons(board))
        turns += 1
    fake.send_text(alice, group, "/quick off")
    await harness.settle()
    assert "Quick mode is off" in fake.last_message(group).text


async def test_a_flood_of_taps_is_answered_edits_nothing_and_slows_no_other_game(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice, bob, _carol, group, board = await _group_game(harness)
    dave = fake.create_user("Dave", username="dave")
    erin = fake.create_user("Erin", username="erin")
    other = fake.create_group("Other", [dave, erin])
    fake.send_text(dave, other, "/play @erin")
    await harness.settle()
    fake.press(erin, fake.last_message(other), "✅ Accept")
    other_board = await wait_for_board(fake, other)
    await harness.idle()
    state, mark = _chat_state(fake, group), fake.mark()
    stale = GameButton(game=first_choice(board).game, version=0, action=GameAction.CONFIRM).pack()
    flood = [fake.tap(alice, board, stale, check=False) for _ in range(40)]
    # meanwhile in the other group a player plays on, unhindered
    await tap_and_wait(
        fake, mover(other_board, [dave, erin]), other_board, first_choice(other_board)
    )
    answers = [await fake.next_answer_to(tap) for tap in flood]
    await harness.idle()
    assert len(answers) == 40
    assert sum(1 for a in answers if a.text == "Too many taps: wait a moment.") >= 30
    assert _chat_state(fake, group) == state
    assert [r.method for r in fake.requests_for("editMessageMedia", since=mark)] == [
        "editMessageMedia"  # the other game's tap
    ]
    await asyncio.sleep(0.6)  # the flooder's allowance comes back at two refusals a second
    await play_turn(fake, board, [alice, bob])


def test_refusals_spend_an_allowance_that_refills_with_time() -> None:
    now = [0.0]
    throttle = TapThrottle(create_i18n(), per_second=2, burst=3, clock=lambda: now[0])
    assert [throttle.take(1) for _ in range(4)] == [True, True, True, False]
    assert throttle.take(2)  # another user has an allowance of their own
    now[0] += 0.5
    assert throttle.take(1) and not throttle.take(1)
    throttle.give_back(1)  # a tap that played costs nothing
    assert throttle.take(1)
