"""Games against the computer through the real bot: challenged with /play bot or the 🤖 button,
played to the end in a private chat and in a group with an onlooker, a restart in the middle of
the computer's turn, hints, Telegram's pace; counted apart from games between people."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Side, TurnRecord
from bot.services.actions import GameAction
from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import BotHarness, running_bot

from .gameplay import (
    MAX_TURNS,
    ask_hint,
    computer_done,
    game_buttons,
    game_number,
    is_over,
    mover,
    play_to_the_end,
    play_turn,
    resign,
    start_computer_game,
    stored_game,
    wait_for_board,
)

BOARD_METHODS = frozenset(
    {"sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"}
)


@pytest.fixture
async def harness(fake_telegram: FakeTelegram, database_path: Path) -> AsyncIterator[BotHarness]:
    """The bot with no pause before the computer's answers, and time enough to move."""
    async with running_bot(
        fake_telegram, database_path, move_seconds=300, computer_pause_seconds=0
    ) as running:
        yield running


@pytest.mark.slow
async def test_a_whole_game_against_the_computer_in_private(
    harness: BotHarness, database_path: Path
) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    fake.send_text(alice, chat, "/play bot level 2 short")
    await harness.settle()
    challenge = fake.last_message(chat)
    text = challenge.text or ""
    assert "plays the computer 🤖 at level 2 of 5" in text and "short nardy" in text.lower()
    assert [b.text for b in challenge.buttons][:2] == ["▶ Start", "✖ Cancel"]
    assert not any("stake" in b.text for b in challenge.buttons)  # no stakes with the computer
    fake.press(alice, challenge, "🤖 level 2")  # the levels, each in words: one tap each
    await harness.settle()
    assert "✓ level 2 · casual: errs now and then (1300)" in [b.text for b in challenge.buttons]
    assert "level 2 of 5" in (challenge.text or "")  # nothing chosen yet
    fake.press(alice, challenge, "level 3 · club player")
    await harness.settle()
    assert "level 3 of 5" in (challenge.text or "")
    fake.press(alice, challenge, "▶ Start")
    board = await wait_for_board(fake, chat)
    assert "🤖 computer ★★★☆☆" in (board.caption or "")
    hints = await play_to_the_end(harness, board, alice)
    stored = await stored_game(database_path, game_number(board))
    [computer] = [side for side in Side if stored.level(side) == 3]
    turns = [TurnRecord.from_text(line) for line in stored.history]
    assert sum(t.side is computer for t in turns) > 5  # nobody bears off fifteen in fewer
    assert len(hints) == 3 and all(h.startswith("💡 Best turn: ") for h in hints)
    assert "🏆" in (board.caption or "")
    fake.send_text(alice, chat, "/stats")
    await harness.settle()
    stats = fake.last_message(chat).text or ""
    assert "computer" in stats.lower()


@pytest.mark.slow
async def test_a_game_against_the_computer_in_a_group_with_an_onlooker(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    group = fake.create_group("Club", [alice, carol])
    fake.send_text(alice, group, "/help")
    await harness.settle()
    help_message = fake.last_message(group)
    fake.press(alice, help_message, "🤖 Play the computer")
    await harness.settle()
    challenge = fake.last_message(group)
    refused = await fake.next_answer_to(fake.press(carol, challenge, "▶ Start"))
    assert refused.show_alert  # only the challenger starts it
    fake.press(alice, challenge, "▶ Start")
    board = await wait_for_board(fake, group)
    await computer_done(fake, board)  # the computer may have the first roll
    # the onlooker's taps change nothing
    choice = next(
        b
        for b in game_buttons(board)
        if b.action in (GameAction.FINISH, GameAction.STEP, GameAction.ROLL)
    )
    before = board.edit_count
    tap = fake.tap(carol, board, choice.pack())
    assert (await fake.next_answer_to(tap)).show_alert
    assert board.edit_count == before
    await play_to_the_end(harness, board, alice)
    assert is_over(board)


async def test_a_restart_while_the_computer_is_to_move_loses_nothing(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    """The bot stops during the computer's pause: the next bot answers for it, once."""
    async with running_bot(
        fake_telegram, database_path, move_seconds=300, computer_pause_seconds=3.0
    ) as harness:
        fake = harness.fake
        alice, chat, board = await start_computer_game(harness)
        for _ in range(MAX_TURNS):
            if not game_buttons(board):
                break  # the computer is to move: it answers in three seconds
            await play_turn(fake, board, [alice])
        caption = board.caption
        await harness.restart()
        assert board.caption == caption  # nothing was answered before the stop
        await computer_done(fake, board)
        assert board.caption != caption
        moves = [r for r in fake.requests if r.method == "sendPhoto"]
        assert len(moves) == 1  # one board, edited in place all along


async def test_hints_between_people_only_when_agreed_at_the_challenge(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    group = fake.create_group("Club", [alice, bob])
    boards = []
    for agreed in (False, True):
        fake.send_text(alice, group, "/play @bob")
        await harness.settle()
        challenge = fake.last_message(group)
        assert "💡 hints off" in [b.text for b in challenge.buttons]
        if agreed:
            fake.press(alice, challenge, "💡 hints off")
            await harness.settle()
            assert "💡 hints" in (challenge.text or "")
            assert "💡 hints on" in [b.text for b in challenge.buttons]
        fake.press(bob, challenge, "✅ Accept")
        boards.append(
            await fake.wait_for_message(
                group, where=lambda m: m.photo is not None and m not in boards, timeout=10
            )
        )
        await harness.settle()
        if not agreed:  # no hint; then over, as one game at one sitting each
            assert game_buttons(boards[0])
            assert not any(b.action is GameAction.HINT for b in game_buttons(boards[0]))
            await resign(harness, alice, group, boards[0])
    hinted = boards[1]
    assert any(b.action is GameAction.HINT for b in game_buttons(hinted))
    person = mover(hinted, [alice, bob])
    assert (await ask_hint(fake, hinted, person)).startswith("💡 Best turn: ")
    # the opponent of the player to move gets no hint
    other = bob if person is alice else alice
    hint = next(b for b in game_buttons(hinted) if b.action is GameAction.HINT)
    refused = await fake.next_answer_to(fake.tap(other, hinted, hint.pack()))
    assert refused.show_alert and "not your turn" in (refused.text or "").lower()


@pytest.mark.slow
async def test_the_computer_never_outruns_telegrams_pace_in_a_group(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    """At a group pace of 2 messages a second (burst 3), with the computer answering at once,
    the board's messages (sent and edited) in any 3 seconds stay within 3 + 2 × 3."""
    async with running_bot(
        fake_telegram,
        database_path,
        move_seconds=300,
        computer_pause_seconds=0,
        group_messages_per_minute=120,
    ) as harness:
        fake = harness.fake
        alice = fake.create_user("Alice", username="alice", language_code="en")
        group = fake.create_group("Club", [alice])
        fake.send_text(alice, group, "/play bot level 1")
        await harness.settle()
        fake.press(alice, fake.last_message(group), "▶ Start")
        board = await wait_for_board(fake, group)
        for _ in range(12):
            if is_over(board):
                break
            if not game_buttons(board):
                await computer_done(fake, board)
                continue
            await play_turn(fake, board, [alice])
    edits = [
        r.at
        for r in fake.requests
        if r.method in BOARD_METHODS and str(r.params.get("chat_id")) == str(group.id)
    ]
    assert len(edits) > 8
    for i, start in enumerate(edits):
        within = [t for t in edits[i:] if t - start < 3.0]
        assert len(within) <= 3 + 2 * 3, f"{len(within)} messages in 3 s"
