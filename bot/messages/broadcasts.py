"""The sending of broadcasts (:mod:`bot.services.broadcasts`): one message to each recipient,
at the pace of the messages users ask for (:class:`~bot.outbox.pace.OnDemand`'s spare slots),
so that no game's board ever waits for a broadcast; and the operator's message that shows how
far it has gone, edited every :data:`PROGRESS_SECONDS`.

A background task looks for broadcasts being sent (woken at once when one is confirmed in this
worker, else every :data:`LOOK_SECONDS`); one worker at a time sends each, holding a claim on
it, and a restarted bot goes on where the stored cursor stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Final

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
)
from aiogram.utils.i18n import I18n

from bot.i18n import locale_of
from bot.messages.link import TelegramSendUncertain
from bot.model import Broadcast, BroadcastState
from bot.outbox.pace import Pace
from bot.services import Users
from bot.services.broadcasts import Broadcasts
from bot.services.coordination import Coordination
from bot.views.common import translator
from bot.views.operator import progress_keyboard, progress_text

logger = logging.getLogger(__name__)

PROGRESS_SECONDS: Final = 3.0
"""How often the operator's message is brought up to date while a broadcast is sent."""
LOOK_SECONDS: Final = 5.0
"""How often a worker looks for broadcasts confirmed elsewhere (or left by a dead worker)."""


class Broadcaster:
    """Sends the broadcasts being sent, one at a time; started and stopped with the bot."""

    def __init__(
        self,
        bot: Bot,
        broadcasts: Broadcasts,
        users: Users,
        coordination: Coordination,
        i18n: I18n,
        *,
        pace: Pace,
        progress_pace: Pace,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``pace``: the recipients' (spare slots only); ``progress_pace``: the operator's
        message's."""
        self._bot = bot
        self._broadcasts = broadcasts
        self._users = users
        self._coordination = coordination
        self._i18n = i18n
        self._pace = pace
        self._progress_pace = progress_pace
        self._clock = clock
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Starts sending (a startup hook): broadcasts a stopped bot left go on."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="broadcasts")

    async def stop(self) -> None:
        """Stops sending; the stored cursor keeps where it stood."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        started = self._broadcasts.started
        while True:
            started.clear()
            try:
                for broadcast in await self._broadcasts.sending():
                    async with self._coordination.leased(f"broadcast:{broadcast.id}") as mine:
                        if mine:
                            await self._send_all(broadcast)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("sending broadcasts failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(started.wait(), LOOK_SECONDS)

    async def _send_all(self, broadcast: Broadcast) -> None:
        """Sends ``broadcast`` to each recipient left, then shows how it ended."""
        shown_at = self._clock()
        current = broadcast
        while True:
            user_id = await self._broadcasts.next_recipient(current)
            if user_id is None:
                current = await self._broadcasts.get(current.id)
                if current.state is BroadcastState.SENDING:
                    continue  # its cursor moved elsewhere (a claim that ran out): go on from it
                break
            current = dataclasses.replace(current, last_user_id=user_id)
            sent = await self._send(current, user_id)
            await self._broadcasts.count(current.id, sent=sent)
            if self._clock() - shown_at >= PROGRESS_SECONDS:
                shown_at = self._clock()
                await self.show(await self._broadcasts.get(current.id))
        await self.show(current)
        logger.info(
            "broadcast %d %s: %d sent, %d not reached",
            current.id,
            current.state.value,
            current.sent,
            current.failed,
        )

    async def _send(self, broadcast: Broadcast, user_id: int) -> bool:
        """Sends the message to one recipient; False if it did not reach them."""
        while True:
            await self._pace.wait(user_id)
            try:
                await self._bot.send_message(user_id, broadcast.text)
            except TelegramRetryAfter as error:  # not sent: Telegram asks for a pause
                await asyncio.sleep(error.retry_after)
                continue
            except TelegramSendUncertain:
                return True  # most likely there; never sent twice
            except TelegramForbiddenError:
                await self._users.mark_blocked(user_id)
                return False
            except TelegramAPIError as error:
                logger.info(
                    "broadcast %d did not reach user %d: %s", broadcast.id, user_id, error.message
                )
                return False
            return True

    async def show(self, broadcast: Broadcast) -> None:
        """Brings the operator's message of ``broadcast`` up to date (in their language)."""
        if broadcast.message_id is None:
            return
        operator = await self._users.get(broadcast.operator_id)
        _ = translator(self._i18n, locale_of(operator) if operator is not None else "en")
        await self._progress_pace.wait(broadcast.chat_id)
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):  # unchanged, gone
            await self._bot.edit_message_text(
                progress_text(broadcast, _),
                chat_id=broadcast.chat_id,
                message_id=broadcast.message_id,
                reply_markup=progress_keyboard(broadcast, _),
            )
