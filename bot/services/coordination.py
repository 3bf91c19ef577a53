"""Several workers over one database: who does what that only one should do at a time, and one
pace of messages for all. No Telegram here.

A single process over SQLite has nothing to agree with anyone, so there every claim is granted
at once and costs no write (``shared=False``); the SQL under it is the same for both backends.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Final

from bot.model import OVERALL, WATCHERS, Store

logger = logging.getLogger(__name__)

LEASE_SECONDS: Final = 10.0
"""How long a claim lasts unless renewed: a worker that dies holding one delays that work by
at most this. A claim held for a block (:meth:`Coordination.leased`) is renewed every third of
it for as long as the block runs."""

POLL_SECONDS: Final = 0.25
"""How often a worker waiting for a claim held by another looks again."""


def share_of(overall: tuple[float, float], share: float) -> tuple[tuple[float, float], float]:
    """The pace of messages allowed ``share`` of a pace (``overall``: burst, per second) and
    never the rest: their own (burst, per second), and how much of its burst they must leave
    to the other messages (never all of it: one message's worth always comes free to them).

    >>> share_of((30, 30.0), 1 / 3)
    ((10.0, 10.0), 20.0)
    """
    burst, per_second = overall
    own = (max(1.0, burst * share), per_second * share)
    return own, max(0.0, min(burst * (1 - share), burst - 1))


def worker_name() -> str:
    """This process's name in the leases: host, process id and a random tag (a restarted
    process with a reused id is still another worker)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Coordination:
    """Leases on named work and the shared pace of messages, for one worker."""

    def __init__(
        self,
        store: Store,
        *,
        shared: bool,
        owner: str | None = None,
        clock: Callable[[], float] = time.time,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self._store = store
        self._lease_seconds = lease_seconds
        self.shared = shared
        """Other workers may use the database: claims and pace go through it."""
        self.owner = owner or worker_name()
        self._clock = clock
        self._held: dict[str, int] = {}
        """The names claimed for blocks running now (how many blocks each), renewed together
        by one task while there are any (:meth:`_renew_held`)."""
        self._renewer: asyncio.Task[None] | None = None

    async def claim(self, name: str, seconds: float | None = None) -> bool:
        """Claims (or renews) ``name`` for this worker for ``seconds`` (default: the lease's
        length); False while another holds it."""
        if not self.shared:
            return True
        return await self._store.coordination.claim(
            name, self.owner, now=self._clock(), seconds=seconds or self._lease_seconds
        )

    async def release(self, name: str) -> None:
        """Gives ``name`` up."""
        if self.shared:
            await self._store.coordination.release(name, self.owner)

    @asynccontextmanager
    async def leased(self, name: str) -> AsyncIterator[bool]:
        """Claims ``name`` without waiting: the block gets False when another worker holds it.
        Claimed, it is renewed in the background for as long as the block runs (however long
        Telegram makes it wait), and released at its end; if this worker dies, the claim runs
        out within the lease's length (:data:`LEASE_SECONDS`)."""
        if not await self.claim(name):
            yield False
            return
        self._hold(name)
        try:
            yield True
        finally:
            self._let_go(name)
            await self.release(name)

    @asynccontextmanager
    async def holding(self, name: str) -> AsyncIterator[None]:
        """Holds ``name`` for the block, waiting (polling) while another worker holds it."""
        while True:
            async with self.leased(name) as held:
                if held:
                    yield
                    return
            await asyncio.sleep(POLL_SECONDS)

    async def close(self) -> None:
        """Stops renewing (at shutdown, once the blocks holding claims have ended)."""
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
            self._renewer = None

    def _hold(self, name: str) -> None:
        self._held[name] = self._held.get(name, 0) + 1
        if self.shared and self._renewer is None:
            # in a context of its own: it must not share a block's connection
            self._renewer = asyncio.create_task(
                self._renew_held(), name="lease-renewal", context=contextvars.Context()
            )

    def _let_go(self, name: str) -> None:
        left = self._held.pop(name) - 1
        if left:
            self._held[name] = left

    async def _renew_held(self) -> None:
        """Every third of a lease, renews each claim whose block still runs, until none does.
        One task for all of them: most blocks (a board edit) end long before their first
        renewal, and they need not each start and stop a task of their own."""
        try:
            while self._held:
                await asyncio.sleep(self._lease_seconds / 3)
                for name in list(self._held):
                    try:
                        if name in self._held and not await self.claim(name):
                            logger.warning("lost the claim on %s to another worker", name)
                    except Exception:  # the database is away: the claim may run out
                        logger.exception("could not renew the claim on %s", name)
        finally:
            self._renewer = None

    async def reserve(
        self, chat_id: int, *, rate: tuple[float, float], overall: tuple[float, float]
    ) -> float:
        """Takes the next slot for a message to ``chat_id`` at ``rate`` (burst, per second)
        and overall; returns the seconds to wait before sending it."""
        (burst, per_second), (all_burst, all_per_second) = rate, overall
        return await self._store.coordination.reserve(
            chat_id,
            now=self._clock(),
            interval=1 / per_second,
            burst=burst,
            overall=1 / all_per_second,
            overall_burst=all_burst,
        )

    async def take_spare(
        self,
        chat_id: int,
        *,
        rate: tuple[float, float],
        overall: tuple[float, float],
        share: float,
    ) -> float:
        """Takes a slot for a message to ``chat_id`` that must yield to every other message
        (a watcher's board): only when one is free now, within ``share`` of the ``overall``
        pace and leaving the rest of its burst, and of the chat's at ``rate``, to the others
        (:func:`share_of`); returns 0 when taken, else the seconds to wait before asking
        again."""
        (burst, per_second), (all_burst, all_per_second) = rate, overall
        (own_burst, own_per_second), leave = share_of(overall, share)
        _, leave_in_chat = share_of(rate, share)
        return await self._store.coordination.take_spare(
            [
                (chat_id, 1 / per_second, burst, leave_in_chat),
                (OVERALL, 1 / all_per_second, all_burst, leave),
                (WATCHERS, 1 / own_per_second, own_burst, 0.0),
            ],
            now=self._clock(),
        )

    async def outage_ended(self, began: float, ended: float) -> bool:
        """True for the first worker to report this outage (which then makes up for it)."""
        if not self.shared:
            return True
        return await self._store.coordination.made_up_for(began, ended)
