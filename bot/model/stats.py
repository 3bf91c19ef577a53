"""Statistics over finished games: a player's record and rolls, a chat's rating table, lists
of finished games, with the repository that reads them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from bot.engine import (
    Match,
    Result,
)

from .ratings import Rating
from .users import User


@dataclass(frozen=True, slots=True)
class PlayerRolls:
    """The dice one player rolled in their finished games with fair dice, counted: how many
    games, how many of their dice showed 1, 2 … 6 (an opening roll's single die too), and over
    their rolls of two dice, how many there were, how many doubles and their pips (a double
    four times its value)."""

    games: int = 0
    faces: tuple[int, ...] = (0,) * 6
    rolls: int = 0
    doubles: int = 0
    pips: int = 0

    @classmethod
    def counted(cls, rolls: Iterable[tuple[int, ...]], games: int = 0) -> PlayerRolls:
        """The counts of ``rolls`` (each one's dice) over ``games`` games."""
        faces = [0] * 6
        two, doubles, pips = 0, 0, 0
        for values in rolls:
            for value in values:
                faces[value - 1] += 1
            if len(values) == 2:
                two += 1
                if values[0] == values[1]:
                    doubles += 1
                    pips += 4 * values[0]
                else:
                    pips += values[0] + values[1]
        return cls(games, tuple(faces), two, doubles, pips)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's finished games: results, mars and koks both ways, streaks and ratings.

    Mars, koks and home mars are counted apart, each as it was scored: ``given`` in games the
    player won, ``taken`` in games lost. The streaks follow the games in the order they ended.
    """

    games: int = 0
    wins: int = 0
    points_won: int = 0
    points_lost: int = 0
    mars_given: int = 0
    mars_taken: int = 0
    koks_given: int = 0
    koks_taken: int = 0
    home_mars_given: int = 0
    home_mars_taken: int = 0
    best_streak: int = 0
    """The most games won in a row."""
    streak: int = 0
    """The latest run: games won in a row (positive) or lost in a row (negative); 0 before any."""
    ratings: tuple[tuple[str, Rating], ...] = ()
    """(variant, rating) for each variant the player is rated in, by variant name."""
    computer: tuple[ComputerRecord, ...] = ()
    """Games with the computer, per level played (counted apart from everything above)."""


@dataclass(frozen=True, slots=True)
class ComputerRecord:
    """A player's finished games with the computer at one level."""

    level: int
    games: int
    wins: int
    points_won: int
    points_lost: int


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """One line of a chat's rating table."""

    user: User
    rating: Rating


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as a list of games shows it; ``match`` is its match's score now."""

    id: int
    chat_id: int
    white: User
    black: User
    variant: str
    rule_set: str
    result: Result
    cube: int
    """The cube's value at the end (1 without a cube); ``result.points`` include it."""
    finished_at: float
    match_id: int | None = None
    game_no: int = 1
    match: Match | None = None


class StatsRepository(Protocol):
    """Statistics over finished games, ratings and matches."""

    async def player(self, user_id: int) -> PlayerStats:
        """The user's record over finished games with people, with the ratings they have, and apart,
        per level, over games with the computer (games from a chosen position, practice, count in
        neither)."""

    async def rolls(self, user_id: int) -> PlayerRolls:
        """The user's own rolls in their finished games with fair dice (the opponent's rolls and
        games from before fair dice are left out), oldest game first."""

    async def top_rated(self, chat_id: int, variant: str, limit: int = 10) -> list[RatedPlayer]:
        """The chat's players (everyone who finished a game there) by their rating in ``variant``,
        highest first; players without a rating in it are left out."""

    async def recent(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[FinishedGame]:
        """The latest finished games, newest first: those played in ``chat_id``, or those of
        ``user_id`` anywhere (exactly one of the two is given)."""
