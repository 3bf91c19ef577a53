"""Bot workers as real processes: ``python -m bot`` in webhook mode over one database, as an
operator runs them behind a reverse proxy (the fake Telegram's :attr:`~FakeTelegram.balancer`
plays the proxy). For the tests that kill one, and for ``bench/bot_load.py``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .fake_telegram import FakeTelegram

ROOT: Final = Path(__file__).resolve().parents[2]
SECRET: Final = "workers-secret"
WEBHOOK_PATH: Final = "/telegram"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Worker:
    """One worker process and the address its webhook listens on."""

    process: asyncio.subprocess.Process
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{WEBHOOK_PATH}"

    @property
    def pid(self) -> int:
        return self.process.pid

    async def kill(self) -> None:
        """``kill -9``: no shutdown of any kind."""
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()

    async def stop(self) -> None:
        """SIGTERM, then waits for it to finish what it was doing."""
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                await self.kill()


async def start_worker(
    fake: FakeTelegram,
    database_url: str,
    workdir: Path,
    *,
    environment: dict[str, str] | None = None,
    log: Path | None = None,
) -> Worker:
    """Starts a worker on ``database_url`` against ``fake`` and returns once it has set the
    webhook (its start-up is over and it takes updates). ``environment`` adds or overrides
    settings; its stderr goes to ``log`` (else nowhere)."""
    port = free_port()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_URL": fake.url,
        "DATABASE_URL": database_url,
        # the address Telegram is given: the proxy's; each worker listens on its own port
        "WEBHOOK_URL": f"http://127.0.0.1:9{WEBHOOK_PATH}",
        "WEBHOOK_SECRET": SECRET,
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "MOVE_SECONDS": "600",
        "GROUP_MESSAGES_PER_MINUTE": "60000",
        "PRIVATE_MESSAGES_PER_SECOND": "1000",
        "MESSAGES_PER_SECOND": "1000",
        "COMPUTER_PAUSE_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        **(environment or {}),
    }
    settings_before = len(fake.webhook_settings)
    stderr = log.open("ab") if log is not None else asyncio.subprocess.DEVNULL
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=workdir, env=env, stderr=stderr
    )
    if log is not None:
        stderr.close()  # type: ignore[union-attr]  # the child has its own copy
    worker = Worker(process, port)
    try:
        await fake.wait_for(
            lambda: len(fake.webhook_settings) > settings_before or process.returncode is not None,
            timeout=60,
            description="the worker to set its webhook",
        )
    except BaseException:
        await worker.kill()
        raise
    if process.returncode is not None:
        raise RuntimeError(f"the worker exited with status {process.returncode}")
    return worker
