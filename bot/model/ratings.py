"""Players' ratings by variant (Glicko-2), with the repository that keeps them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (1500 is the start)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    games: int = 0


class RatingRepository(Protocol):
    """Players' ratings by variant; a player without a row has the starting rating."""

    async def get(self, user_id: int, variant: str) -> Rating:
        """The user's rating in ``variant``."""

    async def set(self, user_id: int, variant: str, rating: Rating) -> None:
        """Stores the user's rating in ``variant``."""

    async def games(self, user_id: int) -> int:
        """The user's rated games, every variant's together."""
