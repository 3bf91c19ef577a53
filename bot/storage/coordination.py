"""What keeps several workers over one database in step: leases on work that one worker at a
time does (showing a game's boards), Telegram's pace shared by all, and outages already made up
for. A single process over SQLite needs none of it, but the SQL is the same in both backends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.model import OVERALL

if TYPE_CHECKING:
    from .database import Database


class CoordinationRepository:
    """Leases, the shared pace and the outages made up for."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def claim(self, name: str, owner: str, *, now: float, seconds: float) -> bool:
        """Claims ``name`` for ``owner`` until ``now + seconds``: True when it was free, had
        run out, or was ``owner``'s already (then it is renewed)."""
        changed = await self._store.write(
            """INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)
               ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
               WHERE leases.until < ? OR leases.owner = excluded.owner""",
            (name, owner, now + seconds, now),
        )
        return changed == 1

    async def release(self, name: str, owner: str) -> None:
        """Gives up ``owner``'s claim on ``name`` (nothing if another holds it now)."""
        await self._store.write("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))

    async def reserve(
        self, chat_id: int, *, now: float, interval: float, burst: float, overall: float,
        overall_burst: float,
    ) -> float:  # fmt: skip
        """Takes the next message slot of ``chat_id`` and of all chats together (a message
        every ``interval`` seconds, ``burst`` at once; ``overall`` and ``overall_burst`` for
        all chats); returns how many seconds from ``now`` the message may go.

        The generic cell rate algorithm: each row holds when the chat's next message is due;
        taking a slot moves it one interval later (from now, if it was in the past), and a
        message may go ``burst - 1`` intervals before its slot is due.
        """
        rows = await self._store.fetch_all(
            """INSERT INTO pace AS p (chat_id, due) VALUES (?, ?), (?, ?)
               ON CONFLICT (chat_id) DO UPDATE
                   SET due = CASE WHEN p.due > ? THEN p.due ELSE ? END + (excluded.due - ?)
               RETURNING chat_id, due""",
            (chat_id, now + interval, OVERALL, now + overall, now, now, now),
        )
        wait = 0.0
        for row in rows:
            step, count = (overall, overall_burst) if row[0] == OVERALL else (interval, burst)
            # the slot taken began one interval before the new due time
            wait = max(wait, row[1] - step - (count - 1) * step - now)
        return wait

    async def take_spare(
        self, slots: Sequence[tuple[int, float, float, float]], *, now: float
    ) -> float:
        """Takes the next message slot of each of ``slots`` (row, interval, burst, slots to
        leave), only if every one is free now with its ``leave`` slots of burst left over;
        returns 0 when taken, else how many seconds from ``now`` they may be (then nothing is
        taken). For messages that must yield to the others: they never take a slot ahead
        of time, so they never push a later message back (see :meth:`reserve` for the cell
        rate algorithm and the rows).

        Such takes wait for each other across workers; a :meth:`reserve` meanwhile is not
        held up and changes what is free only by its one slot."""
        async with self._store.transaction():
            await self._store.lock("pace", OVERALL)
            keys = [row for row, *_ in slots]
            rows = await self._store.fetch_all(
                f"SELECT chat_id, due FROM pace WHERE chat_id IN ({', '.join('?' * len(keys))})",
                keys,
            )
            due: dict[int, float] = {row[0]: row[1] for row in rows}
            # free with ``leave`` to spare: the slot's due time lies within the burst left
            wait = max(
                max(due.get(row, now), now) - now - (burst - 1 - leave) * interval
                for row, interval, burst, leave in slots
            )
            if wait > 1e-9:  # more than the rounding of a share's fractions
                return wait
            for row, interval, _burst, _leave in slots:
                await self._store.write(
                    """INSERT INTO pace AS p (chat_id, due) VALUES (?, ?)
                       ON CONFLICT (chat_id) DO UPDATE
                           SET due = CASE WHEN p.due > ? THEN p.due ELSE ? END + ?""",
                    (row, now + interval, now, now, interval),
                )
        return 0.0

    async def made_up_for(self, began: float, ended: float) -> bool:
        """Records the outage from ``began`` to ``ended`` unless another worker recorded one
        that overlaps it; True when this call recorded it (and its length is to be added to
        the deadlines now)."""
        async with self._store.transaction():
            await self._store.lock("outages", 0)
            row = await self._store.fetch_one(
                "SELECT id FROM outages WHERE began <= ? AND ended >= ?", (ended, began)
            )
            if row is not None:
                return False
            await self._store.write(
                "INSERT INTO outages (began, ended) VALUES (?, ?)", (began, ended)
            )
            return True
