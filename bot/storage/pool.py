"""The pool of players looking for anyone to play (``seekers``), and each player's last choice
of terms (``seeker_choices``), both of migration 14."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine import DiceMode
from bot.model import Seeker, SeekerChoice, Terms

if TYPE_CHECKING:
    from .database import Database, Row

_COLUMNS = "user_id, chat_id, variant, rule_set, match_length, dice_mode, move_seconds, stake"
_REACHABLE = """(chat_id <> 0 OR NOT EXISTS (
    SELECT 1 FROM users u WHERE u.id = seekers.user_id AND u.blocked <> 0))"""
"""A seeker who may be paired: in a group's pool (played there), or not known to have blocked
the bot (the private pool's games are played in the players' private chats)."""
_FAR = 1e9
"""A rating difference beyond any (an open window's bound)."""
_BATCH = 1024
"""Seekers asked about in one statement at most (two parameters each)."""


class PoolRepository:
    """One row per player in the pool; a player's last choice outlives their row."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def put(self, seeker: Seeker) -> Seeker:
        """Enters ``seeker`` or updates the player's row (see the model's protocol)."""
        await self._store.write(
            f"""INSERT INTO seekers ({_COLUMNS}, rating, since, offer_after, message_id,
                                     offered, version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)
                ON CONFLICT (user_id) DO UPDATE SET
                    since = CASE WHEN seekers.chat_id = excluded.chat_id
                                 THEN seekers.since ELSE excluded.since END,
                    offered = CASE WHEN seekers.chat_id = excluded.chat_id
                                   THEN seekers.offered ELSE 0 END,
                    chat_id = excluded.chat_id, variant = excluded.variant,
                    rule_set = excluded.rule_set, match_length = excluded.match_length,
                    dice_mode = excluded.dice_mode, move_seconds = excluded.move_seconds,
                    stake = excluded.stake, rating = excluded.rating,
                    offer_after = excluded.offer_after, message_id = excluded.message_id,
                    version = seekers.version + 1""",
            (
                seeker.user_id,
                seeker.scope,
                *_terms_values(seeker.terms),
                seeker.rating,
                seeker.since,
                seeker.offer_after,
                seeker.message_id,
            ),
        )
        stored = await self.get(seeker.user_id)
        assert stored is not None
        return stored

    async def get(self, user_id: int) -> Seeker | None:
        """The player's row, if they are in the pool."""
        row = await self._store.fetch_one("SELECT * FROM seekers WHERE user_id = ?", (user_id,))
        return _seeker(row) if row else None

    async def candidates(self, seeker: Seeker) -> list[Seeker]:
        """The others in the scope with the same terms (the stake included) who may be
        paired (see :meth:`waiting`), oldest first."""
        t = seeker.terms
        rows = await self._store.fetch_all(
            f"""SELECT * FROM seekers WHERE chat_id = ? AND variant = ? AND user_id <> ?
                   AND COALESCE(rule_set, '') = ? AND match_length = ? AND dice_mode = ?
                   AND COALESCE(move_seconds, -1) = ? AND stake = ? AND {_REACHABLE}
               ORDER BY since, user_id""",
            (
                seeker.scope,
                t.variant,
                seeker.user_id,
                t.rule_set or "",
                t.match_length,
                t.dice_mode.value,
                -1 if t.move_seconds is None else t.move_seconds,
                t.stake,
            ),
        )
        return [_seeker(row) for row in rows]

    async def waiting(self, scope: int | None = None) -> list[Seeker]:
        """The seekers who may be paired, in ``scope`` or in every pool: all but those of the
        private pool known to have blocked the bot (their games would be played in a chat
        that refuses it). By scope, then the longest wait first."""
        where = "" if scope is None else "chat_id = ? AND "
        rows = await self._store.fetch_all(
            f"""SELECT * FROM seekers WHERE {where}{_REACHABLE}
                ORDER BY chat_id, since, user_id""",
            () if scope is None else (scope,),
        )
        return [_seeker(row) for row in rows]

    async def entered_within(self, spans: Sequence[tuple[float, float]]) -> list[Seeker]:
        """The seekers who may be paired who entered within one of ``spans`` (see the model's
        protocol), from the index of their entering (``seekers_since``)."""
        if not spans:
            return []
        within = " OR ".join("(since > ? AND since <= ?)" for _ in spans)
        rows = await self._store.fetch_all(
            f"""SELECT * FROM seekers WHERE ({within}) AND {_REACHABLE}
                ORDER BY chat_id, since, user_id""",
            [bound for span in spans for bound in span],
        )
        return [_seeker(row) for row in rows]

    async def within_reach(
        self, widened: Sequence[tuple[Seeker, float]]
    ) -> dict[int, list[Seeker]]:
        """For each ``(seeker, reach)``, the others who may be paired in its scope with its
        terms who entered no earlier, their rating within ``reach`` of its own (see the
        model's protocol): one statement for them all, each seeker's a range of the index by
        rating (``seekers_rating``)."""
        found: dict[int, list[Seeker]] = {}
        for start in range(0, len(widened), _BATCH):
            asked = [
                (seeker.user_id, min(reach, _FAR)) for seeker, reach in widened[start:][:_BATCH]
            ]
            rows_of = 1 << (len(asked) - 1).bit_length()  # a power of two: few statements to
            asked += [(0, 0.0)] * (rows_of - len(asked))  # prepare (user 0: nobody)
            values = ", ".join(["(CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION))"] * rows_of)
            near = """o.chat_id = s.chat_id AND o.variant = s.variant
                AND o.rating >= s.rating - widened.reach AND o.rating <= s.rating + widened.reach
                AND COALESCE(o.rule_set, '') = COALESCE(s.rule_set, '')
                AND o.match_length = s.match_length AND o.dice_mode = s.dice_mode
                AND COALESCE(o.move_seconds, -1) = COALESCE(s.move_seconds, -1)
                AND o.stake = s.stake AND o.since >= s.since AND o.user_id <> s.user_id
                AND (o.chat_id <> 0 OR NOT EXISTS (
                    SELECT 1 FROM users u WHERE u.id = o.user_id AND u.blocked <> 0))"""
            # PostgreSQL would join the whole pool at once by the terms (a merge join, the
            # ranges filtered after): a lateral subquery it cannot pull up (OFFSET 0) makes it
            # ask the index for each seeker's range, as SQLite does by itself (it has no LATERAL)
            if self._store.dialect == "postgresql":
                joined = (
                    f"CROSS JOIN LATERAL (SELECT * FROM seekers AS o WHERE {near} OFFSET 0) AS o"
                )
            else:
                joined = f"JOIN seekers AS o ON {near}"
            rows = await self._store.fetch_all(
                f"""WITH widened (user_id, reach) AS (VALUES {values})
                    SELECT widened.user_id AS seeker_id, o.* FROM widened
                    JOIN seekers AS s ON s.user_id = widened.user_id
                    {joined}""",
                [value for pair in asked for value in pair],
            )
            for row in rows:
                found.setdefault(row["seeker_id"], []).append(_seeker(row))
        return found

    async def waited(self, since: float) -> list[Seeker]:
        """The seekers in the pool since ``since`` or earlier, the longest wait first."""
        rows = await self._store.fetch_all(
            "SELECT * FROM seekers WHERE since <= ? ORDER BY since, user_id", (since,)
        )
        return [_seeker(row) for row in rows]

    async def remove(self, seeker: Seeker) -> bool:
        """Deletes the row if it is still at ``seeker``'s version."""
        changed = await self._store.write(
            "DELETE FROM seekers WHERE user_id = ? AND version = ?",
            (seeker.user_id, seeker.version),
        )
        return changed == 1

    async def leave(self, user_id: int) -> bool:
        """Deletes the player's row; False if there was none."""
        return await self._store.write("DELETE FROM seekers WHERE user_id = ?", (user_id,)) == 1

    async def due(self, now: float) -> list[Seeker]:
        """Seekers not offered the computer yet who have waited their ``offer_after``."""
        rows = await self._store.fetch_all(
            """SELECT * FROM seekers WHERE offered = 0 AND since + offer_after <= ?
               ORDER BY since, user_id""",
            (now,),
        )
        return [_seeker(row) for row in rows]

    async def mark_offered(self, seeker: Seeker) -> bool:
        """Marks the computer offered; True only for the call that marked it."""
        changed = await self._store.write(
            "UPDATE seekers SET offered = 1 WHERE user_id = ? AND offered = 0",
            (seeker.user_id,),
        )
        return changed == 1

    async def choice(self, user_id: int) -> SeekerChoice | None:
        """What the player last looked for, if ever."""
        row = await self._store.fetch_one(
            "SELECT * FROM seeker_choices WHERE user_id = ?", (user_id,)
        )
        return SeekerChoice(_terms(row), row["offer_after"]) if row else None

    async def remember(self, user_id: int, choice: SeekerChoice, now: float) -> None:
        """Keeps ``choice`` as the player's last."""
        await self._store.write(
            """INSERT INTO seeker_choices (user_id, variant, rule_set, match_length, dice_mode,
                   move_seconds, stake, offer_after, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (user_id) DO UPDATE SET variant = excluded.variant,
                   rule_set = excluded.rule_set, match_length = excluded.match_length,
                   dice_mode = excluded.dice_mode, move_seconds = excluded.move_seconds,
                   stake = excluded.stake, offer_after = excluded.offer_after,
                   updated_at = excluded.updated_at""",
            (
                user_id,
                *_terms_values(choice.terms),
                choice.offer_after,
                now,
            ),
        )


def _terms_values(terms: Terms) -> tuple[object, ...]:
    """The terms' columns, in the order of :data:`_COLUMNS` after the user and the scope (and
    of ``seeker_choices`` after the user); :func:`_terms` reads them back."""
    return (
        terms.variant,
        terms.rule_set,
        terms.match_length,
        terms.dice_mode.value,
        terms.move_seconds,
        terms.stake,
    )


def _terms(row: Row) -> Terms:
    return Terms(
        variant=row["variant"],
        rule_set=row["rule_set"],
        match_length=row["match_length"],
        dice_mode=DiceMode(row["dice_mode"]),
        move_seconds=row["move_seconds"],
        stake=row["stake"],
    )


def _seeker(row: Row) -> Seeker:
    return Seeker(
        user_id=row["user_id"],
        scope=row["chat_id"],
        terms=_terms(row),
        rating=float(row["rating"]),
        since=float(row["since"]),
        offer_after=row["offer_after"],
        offered=row["offered"] != 0,
        version=row["version"],
        message_id=row["message_id"],
    )
