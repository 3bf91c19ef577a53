"""The users the bot has met: who they are, what they chose (quick mode, a language), whether
they can be written to. Read on every snapshot, so kept in memory. Over SQLite this process is
their only writer; with several workers over one database another may change a user (quick
mode, a language, a name), so there a user kept in memory is read again after
:data:`SHARED_SECONDS`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final, TypeVar

from cachetools import Cache, LRUCache, TTLCache

from bot.model import Store, User

SHARED_SECONDS: Final = 2.0
"""How long a worker sharing its database trusts a user it read (another worker's change of
quick mode shows after at most this)."""
USERS_KEPT: Final = 10_000
"""Users kept in memory at most, the least recently used let go first (a few MB)."""

K = TypeVar("K")
V = TypeVar("V")


def kept(maxsize: int, *, shared: bool, clock: Callable[[], float] = time.time) -> Cache[K, V]:
    """A map of at most ``maxsize`` entries, the least recently used let go first; with a
    shared database (``shared``) each entry also forgotten :data:`SHARED_SECONDS` after it
    was read, as another worker may change it."""
    if shared:
        return TTLCache(maxsize, SHARED_SECONDS, timer=clock)
    return LRUCache(maxsize)


class Users:
    """Users by id and @username, cached (at most :data:`USERS_KEPT`); the handlers'
    ``player``."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock
        self._users: Cache[int, User] = kept(USERS_KEPT, shared=store.shared, clock=clock)
        self._names: LRUCache[str, int] = LRUCache(USERS_KEPT)
        """Who had each @username when last seen: a username moves to whoever takes it."""

    async def see(
        self,
        user_id: int,
        *,
        username: str | None,
        first_name: str,
        language_code: str | None,
        private_chat: bool = False,
    ) -> User:
        """Records a user met in an update (names change; a private chat opens invitations)."""
        user = await self._store.users.upsert(
            user_id,
            username=username,
            first_name=first_name,
            language_code=language_code,
            private_chat=private_chat,
            now=self._clock(),
        )
        if user.username:  # the username has left whoever had it before
            holder = self._names.get(user.username)
            if holder is not None and holder != user.id:
                self._users.pop(holder, None)
        self._keep(user)
        return user

    async def by_username(self, username: str) -> User | None:
        """The user with that @username, if the bot has seen them."""
        return await self._store.users.by_username(username)

    async def get(self, user_id: int) -> User | None:
        """The user with ``user_id``, if the bot has seen them."""
        found = self._users.get(user_id)
        if found is None:
            found = await self._store.users.get(user_id)
            if found is not None:
                self._keep(found)
        return found

    def _keep(self, user: User) -> None:
        self._users[user.id] = user
        if user.username:
            self._names[user.username] = user.id

    async def set_quick(self, user_id: int, quick: bool) -> User | None:
        """Turns the user's quick mode on or off (a tap that completes a turn confirms it);
        returns the user, or None if the bot has not seen them."""
        await self._store.users.set_quick(user_id, quick)
        self._users.pop(user_id, None)
        return await self.get(user_id)

    async def set_locale(self, user_id: int, locale: str | None) -> User | None:
        """Records the catalog the user chose with ``/language`` (None: their Telegram
        language decides again); returns the user, or None if the bot has not seen them."""
        await self._store.users.set_locale(user_id, locale)
        self._users.pop(user_id, None)
        return await self.get(user_id)

    def drop(self, user_id: int) -> None:
        """Forgets what is kept in memory of the user (they were deleted: ``/forget``)."""
        self._users.pop(user_id, None)

    async def mark_blocked(self, user_id: int) -> None:
        """Notes that the user blocked the bot: no more private messages until they return."""
        await self._store.users.set_blocked(user_id, True)
        self._users.pop(user_id, None)
