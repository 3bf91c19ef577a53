"""Ratings, one row per player and variant."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.model import Rating

if TYPE_CHECKING:
    from .database import Database, Row


class RatingRepository:
    """Players' ratings by variant; a player without a row has the starting rating."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def get(self, user_id: int, variant: str) -> Rating:
        """The user's rating in ``variant``."""
        row = await self._store.fetch_one(
            "SELECT * FROM ratings WHERE user_id = ? AND variant = ?", (user_id, variant)
        )
        return rating_from_row(row) if row else Rating()

    async def set(self, user_id: int, variant: str, rating: Rating) -> None:
        """Stores the user's rating in ``variant``."""
        await self._store.write(
            """INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating,
                   deviation = excluded.deviation, volatility = excluded.volatility,
                   games = excluded.games""",
            (user_id, variant, rating.rating, rating.deviation, rating.volatility, rating.games),
        )

    async def games(self, user_id: int) -> int:
        """The user's rated games, every variant's together."""
        row = await self._store.fetch_one(
            "SELECT COALESCE(SUM(games), 0) FROM ratings WHERE user_id = ?", (user_id,)
        )
        return int(row[0]) if row else 0


def rating_from_row(row: Row) -> Rating:
    """The rating of a ``ratings`` row (or a query with its columns)."""
    return Rating(row["rating"], row["deviation"], row["volatility"], row["games"])
