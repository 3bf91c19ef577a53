"""The computer's worker process killed in the middle of a game, three times: the computer's
next move, the next hint and the next analysis are each answered by a new process, and
``/metrics`` counts the three restarts. (The planner's process, which searches cascades, is
killed mid-turn in ``tests/services/test_heavy_turns.py``.)"""

from __future__ import annotations

import functools
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import build_services
from bot.engine import Side, TurnRecord
from bot.services.computer import Brain
from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import BotHarness, free_port, running_bot, watch_logs

from .gameplay import (
    ask_hint,
    computer_done,
    game_number,
    is_over,
    play_turn,
    start_computer_game,
    stored_game,
)
from .test_webhook import scrape


@pytest.fixture
async def brain() -> AsyncIterator[Brain]:
    thinking = Brain()
    yield thinking
    thinking.close()


@pytest.fixture
async def harness(
    fake_telegram: FakeTelegram, database_path: Path, brain: Brain
) -> AsyncIterator[BotHarness]:
    async with running_bot(
        fake_telegram,
        database_path,
        services_factory=functools.partial(build_services, brain=brain),
        move_seconds=300,
        computer_pause_seconds=0,
        webhook_port=free_port(),
        webhook_host="127.0.0.1",
    ) as running:
        yield running


def _kill(brain: Brain) -> int:
    [pid] = brain.pool.pids
    os.kill(pid, signal.SIGKILL)
    return pid


async def _computer_turns(database_path: Path, game_id: int) -> int:
    stored = await stored_game(database_path, game_id)
    [computer] = [side for side in Side if stored.level(side) is not None]
    return sum(TurnRecord.from_text(line).side is computer for line in stored.history)


@pytest.mark.slow
async def test_the_computer_moves_hints_and_analyses_after_its_process_dies(
    harness: BotHarness, brain: Brain, database_path: Path
) -> None:
    fake = harness.fake
    with watch_logs(fake, "bot.services") as logs:
        alice, chat, board = await start_computer_game(harness, "level 1 short")
        game_id = game_number(board)
        await computer_done(fake, board)
        while not brain.pool.pids:  # the computer's first move starts its process
            await play_turn(fake, board, [alice])
            await computer_done(fake, board)
        # killed between two of its moves: its next move that asks (a forced one does not)
        # comes from a new process
        first = _kill(brain)
        for _ in range(10):
            moved = await _computer_turns(database_path, game_id)
            await play_turn(fake, board, [alice])
            await computer_done(fake, board)
            if brain.pool.restarts:
                break
        assert brain.pool.restarts == 1 and not is_over(board)
        assert await _computer_turns(database_path, game_id) > moved
        assert brain.pool.pids and first not in brain.pool.pids
        # a hint
        _kill(brain)
        assert (await ask_hint(fake, board, alice)).startswith("💡 Best: ")
        # an analysis of the game, resigned
        fake.send_text(alice, chat, "/resign")
        await harness.settle()
        await fake.next_answer_to(fake.press(alice, fake.last_message(chat), "🏳"))
        await fake.wait_for(lambda: is_over(board), description="the board after resigning")
        _kill(brain)
        answer = await fake.next_answer_to(fake.press(alice, board, "📊 Analysis"))
        assert not answer.show_alert, answer.text
        await fake.wait_for_message(
            chat, where=lambda m: f"Analysis of game #{game_id}" in m.content, timeout=60
        )
        await harness.settle(timeout=60)
    assert brain.pool.restarts == 3
    assert logs.count("the computer worker process died") == 3
    assert logs.count("killed by SIGKILL") == 3
    metrics = await scrape(harness)
    assert metrics[("nardy_worker_restarts_total", (("pool", "computer"),))] == 3
    assert metrics[("nardy_worker_restarts_total", (("pool", "planner"),))] == 0
