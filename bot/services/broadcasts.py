"""Broadcasts: one message from an operator to every user who has a private chat with the bot
and has not blocked it (nor been banned). No Telegram here: the sending is
:mod:`bot.messages.broadcasts`'.

A broadcast is written (a draft, shown to its operator with the number of recipients), then
confirmed, then sent, each recipient at most once (see :mod:`bot.model.operators`), whatever
restarts come between: a restarted bot goes on from the stored cursor. An operator may stop it
at any point.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.model import Broadcast, Store

from .errors import BroadcastClosed


class Broadcasts:
    """Broadcasts from their draft to their last recipient."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self.started = asyncio.Event()
        """Set (:meth:`wake`) when a broadcast was confirmed here, to wake the sender."""

    async def draft(self, operator_id: int, text: str, *, chat_id: int) -> tuple[Broadcast, int]:
        """Stores a new broadcast of ``text`` (HTML), to be confirmed in ``chat_id``; returns
        it and how many it would reach now."""
        broadcast = await self._store.operators.create_broadcast(
            operator_id, text, chat_id=chat_id, now=self._clock()
        )
        return broadcast, await self._store.operators.recipients_after(0)

    async def get(self, broadcast_id: int) -> Broadcast:
        """The broadcast.

        :raises: :exc:`BroadcastClosed` if there is none (a forged button).
        """
        found = await self._store.operators.broadcast(broadcast_id)
        if found is None:
            raise BroadcastClosed()
        return found

    async def set_message(self, broadcast_id: int, message_id: int) -> None:
        """Records the operator's message that shows the broadcast and its progress."""
        await self._store.operators.set_broadcast_message(broadcast_id, message_id)

    async def start(self, broadcast_id: int) -> Broadcast:
        """Confirms a draft: it is to be sent from now on (:meth:`wake` the sender).

        :raises: :exc:`BroadcastClosed` unless it was a draft (confirmed or stopped before).
        """
        started = await self._store.operators.start_broadcast(broadcast_id, now=self._clock())
        if started is None:
            raise BroadcastClosed()
        return started

    def wake(self) -> None:
        """Wakes this worker's sender for a broadcast just confirmed (the others find it
        within :data:`bot.messages.broadcasts.LOOK_SECONDS`)."""
        self.started.set()

    async def stop(self, broadcast_id: int) -> Broadcast:
        """Stops a draft or a broadcast being sent (those already reached stay reached).

        :raises: :exc:`BroadcastClosed` if it was done or stopped already.
        """
        stopped = await self._store.operators.stop_broadcast(broadcast_id, now=self._clock())
        if stopped is None:
            raise BroadcastClosed()
        return stopped

    async def sending(self) -> list[Broadcast]:
        """The broadcasts being sent, oldest first."""
        return await self._store.operators.sending()

    async def next_recipient(self, broadcast: Broadcast) -> int | None:
        """Takes the next recipient of ``broadcast`` (as last read), theirs alone; None when
        nobody is left, when it was stopped, or when another worker took one first (read the
        broadcast again then)."""
        return await self._store.operators.take_recipient(broadcast)

    async def count(self, broadcast_id: int, *, sent: bool) -> None:
        """Counts one recipient reached, or (``sent=False``) not."""
        await self._store.operators.count_sent(broadcast_id, sent=sent)

    async def left(self, broadcast: Broadcast) -> int:
        """The recipients ``broadcast`` has still to reach."""
        return await self._store.operators.recipients_after(broadcast.last_user_id)
