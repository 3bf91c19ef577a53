"""The automatic analysis's queue (``analysis_queue``), its figures (``game_luck``) and the PR
flags (``pr_flags``).

A claim is one ``UPDATE … RETURNING`` of the oldest free row that checks again, on the row it
updates, that the row is still free: in SQLite the writers take turns anyway; in PostgreSQL
the inner ``SELECT`` skips rows another transaction has locked (``FOR UPDATE SKIP LOCKED``),
and a row claimed between the ``SELECT`` and the ``UPDATE`` fails the outer check, so two
workers never claim one row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine import Side
from bot.model import AnalysisJob, PlayerLuck, PrFlag

if TYPE_CHECKING:
    from .database import Database, Row

_FREE = "(token IS NULL OR claimed_at < ?)"


class LuckRepository:
    """The queue, the figures of analysed games, the flags."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def enqueue(self, game_id: int, now: float, *, cap: int) -> int:
        """Queues the game once; beyond ``cap`` waiting, the oldest unclaimed are dropped."""
        async with self._store.transaction():
            await self._store.write(
                """INSERT INTO analysis_queue (game_id, queued_at) VALUES (?, ?)
                   ON CONFLICT (game_id) DO NOTHING""",
                (game_id, now),
            )
            row = await self._store.fetch_one("SELECT COUNT(*) FROM analysis_queue")
            over = int(row[0]) - cap if row else 0
            if over <= 0:
                return 0
            return await self._store.write(
                """DELETE FROM analysis_queue WHERE game_id IN (
                       SELECT game_id FROM analysis_queue WHERE token IS NULL
                       ORDER BY queued_at, game_id LIMIT ?)""",
                (over,),
            )

    async def claim(self, token: str, now: float, *, timeout: float) -> AnalysisJob | None:
        """The oldest free job, claimed for ``token`` (see the module docstring)."""
        skip = " FOR UPDATE SKIP LOCKED" if self._store.dialect == "postgresql" else ""
        stale = now - timeout
        async with self._store.transaction():
            row = await self._store.fetch_one(
                f"""UPDATE analysis_queue
                       SET token = ?, claimed_at = ?, attempts = attempts + 1
                    WHERE game_id = (SELECT game_id FROM analysis_queue WHERE {_FREE}
                                     ORDER BY queued_at, game_id LIMIT 1{skip})
                      AND {_FREE}
                    RETURNING game_id, token, attempts""",
                (token, now, stale, stale),
            )
        return AnalysisJob(int(row[0]), str(row[1]), int(row[2])) if row else None

    async def finish(self, job: AnalysisJob, figures: Sequence[PlayerLuck]) -> bool:
        """Writes the figures and removes the job, if the job is still ``job``'s claim."""
        async with self._store.transaction():
            if not await self._remove(job):
                return False
            await self._store.write_many(
                """INSERT INTO game_luck (game_id, side, user_id, variant, luck, pr, error_rate,
                       decisions, rolls, finished_at, result, luck_points)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (game_id, side) DO NOTHING""",
                [
                    (
                        f.game_id,
                        f.side.value,
                        f.user_id,
                        f.variant,
                        f.luck,
                        f.pr,
                        f.error_rate,
                        f.decisions,
                        f.rolls,
                        f.finished_at,
                        f.result,
                        f.luck_points,
                    )
                    for f in figures
                ],
            )
        return True

    async def drop(self, job: AnalysisJob) -> bool:
        """Removes the job if ``job`` still holds it."""
        return await self._remove(job)

    async def _remove(self, job: AnalysisJob) -> bool:
        changed = await self._store.write(
            "DELETE FROM analysis_queue WHERE game_id = ? AND token = ?", (job.game_id, job.token)
        )
        return changed == 1

    async def backlog(self) -> int:
        """Jobs in the queue."""
        row = await self._store.fetch_one("SELECT COUNT(*) FROM analysis_queue")
        return int(row[0]) if row else 0

    async def of_game(self, game_id: int) -> list[PlayerLuck]:
        """The game's figures, white's first."""
        rows = await self._store.fetch_all(
            "SELECT * FROM game_luck WHERE game_id = ? ORDER BY side DESC", (game_id,)
        )
        return [_figures(row) for row in rows]

    async def recent(self, user_id: int, *, limit: int) -> list[PlayerLuck]:
        """The user's last ``limit`` analysed games' figures, oldest first."""
        rows = await self._store.fetch_all(
            """SELECT * FROM game_luck WHERE user_id = ?
               ORDER BY finished_at DESC, game_id DESC LIMIT ?""",
            (user_id, limit),
        )
        return [_figures(row) for row in reversed(rows)]

    async def of_match(self, match_id: int) -> list[PlayerLuck]:
        """The match's analysed games' figures, in the order they were played."""
        rows = await self._store.fetch_all(
            """SELECT game_luck.* FROM game_luck JOIN games ON games.id = game_luck.game_id
               WHERE games.match_id = ? ORDER BY games.game_no, game_luck.side DESC""",
            (match_id,),
        )
        return [_figures(row) for row in rows]

    async def flag(self, flag: PrFlag) -> None:
        """Records or renews the flag."""
        await self._store.write(
            """INSERT INTO pr_flags (user_id, variant, games, pr, expected, rating, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (user_id, variant) DO UPDATE SET games = excluded.games,
                   pr = excluded.pr, expected = excluded.expected, rating = excluded.rating,
                   created_at = excluded.created_at""",
            (
                flag.user_id,
                flag.variant,
                flag.games,
                flag.pr,
                flag.expected,
                flag.rating,
                flag.created_at,
            ),
        )

    async def flags(self, user_ids: Sequence[int]) -> list[PrFlag]:
        """These accounts' flags, newest first."""
        if not user_ids:
            return []
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._store.fetch_all(
            f"SELECT * FROM pr_flags WHERE user_id IN ({marks}) ORDER BY created_at DESC",
            tuple(user_ids),
        )
        return [
            PrFlag(
                row["user_id"],
                row["variant"],
                row["games"],
                row["pr"],
                row["expected"],
                row["rating"],
                row["created_at"],
            )
            for row in rows
        ]


def _figures(row: Row) -> PlayerLuck:
    return PlayerLuck(
        row["game_id"],
        row["user_id"],
        Side(row["side"]),
        row["variant"],
        row["luck"],
        row["pr"],
        row["error_rate"],
        row["decisions"],
        row["rolls"],
        row["finished_at"],
        row["result"],
        row["luck_points"],
    )
