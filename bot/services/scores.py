"""Scores, ratings, chips and history for the bot's commands: reads, and the group leagues.

Nothing here changes a game; results are written by :class:`~bot.services.GameService` in the
transaction that ends a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.storage import ChipFlag, LedgerEntry, Rating, Standing, Store, Tally

from . import chips


class ScoreService:
    """Tallies, standings, ratings, balances and flags."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def head_to_head(self, user_id: int, other_id: int) -> Tally:
        """Finished games between two players, from ``user_id``'s side."""
        return await self._store.games.head_to_head(user_id, other_id)

    async def stats(self, user_id: int) -> Tally:
        """All finished games of ``user_id``."""
        return await self._store.games.stats(user_id)

    async def top(self, chat_id: int, limit: int = 10) -> list[Standing]:
        """The chat's leaderboard by net points."""
        return await self._store.games.top(chat_id, limit)

    async def rating(self, user_id: int, variant: str) -> Rating:
        """The user's rating in ``variant``."""
        return await self._store.ratings.get(user_id, variant)

    async def balance(self, user_id: int) -> int:
        """The user's chips (granted and topped up when due)."""
        return await chips.balance(self._store, user_id, self._clock())

    async def ledger(self, user_id: int, limit: int = 10) -> list[LedgerEntry]:
        """The user's latest balance changes, newest first."""
        return await self._store.chips.entries(user_id, limit)

    async def flags(self, chat_id: int) -> list[ChipFlag]:
        """Transfers held back as possible chip dumping in games of the chat."""
        return await self._store.chips.flags(chat_id)
