"""Messages on demand (replays, analyses, play-from, position pictures) never cost a player
anything: each user and each group has an allowance of them, refused beyond it with an alert;
they take the slots a running game's boards leave over; and a move's clock starts when its
first board is shown. Through the real bot, with a group's pace of Telegram's kind (scaled six
times faster, so that the test takes seconds) and a bystander who keeps tapping Replay."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest

from bot.outbox.pace import ON_DEMAND_PER_GROUP, ON_DEMAND_PER_USER, OnDemand, RateLimiter
from bot.services.actions import GameAction
from bot.services.errors import GameNotFound, TooSoon
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot

from .gameplay import (
    first_choice,
    game_buttons,
    game_number,
    is_over,
    mover,
    play_turn,
    stored_game,
    tap_and_wait,
    version,
    wait_for_board,
)

GROUP_PER_MINUTE = 120
"""The group's pace in these tests: a burst of 3, then one every half second (Telegram's 20
a minute, six times faster)."""
SLOT = 60 / GROUP_PER_MINUTE
CAROLS_GAMES = 6
"""Finished games whose replays the bystander asks for, each its own queue of replays: as
many slots taken for each of the board's, first come first served."""


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_each_user_and_group_has_an_allowance_and_a_refusal_costs_none_of_it() -> None:
    clock = Clock()
    on_demand = OnDemand(RateLimiter(clock=clock).spare(), clock=clock)
    burst, per_second = ON_DEMAND_PER_USER
    for _ in range(int(burst)):
        with on_demand.spend(1, 1):  # in the user's private chat
            pass
    with pytest.raises(TooSoon) as refused, on_demand.spend(1, 1):
        pytest.fail("the block runs beyond the allowance")
    assert refused.value.params == {"seconds": round(1 / per_second)}
    clock.now += 1 / per_second - 1  # asking again meanwhile takes nothing, so it comes then
    with pytest.raises(TooSoon) as again, on_demand.spend(1, 1):
        pass
    assert again.value.params == {"seconds": 1}
    clock.now += 1
    with on_demand.spend(1, 1):
        pass
    # a refusal inside (not the user's game...) gives the request back: only what is sent counts
    for _ in range(3):
        with pytest.raises(GameNotFound), on_demand.spend(2, -5):
            raise GameNotFound()
    # a group's allowance is everyone's there together, whatever each one has left
    group_burst, group_per_second = ON_DEMAND_PER_GROUP
    for user in range(10, 10 + int(group_burst)):
        with on_demand.spend(user, -5):
            pass
    with pytest.raises(TooSoon) as full, on_demand.spend(99, -5):
        pass
    assert full.value.params == {"seconds": round(1 / group_per_second)}
    with on_demand.spend(99, -6):  # another group's is its own
        pass


def test_what_users_ask_for_takes_only_the_slots_a_groups_boards_leave() -> None:
    """A group's pace (3 at once, then one every 3 s): a replay waits until the whole burst
    is free, so the board of the move after it goes at once, and so does the next."""
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    on_demand = OnDemand(limiter.spare(), clock=clock)
    assert on_demand.pace is not limiter
    assert limiter.take_spare(-5) == 0.0  # a replay, the group's burst being whole
    assert limiter.take_spare(-5) == pytest.approx(3.0)  # the next one waits for it again
    assert [limiter.delay(-5) for _ in range(2)] == [0.0, 0.0]  # two boards, at once
    assert limiter.take_spare(-5) == pytest.approx(9.0)  # the replay still waits behind them


async def _finished_computer_games(
    harness: BotHarness, carol: FakeUser, group: FakeChat, count: int
) -> list[FakeMessage]:
    """Carol plays the computer in the group ``count`` times, resigning each game at once;
    returns the finished boards (each with its 🎞 Replay)."""
    fake = harness.fake
    boards = []
    for _ in range(count):
        fake.send_text(carol, group, "/play bot level 1")
        await harness.settle()
        fake.press(carol, fake.last_message(group), "▶ Start")
        board = await fake.wait_for_message(
            group, after=boards[-1] if boards else 0, where=lambda m: m.photo is not None
        )
        fake.send_text(carol, group, "/resign")
        await harness.settle()
        question = fake.last_message(group)
        fake.press(carol, question, question.buttons[0].text)
        await fake.wait_for(lambda board=board: is_over(board), description="a resignation")
        boards.append(board)
    return boards


@pytest.mark.slow
async def test_a_bystander_tapping_replay_makes_no_player_wait_or_lose_on_time(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    """Carol, who is not playing, taps Replay on her six finished games in the group ten
    times a second while Alice and Bob play there with 3 s a move. She gets her allowance of
    replays and then alerts that say when to try again; every redraw of the players' board
    comes within four of the group's slots (one, unloaded), and nobody loses on time. Without
    the allowance and the priority her replays take six slots for each of the board's and the
    player to move loses on time."""
    async with running_bot(
        fake_telegram,
        database_path,
        move_seconds=3,
        computer_pause_seconds=0,
        group_messages_per_minute=GROUP_PER_MINUTE,
    ) as harness:
        fake = harness.fake
        alice = fake.create_user("Alice", username="alice", language_code="en")
        bob = fake.create_user("Bob", username="bob", language_code="en")
        carol = fake.create_user("Carol", username="carol", language_code="en")
        group = fake.create_group("Club", [alice, bob, carol])
        finished = await _finished_computer_games(harness, carol, group, CAROLS_GAMES)
        fake.send_text(alice, group, "/play @bob")
        await harness.settle()
        fake.press(bob, fake.last_message(group), "✅ Accept")
        board = await fake.wait_for_message(
            group, after=finished[-1], where=lambda m: m.photo is not None
        )
        assert not [m for m in fake.messages(group) if m.animation is not None]

        mark = fake.mark()
        taps = []

        async def flood() -> None:
            while True:
                taps.append(fake.press(carol, finished[len(taps) % CAROLS_GAMES], "🎞 Replay"))
                await asyncio.sleep(0.1)

        flooding = asyncio.create_task(flood())
        try:
            for _ in range(3):
                # each redraw within four slots (play_turn fails otherwise)
                await play_turn(fake, board, [alice, bob], timeout=4 * SLOT)
                assert not is_over(board), board.caption
        finally:
            flooding.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await flooding
        assert version(board) is not None and not is_over(board)

        answers = [(await fake.next_answer_to(tap)).text or "" for tap in taps]
        assert len(taps) > 20
        sent = [text for text in answers if "on its way" in text]
        assert 1 <= len(sent) <= ON_DEMAND_PER_USER[0]
        refused = [text for text in answers if text not in sent]
        assert any("try again in" in text for text in refused)
        assert all("try again in" in text or "Too many taps" in text for text in refused)
        # what was allowed does come, once the game leaves the group's burst free
        await fake.wait_for(
            lambda: len([m for m in fake.messages(group) if m.animation is not None]) == len(sent),
            timeout=10,
            description="the replays allowed",
        )
    # and the group's messages, boards and replays together, kept to its pace all along
    sent_at = [
        r.at
        for r in fake.requests[mark:]
        if r.method.startswith(("send", "edit")) and str(r.params.get("chat_id")) == str(group.id)
    ]
    assert len(sent_at) > 5
    for i, start in enumerate(sent_at):
        within = [t for t in sent_at[i:] if t - start < 6 * SLOT]
        assert len(within) <= 3 + 6, f"{len(within)} messages in {6 * SLOT} s"


@pytest.mark.slow
async def test_a_move_whose_board_was_held_back_gets_its_whole_time_once_shown(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    """5 s a move, and the group's first board held 7 s on its way (a stalled link, or a
    pace that let other messages go first): the game is not lost on time meanwhile, and once
    the board is shown the player to move has 5 s from then, past the first deadline and the
    one more move's time that a board never shown would get (10 s). The board has 3 s from
    its release to be shown before that (1 s was too little on a loaded machine)."""
    async with running_bot(
        fake_telegram, database_path, move_seconds=5, computer_pause_seconds=0
    ) as harness:
        fake = harness.fake
        alice = fake.create_user("Alice", username="alice", language_code="en")
        bob = fake.create_user("Bob", username="bob", language_code="en")
        group = fake.create_group("Club", [alice, bob])
        fake.send_text(alice, group, "/play @bob")
        await harness.settle()
        fake.hold_chats(group)
        fake.press(bob, fake.last_message(group), "✅ Accept")
        accepted = time.monotonic()
        await asyncio.sleep(7)
        fake.release_chats()
        board = await wait_for_board(fake, group)
        assert not is_over(board), board.caption
        await asyncio.sleep(max(0.0, accepted + 10.3 - time.monotonic()))
        assert not is_over(board), board.caption
        await play_turn(fake, board, [alice, bob])
        assert not is_over(board), board.caption


async def test_a_tap_within_a_move_shown_late_buys_no_time(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    """Only a move's first board starts its clock: a step tapped within the move whose
    redraw is held 1.5 s leaves the move's deadline as it was (else tapping, in a busy
    group, would stop the clock)."""
    async with running_bot(fake_telegram, database_path, move_seconds=60) as harness:
        fake = harness.fake
        alice = fake.create_user("Alice", username="alice", language_code="en")
        bob = fake.create_user("Bob", username="bob", language_code="en")
        group = fake.create_group("Club", [alice, bob])
        fake.send_text(alice, group, "/play @bob")
        await harness.settle()
        fake.press(bob, fake.last_message(group), "✅ Accept")
        board = await wait_for_board(fake, group)
        player = mover(board, [alice, bob])
        roll = [b for b in game_buttons(board) if b.action is GameAction.ROLL]
        if roll:
            await tap_and_wait(fake, player, board, roll[0])
        game_id = game_number(board)
        deadline = (await stored_game(database_path, game_id)).deadline
        fake.hold_chats(group)
        tap = fake.tap(player, board, first_choice(board).pack())
        assert not (await fake.next_answer_to(tap)).show_alert
        await asyncio.sleep(1.5)
        fake.release_chats()
        await fake.wait_for(lambda: GameAction.CONFIRM in [b.action for b in game_buttons(board)])
        assert (await stored_game(database_path, game_id)).deadline == deadline


async def test_a_picture_beyond_the_allowance_is_refused_in_the_askers_language(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    """``/position`` four times at once in Russian: three pictures, then a reply that says
    when to try again, and no fourth picture."""
    async with running_bot(fake_telegram, database_path, computer_pause_seconds=0) as harness:
        fake = harness.fake
        vera = fake.create_user("Vera", username="vera", language_code="ru")
        chat = fake.private_chat(vera)
        fake.send_text(vera, chat, "/play bot")
        await harness.settle()
        fake.press(vera, fake.last_message(chat), fake.last_message(chat).buttons[0].text)
        board = await wait_for_board(fake, chat)
        for _ in range(int(ON_DEMAND_PER_USER[0]) + 1):
            fake.send_text(vera, chat, "/position")
        await harness.settle()
        after = [m for m in fake.messages(chat) if m.message_id > board.message_id]
        assert len([m for m in after if m.photo is not None]) == ON_DEMAND_PER_USER[0]
        [refusal] = [m.text for m in after if m.photo is None]
        assert refusal == "⏳ Слишком много запросов здесь: попробуйте снова через 10 с."
