"""Replays, positions and play from here through the real bot: a game played to the end, its 🎞
Replay (an animation whose frames decode to the start and one per move, sent once and then by
Telegram's file id), refused taps that send nothing; ``/position``; ``/from`` a finished game's
board or a position ID, with a friend or the computer, starting exactly there."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from bot.callbacks import PlayFrom, Replay
from bot.engine import Game, Position, Side, TurnRecord, resolve_rules
from bot.views.replays import FIRST_MS, LAST_MS, MOVE_MS
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot

from .gameplay import (
    computer_done,
    game_number,
    mover,
    play_to_the_end,
    play_turn,
    resign,
    start_computer_game,
    stored_game,
    wait_for_board,
)


@pytest.fixture
async def harness(fake_telegram: FakeTelegram, database_path: Path) -> AsyncIterator[BotHarness]:
    """The bot with no pause before the computer's answers, and time enough to move."""
    async with running_bot(
        fake_telegram, database_path, move_seconds=300, computer_pause_seconds=0
    ) as running:
        yield running


def _after(fake: FakeTelegram, chat: FakeChat, since: int) -> list[FakeMessage]:
    return [m for m in fake.messages(chat) if m.message_id > since]


def _last_id(fake: FakeTelegram, chat: FakeChat) -> int:
    messages = fake.messages(chat)
    return messages[-1].message_id if messages else 0


async def _moves_file(harness: BotHarness, user: FakeUser, chat: FakeChat, game_id: int) -> str:
    fake = harness.fake
    fake.send_text(user, chat, f"/moves {game_id}")
    found = await fake.wait_for_message(chat, where=lambda m: m.document is not None)
    return found.document_bytes.decode()


def _boards_of(text: str) -> list[Position]:
    """The board after each move of a moves file, replayed by the engine alone (move 0: the
    start)."""
    rules = next(line.split(": ", 1)[1] for line in text.splitlines() if "# Rule set" in line)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    start = Position.from_text(lines[0].removeprefix("start "))
    game = Game(start.variant, resolve_rules(start.variant, rules), start)
    boards = [start]
    end = next(index for index, line in enumerate(lines) if line.startswith("end "))
    for line in lines[1:end]:  # the rolls come after the end
        try:
            record = TurnRecord.from_text(line)
        except ValueError:
            continue  # the opening roll, a cube action, the end
        game = game.replay(record)
        boards.append(game.position)
    return boards


def _frames(data: bytes) -> list[int]:
    """The duration of each frame of a GIF, decoding every frame."""
    with Image.open(io.BytesIO(data)) as image:
        assert isinstance(image, GifImageFile) and image.format == "GIF"
        durations = []
        for index in range(image.n_frames):
            image.seek(index)
            image.convert("RGB").load()
            durations.append(image.info["duration"])
    return durations


async def _finished_game(harness: BotHarness) -> tuple[FakeUser, FakeChat, FakeMessage, int]:
    alice, chat, board = await start_computer_game(harness, "level 1 short")
    await play_to_the_end(harness, board, alice)
    await harness.settle()
    return alice, chat, board, game_number(board)


@pytest.mark.slow
async def test_a_replay_decodes_to_the_start_and_one_frame_per_move(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice, chat, board, game_id = await _finished_game(harness)
    assert [b.text for b in board.buttons] == [
        "🔁 Rematch",
        "📊 Analysis",
        "🎞 Replay",
        "🔎 Play anyone",
    ]
    moves = len(_boards_of(await _moves_file(harness, alice, chat, game_id))) - 1
    assert moves > 10

    since = _last_id(fake, chat)
    answer = await fake.next_answer_to(fake.press(alice, board, "🎞 Replay"))
    assert not answer.show_alert and "replay" in (answer.text or "")
    sent = await fake.wait_for_message(chat, after=since, where=lambda m: m.animation is not None)
    data = sent.animation or b""
    assert data[:6] == b"GIF89a" and len(data) < 2_000_000
    assert _frames(data) == [FIRST_MS] + [MOVE_MS] * (moves - 1) + [LAST_MS]
    caption = sent.caption or ""
    assert f"Replay of game #{game_id}" in caption and f"{moves} moves." in caption
    assert "@alice" in caption and "🏆" in caption
    [upload] = fake.requests_for("sendAnimation")
    assert upload.files  # uploaded once

    # a second tap, anyone's: the same file again, by its id, nothing drawn or uploaded
    await harness.settle()
    since = _last_id(fake, chat)
    fake.press(alice, board, "🎞 Replay")
    again = await fake.wait_for_message(chat, after=since, where=lambda m: m.animation is not None)
    assert again.animation_file_id == sent.animation_file_id
    second = fake.requests_for("sendAnimation")[-1]
    assert not second.files and second.params["animation"] == sent.animation_file_id
    assert len(fake.requests_for("sendAnimation")) == 2


@pytest.mark.slow
async def test_refused_replay_taps_send_nothing(harness: BotHarness) -> None:
    fake = harness.fake
    alice, chat, board = await start_computer_game(harness, "level 1 short")
    game_id = game_number(board)
    bob = fake.create_user("Bob", username="bob", language_code="en")
    bob_chat = fake.private_chat(bob)
    fake.send_text(bob, bob_chat, "/start")
    await harness.settle()
    await computer_done(fake, board)  # the board shows its buttons: a board's kind of message
    since = _last_id(fake, chat)
    refusals: list[tuple[FakeUser, FakeMessage, Replay | str, str]] = [
        (alice, board, Replay(game=999), "does not exist"),  # forged: no such game
        (alice, board, Replay(game=game_id), "still being played"),  # not over yet
        (alice, board, "v:x", "no longer valid"),  # malformed: no handler takes it
    ]
    for user, message, data, text in refusals:
        packed = data if isinstance(data, str) else data.pack()
        answer = await fake.next_answer_to(fake.tap(user, message, packed, check=False))
        assert text in (answer.text or ""), answer.text
    await play_to_the_end(harness, board, alice)
    await harness.settle()
    # someone else's game, tapped in their own chat on his greeting: no such message carries
    # a board's button (bot.callbacks.PRESSED_ON)
    bob_message = fake.last_message(bob_chat)
    tap = fake.tap(bob, bob_message, Replay(game=game_id).pack(), check=False)
    answer = await fake.next_answer_to(tap)
    assert answer.show_alert and "no longer valid" in (answer.text or "")
    await harness.settle()
    assert fake.requests_for("sendAnimation") == []
    assert [m for m in _after(fake, chat, since) if m.animation] == []
    assert _after(fake, bob_chat, bob_message.message_id) == []


@pytest.mark.slow
async def test_play_from_a_finished_games_board_against_the_computer(
    harness: BotHarness, database_path: Path
) -> None:
    fake = harness.fake
    alice, chat, _board, game_id = await _finished_game(harness)
    boards = _boards_of(await _moves_file(harness, alice, chat, game_id))
    expected = boards[6]

    # bad input: a clear answer, and no challenge
    for text, answer in (
        ("/from", "Play on from which position?"),
        ("/from 999 3", "This game does not exist."),
        (f"/from {game_id} 9999", f"Game #{game_id} has {len(boards) - 1} moves"),
        ("/from AAAAH__AAAA__!", "is not a position ID"),
        ("/from oAAAH__AAAA__4", "is not a position ID"),
        ("/from banana", "banana is not a position ID"),
        (f"/from {game_id}", "The game is over in that position"),
        ("/from LbbYDAAtttgMAC", "Neither side can ever move in that position"),  # shut out
    ):
        since = _last_id(fake, chat)
        fake.send_text(alice, chat, text)
        await harness.settle()
        sent = _after(fake, chat, since)
        assert len(sent) == 1 and answer in (sent[0].text or ""), (text, sent)

    since = _last_id(fake, chat)
    fake.send_text(alice, chat, f"/from {game_id} 6 bot")
    challenge = await fake.wait_for_message(chat, after=since, where=lambda m: "▶ Start" in str(m))
    picture = next(m for m in _after(fake, chat, since) if m.photo is not None)
    assert expected.to_id() in (picture.caption or "") and expected.to_id() in (
        challenge.text or ""
    )
    assert "not rated, no chips" in (challenge.text or "")
    assert "🎲 short nardy" not in [b.text for b in challenge.buttons]  # the variant is fixed
    fake.press(alice, challenge, "▶ Start")
    board = await fake.wait_for_message(chat, after=challenge, where=lambda m: m.photo is not None)
    assert "From a position, not rated" in (board.caption or "")
    stored = await stored_game(database_path, game_number(board))
    assert stored.start == expected
    assert stored.player(expected.turn) > 0  # alice plays the side to move, the computer not
    history = [TurnRecord.from_text(line) for line in stored.history]
    if history:  # a pass or a forced turn played itself: by the side to move, first
        assert history[0].side is expected.turn
    else:
        assert stored.game.position == expected and stored.game.turn is expected.turn

    # an analysis's button under a worst move, pressed on a picture without buttons: no
    # such message carries it, nothing is sent (tests/bot/test_analysis.py presses it there)
    since = _last_id(fake, chat)
    tap = fake.tap(
        alice, picture, PlayFrom(game=game_id, moves=3, computer=True).pack(), check=False
    )
    assert "no longer valid" in ((await fake.next_answer_to(tap)).text or "")
    await harness.settle()
    assert _after(fake, chat, since) == []


async def test_position_and_play_from_its_id_with_a_friend_in_a_group(
    harness: BotHarness, database_path: Path
) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    carol = fake.create_user("Carol", username="carol", language_code="ru")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    fake.send_text(carol, group, "/position")
    await harness.settle()
    assert (
        fake.last_message(group).text
        == "Здесь сейчас не идёт партий. /position 12 покажет партию #12."
    )
    fake.send_text(alice, group, "/play @bob")
    await harness.settle()
    fake.press(bob, fake.last_message(group), "✅ Accept")
    board = await wait_for_board(fake, group)
    for _ in range(4):
        await play_turn(fake, board, [alice, bob])
    game_id = game_number(board)

    # an onlooker asks: the board and its ID, in her language
    since = _last_id(fake, group)
    fake.send_text(carol, group, "/position")
    shown = await fake.wait_for_message(group, after=since, where=lambda m: m.photo is not None)
    stored = await stored_game(database_path, game_id)
    position_id = stored.game.position.to_id()
    assert f"ID позиции: {position_id}" in (shown.caption or "")
    assert f"Партия #{game_id}" in (shown.caption or "")
    # someone else's game asked about elsewhere: refused
    dave = fake.create_user("Dave", username="dave", language_code="en")
    private = fake.private_chat(dave)
    fake.send_text(dave, private, f"/position {game_id}")
    await harness.settle()
    assert fake.last_message(private).text == "You are not playing in this game."

    # bob plays on from that ID with alice, once their game is over (one at one sitting):
    # bob takes the side to move there
    await resign(harness, alice, group, board)
    start = Position.from_id(position_id)
    since = _last_id(fake, group)
    fake.send_text(bob, group, f"/from {position_id} @alice")
    challenge = await fake.wait_for_message(
        group, after=since, where=lambda m: "✅ Accept" in str(m)
    )
    assert position_id in (challenge.text or "")
    assert not any("stake" in b.text or "match" in b.text for b in challenge.buttons)
    fake.press(alice, challenge, "✅ Accept")
    new_board = await fake.wait_for_message(
        group,
        after=challenge,
        where=lambda m: m.photo is not None and "From a position" in m.content,
    )
    new = await stored_game(database_path, game_number(new_board))
    assert new.start == start and new.id != game_id
    assert new.player(start.turn) == bob.id and new.player(start.turn.other) == alice.id
    if not new.history:
        assert new.game.position == start
        assert mover(new_board, [alice, bob]) is bob
    assert new.game.opening is None and new.game.variant == start.variant
    assert Side.WHITE in new.game.moved and Side.BLACK in new.game.moved  # both have moved
