"""The updates being handled, counted so that a stopping bot can wait for them
(:class:`UpdateTracker`, the dispatcher's outermost middleware); tests observe the bot through
it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot import logs
from bot.metrics import Metrics

UpdateObserver: TypeAlias = Callable[[int, BaseException | None], None]
Handler: TypeAlias = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class UpdateTracker(BaseMiddleware):
    """Counts the updates being handled, so that a stopping bot can wait for them.

    Registered as an outer ``update`` middleware. ``observers`` are called with the update id and
    the exception that escaped the handlers (None when it was handled cleanly or not at all); the
    test harness uses them to know when the bot is idle and to fail on unexpected errors.

    It also notes the update id for the logs (:mod:`bot.logs`) and, with ``metrics`` in the
    workflow data, counts the update by kind and starts its clock.
    """

    def __init__(self) -> None:
        self.in_flight = 0
        self.observers: list[UpdateObserver] = []
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self._enter()
        update_id = event.update_id if isinstance(event, Update) else -1
        logs.note_update(update_id)
        metrics: Metrics | None = data.get("metrics")
        if metrics is not None:
            metrics.update_started()
        error: BaseException | None = None
        try:
            return await handler(event, data)
        except BaseException as exc:
            error = exc
            raise
        finally:
            self._leave()
            if metrics is not None and isinstance(event, Update):
                metrics.update_handled(_kind(event))
            for observer in self.observers:
                observer(update_id, error)

    @asynccontextmanager
    async def holding(self) -> AsyncIterator[None]:
        """Counts a webhook request as in flight from its arrival to its answer, so that a
        stopping bot also waits for one whose update has not reached the dispatcher yet."""
        self._enter()
        try:
            yield
        finally:
            self._leave()

    def _enter(self) -> None:
        self.in_flight += 1
        self._idle.clear()

    def _leave(self) -> None:
        self.in_flight -= 1
        if not self.in_flight:
            self._idle.set()

    async def drain(self, timeout: float) -> bool:
        """Waits until no update is being handled; returns False if ``timeout`` ran out first."""
        # Let tasks that the polling loop has just created reach this middleware: they run
        # without suspending until their handler awaits something.
        await asyncio.sleep(0)
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


def _kind(update: Update) -> str:
    try:
        return update.event_type
    except Exception:  # a kind this aiogram does not know
        return "unknown"
