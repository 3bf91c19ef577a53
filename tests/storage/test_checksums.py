"""Migrations' checksums, on both backends: recorded as each runs, recorded for a database
built before they were kept, and an applied migration edited since is refused."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from bot.storage import MigrationChanged, open_database
from bot.storage import migrations as migrations_module
from bot.storage.migrations import MIGRATIONS, checksum

from .test_database import _build_schema, _execute_raw


async def _recorded(database: Path | str) -> dict[int, str]:
    db = await open_database(database)
    try:
        rows = await db.fetch_all("SELECT version, checksum FROM schema_checksums")
    finally:
        await db.close()
    return {int(row[0]): str(row[1]) for row in rows}


def test_the_checksum_ignores_comments_and_spacing_only() -> None:
    assert doctest.testmod(migrations_module).failed == 0
    script = MIGRATIONS[2]
    assert checksum(script) == checksum(script.replace("\n", "\n\n  ") + "-- later note\n")
    assert checksum(script) != checksum(script.replace("INTEGER", "TEXT", 1))


async def test_each_migration_s_checksum_is_recorded_and_an_edited_one_is_refused(
    database: Path | str,
) -> None:
    expected = {n: checksum(script) for n, script in enumerate(MIGRATIONS, start=1)}
    assert await _recorded(database) == expected
    await _execute_raw(
        database, f"UPDATE schema_checksums SET checksum = '{'0' * 64}' WHERE version = 3"
    )
    with pytest.raises(MigrationChanged, match="^migration 3 was edited after this database had"):
        await open_database(database)


async def test_a_database_built_before_checksums_gets_them_when_first_opened(
    database: Path | str,
) -> None:
    older = len(MIGRATIONS) - 2
    await _build_schema(database, older)  # as an earlier release left it: no checksums
    assert await _recorded(database) == {
        n: checksum(script) for n, script in enumerate(MIGRATIONS, start=1)
    }
