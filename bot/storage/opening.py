"""Opening the database a URL or a path names: the one place that knows both backends (the
backends know only :class:`~.database.Database`, the base they implement)."""

from __future__ import annotations

from pathlib import Path

from .database import Database, is_postgres_url
from .sqlite import SqliteDatabase


async def open_database(target: Path | str) -> Database:
    """Opens the database ``target`` names, migrating it to the latest schema: a
    ``postgresql://`` URL, else an SQLite file's path (created if needed).

    :raises: :exc:`~.database.SchemaTooNew` if a newer release has migrated it.
    """
    if isinstance(target, str) and is_postgres_url(target):
        from .postgres import PostgresDatabase  # asyncpg is loaded only for PostgreSQL

        return await PostgresDatabase.open(target)
    return await SqliteDatabase.open(target)
