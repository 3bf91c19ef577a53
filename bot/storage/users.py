"""Users the bot has seen: names for captions, @usernames for challenges."""

from __future__ import annotations

from bot.model import User

from .database import Database, Row


class UserRepository:
    """Users the bot has seen: names for captions, @usernames for challenges."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def upsert(
        self,
        user_id: int,
        *,
        username: str | None,
        first_name: str,
        language_code: str | None,
        private_chat: bool = False,
        now: float,
    ) -> User:
        """Records the user's current names; ``private_chat`` only ever turns on."""
        username = username.lower() if username else None
        async with self._store.transaction():
            if username:  # a username moves to its new owner
                await self._store.write(
                    "UPDATE users SET username = NULL WHERE username = ? AND id != ?",
                    (username, user_id),
                )
            await self._store.write(
                """INSERT INTO users (id, username, first_name, language_code, private_chat,
                                      updated_at)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT (id) DO UPDATE SET
                       username = excluded.username, first_name = excluded.first_name,
                       language_code = excluded.language_code,
                       private_chat = CASE WHEN excluded.private_chat <> 0 THEN 1
                                         ELSE users.private_chat END,
                       blocked = CASE WHEN excluded.private_chat <> 0 THEN 0 ELSE users.blocked END,
                       updated_at = excluded.updated_at""",
                (user_id, username, first_name, language_code, int(private_chat), now),
            )
        user = await self.get(user_id)
        assert user is not None
        return user

    async def get(self, user_id: int) -> User | None:
        """Returns the user with ``user_id``, if seen."""
        row = await self._store.fetch_one("SELECT * FROM users WHERE id = ?", (user_id,))
        return user_from_row(row) if row else None

    async def by_username(self, username: str) -> User | None:
        """Returns the user whose @username is ``username`` (any case, with or without @)."""
        name = username.lstrip("@").lower()
        row = await self._store.fetch_one("SELECT * FROM users WHERE username = ?", (name,))
        return user_from_row(row) if row else None

    async def set_quick(self, user_id: int, quick: bool) -> None:
        """Turns the user's quick mode on or off."""
        await self._store.write("UPDATE users SET quick = ? WHERE id = ?", (int(quick), user_id))

    async def set_locale(self, user_id: int, locale: str | None) -> None:
        """Records the catalog the user chose (None: back to their ``language_code``)."""
        await self._store.write("UPDATE users SET locale = ? WHERE id = ?", (locale, user_id))

    async def set_blocked(self, user_id: int, blocked: bool) -> None:
        """Marks that the user has blocked (or unblocked) the bot."""
        await self._store.write(
            "UPDATE users SET blocked = ? WHERE id = ?", (int(blocked), user_id)
        )


def user_from_row(row: Row) -> User:
    """Reads a ``users`` row (also joined into other queries)."""
    return User(
        row["id"],
        row["username"],
        row["first_name"],
        row["language_code"],
        bool(row["private_chat"]),
        bool(row["blocked"]),
        bool(row["quick"]),
        row["locale"],
    )
