"""The analyst: the background task that works the automatic analysis's queue
(:mod:`bot.services.autoanalysis`), one game at a time, and puts each game's luck line on its
result (:mod:`bot.messages.luck`), an inline game's too (through ``inline``, the publisher's
inline boards).

Started and stopped with the bot like the timers. It takes a job whenever it has none, and
sleeps :data:`IDLE_SECONDS` when the queue is empty (at once when this process queues a game).
One game at a time: its parts are the only automatic work in the brain's queue, so a running
game's computer waits behind one part at most. Stopped, it leaves its claim, which another
worker (or this one, restarted) takes over after the claim's timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from aiogram import Bot
from aiogram.utils.i18n import I18n

from bot.messages.inline import InlineBoards
from bot.messages.luck import show_luck_line
from bot.metrics import Metrics
from bot.outbox.pace import Pace
from bot.services.root import Services

logger = logging.getLogger(__name__)

IDLE_SECONDS: Final = 5.0
"""How long the analyst waits for work when the queue is empty."""


class Analyst:
    """The automatic analysis's worker in this process (see the module docstring)."""

    def __init__(
        self,
        services: Services,
        bot: Bot,
        i18n: I18n,
        limiter: Pace,
        *,
        idle: float = IDLE_SECONDS,
        metrics: Metrics | None = None,
        inline: InlineBoards | None = None,
    ) -> None:
        self._services = services
        self._analyses = services.auto_analyses
        self._bot = bot
        self._i18n = i18n
        self._limiter = limiter
        self._idle = idle
        self._metrics = metrics
        self._inline = inline
        self._counted = (0, 0)  # games analysed and dropped, as last counted in the metrics
        self._task: asyncio.Task[None] | None = None
        self.analysed = 0
        """Games this process analysed (a counter for ``/metrics`` and the tests)."""

    async def start(self) -> None:
        """Starts the loop (idempotent); a startup hook of the dispatcher."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="analyst")

    async def stop(self) -> None:
        """Stops the loop and waits for it (a game being worked is left to its claim)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def work_one(self) -> bool:
        """One job: analysed, recorded and shown. False when the queue had nothing."""
        analysed = await self._analyses.work_one()
        if analysed is None:
            return False
        if analysed.stored is None:
            return True  # dropped, or taken over: the next job
        self.analysed += 1
        snapshot = await self._services.game_service.snapshot(analysed.game_id)
        await show_luck_line(
            self._bot, self._services, self._i18n, self._limiter, snapshot, self._inline
        )
        return True

    async def _count(self) -> None:
        """Brings the metrics up to date (with the backlog: an idle look, a query)."""
        if self._metrics is None:
            return
        done, dropped = self.analysed, self._analyses.dropped
        self._metrics.analysis(
            done=done - self._counted[0],
            dropped=dropped - self._counted[1],
            backlog=await self._analyses.pending(),
        )
        self._counted = (done, dropped)

    async def _run(self) -> None:
        waits = self._analyses.queued
        while True:
            try:
                if await self.work_one():
                    continue
                await self._count()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("automatic analysis failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waits.wait(), self._idle)
            waits.clear()
