"""Forgetting a user, on both backends: after it no row of any table (enumerated from the
database's own schema, so a table added later is covered) holds the user's id, name or
@username; the opponent keeps their games, ratings and chips; refused while the user plays.

Every table is seeded from the schema itself (:func:`_seed_every_table`): the user's id in
every column that can hold a person's id (all ``*_id`` and ``id``-named columns but those in
:data:`NOT_A_PERSON`), their name and @username in the name columns, so a new table or column
is seeded as a person's unless the test is told otherwise.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.model import is_forgotten
from bot.services.privacy import PrivacyService, StillPlaying
from bot.services.users import Users
from bot.storage import Store, open_database
from bot.storage.migrations import CHECKSUMS_TABLE, MIGRATIONS
from bot.storage.privacy import PERSONAL_COLUMNS

ME, OTHER = 7_000_000_001, 7_000_000_002
"""Ids that no counter of the seeded rows reaches, so that any cell equal to ``ME`` is mine."""
MY_NAME, MY_USERNAME = "Zebulonia", "zebulonia_q"
NAME_COLUMNS = frozenset({"username", "first_name", "target_username"})
NOT_A_PERSON = frozenset(
    {
        "game_id", "source_game_id", "challenge_id", "match_id", "tournament_id",
        "position_id", "update_id", "inline_message_id", "message_id", "pinned_id", "file_id",
        "picker_id",
    }
)  # fmt: skip
"""Id-named columns that name a thing, not a person: the seed points them at its own rows."""
GROUP_ONLY = frozenset({("tournaments", "chat_id"), ("tournament_games", "chat_id")})
"""Chat columns that only ever hold a group (``/tournament`` is refused in private)."""
GROUP = -1_000_000_123


def _schema() -> dict[str, list[tuple[str, str, bool, bool, str | None]]]:
    """Every table's columns (name, type, NOT NULL without a default, primary key, the table
    a foreign key points to), read from an SQLite database built by the migrations, in an
    order where each table comes after those it points to."""
    db = sqlite3.connect(":memory:")
    db.execute(CHECKSUMS_TABLE)
    for script in MIGRATIONS:
        db.executescript(script)
    tables: dict[str, list[tuple[str, str, bool, bool, str | None]]] = {}
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in names:
        refs = {r[3]: r[2] for r in db.execute(f"PRAGMA foreign_key_list({table})")}
        tables[table] = [
            (r[1], r[2], bool(r[3]) and r[4] is None, bool(r[5]), refs.get(r[1]))
            for r in db.execute(f"PRAGMA table_info({table})")
        ]
    ordered: dict[str, list[tuple[str, str, bool, bool, str | None]]] = {}
    while len(ordered) < len(tables):
        for table, columns in tables.items():
            needs = {ref for *_, ref in columns if ref and ref != table}
            if table not in ordered and needs <= ordered.keys():
                ordered[table] = columns
    return ordered


def _person(column: str) -> bool:
    return (column.endswith("_id") or column == "id") and column not in NOT_A_PERSON


def _value(table: str, column: str, kind: str, ref: str | None, ids: dict[str, int]) -> Any:
    if (table, column) in GROUP_ONLY:
        return GROUP
    if ref == "users" or (ref is None and _person(column)):
        return ME
    if ref is not None:
        return ids[ref]
    if column in NAME_COLUMNS:
        return MY_NAME if column == "first_name" else MY_USERNAME
    return {"INTEGER": 1, "REAL": 1.0}.get(kind, "x")


async def _seed_every_table(store: Store) -> set[str]:
    """One row in every table with me in every person's column; returns the tables seeded."""
    db = store.database
    ids: dict[str, int] = {}
    seeded = set()
    for table, columns in _schema().items():
        if table == "users":
            await store.users.upsert(
                ME, username=MY_USERNAME, first_name=MY_NAME, language_code="en", now=1
            )
            ids["users"] = ME
            seeded.add(table)
            continue
        if table == "schema_checksums":
            seeded.add(table)  # the migrations' own rows
            continue
        values = {  # what must be given, and every column that can name a person
            name: _value(table, name, kind, ref, ids)
            for name, kind, required, primary, ref in columns
            if not (primary and name == "id")
            and (required or primary or ref or name in NAME_COLUMNS or _person(name))
        }
        names = ", ".join(values)
        marks = ", ".join(f":{name}" for name in values)
        if any(name == "id" and primary for name, _k, _r, primary, _f in columns):
            ids[table] = await db.insert(
                f"INSERT INTO {table} ({names}) VALUES ({marks}) RETURNING id", values
            )
        else:
            await db.write(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)
        seeded.add(table)
    return seeded


async def _tables(store: Store) -> dict[str, list[str]]:
    """Every table and its columns, as the database itself lists them."""
    if store.database.dialect == "sqlite":
        rows = await store.database.fetch_all(
            """SELECT m.name AS t, p.name AS c
               FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table'"""
        )
    else:
        rows = await store.database.fetch_all(
            """SELECT table_name AS t, column_name AS c FROM information_schema.columns
               WHERE table_schema = 'public'"""
        )
    tables: dict[str, list[str]] = {}
    for row in rows:
        tables.setdefault(str(row["t"]), []).append(str(row["c"]))
    return tables


async def _cells_about_me(store: Store) -> list[str]:
    """``table.column`` of every cell that holds my id, my name or my @username."""
    found = []
    for table, columns in (await _tables(store)).items():
        for row in await store.database.fetch_all(f"SELECT * FROM {table}"):
            for column in columns:
                value = row[column]
                if isinstance(value, str):
                    hit = str(ME) in value or MY_NAME in value or MY_USERNAME in value
                else:
                    hit = value == ME
                if hit:
                    found.append(f"{table}.{column}")
    return found


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    db = await open_database(database)
    yield Store(db)
    await db.close()


async def test_every_table_says_which_of_its_columns_name_a_person(store: Store) -> None:
    tables = await _tables(store)
    if store.database.dialect == "postgresql":
        del tables["schema_version"]  # the version's one row (SQLite keeps it in its header)
    assert set(PERSONAL_COLUMNS) == set(tables)  # a new table: say what /forget does with it
    for table, columns in PERSONAL_COLUMNS.items():
        assert columns <= set(tables[table]), table


async def test_forgetting_leaves_no_row_holding_the_user_and_keeps_the_opponents_records(
    store: Store,
) -> None:
    seeded = await _seed_every_table(store)
    tables = await _tables(store)
    assert seeded | {"schema_version"} >= set(tables)  # every table of the schema has a row
    # and a finished game against an opponent, with its chips and both ratings
    await store.users.upsert(OTHER, username="opp", first_name="Opp", language_code="ru", now=1)
    db = store.database
    game = await db.insert(
        """INSERT INTO games (chat_id, white_id, black_id, variant, rule_set, move_seconds,
                              locale, created_at, finished_at, winner, outcome, points, game)
           VALUES (-100, ?, ?, 'long', 'classic', 60, 'en', 1, 2, 'b', 'mars', 2, 'g')
           RETURNING id""",
        (ME, OTHER),
    )
    for user, rating in ((ME, 1400.0), (OTHER, 1600.0)):
        await db.write("INSERT INTO ratings VALUES (?, 'short', ?, 50, 0.06, 3)", (user, rating))
    await db.write("INSERT INTO wallets VALUES (?, 120, 1)", (OTHER,))
    await db.write(
        """INSERT INTO ledger (user_id, delta, balance, kind, game_id, other_id, created_at)
           VALUES (?, 20, 120, 'game', ?, ?, 2)""",
        (OTHER, game, ME),
    )
    before = await _cells_about_me(store)
    assert {"games.white_id", "users.first_name", "challenges.target_username"} <= set(before)

    privacy = PrivacyService(store, Users(store))
    with pytest.raises(StillPlaying) as playing:  # the seeded game has no result yet
        await privacy.forget(ME)
    assert playing.value.holding.games and await _cells_about_me(store) == before
    await db.write("UPDATE games SET winner = 'w', finished_at = 3 WHERE winner IS NULL")
    await db.write("UPDATE matches SET winner = 'w'")
    await db.write("UPDATE tournaments SET state = 'finished'")

    assert await privacy.forget(ME)
    assert await _cells_about_me(store) == []
    assert await store.users.get(ME) is None
    row = await db.fetch_one("SELECT white_id, black_id, winner FROM games WHERE id = ?", (game,))
    assert row is not None and is_forgotten(row["white_id"]) and row["black_id"] == OTHER
    pseudonym = await store.users.get(row["white_id"])
    assert pseudonym is not None and pseudonym.forgotten and pseudonym.username is None
    assert not pseudonym.first_name
    ratings = await db.fetch_all("SELECT user_id, rating FROM ratings WHERE variant = 'short'")
    assert [(r["user_id"], r["rating"]) for r in ratings] == [(OTHER, 1600.0)]
    ledger = await db.fetch_one("SELECT user_id, other_id FROM ledger WHERE game_id = ?", (game,))
    assert ledger is not None and ledger["user_id"] == OTHER
    assert ledger["other_id"] == row["white_id"]
    assert (await store.users.get(OTHER)) is not None
    assert not await privacy.forget(ME)  # nothing left to forget


async def test_forgetting_someone_the_bot_never_met_changes_nothing(store: Store) -> None:
    assert not await PrivacyService(store, Users(store)).forget(ME)
    rows = await store.database.fetch_all("SELECT id FROM users WHERE id >= ?", (2**52,))
    assert rows == []  # no pseudonym was left behind
