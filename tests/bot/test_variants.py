"""Every game of the rule texts, played to the end through the real bot: Abkhaz nardy with the
cube, crazy gul-bara with its remainders (across a restart), anti three dice with its strikes."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import build_services
from bot.services.actions import GameAction
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot

from .gameplay import (
    game_buttons,
    is_over,
    mover,
    play_turn,
    start_private_game,
    tap_and_wait,
    wait_for_board,
)

MAX_TURNS = 600
SEED = 7
"""Dice under which the crazy gul-bara game hands moves over mid-game (most seeds do not): the
games' fair dice draw their seeds from it, and their client values are the fake's tap ids,
which each test numbers from the same start."""


@pytest.fixture
async def harness(fake_telegram: FakeTelegram, database_path: Path) -> AsyncIterator[BotHarness]:
    """The bot with seeded dice, so that each game here is the same game every time."""
    seeded = functools.partial(build_services, dice=random.Random(SEED))
    async with running_bot(
        fake_telegram, database_path, services_factory=seeded, move_seconds=300
    ) as running:
        yield running


async def _start(
    harness: BotHarness, terms: str
) -> tuple[list[FakeUser], FakeChat, str, FakeMessage]:
    """Alice challenges Bob on ``terms``; returns them, the group, the challenge's text and
    the board."""
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="ru")
    group = fake.create_group("Club", [alice, bob])
    fake.send_text(alice, group, f"/play @bob {terms}")
    await harness.settle()
    challenge = fake.last_message(group)
    text = challenge.text or ""
    fake.press(bob, challenge, challenge.buttons[0].text)
    board = await wait_for_board(fake, group)
    return [alice, bob], group, text, board


async def test_abkhaz_nardy_with_the_cube_to_the_result(harness: BotHarness) -> None:
    fake = harness.fake
    players, group, challenge, board = await _start(harness, "абхазские cube")
    assert "Abkhaz nardy" in challenge and "with the doubling cube" in challenge
    assert "Abkhaz nardy · standard" in (board.caption or "")
    doubled = False
    for _ in range(MAX_TURNS):
        if is_over(board):
            break
        double = [b for b in game_buttons(board) if b.action is GameAction.DOUBLE]
        if double and not doubled:  # once: double, and the opponent takes
            await tap_and_wait(fake, mover(board, players), board, double[0])
            take = next(b for b in game_buttons(board) if b.action is GameAction.TAKE)
            await tap_and_wait(fake, mover(board, players), board, take)
            doubled = True
            continue
        await play_turn(fake, board, players)
    assert is_over(board) and doubled
    assert "🏆" in (board.caption or "")
    assert " pt." in (board.caption or "")
    fake.send_text(players[0], group, "/stats")
    await harness.settle()
    assert "Abkhaz nardy" in fake.last_message(group).text  # rated per variant


async def test_crazy_gulbara_hands_remainders_over_and_survives_a_restart(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    players, group, challenge, board = await _start(harness, "бешеный")
    assert "crazy gul-bara" in challenge
    assert "cube" not in challenge  # gul-bara is played without the cube
    shown_remainder = False
    for turn in range(MAX_TURNS):
        if is_over(board):
            break
        caption = board.caption or ""
        shown_remainder = shown_remainder or "↪" in caption
        if turn == 20:  # stop and start again mid-game: the board is as it was, play goes on
            before = (caption, board.reply_markup)
            await harness.restart()
            assert (board.caption, board.reply_markup) == before
        await play_turn(fake, board, players)
    assert is_over(board)
    fake.send_text(players[0], group, "/history")
    await harness.settle()
    history = fake.last_message(group)
    fake.press(players[0], history, history.buttons[0].text)
    moves = await fake.wait_for_message(group, where=lambda m: m.document is not None)
    text = moves.document_bytes.decode()
    assert "# Variant: crazy_gulbara" in text
    lines = text.splitlines()
    # moves that one side could not play, handed over and played by the other...
    assert any(" left " in line for line in lines)
    assert any(re.match(r"^[wb] remainder [1-6](,[1-6])*", line) for line in lines)
    # ... and the cascades of doubles
    assert any(re.match(r"^[wb] (chain )?([1-6])-\2 ", line) for line in lines)


async def test_anti_three_dice_the_opponent_strikes_then_the_mover_plays(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    players, _group, challenge, board = await _start(harness, "short anti_three")
    assert "anti three dice" in challenge
    strikes = 0
    for _ in range(MAX_TURNS):
        if is_over(board):
            break
        strike = [b for b in game_buttons(board) if b.action is GameAction.STRIKE]
        if strike:
            striker = mover(board, players)
            line = next(x for x in (board.caption or "").splitlines() if x.startswith("🎲"))
            assert "strikes a die" in line or "вычёркивает" in line
            assert len(strike) in (1, 2, 3) and len(line.split(" — ")[0].split("-")) == 3
            await tap_and_wait(fake, striker, board, strike[-1])  # the lowest die
            strikes += 1
            continue
        await play_turn(fake, board, players)
    assert is_over(board) and strikes >= 3


@pytest.mark.slow
async def test_anti_three_dice_between_private_chats_only_the_striker_has_buttons(
    harness: BotHarness,
) -> None:
    fake = harness.fake
    alice, bob, boards = await start_private_game(harness, "short anti_three")
    players = [alice, bob]
    strikes = 0
    for _ in range(MAX_TURNS):
        if is_over(boards[alice]):
            break
        await fake.wait_for(lambda: boards[alice].caption == boards[bob].caption)
        actor = mover(boards[alice], players)
        other = bob if actor is alice else alice
        assert game_buttons(boards[other]) == []  # the one who waits sees no buttons
        if any(b.action is GameAction.STRIKE for b in game_buttons(boards[actor])):
            strikes += 1
        await play_turn(fake, boards[actor], players)
    await fake.wait_for(lambda: is_over(boards[alice]) and is_over(boards[bob]))
    assert strikes >= 3


async def test_play_and_rules_take_every_variant_in_words(harness: BotHarness) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Борис", username="bob", language_code="ru")
    group = fake.create_group("Club", [alice, bob])
    expected = {
        "abkhaz three_dice": ("Abkhaz nardy", "three dice"),
        "гюльбар": ("gul-bara", "single game"),
        "crazy_gulbara 5": ("crazy gul-bara", "match to 5"),
        "short anti_three cube": ("short nardy", "anti three dice · with the doubling cube"),
    }
    for words, (variant, terms) in expected.items():
        fake.send_text(alice, group, f"/play {words}")  # open: one invitation to Bob at a time
        await harness.settle()
        text = fake.last_message(group).text or ""
        assert variant in text and terms in text, (words, text)
    for words, heading in (("abkhaz", "Абхазские нарды"), ("бешеный", "Бешеный гюльбар")):
        fake.send_text(bob, group, f"/rules {words}")
        await harness.settle()
        assert heading in (fake.last_message(group).text or "")
    fake.send_text(bob, group, "/rules abkhaz")
    await harness.settle()
    assert "Анти 3 кубика" in (fake.last_message(group).text or "")  # and the dice modes
