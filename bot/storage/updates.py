"""Update ids already handled, so that an update Telegram delivers twice acts once."""

from __future__ import annotations

from .database import Database


class UpdateRepository:
    """Update ids already handled, so that an update Telegram delivers twice acts once."""

    KEEP_SECONDS = 7 * 24 * 3600

    def __init__(self, store: Database) -> None:
        self._store = store

    async def claim(self, update_id: int, now: float) -> bool:
        """Records ``update_id``; returns False if it was already recorded. Every thousandth
        update also forgets ids older than :attr:`KEEP_SECONDS` (Telegram keeps an update
        for at most a day)."""
        claimed = (
            await self._store.write(
                "INSERT INTO handled_updates (update_id, handled_at) VALUES (?, ?)"
                " ON CONFLICT DO NOTHING",
                (update_id, now),
            )
            == 1
        )
        if claimed and update_id % 1000 == 0:
            await self._store.write(
                "DELETE FROM handled_updates WHERE handled_at < ?", (now - self.KEEP_SECONDS,)
            )
        return claimed
