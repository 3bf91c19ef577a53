"""A training game through the real bot and a fake Telegram: chosen on ``/play bot``'s
challenge (or from ``/learn``), each of the player's turns judged in the coach's message (one
message, edited in place: the grade, the better turn on its picture), a turn taken back to the
same roll and played again, to the game's end; not rated."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.callbacks import LessonAction, LessonMove, TakeBack
from bot.engine import Position
from tests.bot.gameplay import (
    computer_done,
    game_buttons,
    game_number,
    is_over,
    play_turn,
    stored_game,
    version,
)
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot, watch_logs

# a race near its end: white (the player, to move) and black each with a few checkers home
RACE = Position.from_text("long w / 6:3 5:3 4:3 3:2 2:2 off:2 / 6:3 5:3 4:3 3:3 2:2 off:1")
GRADES = ("the best move", "inaccuracy", "a mistake", "a blunder")


@pytest.fixture
async def harness(fake_telegram: FakeTelegram, database_path: Path) -> AsyncIterator[BotHarness]:
    """The bot with no pause before the computer's answers, and time enough to move."""
    async with running_bot(
        fake_telegram, database_path, move_seconds=300, computer_pause_seconds=0
    ) as running:
        yield running


def _coach(fake: FakeTelegram, chat: FakeChat) -> FakeMessage | None:
    found = [m for m in fake.messages(chat) if m.photo and "Training game" in m.content]
    found = [m for m in found if "Your " in m.content or "Taken back" in m.content]
    assert len(found) <= 1, "the coach keeps one message"
    return found[0] if found else None


def _is_board(message: FakeMessage) -> bool:
    return message.photo is not None and " · #" in message.content


def _roll_line(board: FakeMessage) -> str:
    """The board's line with the roll to play and whose turn it is."""
    return next(line for line in board.content.splitlines() if line.startswith("🎲"))


def _take_back(message: FakeMessage) -> str | None:
    return next(
        (b.callback_data for b in message.buttons if (b.callback_data or "").startswith("j:")),
        None,
    )


async def _judged(fake: FakeTelegram, chat: FakeChat, edits: int) -> FakeMessage:
    """Waits for the coach's message to show a new verdict (after ``edits`` edits of it)."""

    def shown() -> FakeMessage | None:
        coach = _coach(fake, chat)
        if coach is None or "Taken back" in coach.content:
            return None
        return coach if coach.edit_count >= edits else None

    return await fake.wait_for(shown, timeout=30, description="the coach's verdict")


async def _take_back_turn(
    fake: FakeTelegram,
    user: FakeUser,
    coach: FakeMessage,
    board: FakeMessage,
    data: str,
    before: str,
) -> None:
    """``user`` taps ↩ Take back on the coach's message: the board shows the roll of before
    the turn again, to be played; the same button again is refused."""
    # the roll after the computer's answer may be the very roll taken back to: the board is
    # waited for by its version, not its roll line alone
    shown = version(board)
    with watch_logs(fake, "bot.messages.learning") as logs:
        answer = await fake.next_answer_to(fake.tap(user, coach, data))
        assert not answer.show_alert, answer.text
        await fake.wait_for(lambda: "Taken back" in coach.content, description="the take-back")
        await fake.wait_for(
            lambda: version(board) not in (None, shown) and _roll_line(board) == before,
            description="the board as it was before the turn, the same roll to play",
        )
        # the coach looked at the state taken back to (whose latest turn of the player's is
        # an earlier one, or none) and judged nothing new: its message still says to play the
        # roll again
        line = TakeBack.unpack(data).line
        await fake.wait_for(
            lambda: any(
                "nothing new to judge" in logged and f"({line} " not in logged
                for logged in logs.lines
            ),
            description="the coach's look at the state taken back to",
        )
    assert "Taken back" in coach.content
    again = await fake.next_answer_to(fake.tap(user, coach, data, check=False))
    assert again.show_alert  # that turn is taken back already


async def test_a_training_game_played_to_its_end_with_take_backs(
    harness: BotHarness, database_path: Path
) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    fake.send_text(alice, chat, f"/from {RACE.to_id()} bot level 1 training")
    await harness.settle()
    challenge = fake.last_message(chat)
    assert "🎓 training game" in challenge.content
    assert "🎓 training on" in [b.text for b in challenge.buttons]
    assert not any(b.text.startswith(("🏁", "⏫")) for b in challenge.buttons)
    fake.press(alice, challenge, "▶ Start")
    board = await fake.wait_for_message(chat, after=challenge, where=_is_board)
    assert "🎓 Training game" in board.content
    number = game_number(board)
    taken_back = 0
    judged = 0
    verdicts = 0
    coach = None
    for _turn in range(60):
        if is_over(board):
            break
        if not game_buttons(board):
            await computer_done(fake, board)
            continue
        before = _roll_line(board)
        await play_turn(fake, board, [alice])
        coach = await _judged(fake, chat, judged)
        judged = coach.edit_count + 1
        verdicts += 1
        assert any(grade in coach.content for grade in GRADES), coach.content
        await computer_done(fake, board)
        if 2 <= verdicts <= 3 and not is_over(board):  # the second turn, taken back twice
            data = _take_back(coach)
            assert data is not None
            await _take_back_turn(fake, alice, coach, board, data, before)
            taken_back += 1
    assert is_over(board) and taken_back == 2 and coach is not None
    final = coach
    await fake.wait_for(lambda: _take_back(final) is None, description="no take-back at the end")
    stored = await stored_game(database_path, number)
    assert stored.training and stored.game.is_over and stored.start == RACE
    assert stored.hints and not stored.stake  # hints free, no chips (and with the computer:
    # never rated, see Games._record_result)


async def test_a_training_game_from_learn_and_a_forged_take_back(harness: BotHarness) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    sent = fake.send_text(alice, chat, "/learn")
    course = await fake.wait_for_message(chat, after=sent)
    train = LessonAction(move=LessonMove.TRAIN, arg=1).pack()
    answer = await fake.next_answer_to(fake.tap(alice, course, train))
    assert not answer.show_alert
    challenge = await fake.wait_for_message(chat, after=course)
    assert "🎓 training game" in challenge.content and "short nardy" in challenge.content
    fake.press(alice, challenge, "▶ Start")
    board = await fake.wait_for_message(chat, after=challenge, where=_is_board)
    assert "🎓 Training game" in board.content
    # ↩ Take back forged onto the course's message: refused, nothing changes
    forged = TakeBack(game=1, line=0).pack()
    refused = await fake.next_answer_to(fake.tap(alice, course, forged, check=False))
    assert refused.show_alert
    await harness.settle()
    assert fake.last_message(chat).message_id == board.message_id


async def test_a_big_loss_in_a_first_game_brings_the_offer_of_learn_once(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    # the computer bears off its last checker next: Alice, all on her head, loses a mars
    lost = Position.from_text("long w / 24:15 / 1:1 off:14")
    for _game in range(2):
        fake.send_text(alice, chat, f"/from {lost.to_id()} bot level 1")
        await harness.settle()
        challenge = fake.last_message(chat)
        fake.press(alice, challenge, "▶ Start")
        board = await fake.wait_for_message(chat, after=challenge, where=_is_board)
        while not is_over(board):
            if game_buttons(board):
                await play_turn(fake, board, [alice])
            else:
                await computer_done(fake, board)
        assert "mars" in board.content
        offered = await fake.wait_for_message(
            chat, where=lambda m: "lost by a wide margin" in m.content
        )
        await harness.idle()
        assert [m for m in fake.messages(chat) if "lost by a wide margin" in m.content] == [
            offered
        ]  # after the first big loss, not after the second
