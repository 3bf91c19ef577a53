"""Worker processes that heal: a call whose worker dies under it is answered by a new pool,
the death logged once and counted; a call that kills every worker it meets fails after one
retry."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.services.processes import ProcessPool


def nap_once(marker: str) -> int:
    """Sleeps (for a test to kill the worker meanwhile) the first time, when ``marker`` does
    not exist yet; returns the worker's process id."""
    if not os.path.exists(marker):
        Path(marker).touch()
        time.sleep(60)
    return os.getpid()


def die() -> None:
    """Kills the worker it runs in."""
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture
def pool() -> Iterator[ProcessPool]:
    found = ProcessPool("test")
    yield found
    found.close()


async def _kill_when(pool: ProcessPool, marker: Path) -> int:
    """Kills the worker once it has begun napping (``marker`` made); returns its id."""
    while not marker.exists():
        await asyncio.sleep(0.01)
    [pid] = pool.pids
    os.kill(pid, signal.SIGKILL)
    return pid


async def test_calls_whose_worker_died_are_answered_by_a_new_one(
    pool: ProcessPool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    marker = tmp_path / "napping"
    caplog.set_level(logging.WARNING, "bot.services.processes")
    # two calls in flight when the worker dies: both answered, the pool replaced once
    first = asyncio.create_task(pool.call(nap_once, str(marker)))
    second = asyncio.create_task(pool.call(nap_once, str(marker)))
    killed = await _kill_when(pool, marker)
    answers = await asyncio.wait_for(asyncio.gather(first, second), 60)
    assert killed not in answers and pool.pids == [answers[0]] == [answers[1]]
    assert pool.restarts == 1
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith("the test worker process died")
    assert f"worker {killed} killed by SIGKILL" in line
    # from a thread, as the planner asks
    marker.unlink()
    asked = asyncio.create_task(asyncio.to_thread(pool.run, nap_once, str(marker)))
    killed = await _kill_when(pool, marker)
    assert await asyncio.wait_for(asked, 60) not in (killed, answers[0])
    assert pool.restarts == 2


async def test_a_call_that_kills_every_worker_fails_after_one_retry(pool: ProcessPool) -> None:
    with pytest.raises(BrokenProcessPool):
        await pool.call(die)
    assert pool.restarts == 2
    assert await pool.call(os.getpid) == pool.pids[0]  # a third pool for the next call
