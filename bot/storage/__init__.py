"""Storage: the database (an SQLite file, or a PostgreSQL server that several workers share)
and the repositories that own its SQL."""

from __future__ import annotations

from .database import (
    Database,
    IntegrityError,
    MigrationChanged,
    SchemaTooNew,
    VersionConflict,
    is_postgres_url,
)
from .opening import open_database
from .store import Store

__all__ = [
    "Database",
    "IntegrityError",
    "MigrationChanged",
    "SchemaTooNew",
    "Store",
    "VersionConflict",
    "is_postgres_url",
    "open_database",
]
