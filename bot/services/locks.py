"""One lock per id, kept only while it is in use.

A game, a challenge, a group's league message or a replay being made is changed by one task at
a time in this process (with several workers, the database's lock does the same across them).
A table of locks that kept one for every id ever asked for would grow with every tap, a forged
id's too; :class:`KeyedLocks` keeps a lock only while a task holds it or waits for it, so the
table never has more locks than tasks using them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


@dataclass(slots=True)
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """The tasks holding the lock or waiting for it."""


class KeyedLocks(Generic[Key]):
    """An :class:`asyncio.Lock` per key, made on the first :meth:`hold` and dropped when the
    last task that held it or waited for it is done (a cancelled wait included)."""

    def __init__(self) -> None:
        self._entries: dict[Key, _Entry] = {}

    def __len__(self) -> int:
        """The keys held or waited for now."""
        return len(self._entries)

    @contextlib.asynccontextmanager
    async def hold(self, key: Key) -> AsyncIterator[None]:
        """Holds ``key``'s lock for the block, after the tasks that asked for it before."""
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if not entry.users:
                del self._entries[key]
