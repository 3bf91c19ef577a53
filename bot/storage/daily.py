"""The daily position's tables: positions by variant and day, answers, streaks, and the groups
that have it posted each morning with their posts (see :mod:`bot.model.daily`)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from bot.engine import Game
from bot.model import (
    DailyAnswer,
    DailyGroup,
    DailyPosition,
    DailyPost,
    DailyTally,
    RankedTurn,
    Streak,
)

if TYPE_CHECKING:
    from .database import Database


def ranking_text(ranking: tuple[RankedTurn, ...]) -> str:
    """The ranking column: one line per turn, ``equity<TAB>position reached<TAB>turn``.

    >>> ranking_text((RankedTurn("24/18 18/13", "long b / 24:15 / 24:14 13:1", 0.25),))
    '0.25\\tlong b / 24:15 / 24:14 13:1\\t24/18 18/13'
    """
    return "\n".join(f"{r.equity!r}\t{r.reaches}\t{r.turn}" for r in ranking)


def parse_ranking(text: str) -> tuple[RankedTurn, ...]:
    """Reads what :func:`ranking_text` writes."""
    found = []
    for line in text.splitlines():
        equity, reaches, turn = line.split("\t")
        found.append(RankedTurn(turn, reaches, float(equity)))
    return tuple(found)


def _day_before(day: str) -> str:
    """``YYYY-MM-DD`` of the day before ``day``."""
    return (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()


def _position(row: Any) -> DailyPosition:
    return DailyPosition(
        row["id"],
        row["variant"],
        row["day"],
        row["position_key"],
        Game.from_text(row["game"]),
        parse_ranking(row["ranking"]),
        row["source_game_id"],
    )


def _streak(row: Any) -> Streak:
    return Streak(
        row["user_id"], row["streak"], row["best_streak"], row["last_day"], row["best_before"]
    )


def _group(row: Any) -> DailyGroup:
    return DailyGroup(
        row["chat_id"], row["time_zone"], row["variant"], row["locale"], row["next_post"]
    )


class DailyRepository:
    """The daily position's rows (see the module docstring)."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def position(self, variant: str, day: str) -> DailyPosition | None:
        """``variant``'s position of ``day``, if one was chosen."""
        row = await self._store.fetch_one(
            "SELECT * FROM daily_positions WHERE variant = ? AND day = ?", (variant, day)
        )
        return _position(row) if row else None

    async def position_by_id(self, position_id: int) -> DailyPosition | None:
        row = await self._store.fetch_one(
            "SELECT * FROM daily_positions WHERE id = ?", (position_id,)
        )
        return _position(row) if row else None

    async def add_position(
        self,
        *,
        variant: str,
        day: str,
        key: str,
        game: Game,
        ranking: tuple[RankedTurn, ...],
        source_game_id: int | None,
        now: float,
    ) -> DailyPosition:
        """Records the day's position of ``variant`` unless one is recorded already (another
        worker chose first); returns the one recorded."""
        await self._store.write(
            """INSERT INTO daily_positions
                   (variant, day, position_key, game, ranking, source_game_id, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (variant, day) DO NOTHING""",
            (variant, day, key, game.to_text(), ranking_text(ranking), source_game_id, now),
            durable=True,
        )
        found = await self.position(variant, day)
        assert found is not None
        return found

    async def keys_since(self, variant: str, day: str) -> frozenset[str]:
        rows = await self._store.fetch_all(
            "SELECT position_key FROM daily_positions WHERE variant = ? AND day >= ?",
            (variant, day),
        )
        return frozenset(row["position_key"] for row in rows)

    async def finished_games(self, variant: str, limit: int) -> list[int]:
        rows = await self._store.fetch_all(
            """SELECT id FROM games WHERE variant = ? AND winner IS NOT NULL
               ORDER BY id DESC LIMIT ?""",
            (variant, limit),
        )
        return [row["id"] for row in rows]

    async def add_answer(self, answer: DailyAnswer) -> bool:
        changed = await self._store.write(
            """INSERT INTO daily_answers
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

    async def set_streak(self, streak: Streak) -> None:
        await self._store.write(
            """INSERT INTO daily_streaks (user_id, streak, best_streak, last_day, best_before)
               VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET
                   streak = excluded.streak, best_streak = excluded.best_streak,
                   last_day = excluded.last_day, best_before = excluded.best_before""",
            (streak.user_id, streak.current, streak.best, streak.last_day, streak.best_before),
        )

    async def answer_of(self, position_id: int, user_id: int) -> DailyAnswer | None:
        row = await self._store.fetch_one(
            "SELECT * FROM daily_answers WHERE position_id = ? AND user_id = ?",
            (position_id, user_id),
        )
        if row is None:
            return None
        return DailyAnswer(
            row["position_id"],
            row["user_id"],
            row["turn"],
            row["loss"],
            row["correct"] != 0,
            row["answered_at"],
        )

    async def tally(self, position_id: int) -> DailyTally:
        row = await self._store.fetch_one(
            """SELECT COUNT(*) AS answers,
                      COALESCE(SUM(CASE WHEN correct <> 0 THEN 1 ELSE 0 END), 0) AS correct
               FROM daily_answers WHERE position_id = ?""",
            (position_id,),
        )
        assert row is not None
        return DailyTally(int(row["answers"]), int(row["correct"]))

    async def streak(self, user_id: int) -> Streak | None:
        row = await self._store.fetch_one(
            "SELECT * FROM daily_streaks WHERE user_id = ?", (user_id,)
        )
        return _streak(row) if row else None

    async def top_streaks(self, today: str, limit: int, *, rated_games: int) -> list[Streak]:
        rows = await self._store.fetch_all(
            """SELECT * FROM (
                   SELECT user_id, last_day, best_before,
                          CASE WHEN last_day >= :today THEN streak - 1 ELSE streak END
                              AS streak,
                          CASE WHEN last_day >= :today THEN best_before ELSE best_streak END
                              AS best_streak
                   FROM daily_streaks s
                   WHERE last_day >= :yesterday
                     AND (SELECT COALESCE(SUM(r.games), 0) FROM ratings r
                          WHERE r.user_id = s.user_id) >= :rated) AS shown
               WHERE streak > 0
               ORDER BY streak DESC, best_streak DESC, user_id LIMIT :limit""",
            {
                "today": today,
                "yesterday": _day_before(today),
                "rated": rated_games,
                "limit": limit,
            },
        )
        return [_streak(row) for row in rows]

    async def to_reveal(self, today: str) -> list[int]:
        rows = await self._store.fetch_all(
            """SELECT id FROM daily_positions p WHERE revealed = 0 AND day < ?
                   AND EXISTS (SELECT 1 FROM daily_posts d WHERE d.position_id = p.id)
               ORDER BY id""",
            (today,),
        )
        return [row["id"] for row in rows]

    async def mark_revealed(self, position_id: int) -> None:
        await self._store.write(
            "UPDATE daily_positions SET revealed = 1 WHERE id = ?", (position_id,)
        )

    async def group(self, chat_id: int) -> DailyGroup | None:
        row = await self._store.fetch_one(
            "SELECT * FROM daily_groups WHERE chat_id = ?", (chat_id,)
        )
        return _group(row) if row else None

    async def set_group(self, group: DailyGroup, *, now: float) -> None:
        await self._store.write(
            """INSERT INTO daily_groups
                   (chat_id, time_zone, variant, locale, next_post, updated_at)
               VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET
                   time_zone = excluded.time_zone, variant = excluded.variant,
                   locale = excluded.locale, next_post = excluded.next_post,
                   updated_at = excluded.updated_at""",
            (group.chat_id, group.time_zone, group.variant, group.locale, group.next_post, now),
        )

    async def remove_group(self, chat_id: int) -> bool:
        return await self._store.write("DELETE FROM daily_groups WHERE chat_id = ?", (chat_id,)) > 0

    async def due_groups(self, now: float) -> list[DailyGroup]:
        rows = await self._store.fetch_all(
            "SELECT * FROM daily_groups WHERE next_post <= ? ORDER BY next_post", (now,)
        )
        return [_group(row) for row in rows]

    async def claim_post(self, group: DailyGroup, next_post: float, position_id: int) -> bool:
        async with self._store.transaction(durable=True):
            moved = await self._store.write(
                "UPDATE daily_groups SET next_post = ? WHERE chat_id = ? AND next_post = ?",
                (next_post, group.chat_id, group.next_post),
            )
            if not moved:
                return False
            added = await self._store.write(
                """INSERT INTO daily_posts (chat_id, position_id, message_id, locale)
                   VALUES (?, ?, NULL, ?) ON CONFLICT (chat_id, position_id) DO NOTHING""",
                (group.chat_id, position_id, group.locale),
            )
            return added > 0

    async def add_post(self, chat_id: int, position_id: int, locale: str) -> None:
        await self._store.write(
            """INSERT INTO daily_posts (chat_id, position_id, message_id, locale)
               VALUES (?, ?, NULL, ?) ON CONFLICT (chat_id, position_id) DO UPDATE SET
                   message_id = NULL, locale = excluded.locale""",
            (chat_id, position_id, locale),
        )

    async def set_post_message(self, chat_id: int, position_id: int, message_id: int) -> None:
        await self._store.write(
            "UPDATE daily_posts SET message_id = ? WHERE chat_id = ? AND position_id = ?",
            (message_id, chat_id, position_id),
        )

    async def posts(self, position_id: int) -> list[DailyPost]:
        rows = await self._store.fetch_all(
            "SELECT * FROM daily_posts WHERE position_id = ? ORDER BY chat_id", (position_id,)
        )
        return [
            DailyPost(row["chat_id"], row["position_id"], row["message_id"], row["locale"])
            for row in rows
        ]

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        await self._store.write(
            "UPDATE daily_groups SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
        )
        await self._store.write(
            "UPDATE daily_posts SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
        )
