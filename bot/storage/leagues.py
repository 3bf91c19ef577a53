"""Group leagues: the pinned standings message the bot keeps up to date in a group."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.model import League

if TYPE_CHECKING:
    from .database import Database


class LeagueRepository:
    """One league per group, with the message that shows its standings."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def get(self, chat_id: int) -> League | None:
        """The group's league, if it has one."""
        row = await self._store.fetch_one("SELECT * FROM leagues WHERE chat_id = ?", (chat_id,))
        return League(row["chat_id"], row["message_id"], row["locale"]) if row else None

    async def start(self, chat_id: int, *, locale: str, now: float) -> League:
        """Starts the group's league (or keeps the one it has, with the new locale)."""
        await self._store.write(
            """INSERT INTO leagues (chat_id, locale, created_at) VALUES (?, ?, ?)
               ON CONFLICT (chat_id) DO UPDATE SET locale = excluded.locale""",
            (chat_id, locale, now),
        )
        league = await self.get(chat_id)
        assert league is not None
        return league

    async def stop(self, chat_id: int) -> League | None:
        """Ends the group's league; returns it as it was."""
        league = await self.get(chat_id)
        await self._store.write("DELETE FROM leagues WHERE chat_id = ?", (chat_id,))
        return league

    async def set_message(self, chat_id: int, message_id: int | None) -> None:
        """Records the message that shows the standings."""
        await self._store.write(
            "UPDATE leagues SET message_id = ? WHERE chat_id = ?", (message_id, chat_id)
        )

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup."""
        await self._store.write(
            "UPDATE leagues SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
        )
