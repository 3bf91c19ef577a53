"""Group leagues: a group's standings, kept in one message the bot pins and edits after each
result, and the transfers held back in its games for the admins' ``/flags``.

A league is started by a group's admin, in their language; the standings are the group's
leaderboard by net points (see :meth:`Scores.top`) with each player's long-nardy rating.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.model import ChipFlag, League, Rating, Standing, Store, User

from .scores import Scores

STANDINGS_LIMIT: Final = 20
"""Lines in a league's standings: 20 stay well inside Telegram's 4096 characters."""
RATED_VARIANT: Final = "long"
"""The variant whose rating the standings show."""


@dataclass(frozen=True, slots=True)
class LeagueLine:
    """One line of a league's standings: the leaderboard's line and the player's rating."""

    standing: Standing
    rating: Rating


@dataclass(frozen=True, slots=True)
class HeldTransfer:
    """A transfer held back as possible chip dumping, with its two players."""

    flag: ChipFlag
    loser: User
    winner: User


class Leagues:
    """Starts and stops group leagues and reads what their messages show."""

    def __init__(
        self,
        store: Store,
        scores: Scores,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._scores = scores
        self._clock = clock

    async def get(self, chat_id: int) -> League | None:
        """The group's league, if it has one."""
        return await self._store.leagues.get(chat_id)

    async def start(self, chat_id: int, locale: str) -> League:
        """Starts the group's league with its texts in ``locale`` (a running one keeps its
        message and takes the new locale)."""
        return await self._store.leagues.start(chat_id, locale=locale, now=self._clock())

    async def stop(self, chat_id: int) -> League | None:
        """Ends the group's league; returns it as it was (None if there was none)."""
        return await self._store.leagues.stop(chat_id)

    async def set_message(self, chat_id: int, message_id: int | None) -> None:
        """Records the message that now shows the league's standings."""
        await self._store.leagues.set_message(chat_id, message_id)

    async def standings(self, chat_id: int) -> list[LeagueLine]:
        """The group's best :data:`STANDINGS_LIMIT` players by net points, with their
        long-nardy ratings."""
        standings = await self._scores.top(chat_id, limit=STANDINGS_LIMIT)
        return [
            LeagueLine(standing, await self._scores.rating(standing.user.id, RATED_VARIANT))
            for standing in standings
        ]

    async def flags(self, chat_id: int) -> list[HeldTransfer]:
        """The transfers held back in the group's games, newest first, with the players."""
        return [
            HeldTransfer(flag, await self._user(flag.loser_id), await self._user(flag.winner_id))
            for flag in await self._scores.flags(chat_id)
        ]

    async def _user(self, user_id: int) -> User:
        user = await self._store.users.get(user_id)
        # A flag names users of a finished game, so they are known; the id is a fallback only.
        return user or User(user_id, None, str(user_id), None)
