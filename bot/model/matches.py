"""Matches as stored (score, Crawford state, cube), with the repository that keeps them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.engine import (
    Match,
)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match as stored: its score and Crawford state, and whether its games use the cube."""

    id: int
    match: Match
    cube: bool
    created_at: float
    finished_at: float | None
    games: int = 0
    """How many of its games have started (the highest game number): a finished game whose
    number is lower has a next game already."""


class MatchRepository(Protocol):
    """Matches; their games point at them (``games.match_id``)."""

    async def create(self, *, length: int, cube: bool, now: float) -> MatchRecord:
        """Stores a new match at 0:0."""

    async def get(self, match_id: int) -> MatchRecord | None:
        """Returns the match, if it exists."""

    async def latest_between(self, user_id: int, other_id: int) -> tuple[MatchRecord, int] | None:
        """The latest match between two players, and the id of the one playing white."""

    async def save(self, match_id: int, match: Match, *, now: float) -> None:
        """Writes the match's score and Crawford state (and its end, once won)."""
