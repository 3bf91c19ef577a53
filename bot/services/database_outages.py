"""Outages of the database, treated as Telegram's are (:mod:`bot.messages.link`): nobody loses
on time because the bot could not reach its database. No Telegram here.

A :class:`DatabaseWatch` is told of every failure to reach the database
(:exc:`~bot.model.DatabaseUnavailable`): the first one starts an outage, logged once, from the
database's last answer the watch knows of (the timers note one every tick). While it lasts
:attr:`DatabaseWatch.reachable` is clear: the timers enforce no deadline and every tap or
command is told to try again without touching the database. The watch asks the database every
:data:`PROBE_SECONDS`; at its first answer, before :attr:`~DatabaseWatch.reachable` is set again,
every running game's deadline that fell after the outage began is moved later by the outage's
length, once across workers (:meth:`~.games.GameService.postpone_deadlines`: the first worker to
report an outage moves them, the others' overlapping reports move nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Final

from bot.model import DatabaseUnavailable, Store

from .games import GameService

logger = logging.getLogger(__name__)

PROBE_SECONDS: Final = 0.5
"""How often the database is asked whether it is back during an outage."""


class DatabaseWatch:
    """Whether the database answers, and the end of its outages made up for."""

    def __init__(
        self,
        store: Store,
        games: GameService,
        *,
        clock: Callable[[], float] = time.time,
        probe_seconds: float = PROBE_SECONDS,
    ) -> None:
        self._store = store
        self._games = games
        self._clock = clock
        self._probe_seconds = probe_seconds
        self.reachable = asyncio.Event()
        """Clear during an outage (and until its deadlines are moved)."""
        self.reachable.set()
        self._answered_at = clock()
        self._probe: asyncio.Task[None] | None = None

    def answered(self) -> None:
        """Notes that the database has just answered (the start of any outage found later)."""
        if self.reachable.is_set():
            self._answered_at = self._clock()

    def failed(self, error: DatabaseUnavailable) -> None:
        """Notes a failure to reach the database: the first of an outage starts it."""
        if not self.reachable.is_set():
            return
        self.reachable.clear()
        logger.warning("database unreachable: %s; taps and commands are asked to wait", error)
        began = self._answered_at
        self._probe = asyncio.create_task(self._wait_for_it(began), name="database-probe")

    async def _wait_for_it(self, began: float) -> None:
        """Asks the database until it answers, then moves the deadlines and lets work go on."""
        while True:
            await asyncio.sleep(self._probe_seconds)
            try:
                await self._store.ping()
                ended = self._clock()
                moved = await self._games.postpone_deadlines(began, ended - began)
            except DatabaseUnavailable:
                continue
            except Exception:  # anything else: keep the clocks stopped, try again
                logger.exception("could not make up for the database's outage; trying again")
                continue
            break
        logger.info(
            "database back after %.1f s; %d game deadline(s) moved that much later",
            ended - began,
            moved,
        )
        self._answered_at = ended
        self.reachable.set()

    async def close(self) -> None:
        """Stops asking (at shutdown)."""
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe
            self._probe = None
