"""Settings of a group chat: the language its admins chose for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .database import Database


class ChatRepository:
    """One row per group whose admins changed a setting."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def locale(self, chat_id: int) -> str | None:
        """The catalog chosen for the group's messages, or None if none was."""
        row = await self._store.fetch_one(
            "SELECT locale FROM chat_settings WHERE chat_id = ?", (chat_id,)
        )
        return row["locale"] if row else None

    async def set_locale(self, chat_id: int, locale: str | None, *, now: float) -> None:
        """Records the group's catalog (None: back to each challenge's own)."""
        await self._store.write(
            """INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (?, ?, ?)
               ON CONFLICT (chat_id) DO UPDATE SET
                   locale = excluded.locale, updated_at = excluded.updated_at""",
            (chat_id, locale, now),
        )

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (a setting made there is kept)."""
        await self._store.write(
            """UPDATE chat_settings SET chat_id = ? WHERE chat_id = ?
               AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat_id = ?)""",
            (new_chat_id, old_chat_id, new_chat_id),
        )
