"""The SQLite backend: one file, one process, the default.

The schema version is SQLite's ``PRAGMA user_version``. One connection (aiosqlite runs it on a
thread of its own) with one write lock: two coroutines must not interleave ``BEGIN``s on it.
"""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, cast

import aiosqlite

from .database import Database, IntegrityError, Params, Row, SchemaTooNew
from .migrations import MIGRATIONS


class SqliteDatabase(Database):
    """An SQLite file with the write lock its repositories share.

    WAL journal: readers do not wait for the writer, and every commit survives the process
    being killed. ``synchronous = NORMAL`` by default; a ``durable`` write commits at ``FULL``
    (the log is on disk when the commit returns), so a confirmed turn survives a power cut too
    (``bench/results.py`` measures what that costs per saved turn).

    Work on one game is serialized by the services' own locks: one process owns the file, so
    :meth:`exclusive`, :meth:`attempt` and :meth:`lock` have nothing to add.
    """

    dialect: ClassVar[str] = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._lock = asyncio.Lock()
        # Set while the current task holds the write lock in a transaction.
        self._inside: contextvars.ContextVar[bool] = contextvars.ContextVar(
            "inside_transaction", default=False
        )

    @classmethod
    async def open(cls, path: Path | str) -> SqliteDatabase:
        """Opens (creating if needed) the file at ``path`` and migrates it."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            database = cls(db)
            await database.migrate()
        except BaseException:
            await db.close()
            raise
        return database

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Applies the migrations the file has not had yet; returns the new schema version.

        :raises: :exc:`SchemaTooNew` if the file's version is beyond the last migration.
        """
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise SchemaTooNew(f"schema version {version}; this release knows {len(MIGRATIONS)}")
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            script = f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            await self.db.executescript(script)
        return len(MIGRATIONS)

    @asynccontextmanager
    async def transaction(self, *, durable: bool = False) -> AsyncIterator[None]:
        if self._inside.get():
            yield
            return
        async with self._lock:
            token = self._inside.set(True)
            try:
                if durable:
                    await self.db.execute("PRAGMA synchronous = FULL")
                try:
                    await self.db.execute("BEGIN IMMEDIATE")
                    try:
                        yield
                    except BaseException:
                        await self.db.execute("ROLLBACK")
                        raise
                    await self.db.execute("COMMIT")
                finally:
                    if durable:
                        await self.db.execute("PRAGMA synchronous = NORMAL")
            finally:
                self._inside.reset(token)

    async def write(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        """Outside a transaction the statement commits by itself (SQLite's autocommit: one
        round trip to the database thread instead of three)."""
        if self._inside.get():
            return await self._execute(sql, params)
        async with self._lock:
            if not durable:
                return await self._execute(sql, params)
            await self.db.execute("PRAGMA synchronous = FULL")
            try:
                return await self._execute(sql, params)
            finally:
                await self.db.execute("PRAGMA synchronous = NORMAL")

    async def write_many(self, sql: str, rows: Sequence[Params]) -> None:
        async with self.transaction():
            try:
                await self.db.executemany(sql, rows)
            except sqlite3.IntegrityError as error:
                raise IntegrityError(str(error)) from error

    async def insert(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        async with self.transaction(durable=durable):
            row = await self._fetch(sql, params)
        assert row is not None, "an INSERT … RETURNING id returned nothing"
        return int(row[0])

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        return cast(Row | None, await self._fetch(sql, params))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """One round trip to the database thread (a cursor's execute, fetch and close would be
        three, each a wake-up of both threads)."""
        return cast(list[Row], list(await self.db.execute_fetchall(sql, params)))

    @asynccontextmanager
    async def exclusive(self, kind: str, key: int) -> AsyncIterator[None]:
        yield

    @asynccontextmanager
    async def attempt(self, kind: str, key: int) -> AsyncIterator[bool]:
        yield True

    async def lock(self, kind: str, *keys: int) -> None:
        return None

    async def close(self) -> None:
        await self.db.close()

    async def _execute(self, sql: str, params: Params) -> int:
        try:
            cursor = await self.db.execute(sql, params)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error
        return cursor.rowcount

    async def _fetch(self, sql: str, params: Params) -> Any:
        """The first row of a query of at most one (a key, an aggregate, ``LIMIT 1``, an
        ``INSERT … RETURNING``), in one round trip like :meth:`fetch_all`."""
        try:
            rows = await self.db.execute_fetchall(sql, params)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error
        return next(iter(rows), None)
