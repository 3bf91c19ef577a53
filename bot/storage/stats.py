"""Reads for the statistics commands: a player's record and streaks, a chat's rating table and
the latest finished games. Nothing here writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.engine import Game, Outcome, Result, Side
from bot.model import ComputerRecord, FinishedGame, PlayerRolls, PlayerStats, RatedPlayer, User

from .matches import match_from_row
from .ratings import rating_from_row

if TYPE_CHECKING:
    from .database import Database, Row

_RECENT: Final = """
    SELECT g.id, g.chat_id, g.variant, g.rule_set, g.winner, g.outcome, g.points, g.game,
           g.finished_at, g.match_id, g.game_no,
           w.id AS w_id, w.username AS w_username, w.first_name AS w_first_name,
           w.language_code AS w_language_code,
           b.id AS b_id, b.username AS b_username, b.first_name AS b_first_name,
           b.language_code AS b_language_code,
           m.length, m.white_score, m.black_score, m.crawford, m.crawford_played
    FROM ({latest}) AS g
    JOIN users AS w ON w.id = g.white_id
    JOIN users AS b ON b.id = g.black_id
    LEFT JOIN matches AS m ON m.id = g.match_id
    ORDER BY g.finished_at DESC, g.id DESC"""
"""The latest finished games (``latest``: a query of at most ``:limit`` of them) with their
players and matches."""

_LATEST_IN_CHAT: Final = """
    SELECT * FROM games WHERE chat_id = :chat AND winner IS NOT NULL
    ORDER BY finished_at DESC, id DESC LIMIT :limit"""
_LATEST_OF_PLAYER: Final = """
    SELECT * FROM (SELECT * FROM games WHERE white_id = :me AND winner IS NOT NULL
                   ORDER BY finished_at DESC, id DESC LIMIT :limit) AS as_white
    UNION ALL
    SELECT * FROM (SELECT * FROM games WHERE black_id = :me AND winner IS NOT NULL
                   ORDER BY finished_at DESC, id DESC LIMIT :limit) AS as_black
    ORDER BY finished_at DESC, id DESC LIMIT :limit"""
"""A player's latest finished games: the latest as white and as black, each read in order
from its index (``games_white_finished``, ``games_black_finished``), merged."""


_RATED_JOINED: Final = """
    SELECT users.*, ratings.rating, ratings.deviation, ratings.volatility, ratings.games
    FROM standings
    JOIN ratings ON ratings.user_id = standings.user_id AND ratings.variant = :variant
    JOIN users ON users.id = standings.user_id
    WHERE standings.chat_id = :chat AND standings.chat_instance = ''
    ORDER BY ratings.rating DESC, ratings.deviation, ratings.games DESC LIMIT :limit"""
_RATED_WALKED: Final = """
    SELECT users.*, ratings.rating, ratings.deviation, ratings.volatility, ratings.games
    FROM ratings JOIN users ON users.id = ratings.user_id
    WHERE ratings.variant = :variant AND EXISTS (
        SELECT 1 FROM standings WHERE standings.chat_id = :chat
          AND standings.chat_instance = '' AND standings.user_id = ratings.user_id)
    ORDER BY ratings.rating DESC, ratings.deviation, ratings.games DESC LIMIT :limit"""
_WALK_FROM: Final = 1000
"""Players of a group from which its rating table walks the ratings (``ratings_rank``)."""


class StatsRepository:
    """Statistics over finished games, ratings and matches."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def player(self, user_id: int) -> PlayerStats:
        """The user's record over finished games with people, with the ratings they have, and
        apart, per level, over games with the computer (games from a chosen position, practice,
        count in neither): their running totals (:mod:`.totals`), a few rows."""
        row = await self._store.fetch_one(
            "SELECT * FROM player_totals WHERE user_id = ?", (user_id,)
        )
        ratings = await self._store.fetch_all(
            "SELECT * FROM ratings WHERE user_id = ? ORDER BY variant", (user_id,)
        )
        rated = tuple((r["variant"], rating_from_row(r)) for r in ratings)
        levels = await self._store.fetch_all(  # the computer's id is minus its level
            """SELECT * FROM pair_totals WHERE user_id = ? AND other_id < 0
               ORDER BY other_id DESC""",
            (user_id,),
        )
        computer = tuple(
            ComputerRecord(-r["other_id"], r["games"], r["wins"], r["won"], r["lost"])
            for r in levels
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
            streak=row["streak"],
            ratings=rated,
            computer=computer,
        )

    async def rolls(self, user_id: int) -> PlayerRolls:
        """The user's own rolls in their finished games with fair dice (the opponent's rolls
        and games from before fair dice are left out), counted: their running totals."""
        row = await self._store.fetch_one("SELECT * FROM dice_totals WHERE user_id = ?", (user_id,))
        if row is None:
            return PlayerRolls()
        faces = tuple(row[name] for name in ("ones", "twos", "threes", "fours", "fives", "sixes"))
        return PlayerRolls(row["games"], faces, row["rolls"], row["doubles"], row["pips"])

    async def top_rated(self, chat_id: int, variant: str, limit: int = 10) -> list[RatedPlayer]:
        """The chat's players (everyone in its standings: a game that counts finished there,
        or in its tournaments) by their rating in ``variant``, highest first; players without
        a rating in it are left out. A group of few players is read whole; in a larger one
        the ratings are walked down from the top until ``limit`` of its players are found
        (about ``limit`` times the share of all rated players it has): either way far fewer
        rows than the players of a large group or all the rated."""
        row = await self._store.fetch_one(
            "SELECT COUNT(*) FROM standings WHERE chat_id = ? AND chat_instance = ''", (chat_id,)
        )
        players = int(row[0]) if row else 0
        rows = await self._store.fetch_all(
            _RATED_WALKED if players >= _WALK_FROM else _RATED_JOINED,
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
        latest = _LATEST_IN_CHAT if user_id is None else _LATEST_OF_PLAYER
        params = {"limit": limit, **({"chat": chat_id} if user_id is None else {"me": user_id})}
        rows = await self._store.fetch_all(_RECENT.format(latest=latest), params)
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
