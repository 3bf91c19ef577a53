"""The SQLite backend: one file, one process, the default.

The schema version is SQLite's ``PRAGMA user_version``. Two connections, each on a thread of
its own, and one write lock that every write takes (two coroutines must not interleave
``BEGIN``s, and the two connections never wait for each other inside SQLite):

- the main one (aiosqlite) at ``synchronous = NORMAL``, for reads and the writes that may be
  lost to a power cut (never to a crash of the process);
- the durable one at ``synchronous = FULL``, for what a player was told is done (a confirmed
  turn, a result, a new game): a durable transaction runs on it whole (its reads too, which see
  its writes), and durable single writes queued while the lock is held are committed together,
  in one transaction and one trip to its thread (a group commit: one sync of the log for all of
  them, each still changing exactly its own rows or failing alone).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, Final, Protocol, TypeVar, cast

import aiosqlite

from .database import Database, IntegrityError, MigrationChanged, Params, Row, SchemaTooNew
from .migrations import CHECKSUMS_TABLE, MIGRATIONS, backfill_of, changed_migration, checksum

T = TypeVar("T")

GROUP_COMMIT_MAX: Final = 256
"""Durable writes committed together at most (a batch's statements are short UPDATEs)."""


class _Connection(Protocol):
    """Where a transaction's statements go: the main connection or the durable one."""

    async def execute(self, sql: str, params: Params = ()) -> int: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None: ...


async def _begin(connection: _Connection) -> None:
    """``BEGIN IMMEDIATE`` on ``connection``. The statement runs on the database's thread
    whatever happens to the task that asked for it: a task cancelled while waiting for it
    (a bot stopping) waits for it to end and rolls back what it began, so that the connection
    is never left inside a transaction nobody will end."""
    begun = asyncio.ensure_future(connection.execute("BEGIN IMMEDIATE"))
    try:
        await asyncio.shield(begun)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await begun
            await connection.execute("ROLLBACK")
        raise


class _Main:
    """The main connection (aiosqlite): one round trip to its thread a statement."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            cursor = await self.db.execute(sql, params)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error
        return cursor.rowcount

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """One round trip to the database thread (a cursor's execute, fetch and close would be
        three, each a wake-up of both threads)."""
        try:
            return cast(list[Row], list(await self.db.execute_fetchall(sql, params)))
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        try:
            await self.db.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error


class _Durable:
    """The durable connection: plain :mod:`sqlite3` at ``synchronous = FULL`` on a thread of
    its own, with the group commit of :meth:`write`."""

    def __init__(self, path: str, lock: asyncio.Lock) -> None:
        self._lock = lock
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-durable")
        self._db: sqlite3.Connection | None = None
        self._path = path
        self._queue: list[tuple[str, Params, asyncio.Future[int]]] = []
        self._committing: asyncio.Task[None] | None = None
        self.commits = 0
        """Group commits made so far (each one or more durable writes)."""

    async def open(self) -> None:
        def connect() -> None:
            db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA busy_timeout = 5000")
            self._db = db

        await self._run(connect)

    async def _run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work)

    def _connection(self) -> sqlite3.Connection:
        assert self._db is not None, "the durable connection is not open"
        return self._db

    async def execute(self, sql: str, params: Params = ()) -> int:
        def run() -> int:
            try:
                return self._connection().execute(sql, params).rowcount
            except sqlite3.IntegrityError as error:
                raise IntegrityError(str(error)) from error

        return await self._run(run)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        def run() -> list[Row]:
            try:
                return cast(list[Row], self._connection().execute(sql, params).fetchall())
            except sqlite3.IntegrityError as error:
                raise IntegrityError(str(error)) from error

        return await self._run(run)

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        def run() -> None:
            try:
                self._connection().executemany(sql, rows)
            except sqlite3.IntegrityError as error:
                raise IntegrityError(str(error)) from error

        await self._run(run)

    async def write(self, sql: str, params: Params) -> int:
        """Runs one writing statement in its own durable commit, or in one shared with the
        others queued meanwhile; returns the number of rows it changed."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((sql, params, done))
        if self._committing is None:
            self._committing = asyncio.create_task(self._commit_queued(), name="group-commit")
        return await done

    async def _commit_queued(self) -> None:
        try:
            while self._queue:
                async with self._lock:  # writes queued while waiting for it join the batch
                    batch = self._queue[:GROUP_COMMIT_MAX]
                    del self._queue[:GROUP_COMMIT_MAX]
                    statements = [(sql, params) for sql, params, _ in batch]
                    try:
                        results = await self._run(functools.partial(self._batch, statements))
                    except BaseException as error:  # the commit failed: every write with it
                        for *_, done in batch:
                            if not done.done():
                                done.set_exception(_copy(error))
                        if not isinstance(error, Exception):
                            raise
                        continue
                for (*_, done), result in zip(batch, results, strict=True):
                    if done.done():  # its caller gave up waiting; the write stands
                        continue
                    if isinstance(result, BaseException):
                        done.set_exception(result)
                    else:
                        done.set_result(result)
        finally:
            self._committing = None

    def _batch(self, statements: list[tuple[str, Params]]) -> list[int | BaseException]:
        """On the durable thread: ``statements`` in one transaction, each failing alone (a
        statement that fails in SQLite undoes only its own changes)."""
        db = self._connection()
        results: list[int | BaseException] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in statements:
                try:
                    results.append(db.execute(sql, params).rowcount)
                except sqlite3.IntegrityError as error:
                    results.append(IntegrityError(str(error)))
                except sqlite3.Error as error:
                    results.append(error)
            db.execute("COMMIT")
            self.commits += 1
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return results

    async def close(self) -> None:
        while self._committing is not None:
            await asyncio.wait([self._committing])
        if self._db is not None:
            await self._run(self._connection().close)
            self._db = None
        self._thread.shutdown(wait=True)


def _copy(error: BaseException) -> BaseException:
    """An exception to hand to one waiter of a failed batch (each gets its own traceback)."""
    try:
        return type(error)(*error.args)
    except Exception:
        return error


class SqliteDatabase(Database):
    """An SQLite file with the write lock its repositories share.

    WAL journal: readers do not wait for the writer, and every commit survives the process
    being killed. ``synchronous = NORMAL`` by default; a ``durable`` write commits at ``FULL``
    on the durable connection (the log is on disk when the commit returns), so a confirmed turn
    survives a power cut too (``bench/results.py`` measures what that costs per saved turn).
    An in-memory database has one connection, which switches to ``FULL`` for durable writes.

    Work on one game is serialized by the services' own locks: one process owns the file, so
    :meth:`exclusive`, :meth:`attempt` and :meth:`lock` have nothing to add.
    """

    dialect: ClassVar[str] = "sqlite"

    def __init__(self, db: aiosqlite.Connection, durable: _Durable | None = None) -> None:
        self.db = db
        self._lock = asyncio.Lock()
        self._main = _Main(db)
        self._durable = durable
        # The connection of the transaction the current task is in (None: outside one).
        self._inside: contextvars.ContextVar[_Connection | None] = contextvars.ContextVar(
            "inside_transaction", default=None
        )

    @classmethod
    async def open(cls, path: Path | str) -> SqliteDatabase:
        """Opens (creating if needed) the file at ``path`` and migrates it."""
        memory = str(path) == ":memory:"
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        durable = None
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            database = cls(db)
            await database.migrate()
            if not memory:  # after the migrations: the durable connection sees the schema
                durable = _Durable(str(path), database._lock)
                database._durable = durable
                await durable.open()
        except BaseException:
            if durable is not None:
                await durable.close()
            await db.close()
            raise
        return database

    @property
    def group_commits(self) -> int:
        """Durable single writes' commits so far, each of one or more writes (0 in memory)."""
        return self._durable.commits if self._durable is not None else 0

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Applies the migrations the file has not had yet; returns the new schema version.

        :raises: :exc:`SchemaTooNew` if the file's version is beyond the last migration;
            :exc:`MigrationChanged` if one it has had differs from this release's.
        """
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise SchemaTooNew(f"schema version {version}; this release knows {len(MIGRATIONS)}")
        await self.db.execute(CHECKSUMS_TABLE)
        rows = await self.db.execute_fetchall("SELECT version, checksum FROM schema_checksums")
        recorded = {int(row[0]): str(row[1]) for row in rows}
        changed = changed_migration(recorded, version)
        if changed is not None:
            raise MigrationChanged(changed)
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            done = (
                f"PRAGMA user_version = {number};\n"
                f"INSERT INTO schema_checksums VALUES ({number}, '{checksum(script)}');"
            )
            backfill = backfill_of(script)
            if backfill is None:
                await self.db.executescript(f"BEGIN;\n{script}\n{done}\nCOMMIT;")
                continue
            await self.db.executescript(f"BEGIN;\n{script}")  # left open for the backfill
            try:
                counter = backfill.counter()
                async with self.db.execute(backfill.read) as cursor:
                    async for row in cursor:
                        counter.add(tuple(row))
                await self.db.executemany(backfill.write, counter.rows())
                # statement by statement: executescript would commit first
                await self.db.execute(f"PRAGMA user_version = {number}")
                await self.db.execute(
                    "INSERT INTO schema_checksums VALUES (?, ?)", (number, checksum(script))
                )
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
        await self.db.executemany(  # those applied before checksums were kept
            "INSERT INTO schema_checksums VALUES (?, ?)",
            [(n, checksum(MIGRATIONS[n - 1])) for n in range(1, version + 1) if n not in recorded],
        )
        return len(MIGRATIONS)

    @asynccontextmanager
    async def transaction(self, *, durable: bool = False) -> AsyncIterator[None]:
        if self._inside.get() is not None:
            yield
            return
        connection: _Connection = self._main
        switch = False
        if durable:
            if self._durable is not None:
                connection = self._durable
            else:
                switch = True
        with self._outermost() as committed:
            async with self._lock:
                token = self._inside.set(connection)
                try:
                    if switch:
                        await self.db.execute("PRAGMA synchronous = FULL")
                    try:
                        await _begin(connection)
                        try:
                            yield
                        except BaseException:
                            await connection.execute("ROLLBACK")
                            raise
                        await connection.execute("COMMIT")
                    finally:
                        if switch:
                            await self.db.execute("PRAGMA synchronous = NORMAL")
                finally:
                    self._inside.reset(token)
            committed()

    async def write(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        """Outside a transaction the statement commits by itself (SQLite's autocommit: one
        round trip to the database thread); a durable one with the others queued meanwhile
        (see the module docstring)."""
        inside = self._inside.get()
        if inside is not None:
            return await inside.execute(sql, params)
        if durable and self._durable is not None:
            return await self._durable.write(sql, params)
        if durable:
            async with self.transaction(durable=True):
                return await self._main.execute(sql, params)
        async with self._lock:
            return await self._main.execute(sql, params)

    async def write_many(self, sql: str, rows: Sequence[Params]) -> None:
        async with self.transaction():
            connection = self._inside.get()
            assert connection is not None
            await connection.executemany(sql, rows)

    async def insert(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        async with self.transaction(durable=durable):
            row = await self._fetch(sql, params)
        assert row is not None, "an INSERT … RETURNING id returned nothing"
        return int(row[0])

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        return cast(Row | None, await self._fetch(sql, params))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """One round trip to the database thread; inside a transaction, on its connection
        (which sees its writes)."""
        return await (self._inside.get() or self._main).fetch_all(sql, params)

    @asynccontextmanager
    async def exclusive(self, kind: str, key: int) -> AsyncIterator[None]:
        yield

    @asynccontextmanager
    async def attempt(self, kind: str, key: int) -> AsyncIterator[bool]:
        yield True

    async def lock(self, kind: str, *keys: int) -> None:
        return None

    async def close(self) -> None:
        if self._durable is not None:
            await self._durable.close()
        await self.db.close()

    async def _fetch(self, sql: str, params: Params) -> Any:
        """The first row of a query of at most one (a key, an aggregate, ``LIMIT 1``, an
        ``INSERT … RETURNING``), in one round trip like :meth:`fetch_all`."""
        rows = await (self._inside.get() or self._main).fetch_all(sql, params)
        return next(iter(rows), None)
