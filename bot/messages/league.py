"""Keeps each group league's standings message current, within Telegram's limits.

One message per league, pinned silently and edited in place. :meth:`LeaguePublisher.refresh`
(called when a group game ends) only notes the group and returns at once; one worker per group
then waits :data:`SETTLE_SECONDS`, so results close together make one edit, takes its turn from
the :class:`~bot.outbox.pace.RateLimiter` the boards of that group use, reads the standings and
edits the message. Refreshes that arrive meanwhile are coalesced into the next edit.

A deleted message is posted again, pinned and recorded; where the bot may not pin, the message
stays unpinned and the log says so (the chat hears it once, from ``/league``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Final

from aiogram import Bot, html
from aiogram.exceptions import (
    TelegramAPIError,
)
from aiogram.utils.i18n import I18n

from bot.messages.kept import KeptText
from bot.model import League
from bot.outbox import Latest
from bot.outbox.pace import Pace, RateLimiter
from bot.services.chats import Chats
from bot.services.coordination import Coordination
from bot.services.feed import GameSaved, Heard
from bot.services.leagues import LeagueLine, LeagueService
from bot.services.locks import KeyedLocks
from bot.views.common import Translate, player_name, translator

logger = logging.getLogger(__name__)

SETTLE_SECONDS: Final = 1.0
"""How long a refresh waits for more results before the message is edited."""
RULE: Final = "━━━━━━━━━━━━━━"


def standings_text(lines: Sequence[LeagueLine], _: Translate, *, now: float) -> str:
    """The league message: title and rule, one numbered line per player (net points,
    wins/games, long-nardy rating), and the time of the update in UTC."""
    parts = ["🏆 " + html.bold(_("League")), RULE]
    if not lines:
        parts.append(_("No finished games here yet: the standings fill in as games end."))
    for place, line in enumerate(lines, start=1):
        standing, rating = line.standing, line.rating
        parts.append(
            _("{place}. {name}: {points} pt., {wins}/{games} wins, rating {rating}").format(
                place=place,
                name=player_name(standing.user, _),
                points=standing.points,
                wins=standing.wins,
                games=standing.games,
                rating=round(rating.rating) if rating.games else "—",
            )
        )
    updated = dt.datetime.fromtimestamp(now, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts += [RULE, _("Updated: {time}").format(time=updated)]
    return "\n".join(parts)


class LeaguePublisher:
    """Posts, pins and edits the standings messages of group leagues (see the module
    docstring). ``limiter`` should be the board publisher's, so that both count against the
    same group's pace."""

    def __init__(
        self,
        bot: Bot,
        leagues: LeagueService,
        chats: Chats,
        coordination: Coordination,
        i18n: I18n,
        *,
        limiter: Pace | None = None,
        clock: Callable[[], float] = time.time,
        settle_seconds: float = SETTLE_SECONDS,
    ) -> None:
        self._bot = bot
        self._leagues = leagues
        self._chats = chats
        self._coordination = coordination
        self._i18n = i18n
        self._limiter = limiter or RateLimiter()
        self._clock = clock
        # each group's refreshes, settled: a burst of results costs one edit
        self._refreshes: Latest[int, None] = Latest(
            self._refresh, name="league", settle=settle_seconds
        )
        # One change of a league's message at a time: a worker's edit, /league's post, /league off.
        self._locks: KeyedLocks[int] = KeyedLocks()

    @contextlib.asynccontextmanager
    async def _one_at_a_time(self, chat_id: int) -> AsyncIterator[None]:
        """One change of the group's league message at a time, in this process and (with
        several workers) in all: each reads the standings only once it holds it."""
        async with self._locks.hold(chat_id), self._coordination.holding(f"league {chat_id}"):
            yield

    def hear(self, change: Heard) -> None:
        """The change feed's listener (this worker's changes): a group game's result refreshes
        the group's standings."""
        snapshot = change.snapshot if isinstance(change, GameSaved) else None
        if snapshot is not None and snapshot.game.is_over and snapshot.stored.chat_id:
            self.refresh(snapshot.stored.chat_id)

    def refresh(self, chat_id: int) -> None:
        """Schedules an update of the group's standings message (if it has a league)."""
        self._refreshes.hand(chat_id, None)

    async def post(self, league: League) -> bool:
        """Posts the league's standings as a new message, records it, pins it silently and
        retires the message it had (deleted, else unpinned). Returns False if the message
        could not be pinned (the bot lacks the right to pin).

        :raises: :exc:`~aiogram.exceptions.TelegramAPIError` if the message cannot be sent.
        """
        chat_id = league.chat_id
        async with self._one_at_a_time(chat_id):
            await self._limiter.wait(chat_id)
            message = await self._bot.send_message(
                chat_id, await self._text(league), disable_notification=True
            )
            await self._leagues.set_message(chat_id, message.message_id)
            if league.message_id is not None and league.message_id != message.message_id:
                await self._retire(chat_id, league.message_id)
            return await self._pin(chat_id, message.message_id)

    async def stop(self, chat_id: int) -> bool:
        """Ends the group's league and unpins its message; False if it had no league."""
        async with self._one_at_a_time(chat_id):
            league = await self._leagues.stop(chat_id)
            if league is None:
                return False
            if league.message_id is not None:
                try:
                    await self._bot.unpin_chat_message(chat_id, message_id=league.message_id)
                except TelegramAPIError as error:  # gone, or no right to pin: nothing to undo
                    logger.info("could not unpin the league of chat %d: %s", chat_id, error)
            return True

    async def drain(self, timeout: float = 10.0) -> None:
        """Sends every scheduled refresh now, without settling (or until ``timeout``)."""
        await self._refreshes.drain(timeout)

    async def close(self) -> None:
        """Cancels the refreshes still running (after :meth:`drain`)."""
        await self._refreshes.close()

    async def _refresh(self, chat_id: int, _nothing: None) -> None:
        async with self._one_at_a_time(chat_id):
            await self._show(chat_id)

    async def _show(self, chat_id: int) -> None:
        league = await self._leagues.get(chat_id)
        if league is None:
            return
        standings = _Standings(self, chat_id, league.message_id, await self._text(league))
        await standings.show(self._limiter)

    async def _text(self, league: League) -> str:
        """The standings in the group's language, else the league's (its starter's)."""
        lines = await self._leagues.standings(league.chat_id)
        locale = await self._chats.locale(league.chat_id) or league.locale
        return standings_text(lines, translator(self._i18n, locale), now=self._clock())

    async def _pin(self, chat_id: int, message_id: int) -> bool:
        try:
            await self._bot.pin_chat_message(chat_id, message_id, disable_notification=True)
        except TelegramAPIError as error:
            logger.info("could not pin the league of chat %d: %s", chat_id, error)
            return False
        return True

    async def _retire(self, chat_id: int, message_id: int) -> None:
        try:
            await self._bot.delete_message(chat_id, message_id)
        except TelegramAPIError:
            with contextlib.suppress(TelegramAPIError):  # too old to delete: at least unpin it
                await self._bot.unpin_chat_message(chat_id, message_id=message_id)


class _Standings(KeptText):
    """A league's standings message: sent silently, recorded as the league's and pinned; its
    group followed into a supergroup."""

    def __init__(
        self, publisher: LeaguePublisher, chat_id: int, message_id: int | None, text: str
    ) -> None:
        super().__init__(
            publisher._bot, chat_id, message_id, text=text, what="the league", silent=True
        )
        self._publisher = publisher

    async def sent(self, chat_id: int, message_id: int) -> None:
        await self._publisher._leagues.set_message(chat_id, message_id)
        await self._publisher._pin(chat_id, message_id)

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        await self._publisher._chats.move_chat(old_chat_id, new_chat_id)
