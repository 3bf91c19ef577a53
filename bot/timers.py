"""The clock of the bot: turns that ran out of time, the computer's turns, challenges that
expired, reminders of correspondence games, the pool of ``/find`` (pairs made as the rating
windows widen, the computer offered to those who waited long enough, waits that ran out),
tournaments due to start or to move on, the groups' morning posts of the daily position.

Deadlines live in the database, so they keep running across restarts; this loop only looks at
them every :data:`TICK_SECONDS` and acts on the ones that have passed. Boards are not edited to
show a countdown: the caption names the deadline once.

While Telegram is unreachable (an outage of the :class:`~bot.outbox.link.TelegramLink`), or
the database is (:class:`~bot.services.database_outages.DatabaseWatch`), the loop enforces
nothing: a player whose taps cannot reach the bot, or whose taps the bot cannot record, does not
lose on time, and the deadlines are moved later when the outage ends (see :mod:`bot.app`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Final

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramForbiddenError
from aiogram.types import ReplyParameters
from aiogram.utils.i18n import I18n

from bot import logs
from bot.i18n import locale_of
from bot.messages.boards import BoardPublisher
from bot.messages.challenges import close_challenge_messages
from bot.messages.daily import DailyPublisher
from bot.messages.pool import offer_computer, pair_waiting, tell_expired
from bot.messages.tournaments import TournamentPublisher
from bot.model import DatabaseUnavailable, User
from bot.outbox import Outbox
from bot.outbox.link import TelegramLink
from bot.services import GameSnapshot
from bot.services.root import Services
from bot.views.common import translator
from bot.views.progress import board_link, reminder_text

logger = logging.getLogger(__name__)

TICK_SECONDS: Final = 0.5
SWEEP_SECONDS: Final = 5.0
"""With several workers: how often boards that a dead worker left behind are looked for."""


class Timers:
    """A background task that ends timed-out games and closes expired challenges."""

    def __init__(
        self,
        services: Services,
        publisher: BoardPublisher,
        outbox: Outbox,
        bot: Bot,
        i18n: I18n,
        tick: float = TICK_SECONDS,
        *,
        link: TelegramLink | None = None,
        daily: DailyPublisher | None = None,
    ) -> None:
        self._games = services.games
        self._timeouts = services.timeouts
        self._deadlines = services.deadlines
        self._challenges = services.challenges
        self._boards = services.board_messages
        self._users = services.users
        self._coordination = services.coordination
        self._database = services.database_watch
        self._services = services
        self._publisher = publisher
        self._pace = outbox.pace
        self._bot = bot
        self._i18n = i18n
        self._tick = tick
        self._link = link
        self._daily = daily
        self._posting: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._swept_at = 0.0
        self.tournaments: TournamentPublisher | None = None
        """Tournaments due to start or move on, and their pinned messages (set by the app)."""

    async def start(self) -> None:
        """Starts the loop (idempotent); a startup hook of the dispatcher."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="timers")

    async def stop(self) -> None:
        """Stops the loop and waits for it."""
        for task in (self._task, self._posting):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._posting = None

    async def tick(self) -> None:
        """One look at the deadlines (none while Telegram or the database is unreachable)."""
        if self._link is not None and not self._link.reachable.is_set():
            return
        if not self._database.reachable.is_set():
            return
        with logs.log_context(game_id=None):  # each game acted on notes itself, then none
            await self._look()
        self._database.answered()

    async def _look(self) -> None:
        await self._timeouts.timeouts()
        for challenge in await self._challenges.expire():
            await close_challenge_messages(
                self._bot, challenge, self._users, self._challenges, self._i18n
            )
        for snapshot, player in await self._deadlines.reminders():
            await self._remind(snapshot, player)
        await self._look_at_pool()
        if self.tournaments is not None:
            await self.tournaments.tick()
        if self._daily is not None and (self._posting is None or self._posting.done()):
            # the groups' morning posts, on a task of their own: choosing a day's position
            # takes the computer a second or two, and no deadline waits for it
            self._posting = asyncio.create_task(self._post_daily(), name="daily-posts")
        now = time.monotonic()
        if self._coordination.shared and now - self._swept_at >= SWEEP_SECONDS:
            self._swept_at = now
            await self._publisher.sweep()

    async def _look_at_pool(self) -> None:
        """Pairs seekers whose windows now meet, offers the computer to those who waited
        their time, and ends the waits that ran out; each seeker once, in whichever worker."""
        pool, chats, limiter = self._services.pool, self._services.chats, self._pace
        await pair_waiting(
            self._services.lobby,
            self._bot,
            limiter,
            self._i18n,
            pool=pool,
            users=self._users,
            chats=chats,
        )
        for seeker in await pool.sweep():
            await offer_computer(
                seeker, self._bot, limiter, self._i18n, pool=pool, users=self._users, chats=chats
            )
        for seeker in await pool.expire():
            await tell_expired(
                seeker, self._bot, limiter, self._i18n, pool=pool, users=self._users, chats=chats
            )

    async def _post_daily(self) -> None:
        assert self._daily is not None
        try:
            await self._daily.post_due()
            await self._daily.reveal()  # the posts of a day that ended show its best move
        except Exception:
            logger.exception("the daily position's morning posts failed")

    async def _remind(self, snapshot: GameSnapshot, player: User) -> None:
        """Tells ``player`` in private that half their time for the move is gone: as a reply
        to the board when it is in that chat, else with a link to it where there is one."""
        _ = translator(self._i18n, locale_of(player))
        boards = await self._boards.boards(snapshot.stored.id)
        here = next((b for b in boards if b.chat_id == player.id and b.message_id), None)
        link = next((url for b in boards if (url := board_link(b))), None)
        reply = None
        if here is not None and here.message_id is not None:
            reply = ReplyParameters(message_id=here.message_id, allow_sending_without_reply=True)
        await self._pace.wait(player.id)
        try:
            await self._bot.send_message(
                player.id,
                reminder_text(snapshot, player, None if reply else link, _),
                reply_parameters=reply,
            )
        except TelegramForbiddenError:
            await self._users.mark_blocked(player.id)
        except TelegramAPIError as error:
            logger.warning(
                "could not remind user %d of game %d: %s", player.id, snapshot.stored.id, error
            )

    async def _run(self) -> None:
        waits = self._games.computer_waits
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except DatabaseUnavailable as error:
                self._database.failed(error)
            except Exception:
                logger.exception("timer tick failed")
            # the next tick, or sooner when a game starts waiting for the computer
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waits.wait(), self._tick)
            waits.clear()
