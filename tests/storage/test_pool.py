"""Migration 14, the pool's tables: built on both backends, added to a database of schema 13
with its rows kept, and the pool's rows read back as written."""

from __future__ import annotations

from pathlib import Path

from bot.engine import DiceMode
from bot.model import Seeker, SeekerChoice, Terms
from bot.storage import Store, open_database
from bot.storage.migrations import MIGRATIONS
from tests.storage.test_database import _build_schema, _execute_raw

POOL = 14


async def test_a_database_of_schema_13_gets_the_pool_and_keeps_its_rows(
    database: Path | str,
) -> None:
    assert len(MIGRATIONS) >= POOL
    await _build_schema(database, POOL - 1)
    await _execute_raw(
        database, "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'A', 0)"
    )
    db = await open_database(database)
    try:
        assert await db.schema_version() == len(MIGRATIONS)
        store = Store(db)
        user = await store.users.get(1)
        assert user is not None and user.first_name == "A"
        assert await store.pool.get(1) is None and await store.pool.choice(1) is None
    finally:
        await db.close()


async def test_seekers_and_choices_round_trip(database: Path | str) -> None:
    db = await open_database(database)
    try:
        pool = Store(db).pool
        terms = Terms(
            variant="short",
            rule_set="classic",
            match_length=3,
            dice_mode=DiceMode.THREE,
            move_seconds=45,
            stake=5,
        )
        group = -1001234567890123  # a supergroup's id needs more than 32 bits
        stored = await pool.put(Seeker(2**40, group, terms, 1612.5, 1_000_000.25, 30))
        assert stored == Seeker(2**40, group, terms, 1612.5, 1_000_000.25, 30, False, 0)
        plain = await pool.put(Seeker(7, group, Terms(variant="short"), 1500, 1_000_001, 60))
        assert plain.terms == Terms(variant="short")
        assert await pool.candidates(plain) == []  # other terms
        same = await pool.put(Seeker(8, group, terms, 1500, 1_000_002, 60))
        assert await pool.candidates(same) == [stored]
        assert not await pool.remove(Seeker(2**40, group, terms, 0, 0, 0, version=5))
        assert await pool.remove(stored) and await pool.get(2**40) is None
        await pool.remember(7, SeekerChoice(terms, 90), 1_000_003)
        await pool.remember(7, SeekerChoice(Terms(move_seconds=None), 60), 1_000_004)
        assert await pool.choice(7) == SeekerChoice(Terms(), 60)
    finally:
        await db.close()
