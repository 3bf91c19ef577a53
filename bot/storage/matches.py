"""Matches: the score to N points and the Crawford state, one row each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine import Match
from bot.model import MatchRecord

if TYPE_CHECKING:
    from .database import Database, Row


class MatchRepository:
    """Matches; their games point at them (``games.match_id``)."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def create(self, *, length: int, cube: bool, now: float) -> MatchRecord:
        """Stores a new match at 0:0."""
        match_id = await self._store.insert(
            "INSERT INTO matches (length, cube, created_at) VALUES (?, ?, ?) RETURNING id",
            (length, int(cube), now),
        )
        return MatchRecord(match_id, Match(length), cube, now, None)

    async def get(self, match_id: int) -> MatchRecord | None:
        """Returns the match, if it exists."""
        row = await self._store.fetch_one(
            f"SELECT matches.*, {_GAMES} FROM matches WHERE id = ?", (match_id,)
        )
        return _match(row) if row else None

    async def latest_between(self, user_id: int, other_id: int) -> tuple[MatchRecord, int] | None:
        """The latest match between two players, and the id of the one playing white."""
        row = await self._store.fetch_one(  # the latest each way, from games_pair_match
            f"""SELECT matches.*, {_GAMES}, first.white_id FROM (
                   SELECT * FROM (SELECT match_id, white_id FROM games
                                  WHERE white_id = :me AND black_id = :other
                                    AND match_id IS NOT NULL AND game_no = 1
                                  ORDER BY match_id DESC LIMIT 1) AS as_white
                   UNION ALL
                   SELECT * FROM (SELECT match_id, white_id FROM games
                                  WHERE white_id = :other AND black_id = :me
                                    AND match_id IS NOT NULL AND game_no = 1
                                  ORDER BY match_id DESC LIMIT 1) AS as_black) AS first
               JOIN matches ON matches.id = first.match_id
               ORDER BY matches.id DESC LIMIT 1""",
            {"me": user_id, "other": other_id},
        )
        return (_match(row), row["white_id"]) if row else None

    async def save(self, match_id: int, match: Match, *, now: float) -> None:
        """Writes the match's score and Crawford state (and its end, once won)."""
        await self._store.write(
            """UPDATE matches SET white_score = ?, black_score = ?, crawford = ?,
                   crawford_played = ?, winner = ?,
                   finished_at = ?
               WHERE id = ?""",
            (
                match.white,
                match.black,
                int(match.crawford),
                int(match.crawford_played),
                match.winner.value if match.winner else None,
                now if match.winner else None,
                match_id,
            ),
        )


def match_from_row(row: Row) -> Match:
    """The score and Crawford state of a ``matches`` row (or a query with its columns)."""
    return Match(
        row["length"],
        row["white_score"],
        row["black_score"],
        bool(row["crawford"]),
        bool(row["crawford_played"]),
    )


_GAMES = (
    "(SELECT COALESCE(MAX(started.game_no), 0) FROM games AS started"
    " WHERE started.match_id = matches.id) AS games"
)
"""The column of how many of a match's games have started (:attr:`MatchRecord.games`)."""


def _match(row: Row) -> MatchRecord:
    return MatchRecord(
        row["id"],
        match_from_row(row),
        bool(row["cube"]),
        row["created_at"],
        row["finished_at"],
        row["games"],
    )
