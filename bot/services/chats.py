"""Group chats' settings: the language a group's admins chose for its messages and boards.
Read for every update from a group, so kept in memory; with several workers over one database
a setting kept in memory is read again after :data:`~.users.SHARED_SECONDS` (a change made
through another worker shows after at most that)."""

from __future__ import annotations

import time
from collections.abc import Callable

from cachetools import Cache

from bot.model import Store

from .users import kept

CHATS_KEPT = 10_000
"""Groups whose settings are kept in memory at most, the least recently used let go first."""


class Chats:
    """Group settings by chat id, cached (groups that chose nothing are remembered too; at most
    :data:`CHATS_KEPT`)."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self._locales: Cache[int, tuple[str | None]] = kept(
            CHATS_KEPT, shared=store.shared, clock=clock
        )

    async def locale(self, chat_id: int) -> str | None:
        """The catalog the group's admins chose, or None if they chose none."""
        found = self._locales.get(chat_id)
        if found is not None:
            return found[0]
        locale = await self._store.chats.locale(chat_id)
        self._locales[chat_id] = (locale,)
        return locale

    async def set_locale(self, chat_id: int, locale: str | None) -> None:
        """Sets the group's catalog (None: each challenge's own again)."""
        await self._store.chats.set_locale(chat_id, locale, now=self._clock())
        self._locales[chat_id] = (locale,)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup: its games, its league, its tournaments,
        its daily position posts and its settings."""
        await self._store.games.move_chat(old_chat_id, new_chat_id)
        await self._store.leagues.move_chat(old_chat_id, new_chat_id)
        await self._store.tournaments.move_chat(old_chat_id, new_chat_id)
        await self._store.daily.move_chat(old_chat_id, new_chat_id)
        await self._store.chats.move_chat(old_chat_id, new_chat_id)
        self._locales.pop(old_chat_id, None)
        self._locales.pop(new_chat_id, None)
