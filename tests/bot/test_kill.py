"""``kill -9`` at any moment loses no committed turn: the real ``python -m bot`` process is
killed mid-game and started again on the same database."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.support.fake_telegram import FakeTelegram

from .gameplay import game_buttons, mover, play_turn, version, wait_for_board

ROOT = Path(__file__).resolve().parents[2]


async def _start(fake: FakeTelegram, workdir: Path) -> asyncio.subprocess.Process:
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_URL": fake.url,
        "DATABASE_URL": f"sqlite:///{workdir / 'nardy.sqlite3'}",
        "MOVE_SECONDS": "600",
        "GROUP_MESSAGES_PER_MINUTE": "60000",
        "LOG_LEVEL": "WARNING",
    }
    mark = fake.mark()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=workdir,
        env=environment,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await fake.wait_for(
        lambda: fake.requests_for("getUpdates", since=mark), timeout=60, description="polling"
    )
    return process


@pytest.mark.slow
async def test_kill_9_in_the_middle_of_a_game_loses_no_committed_turn(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("club", [alice, bob])
    process = await _start(fake, tmp_path)
    try:
        fake.send_text(alice, group, "/play @bob")
        challenge = await fake.wait_for_message(group, timeout=30)
        fake.press(bob, challenge, "✅ Accept")
        board = await wait_for_board(fake, group)
        for _ in range(3):
            await play_turn(fake, board, [alice, bob])
        committed = version(board)
        process.kill()  # SIGKILL: no shutdown of any kind
        await process.wait()
        process = await _start(fake, tmp_path)
        assert version(board) == committed
        step = game_buttons(board)[0]
        before = board.edit_count
        tap = fake.tap(mover(board, [alice, bob]), board, step.pack())
        answer = await fake.next_answer_to(tap, timeout=30)
        assert not answer.show_alert, answer.text  # the board's buttons are still current
        await fake.wait_for(lambda: board.edit_count > before, timeout=30)
        assert len([m for m in fake.messages(group) if m.photo]) == 1
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
