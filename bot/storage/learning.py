"""Learning to play: the lessons' progress, the learners (offers of ``/learn``, practice
streaks), the practice positions and their answers, the coach's messages of training games
(see :mod:`bot.model.learning`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.engine import Game
from bot.model import (
    CoachMessage,
    Learner,
    LessonProgress,
    PracticeAnswer,
    PracticePosition,
    RankedTurn,
)

from .daily import parse_ranking, ranking_text

if TYPE_CHECKING:
    from .database import Database


def _practice(row: Any) -> PracticePosition:
    return PracticePosition(
        row["id"],
        row["variant"],
        row["position_key"],
        Game.from_text(row["game"]),
        parse_ranking(row["ranking"]),
    )


class LearningRepository:
    """The rows of learning to play (see the module docstring)."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def progress(self, user_id: int) -> list[LessonProgress]:
        rows = await self._store.fetch_all(
            "SELECT * FROM lesson_progress WHERE user_id = ? ORDER BY lesson", (user_id,)
        )
        return [LessonProgress(row["lesson"], row["done"], row["finished"] != 0) for row in rows]

    async def set_progress(self, user_id: int, progress: LessonProgress, *, now: float) -> None:
        await self._store.write(
            """INSERT INTO lesson_progress (user_id, lesson, done, finished, updated_at)
               VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, lesson) DO UPDATE SET
                   done = excluded.done,
                   finished = CASE WHEN lesson_progress.finished <> 0 THEN 1
                                   ELSE excluded.finished END,
                   updated_at = excluded.updated_at""",
            (user_id, progress.lesson, progress.done, int(progress.finished), now),
        )

    async def learner(self, user_id: int) -> Learner | None:
        row = await self._store.fetch_one("SELECT * FROM learners WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        return Learner(
            row["user_id"],
            offered_at_start=row["offered_at_start"] != 0,
            offered_after_loss=row["offered_after_loss"] != 0,
            declined=row["declined"] != 0,
            streak=row["streak"],
            best_streak=row["best_streak"],
        )

    async def _ensure(self, user_id: int, now: float) -> None:
        await self._store.write(
            """INSERT INTO learners (user_id, updated_at) VALUES (?, ?)
               ON CONFLICT (user_id) DO NOTHING""",
            (user_id, now),
        )

    async def claim_offer(self, user_id: int, *, after_loss: bool, now: float) -> bool:
        column = "offered_after_loss" if after_loss else "offered_at_start"
        async with self._store.transaction():
            await self._ensure(user_id, now)
            changed = await self._store.write(
                f"""UPDATE learners SET {column} = 1, updated_at = ?
                    WHERE user_id = ? AND {column} = 0 AND declined = 0""",
                (now, user_id),
            )
        return changed > 0

    async def decline(self, user_id: int, *, now: float) -> None:
        async with self._store.transaction():
            await self._ensure(user_id, now)
            await self._store.write(
                "UPDATE learners SET declined = 1, updated_at = ? WHERE user_id = ?",
                (now, user_id),
            )

    async def set_streak(self, user_id: int, streak: int, best: int, *, now: float) -> None:
        async with self._store.transaction():
            await self._ensure(user_id, now)
            await self._store.write(
                """UPDATE learners SET streak = ?, best_streak = ?, updated_at = ?
                   WHERE user_id = ?""",
                (streak, best, now, user_id),
            )

    async def finished_games(self, user_id: int) -> int:
        row = await self._store.fetch_one(
            """SELECT COUNT(*) AS games FROM games
               WHERE (white_id = ? OR black_id = ?) AND winner IS NOT NULL""",
            (user_id, user_id),
        )
        return int(row["games"]) if row is not None else 0

    async def add_practice(
        self, *, variant: str, key: str, game: Game, ranking: tuple[RankedTurn, ...], now: float
    ) -> PracticePosition | None:
        changed = await self._store.write(
            """INSERT INTO practice_positions (variant, position_key, game, ranking, created_at)
               VALUES (?, ?, ?, ?, ?) ON CONFLICT (position_key) DO NOTHING""",
            (variant, key, game.to_text(), ranking_text(ranking), now),
        )
        if not changed:
            return None
        row = await self._store.fetch_one(
            "SELECT * FROM practice_positions WHERE position_key = ?", (key,)
        )
        return _practice(row) if row else None

    async def import_daily(self, variant: str, before_day: str, *, now: float) -> int:
        """Keeps ``variant``'s daily positions of the days before ``before_day`` as practice
        positions (those not kept yet); returns how many."""
        return await self._store.write(
            """INSERT INTO practice_positions (variant, position_key, game, ranking, created_at)
               SELECT variant, position_key, game, ranking, ? FROM daily_positions
               WHERE variant = ? AND day < ?
               ORDER BY day
               ON CONFLICT (position_key) DO NOTHING""",
            (now, variant, before_day),
        )

    async def practice(self, position_id: int) -> PracticePosition | None:
        row = await self._store.fetch_one(
            "SELECT * FROM practice_positions WHERE id = ?", (position_id,)
        )
        return _practice(row) if row else None

    async def practice_keys(self, variant: str) -> frozenset[str]:
        rows = await self._store.fetch_all(
            "SELECT position_key FROM practice_positions WHERE variant = ?", (variant,)
        )
        return frozenset(row["position_key"] for row in rows)

    async def next_practice(self, user_id: int, variant: str) -> PracticePosition | None:
        row = await self._store.fetch_one(
            """SELECT p.*, (COALESCE(t.right_answers, 0) + 1.0) / (COALESCE(t.answers, 0) + 2.0)
                          AS ease
               FROM practice_positions AS p
               LEFT JOIN (SELECT position_id, COUNT(*) AS answers,
                                 SUM(CASE WHEN correct <> 0 THEN 1 ELSE 0 END) AS right_answers
                          FROM practice_answers GROUP BY position_id) AS t
                      ON t.position_id = p.id
               WHERE p.variant = ? AND NOT EXISTS (
                   SELECT 1 FROM practice_answers AS a
                   WHERE a.position_id = p.id AND a.user_id = ?)
               ORDER BY ease DESC, p.id
               LIMIT 1""",
            (variant, user_id),
        )
        return _practice(row) if row else None

    async def add_practice_answer(self, answer: PracticeAnswer) -> bool:
        changed = await self._store.write(
            """INSERT INTO practice_answers
                   (position_id, user_id, turn, loss, correct, answered_at)
               VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (position_id, user_id) DO NOTHING""",
            (
                answer.position_id,
                answer.user_id,
                answer.turn,
                answer.loss,
                int(answer.correct),
                answer.answered_at,
            ),
        )
        return changed > 0

    async def practice_answer(self, position_id: int, user_id: int) -> PracticeAnswer | None:
        row = await self._store.fetch_one(
            "SELECT * FROM practice_answers WHERE position_id = ? AND user_id = ?",
            (position_id, user_id),
        )
        if row is None:
            return None
        return PracticeAnswer(
            row["position_id"],
            row["user_id"],
            row["turn"],
            row["loss"],
            row["correct"] != 0,
            row["answered_at"],
        )

    async def practice_tally(self, position_id: int) -> tuple[int, int]:
        row = await self._store.fetch_one(
            """SELECT COUNT(*) AS answers,
                      COALESCE(SUM(CASE WHEN correct <> 0 THEN 1 ELSE 0 END), 0) AS right_answers
               FROM practice_answers WHERE position_id = ?""",
            (position_id,),
        )
        assert row is not None
        return int(row["answers"]), int(row["right_answers"])

    async def coach_message(self, game_id: int) -> CoachMessage | None:
        row = await self._store.fetch_one(
            "SELECT * FROM coach_messages WHERE game_id = ?", (game_id,)
        )
        if row is None:
            return None
        return CoachMessage(row["game_id"], row["chat_id"], row["message_id"], row["judged"])

    async def set_coach_message(self, message: CoachMessage) -> None:
        await self._store.write(
            """INSERT INTO coach_messages (game_id, chat_id, message_id, judged)
               VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET
                   chat_id = excluded.chat_id, message_id = excluded.message_id,
                   judged = excluded.judged""",
            (message.game_id, message.chat_id, message.message_id, message.judged),
        )
