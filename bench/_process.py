"""The bot as its own process (``python -m bot``, exactly as in production) against the fake
Bot API server, for the benchmarks that drive it from outside."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.support.fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parent.parent
UNPACED = {
    "GROUP_MESSAGES_PER_MINUTE": "1000000",
    "PRIVATE_MESSAGES_PER_SECOND": "1000000",
    "MESSAGES_PER_SECOND": "1000000",
}
"""Telegram pacing settings far above any load: the pace limiter is then not what is measured."""


@asynccontextmanager
async def bot_process(
    fake: FakeTelegram,
    database: Path | str,
    *,
    telegram_pace: bool,
    workdir: Path | None = None,
    environment: dict[str, str] | None = None,
) -> AsyncIterator[subprocess.Popen[bytes]]:
    """Starts the bot on ``database`` (an SQLite file, or a ``postgresql://`` URL with
    ``workdir`` for the bot's files) against ``fake`` and yields it once it polls; stops it
    (SIGTERM) on leaving. Without ``telegram_pace`` the bot's edits are not paced at all.
    ``environment``: more settings (the Mini App board's, say).

    The bot is this checkout's (``PYTHONPATH``), whatever the environment has installed, so a
    second checkout's bench measures its own code against the same interpreter."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        ),
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_URL": fake.url,
        "DATABASE_URL": database if isinstance(database, str) else f"sqlite:///{database}",
        "MOVE_SECONDS": "3600",
        "LOG_LEVEL": "WARNING",
    }
    if not telegram_pace:
        env |= UNPACED
    env |= environment or {}
    folder = workdir if workdir is not None else Path(database).parent
    bot = subprocess.Popen([sys.executable, "-m", "bot"], env=env, cwd=folder)
    try:
        await fake.wait_for(lambda: fake.requests_for("getUpdates"), timeout=30)
        yield bot
    finally:
        bot.terminate()
        bot.wait(10)


def pin(pid: int, cpus: set[int]) -> None:
    """Keeps every thread of process ``pid`` on ``cpus`` (the threads it starts later inherit
    it from the thread that starts them)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(ProcessLookupError):  # a thread that has just ended
            os.sched_setaffinity(int(task.name), cpus)
