"""The operators' tables: ``bans``, ``broadcasts``, and the counts of ``/ops``.

A broadcast's recipients are the people with a private chat who have not blocked the bot and
are not banned (:data:`_RECIPIENTS`), taken in the order of their ids: the cursor
(``last_user_id``) is moved past the next one by an ``UPDATE`` that checks the cursor it read,
so two workers never take the same recipient.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.model import Ban, Broadcast, BroadcastState, Figures

if TYPE_CHECKING:
    from .database import Database, Row

_RECIPIENTS: Final = """
    users.id > 0 AND users.private_chat <> 0 AND users.blocked = 0
    AND NOT EXISTS (SELECT 1 FROM bans WHERE bans.user_id = users.id)"""
"""Who a broadcast goes to (``users`` rows)."""


class OperatorRepository:
    """Bans, broadcasts and the operators' figures."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def ban(self, user_id: int, operator_id: int, *, now: float) -> bool:
        """Bans the user; False if they were banned already (the first ban stays)."""
        return bool(
            await self._store.write(
                """INSERT INTO bans (user_id, operator_id, created_at) VALUES (?, ?, ?)
                   ON CONFLICT (user_id) DO NOTHING""",
                (user_id, operator_id, now),
            )
        )

    async def unban(self, user_id: int) -> bool:
        """Lifts the user's ban; False if they were not banned."""
        return bool(await self._store.write("DELETE FROM bans WHERE user_id = ?", (user_id,)))

    async def banned(self) -> frozenset[int]:
        """Every banned user's id."""
        rows = await self._store.fetch_all("SELECT user_id FROM bans")
        return frozenset(int(row["user_id"]) for row in rows)

    async def bans(self) -> list[Ban]:
        """Every ban, the latest first."""
        rows = await self._store.fetch_all("SELECT * FROM bans ORDER BY created_at DESC")
        return [Ban(row["user_id"], row["operator_id"], row["created_at"]) for row in rows]

    async def create_broadcast(
        self, operator_id: int, text: str, *, chat_id: int, now: float
    ) -> Broadcast:
        """Stores a new broadcast, a draft."""
        broadcast_id = await self._store.insert(
            """INSERT INTO broadcasts (operator_id, text, state, chat_id, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?) RETURNING id""",
            (operator_id, text, BroadcastState.DRAFT.value, chat_id, now, now),
        )
        found = await self.broadcast(broadcast_id)
        assert found is not None
        return found

    async def broadcast(self, broadcast_id: int) -> Broadcast | None:
        """The broadcast, if it exists."""
        row = await self._store.fetch_one("SELECT * FROM broadcasts WHERE id = ?", (broadcast_id,))
        return _broadcast(row) if row is not None else None

    async def set_broadcast_message(self, broadcast_id: int, message_id: int) -> None:
        """Records the operator's message that shows the broadcast's progress."""
        await self._store.write(
            "UPDATE broadcasts SET message_id = ? WHERE id = ?", (message_id, broadcast_id)
        )

    async def start_broadcast(self, broadcast_id: int, *, now: float) -> Broadcast | None:
        """Turns the draft into one being sent, its recipients counted now; None if it was no
        draft."""
        changed = await self._store.write(
            f"""UPDATE broadcasts SET state = ?, updated_at = ?,
                   total = (SELECT COUNT(*) FROM users WHERE {_RECIPIENTS})
                WHERE id = ? AND state = ?""",
            (BroadcastState.SENDING.value, now, broadcast_id, BroadcastState.DRAFT.value),
            durable=True,
        )
        return await self.broadcast(broadcast_id) if changed else None

    async def stop_broadcast(self, broadcast_id: int, *, now: float) -> Broadcast | None:
        """Stops a draft or a broadcast being sent; None if it was neither."""
        changed = await self._store.write(
            "UPDATE broadcasts SET state = ?, updated_at = ? WHERE id = ? AND state IN (?, ?)",
            (
                BroadcastState.STOPPED.value,
                now,
                broadcast_id,
                BroadcastState.DRAFT.value,
                BroadcastState.SENDING.value,
            ),
            durable=True,
        )
        return await self.broadcast(broadcast_id) if changed else None

    async def sending(self) -> list[Broadcast]:
        """The broadcasts being sent, oldest first."""
        rows = await self._store.fetch_all(
            "SELECT * FROM broadcasts WHERE state = ? ORDER BY id",
            (BroadcastState.SENDING.value,),
        )
        return [_broadcast(row) for row in rows]

    async def take_recipient(self, broadcast: Broadcast) -> int | None:
        """Moves the cursor past the next recipient and returns them (see the protocol)."""
        async with self._store.transaction(durable=True):
            row = await self._store.fetch_one(
                f"SELECT MIN(id) AS next FROM users WHERE id > ? AND {_RECIPIENTS}",
                (broadcast.last_user_id,),
            )
            following = row["next"] if row is not None else None
            if following is None:
                await self._store.write(
                    "UPDATE broadcasts SET state = ? WHERE id = ? AND state = ?",
                    (BroadcastState.DONE.value, broadcast.id, BroadcastState.SENDING.value),
                )
                return None
            moved = await self._store.write(
                """UPDATE broadcasts SET last_user_id = ?
                   WHERE id = ? AND last_user_id = ? AND state = ?""",
                (
                    following,
                    broadcast.id,
                    broadcast.last_user_id,
                    BroadcastState.SENDING.value,
                ),
            )
            return int(following) if moved else None

    async def count_sent(self, broadcast_id: int, *, sent: bool) -> None:
        """Counts one recipient reached (or not)."""
        column = "sent" if sent else "failed"
        await self._store.write(
            f"UPDATE broadcasts SET {column} = {column} + 1 WHERE id = ?", (broadcast_id,)
        )

    async def recipients_after(self, user_id: int) -> int:
        """The recipients whose id is above ``user_id``."""
        row = await self._store.fetch_one(
            f"SELECT COUNT(*) AS n FROM users WHERE id > ? AND {_RECIPIENTS}", (user_id,)
        )
        return int(row["n"]) if row is not None else 0

    async def figures(self, *, day_started: float) -> Figures:
        """The figures of ``/ops``; "today" began at ``day_started``."""
        row = await self._store.fetch_one(
            f"""SELECT
                 (SELECT COUNT(*) FROM users WHERE id > 0) AS users,
                 (SELECT COUNT(*) FROM users WHERE {_RECIPIENTS}) AS reachable,
                 (SELECT COUNT(*) FROM bans) AS banned,
                 (SELECT COUNT(*) FROM games WHERE created_at >= :day) AS games_today,
                 (SELECT COUNT(*) FROM games WHERE created_at >= :day
                                              AND finished_at IS NOT NULL) AS finished_today,
                 (SELECT COUNT(*) FROM games WHERE winner IS NULL) AS in_progress,
                 (SELECT COUNT(*) FROM seekers) AS seekers,
                 (SELECT COUNT(*) FROM analysis_queue) AS analysis_backlog""",
            {"day": day_started},
        )
        assert row is not None
        left = 0
        for broadcast in await self.sending():
            left += await self.recipients_after(broadcast.last_user_id)
        return Figures(
            users=int(row["users"]),
            reachable=int(row["reachable"]),
            banned=int(row["banned"]),
            games_today=int(row["games_today"]),
            finished_today=int(row["finished_today"]),
            in_progress=int(row["in_progress"]),
            seekers=int(row["seekers"]),
            analysis_backlog=int(row["analysis_backlog"]),
            broadcast_left=left,
        )


def _broadcast(row: Row) -> Broadcast:
    return Broadcast(
        id=row["id"],
        operator_id=row["operator_id"],
        text=row["text"],
        state=BroadcastState(row["state"]),
        chat_id=row["chat_id"],
        message_id=row["message_id"],
        last_user_id=row["last_user_id"],
        total=row["total"],
        sent=row["sent"],
        failed=row["failed"],
        created_at=row["created_at"],
    )
