"""The PostgreSQL backend (asyncpg): one database server that several bot processes share.

- **Parameters** ``?`` and ``:name`` are renumbered to ``$1``… once per SQL text
  (:func:`numbered`).
- **Durability**: ``synchronous_commit = off``, like SQLite's ``NORMAL``; a ``durable``
  transaction turns it on for itself.
- **Across workers**: :meth:`~PostgresDatabase.exclusive` is a session advisory lock on the
  connection the block then uses; :meth:`~PostgresDatabase.attempt` its non-waiting form,
  :meth:`~PostgresDatabase.lock` a transaction advisory lock.
- **Connections back to the pool** are not reset with asyncpg's default statements; those
  locks let go of themselves or close their connection (:func:`_unlock`).
- **Schema version**: the one row of ``schema_version``; migrations run under an advisory lock
  and are followed by ``ANALYZE``.
- **Changes** go to the other workers by ``NOTIFY`` on one channel, heard by a connection that
  only ``LISTEN``s (:class:`PostgresChannel`) and reconnects when lost.
- **Outages**: what fails because the server cannot be reached raises
  :exc:`DatabaseUnavailable` (:func:`unavailable`); nothing of it was done.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, TypeAlias, cast

import asyncpg

from .database import (
    Database,
    DatabaseUnavailable,
    IntegrityError,
    MigrationChanged,
    Params,
    Row,
    SchemaTooNew,
    lock_key,
)
from .migrations import (
    CHECKSUMS_TABLE,
    MIGRATIONS,
    backfill_of,
    changed_migration,
    checksum,
    for_postgres,
)

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Connection: TypeAlias = PoolConnectionProxy[asyncpg.Record]

logger = logging.getLogger(__name__)

MIGRATION_LOCK: Final = lock_key("migrations", 0)
CHANNEL: Final = "nardy_changes"
"""The ``NOTIFY`` channel of changes (:class:`PostgresChannel`)."""
RETRY_SECONDS: Final = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
"""Waits between attempts to listen again after the channel's connection was lost."""
POOL_SIZE: Final = 20
"""Connections one worker keeps at most: a game being acted on holds one (see
:meth:`PostgresDatabase.exclusive`), so this many games act at once; more wait their turn."""

_PARAMETER = re.compile(r"'(?:[^']|'')*'|\?|(?<![:\w]):([A-Za-z_]\w*)")


@lru_cache(maxsize=1024)
def numbered(sql: str) -> tuple[str, tuple[str, ...] | int]:
    """``sql`` with its ``?`` or ``:name`` parameters as ``$1``, ``$2``…, and how to order the
    values: the names in the order of their numbers, or how many ``?`` there are.

    >>> numbered("SELECT * FROM t WHERE a = ? AND b = ? AND c = 'x?'")
    ("SELECT * FROM t WHERE a = $1 AND b = $2 AND c = 'x?'", 2)
    >>> numbered("SELECT :me, :other WHERE x = :me")
    ('SELECT $1, $2 WHERE x = $1', ('me', 'other'))
    """
    names: dict[str, int] = {}
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        text = match.group(0)
        if text.startswith("'"):
            return text
        name = match.group(1)
        if name is None:
            count += 1
            return f"${count}"
        if name not in names:
            names[name] = len(names) + 1
        return f"${names[name]}"

    rendered = _PARAMETER.sub(number, sql)
    if names and count:
        raise ValueError("a statement takes either ? or :name parameters, not both")
    return rendered, tuple(names) if names else count


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the server could not be reached, rather than that a statement was
    wrong: a refused or broken socket (an :exc:`OSError`), a connection the server closed
    (class 08), a server shutting down or starting up (57P01-57P03), or the client's own
    confusion over a connection cut in the middle of a statement (seen when the server was
    stopped under a pool: "cannot switch to state…")."""
    if isinstance(error, OSError | asyncpg.PostgresConnectionError):
        return True
    if isinstance(
        error,
        asyncpg.AdminShutdownError | asyncpg.CrashShutdownError | asyncpg.CannotConnectNowError,
    ):
        return True
    if isinstance(error, asyncpg.InternalClientError):
        return True
    return isinstance(error, asyncpg.InterfaceError) and "connection is closed" in str(error)


@contextlib.contextmanager
def _reachable() -> Iterator[None]:
    """Turns a failure to reach the server, inside the block, into :exc:`DatabaseUnavailable`.
    Wrap only the database's own calls in it: an error of a caller's block is not the
    database's."""
    try:
        yield
    except Exception as error:
        if unavailable(error):
            raise DatabaseUnavailable(f"{type(error).__name__}: {error}") from error
        raise


def _arguments(order: tuple[str, ...] | int, params: Params) -> Sequence[Any]:
    if isinstance(order, int):
        assert not isinstance(params, dict), "this statement takes ? parameters"
        return cast(Sequence[Any], params)
    assert isinstance(params, dict), "this statement takes :name parameters"
    return [params[name] for name in order]


def _changed(status: str) -> int:
    """The row count of a command status: ``UPDATE 3`` → 3, ``INSERT 0 1`` → 1."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database."""

    dialect: ClassVar[str] = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str = "") -> None:
        self._pool = pool
        self._changes = PostgresChannel(pool, url)
        # The connection this task holds: in a transaction or an exclusive block.
        self._held: contextvars.ContextVar[Connection | None] = contextvars.ContextVar(
            "held_connection", default=None
        )

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresDatabase:
        """Connects to the database at ``url`` and migrates it."""
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            server_settings={"synchronous_commit": "off", "application_name": "nardy-bot"},
            reset=_keep_session,
        )
        database = cls(pool, url)
        try:
            await database.migrate()
        except BaseException:
            await pool.close()
            raise
        return database

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            if not exists:
                return 0
            return int(await conn.fetchval("SELECT version FROM schema_version") or 0)

    async def migrate(self) -> int:
        """Applies the migrations the database has not had yet, each in its transaction, one
        worker at a time; returns the new schema version.

        :raises: :exc:`SchemaTooNew` if the database's version is beyond the last migration;
            :exc:`MigrationChanged` if one it has had differs from this release's.
        """
        async with self._pool.acquire() as conn:
            await _lock(conn, MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
                )
                version = await conn.fetchval("SELECT version FROM schema_version")
                if version is None:
                    await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                    version = 0
                if version > len(MIGRATIONS):
                    raise SchemaTooNew(
                        f"schema version {version}; this release knows {len(MIGRATIONS)}"
                    )
                await conn.execute(CHECKSUMS_TABLE)
                rows = await conn.fetch("SELECT version, checksum FROM schema_checksums")
                recorded = {int(row[0]): str(row[1]) for row in rows}
                changed = changed_migration(recorded, version)
                if changed is not None:
                    raise MigrationChanged(changed)
                for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                    async with conn.transaction():
                        await conn.execute(for_postgres(script))
                        if (backfill := backfill_of(script)) is not None:
                            counter = backfill.counter()
                            async for row in conn.cursor(numbered(backfill.read)[0]):
                                counter.add(tuple(row))
                            await conn.executemany(numbered(backfill.write)[0], counter.rows())
                        await conn.execute("UPDATE schema_version SET version = $1", number)
                        await conn.execute(
                            "INSERT INTO schema_checksums VALUES ($1, $2)", number, checksum(script)
                        )
                await conn.executemany(  # those applied before checksums were kept
                    "INSERT INTO schema_checksums VALUES ($1, $2)",
                    [
                        (n, checksum(MIGRATIONS[n - 1]))
                        for n in range(1, version + 1)
                        if n not in recorded
                    ],
                )
                if version < len(MIGRATIONS):
                    # the planner's statistics for what the migrations added (a column's values,
                    # a partial index's few rows): without them it may plan a whole table
                    await conn.execute("ANALYZE")
            finally:
                await _unlock(conn, MIGRATION_LOCK)
        return len(MIGRATIONS)

    @asynccontextmanager
    async def transaction(self, *, durable: bool = False) -> AsyncIterator[None]:
        held = self._held.get()
        if held is not None and held.is_in_transaction():
            yield
            return
        with self._outermost() as committed:
            async with self._connection() as conn:
                transaction = conn.transaction()
                with _reachable():
                    await transaction.start()
                    if durable:
                        await conn.execute("SET LOCAL synchronous_commit = on")
                try:
                    yield
                except BaseException:
                    try:
                        await transaction.rollback()
                    except Exception as error:  # the block's own error says more
                        if not unavailable(error):
                            raise
                    raise
                with _reachable():
                    await transaction.commit()
            committed()

    async def write(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        if durable and not self._in_transaction():
            async with self.transaction(durable=True):
                return await self.write(sql, params)
        return _changed(await self._statement("execute", sql, params))

    async def write_many(self, sql: str, rows: Sequence[Params]) -> None:
        text, order = numbered(sql)
        async with self.transaction(), self._connection() as conn, _integrity():
            with _reachable():
                await conn.executemany(text, [_arguments(order, row) for row in rows])

    async def insert(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        async with self.transaction(durable=durable):
            row = await self.fetch_one(sql, params)
        assert row is not None, "an INSERT … RETURNING id returned nothing"
        return int(row[0])

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        return cast(Row | None, await self._statement("fetchrow", sql, params))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return cast(list[Row], await self._statement("fetch", sql, params))

    @asynccontextmanager
    async def exclusive(self, kind: str, key: int) -> AsyncIterator[None]:
        number = lock_key(kind, key)
        async with self._connection() as conn:
            with _reachable():
                await _lock(conn, number)
            try:
                yield
            finally:
                with _reachable():
                    await _unlock(conn, number)

    @asynccontextmanager
    async def attempt(self, kind: str, key: int) -> AsyncIterator[bool]:
        number = lock_key(kind, key)
        async with self._connection() as conn:
            try:
                with _reachable():
                    taken = await conn.fetchval("SELECT pg_try_advisory_lock($1)", number)
            except BaseException:
                conn.terminate()  # it may hold the lock now: see _unlock
                raise
            if not taken:
                yield False
                return
            try:
                yield True
            finally:
                with _reachable():
                    await _unlock(conn, number)

    async def lock(self, kind: str, *keys: int) -> None:
        held = self._held.get()
        assert held is not None and held.is_in_transaction(), "lock() outside a transaction"
        numbers = sorted({lock_key(kind, key) for key in keys})
        with _reachable():
            await held.execute(
                "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k",
                numbers,
            )

    @property
    def changes(self) -> PostgresChannel:
        return self._changes

    async def close(self) -> None:
        await self._changes.close()
        await self._pool.close()

    def _in_transaction(self) -> bool:
        held = self._held.get()
        return held is not None and held.is_in_transaction()

    async def _statement(
        self, run: Literal["execute", "fetchrow", "fetch"], sql: str, params: Params
    ) -> Any:
        """Runs one statement with ``run`` (a connection's method): on the connection this
        task holds, else on one taken from the pool for it alone. Most statements are on
        their own, so this path spares them the context managers of :meth:`_connection`."""
        text, order = numbered(sql)
        arguments = _arguments(order, params)
        try:
            held = self._held.get()
            if held is not None:
                return await getattr(held, run)(text, *arguments)
            async with self._pool.acquire() as conn:
                return await getattr(conn, run)(text, *arguments)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error
        except Exception as error:
            if unavailable(error):
                raise DatabaseUnavailable(f"{type(error).__name__}: {error}") from error
            raise

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """The connection this task holds, or one from the pool, held until the block ends."""
        held = self._held.get()
        if held is not None:
            yield held
            return
        with _reachable():
            conn = await self._pool.acquire()
        token = self._held.set(conn)
        try:
            yield conn
        finally:
            self._held.reset(token)
            await self._pool.release(conn)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset of a connection given back: nothing to send (see the module's notes);
    asyncpg has already rolled back a transaction left open."""


async def _lock(conn: Connection, number: int) -> None:
    """Takes the session advisory lock ``number`` on ``conn``."""
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", number)
    except BaseException:  # cancelled while waiting: the server may grant it all the same
        conn.terminate()
        raise


async def _unlock(conn: Connection, number: int) -> None:
    """Lets go of the session advisory lock ``number``; if that fails (the task cancelled, the
    connection broken), closes the connection, which lets go of it on the server, so that no
    lock outlives its block on a connection back in the pool."""
    try:
        await conn.execute("SELECT pg_advisory_unlock($1)", number)
    except BaseException:
        conn.terminate()
        raise


@asynccontextmanager
async def _integrity() -> AsyncIterator[None]:
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as error:
        raise IntegrityError(str(error)) from error


class PostgresChannel:
    """``NOTIFY`` through the pool, ``LISTEN`` on a connection of its own (see the module)."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._url = url
        self._listener: asyncpg.Connection | None = None
        self._receive: Callable[[str], None] | None = None
        self._resumed: Callable[[], None] = lambda: None
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False

    async def send(self, messages: Sequence[str]) -> None:
        await self._pool.execute(
            "SELECT pg_notify($1, m) FROM unnest($2::text[]) WITH ORDINALITY AS s(m, n) ORDER BY n",
            CHANNEL,
            list(messages),
        )

    async def listen(self, receive: Callable[[str], None], resumed: Callable[[], None]) -> None:
        self._receive, self._resumed = receive, resumed
        await self._connect()

    async def _connect(self) -> None:
        connection = await asyncpg.connect(
            self._url, server_settings={"application_name": "nardy-bot listen"}
        )
        await connection.add_listener(CHANNEL, self._heard)
        connection.add_termination_listener(self._lost)
        self._listener = connection

    def _heard(self, _connection: object, _pid: int, _channel: str, payload: object) -> None:
        if self._receive is not None:
            self._receive(str(payload))

    def _lost(self, _connection: object) -> None:
        if self._closed or self._reconnecting is not None:
            return
        logger.warning("the change channel's connection was lost; connecting again")
        self._reconnecting = asyncio.get_running_loop().create_task(
            self._reconnect(), name="changes-reconnect"
        )

    async def _reconnect(self) -> None:
        try:
            attempt = 0
            while not self._closed:
                await asyncio.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
                attempt += 1
                try:
                    await self._connect()
                except (OSError, asyncpg.PostgresError) as error:
                    logger.info("the change channel cannot connect yet: %s", error)
                    continue
                logger.info("the change channel listens again")
                self._resumed()
                return
        finally:
            self._reconnecting = None

    async def close(self) -> None:
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnecting
        if self._listener is not None and not self._listener.is_closed():
            with contextlib.suppress(Exception):
                await self._listener.close(timeout=2)
        self._listener = None
