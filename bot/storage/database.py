"""What the repositories need of a database, and opening one by its URL.

:class:`Database` is the one way the repositories read and write. Two backends implement it:

- :class:`~.sqlite.SqliteDatabase`, one file, the default: one process, no server to run;
- :class:`~.postgres.PostgresDatabase`, a PostgreSQL server that several bot processes
  (workers) share.

The repositories write their SQL once, in the words both understand, with ``?`` or ``:name``
parameters (the PostgreSQL backend renumbers them to ``$1``…). Both build the same schema from
the same migrations (:mod:`.migrations`) and refuse a database whose schema is newer than this
code (:exc:`SchemaTooNew`): a worker of an older release must not write into it.

Work on one game (or challenge) from several workers at once is serialized by
:meth:`Database.exclusive`, and rows that several games share (a player's wallet and ratings)
by :meth:`Database.lock` inside the transaction; in SQLite, whose writers already take turns
(``BEGIN IMMEDIATE``) and which one process owns, both cost nothing.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any, ClassVar, Final, Protocol, TypeAlias

from bot.model import ChangeChannel

# what a repository raises, the model's: the services catch them without knowing storage
from bot.model import DatabaseUnavailable as DatabaseUnavailable
from bot.model import IntegrityError as IntegrityError
from bot.model import VersionConflict as VersionConflict

Params: TypeAlias = Sequence[Any] | Mapping[str, Any]

logger = logging.getLogger(__name__)

_AFTER_COMMIT: contextvars.ContextVar[list[Callable[[], None]] | None] = contextvars.ContextVar(
    "after_commit", default=None
)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Row(Protocol):
    """A result row: by column name or position (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Any: ...


class SchemaTooNew(Exception):
    """The database was migrated by a newer release than this one."""


class MigrationChanged(Exception):
    """A migration the database has had differs from this release's copy of it (see
    :func:`.migrations.changed_migration`): the schema may not be what the code expects."""


def lock_key(kind: str, key: int) -> int:
    """A signed 64-bit number for an advisory lock on ``kind`` ``key`` (a game, a wallet…).

    Two different things may share a number (a collision only makes them wait for each other
    now and then); the same thing always gets the same one, in every process.
    """
    digest = hashlib.blake2b(f"{kind}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Database(ABC):
    """An open database, as the repositories use it.

    A write made inside :meth:`transaction` joins it, so a service can make several
    repositories' writes one atomic change (a game's result with its chips, match score and
    ratings). Outside one, each write is a transaction of its own.

    ``durable``: on disk when the commit returns, so it survives a power cut; for what a player
    was told is done (a confirmed turn, a result, a new game). Other writes (handled updates,
    which version a board shows, names) may be lost to a power cut, never to a crash of the
    process, and each can be redone.
    """

    dialect: ClassVar[str]
    """``sqlite`` or ``postgresql``."""

    @abstractmethod
    def transaction(self, *, durable: bool = False) -> AbstractAsyncContextManager[None]:
        """A write transaction: committed on leaving, rolled back on an exception. Inside
        another one (in the same task) it joins the outer transaction."""

    @abstractmethod
    async def write(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        """Runs one writing statement; returns the number of rows it changed."""

    @abstractmethod
    async def write_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Runs one writing statement for each of ``rows``, in one transaction."""

    @abstractmethod
    async def insert(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        """Runs an ``INSERT … RETURNING id``; returns the new row's id."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """Runs a query and returns its first row."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Runs a query and returns its rows."""

    @abstractmethod
    def exclusive(self, kind: str, key: int) -> AbstractAsyncContextManager[None]:
        """Holds ``kind`` ``key`` (a game, a challenge) for this task alone across every
        process that shares the database, until the block ends; what the task reads and
        writes inside sees every change that an earlier holder made. For work that reads, thinks
        and then writes; the version check on writing stays the last word."""

    @abstractmethod
    def attempt(self, kind: str, key: int) -> AbstractAsyncContextManager[bool]:
        """Like :meth:`exclusive`, but never waits: the block gets False (and holds nothing)
        when another holds ``kind`` ``key`` now. For claiming work that any process may do, such
        as a deadline that fell due: whoever claims it does it, the others skip it."""

    @abstractmethod
    async def lock(self, kind: str, *keys: int) -> None:
        """Inside a transaction: holds ``kind`` ``keys`` until it ends, taken in one order so
        that two transactions never wait for each other (a player's wallet, their ratings)."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The schema version of the database (0 for an empty one)."""

    @abstractmethod
    async def close(self) -> None:
        """Closes the database; nothing may use it afterwards."""

    @property
    def changes(self) -> ChangeChannel:
        """How this database's other processes hear of changes (:class:`LocalChannel` where
        there are none)."""
        return _LOCAL

    async def ping(self) -> None:
        """Raises if the database cannot be reached (for /healthz; the PostgreSQL backend
        raises :exc:`DatabaseUnavailable` then)."""
        await self.fetch_one("SELECT 1")

    def after_commit(self, action: Callable[[], None]) -> None:
        """Runs ``action`` once the transaction this task is in commits (at once outside one;
        never if it rolls back): for telling others of a change only once it is there to be
        read. ``action`` must return at once; what it raises is logged, not raised."""
        waiting = _AFTER_COMMIT.get()
        if waiting is None:
            _run(action)
        else:
            waiting.append(action)

    @staticmethod
    @contextmanager
    def _outermost() -> Iterator[Callable[[], None]]:
        """For a backend's outermost transaction: collects the :meth:`after_commit` actions
        of its block, and gives the function that runs them, to call once it has committed
        (the block's end forgets them either way)."""
        waiting: list[Callable[[], None]] = []
        token = _AFTER_COMMIT.set(waiting)

        def committed() -> None:
            _AFTER_COMMIT.reset(token)
            actions = waiting[:]
            waiting.clear()
            for action in actions:
                _run(action)

        try:
            yield committed
        finally:
            if _AFTER_COMMIT.get() is waiting:
                _AFTER_COMMIT.reset(token)


class LocalChannel:
    """The change channel of a database one process owns: there is nobody to tell."""

    async def send(self, messages: Sequence[str]) -> None:
        return None

    async def listen(self, receive: Callable[[str], None], resumed: Callable[[], None]) -> None:
        return None

    async def close(self) -> None:
        return None


_LOCAL: Final = LocalChannel()


def _run(action: Callable[[], None]) -> None:
    try:
        action()
    except Exception:
        logger.exception("an action after a commit failed")


def is_postgres_url(url: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL."""
    return url.startswith(POSTGRES_SCHEMES)
