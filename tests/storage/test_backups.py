"""``python -m bot backup`` and ``restore`` given bad input, on both backends: a clear refusal
and nothing changed (the database restored over is kept when the file is no backup)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.maintenance import Refused, backup, restore
from bot.storage import Store, open_database
from bot.storage.migrations import MIGRATIONS


async def _users(database: Path | str) -> list[int]:
    db = await open_database(database)
    try:
        rows = await db.fetch_all("SELECT id FROM users WHERE id > 0 ORDER BY id")
    finally:
        await db.close()
    return [int(row[0]) for row in rows]


async def test_a_file_that_is_no_backup_is_refused_and_the_database_kept(
    migrated_database: Path | str, tmp_path: Path
) -> None:
    db = await open_database(migrated_database)
    await Store(db).users.upsert(42, username="kept", first_name="K", language_code="en", now=1)
    await db.close()
    junk = tmp_path / "junk.backup"
    junk.write_text("not a backup at all\n" * 100)
    with pytest.raises(Refused, match="backup|pg_restore"):
        await asyncio.to_thread(restore, junk, migrated_database, replace=True)
    with pytest.raises(Refused, match="no backup at"):
        await asyncio.to_thread(restore, tmp_path / "missing", migrated_database, replace=True)
    assert await _users(migrated_database) == [42]


def test_sqlite_backups_refuse_what_they_cannot_do(tmp_path: Path) -> None:
    with pytest.raises(Refused, match="no database at"):
        backup(tmp_path / "missing.sqlite3", tmp_path / "out")
    assert not (tmp_path / "out").exists() and not list(tmp_path.iterdir())
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(Refused, match=f"this release knows {len(MIGRATIONS)}"):
        restore(newer, tmp_path / "target.sqlite3")
