"""Newest wins: one worker per key (a game, a group, a daily position) that handles the newest
value handed over for it, for every sender that shows something that keeps changing (a game's
boards, the Mini App's sockets, a league's table, a daily position's posts).

A value handed over while another waits for the same key replaces it (when it is newer: see
``newer``); one handed over while the key's worker is busy waits its turn. So each key is
handled by one task at a time, in order, never more often than it changes, and a value the
worker has gone past (not newer than the last it handled) is skipped. ``settle`` waits a
moment before each round, so that a burst of changes costs one round, and a worker may pace
itself (:meth:`Latest.until_newer`); :meth:`Latest.drain` stops both while it waits for what is
left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from contextvars import Context
from typing import Generic, TypeVar

logger = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _always(new: object, old: object) -> bool:
    return True


class Latest(Generic[K, V]):
    """Newest-wins workers, one per key (see the module docstring)."""

    def __init__(
        self,
        handle: Callable[[K, V], Awaitable[object]],
        *,
        name: str,
        newer: Callable[[V, V], bool] = _always,
        settle: float = 0.0,
        context: Callable[[K], Context] | None = None,
    ) -> None:
        """``handle(key, value)`` shows ``value`` (what it raises is logged, and the worker goes
        on); ``newer(new, old)`` says whether ``new`` replaces ``old``; ``context`` gives each
        worker task its context (the logs' game)."""
        self._handle = handle
        self._name = name
        self._newer = newer
        self._settle = settle
        self._context = context
        self._waiting: dict[K, V] = {}
        self._workers: dict[K, asyncio.Task[None]] = {}
        self._hurry = asyncio.Event()
        self._handed: dict[K, asyncio.Event] = {}  # keys whose worker waits for a value

    def hand(self, key: K, value: V) -> bool:
        """Hands ``value`` over for ``key``; False when a value at least as new waits."""
        waiting = self._waiting.get(key, _NONE)
        if waiting is not _NONE and not self._newer(value, waiting):  # type: ignore[arg-type]
            return False
        self._waiting[key] = value
        if (handed := self._handed.get(key)) is not None:
            handed.set()
        if key not in self._workers:
            context = self._context(key) if self._context is not None else None
            self._workers[key] = asyncio.get_running_loop().create_task(
                self._work(key), name=f"{self._name}-{key}", context=context
            )
        return True

    async def until_newer(self, key: K, timeout: float, urgent: Callable[[V], bool]) -> None:
        """For ``key``'s worker, to pace itself: waits ``timeout`` seconds, or less when a
        value that ``urgent`` says cannot wait is handed over (or :meth:`drain` is called)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        handed = self._handed.setdefault(key, asyncio.Event())
        try:
            while not self._hurry.is_set():
                waiting = self._waiting.get(key, _NONE)
                if waiting is not _NONE and urgent(waiting):  # type: ignore[arg-type]
                    return
                left = deadline - loop.time()
                if left <= 0:
                    return
                handed.clear()
                hurry = asyncio.ensure_future(self._hurry.wait())
                new = asyncio.ensure_future(handed.wait())
                try:
                    await asyncio.wait({hurry, new}, timeout=left, return_when="FIRST_COMPLETED")
                finally:
                    hurry.cancel()
                    new.cancel()
        finally:
            self._handed.pop(key, None)

    def waiting(self, key: K) -> V | None:
        """The value that waits for ``key``'s worker, if any."""
        return self._waiting.get(key)

    def worker(self, key: K) -> asyncio.Task[None] | None:
        """``key``'s worker, while it has one."""
        return self._workers.get(key)

    def __len__(self) -> int:
        """How many keys have a worker now."""
        return len(self._workers)

    async def _work(self, key: K) -> None:
        last: V | None = None
        handled = False
        try:
            while key in self._waiting:
                if self._settle and not self._hurry.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._hurry.wait(), self._settle)
                value = self._waiting.pop(key)
                if handled and not self._newer(value, last):  # type: ignore[arg-type]
                    continue
                try:
                    await self._handle(key, value)
                except Exception:
                    logger.exception("%s: could not show %r", self._name, key)
                last, handled = value, True
        finally:
            self._workers.pop(key, None)

    async def drain(self, timeout: float = 10.0) -> None:
        """Handles what waits now, without settling or pacing, until none is left or
        ``timeout`` has passed."""
        self._hurry.set()
        try:
            deadline = time.monotonic() + timeout
            while self._workers and time.monotonic() < deadline:
                await asyncio.wait(
                    list(self._workers.values()), timeout=max(0.0, deadline - time.monotonic())
                )
        finally:
            self._hurry.clear()

    async def close(self) -> None:
        """Cancels the workers still running (after :meth:`drain`)."""
        workers = list(self._workers.values())
        for task in workers:
            task.cancel()
        for task in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await task


_NONE = object()
