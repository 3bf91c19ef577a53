"""Reads for the statistics commands: a player's record and streaks, a chat's rating table and
the latest finished games. Nothing here writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.engine import Game, Outcome, Result, Roll, Side
from bot.model import ComputerRecord, FinishedGame, PlayerRolls, PlayerStats, RatedPlayer, User

from .games import COUNTED
from .matches import match_from_row
from .ratings import rating_from_row

if TYPE_CHECKING:
    from .database import Database, Row

_PLAYER: Final = f"""
    WITH mine AS (
        SELECT (winner = 'w') = (white_id = :me) AS won, outcome, points,
               ROW_NUMBER() OVER (ORDER BY finished_at, id) AS seq
        FROM games WHERE winner IS NOT NULL AND (white_id = :me OR black_id = :me)
                         AND white_id > 0 AND black_id > 0  -- games with people only
                         AND {COUNTED}),
    runs AS (  -- each unbroken run of wins or of losses: its length and its last game
        SELECT won, COUNT(*) AS length, MAX(seq) AS last
        FROM (SELECT won, seq, seq - ROW_NUMBER() OVER (PARTITION BY won ORDER BY seq) AS run
              FROM mine) AS numbered
        GROUP BY won, run)
    SELECT COUNT(*) AS games,
           COUNT(*) FILTER (WHERE won) AS wins,
           COALESCE(SUM(points) FILTER (WHERE won), 0) AS points_won,
           COALESCE(SUM(points) FILTER (WHERE NOT won), 0) AS points_lost,
           COUNT(*) FILTER (WHERE won AND outcome = 'mars') AS mars_given,
           COUNT(*) FILTER (WHERE NOT won AND outcome = 'mars') AS mars_taken,
           COUNT(*) FILTER (WHERE won AND outcome = 'koks') AS koks_given,
           COUNT(*) FILTER (WHERE NOT won AND outcome = 'koks') AS koks_taken,
           COUNT(*) FILTER (WHERE won AND outcome = 'home_mars') AS home_mars_given,
           COUNT(*) FILTER (WHERE NOT won AND outcome = 'home_mars') AS home_mars_taken,
           (SELECT COALESCE(MAX(length), 0) FROM runs WHERE won) AS best_streak,
           (SELECT CASE WHEN won THEN length ELSE -length END
            FROM runs ORDER BY last DESC LIMIT 1) AS streak
    FROM mine"""

_COMPUTER: Final = f"""
    SELECT -(white_id + black_id - :me) AS level, COUNT(*) AS games,
           COUNT(*) FILTER (WHERE (winner = 'w') = (white_id = :me)) AS wins,
           COALESCE(SUM(points) FILTER (WHERE (winner = 'w') = (white_id = :me)), 0) AS won,
           COALESCE(SUM(points) FILTER (WHERE (winner = 'w') != (white_id = :me)), 0) AS lost
    FROM games
    WHERE winner IS NOT NULL AND (white_id = :me OR black_id = :me)
          AND (white_id < 0 OR black_id < 0) AND {COUNTED}
    GROUP BY level ORDER BY level"""
"""The player's games with the computer, per level (the computer's id is minus its level)."""

_RECENT: Final = """
    SELECT g.id, g.chat_id, g.variant, g.rule_set, g.winner, g.outcome, g.points, g.game,
           g.finished_at, g.match_id, g.game_no,
           w.id AS w_id, w.username AS w_username, w.first_name AS w_first_name,
           w.language_code AS w_language_code,
           b.id AS b_id, b.username AS b_username, b.first_name AS b_first_name,
           b.language_code AS b_language_code,
           m.length, m.white_score, m.black_score, m.crawford, m.crawford_played
    FROM games AS g
    JOIN users AS w ON w.id = g.white_id
    JOIN users AS b ON b.id = g.black_id
    LEFT JOIN matches AS m ON m.id = g.match_id
    WHERE g.winner IS NOT NULL AND {where}
    ORDER BY g.finished_at DESC, g.id DESC LIMIT :limit"""


class StatsRepository:
    """Statistics over finished games, ratings and matches."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def player(self, user_id: int) -> PlayerStats:
        """The user's record over finished games with people, with the ratings they have, and
        apart, per level, over games with the computer (games from a chosen position, practice,
        count in neither)."""
        row = await self._store.fetch_one(_PLAYER, {"me": user_id})
        ratings = await self._store.fetch_all(
            "SELECT * FROM ratings WHERE user_id = ? ORDER BY variant", (user_id,)
        )
        rated = tuple((r["variant"], rating_from_row(r)) for r in ratings)
        levels = await self._store.fetch_all(_COMPUTER, {"me": user_id})
        computer = tuple(
            ComputerRecord(r["level"], r["games"], r["wins"], r["won"], r["lost"]) for r in levels
        )
        if row is None:
            return PlayerStats(ratings=rated, computer=computer)
        return PlayerStats(
            games=row["games"],
            wins=row["wins"],
            points_won=row["points_won"],
            points_lost=row["points_lost"],
            mars_given=row["mars_given"],
            mars_taken=row["mars_taken"],
            koks_given=row["koks_given"],
            koks_taken=row["koks_taken"],
            home_mars_given=row["home_mars_given"],
            home_mars_taken=row["home_mars_taken"],
            best_streak=row["best_streak"],
            streak=row["streak"] or 0,
            ratings=rated,
            computer=computer,
        )

    async def rolls(self, user_id: int) -> PlayerRolls:
        """The user's own rolls in their finished games with fair dice (the opponent's rolls
        and games from before fair dice are left out), oldest game first."""
        rows = await self._store.fetch_all(
            """SELECT white_id, dice_rolls FROM games
               WHERE winner IS NOT NULL AND (white_id = :me OR black_id = :me)
                     AND dice_seed IS NOT NULL
               ORDER BY finished_at, id""",
            {"me": user_id},
        )
        rolls: list[tuple[int, ...]] = []
        for row in rows:
            side = Side.WHITE if row["white_id"] == user_id else Side.BLACK
            for line in row["dice_rolls"].splitlines():
                roll = Roll.from_text(line)
                if roll.side is side:
                    rolls.append(roll.values)
        return PlayerRolls(len(rows), tuple(rolls))

    async def top_rated(self, chat_id: int, variant: str, limit: int = 10) -> list[RatedPlayer]:
        """The chat's players (everyone who finished a game there) by their rating in
        ``variant``, highest first; players without a rating in it are left out."""
        rows = await self._store.fetch_all(
            """SELECT users.*, ratings.rating, ratings.deviation, ratings.volatility,
                      ratings.games
               FROM ratings JOIN users ON users.id = ratings.user_id
               WHERE ratings.variant = :variant AND ratings.user_id IN (
                   SELECT white_id FROM games WHERE chat_id = :chat AND winner IS NOT NULL
                   UNION
                   SELECT black_id FROM games WHERE chat_id = :chat AND winner IS NOT NULL)
               ORDER BY ratings.rating DESC, ratings.deviation, ratings.games DESC
               LIMIT :limit""",
            {"variant": variant, "chat": chat_id, "limit": limit},
        )
        return [RatedPlayer(_user(row), rating_from_row(row)) for row in rows]

    async def recent(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[FinishedGame]:
        """The latest finished games, newest first: those played in ``chat_id``, or those of
        ``user_id`` anywhere (exactly one of the two is given)."""
        if (chat_id is None) == (user_id is None):
            raise ValueError("give either chat_id or user_id")
        where = "g.chat_id = :chat"
        if user_id is not None:
            where = "(g.white_id = :me OR g.black_id = :me)"
        rows = await self._store.fetch_all(
            _RECENT.format(where=where), {"chat": chat_id, "me": user_id, "limit": limit}
        )
        return [_finished(row) for row in rows]


def _user(row: Row, prefix: str = "") -> User:
    return User(
        row[f"{prefix}id"],
        row[f"{prefix}username"],
        row[f"{prefix}first_name"],
        row[f"{prefix}language_code"],
    )


def _finished(row: Row) -> FinishedGame:
    match = None
    if row["match_id"] is not None and row["length"] is not None:
        match = match_from_row(row)
    return FinishedGame(
        id=row["id"],
        chat_id=row["chat_id"],
        white=_user(row, "w_"),
        black=_user(row, "b_"),
        variant=row["variant"],
        rule_set=row["rule_set"],
        result=Result(Side(row["winner"]), Outcome(row["outcome"]), row["points"]),
        cube=Game.from_text(row["game"]).cube_value,
        finished_at=row["finished_at"] or 0.0,
        match_id=row["match_id"],
        game_no=row["game_no"],
        match=match,
    )
