"""The database of both backends: migrations, rows round-tripping engine values, optimistic
versions, durability, and what keeps several workers on one PostgreSQL database in step."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.engine import Game, Played, Side, find_variant
from bot.model import WatchResult
from bot.storage import SchemaTooNew, Store, VersionConflict, is_postgres_url, open_database
from bot.storage.database import IntegrityError
from bot.storage.migrations import MIGRATIONS, for_postgres
from bot.storage.postgres import numbered
from bot.storage.sqlite import SqliteDatabase
from tests.engine.strategies import PLAYS, walk
from tests.support.postgres import PostgresServer


async def _execute_raw(database: Path | str, *statements: str) -> None:
    """Runs ``statements`` on the bare database, around the code under test."""
    if is_postgres_url(str(database)):
        conn = await asyncpg.connect(str(database))
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()
        return
    async with aiosqlite.connect(database, isolation_level=None) as raw:
        for statement in statements:
            await raw.executescript(statement)


async def _build_schema(database: Path | str, version: int) -> None:
    """Builds the schema as release ``version`` had it, as that release would have."""
    if is_postgres_url(str(database)):
        scripts = [for_postgres(script) for script in MIGRATIONS[:version]]
        await _execute_raw(
            database,
            "CREATE TABLE schema_version (version INTEGER NOT NULL)",
            *scripts,
            f"INSERT INTO schema_version VALUES ({version})",
        )
        return
    scripts = [f"BEGIN;\n{script}\nPRAGMA user_version = {n};\nCOMMIT;"
               for n, script in enumerate(MIGRATIONS[:version], start=1)]  # fmt: skip
    await _execute_raw(database, *scripts)


async def test_new_database_is_migrated_and_reopening_keeps_it(database: Path | str) -> None:
    db = await open_database(database)
    assert await db.schema_version() == len(MIGRATIONS)
    await db.close()
    db = await open_database(database)
    assert await db.schema_version() == len(MIGRATIONS)
    await db.ping()
    await db.close()


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "w.sqlite3")
    row = await db.fetch_one("PRAGMA journal_mode")
    assert row is not None and row[0] == "wal"
    await db.close()


async def test_an_old_database_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(path) as raw:
        await raw.execute("CREATE TABLE unrelated (x INTEGER)")
        await raw.commit()
    db = await open_database(path)
    assert await db.schema_version() == len(MIGRATIONS)
    await db.close()


async def test_a_database_of_a_newer_release_is_refused(database: Path | str) -> None:
    db = await open_database(database)
    await db.close()
    newer = len(MIGRATIONS) + 1
    if is_postgres_url(str(database)):
        await _execute_raw(database, f"UPDATE schema_version SET version = {newer}")
    else:
        await _execute_raw(database, f"PRAGMA user_version = {newer}")
    with pytest.raises(SchemaTooNew, match=f"schema version {newer}"):
        await open_database(database)


async def test_both_backends_build_the_same_tables_and_columns(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    lite = await open_database(tmp_path / "same.sqlite3")
    tables = [
        row[0]
        for row in await lite.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )
    ]
    columns = {
        table: {row["name"] for row in await lite.fetch_all(f"PRAGMA table_info({table})")}
        for table in tables
    }
    await lite.close()
    pg = await open_database(await postgres.new_database())
    rows = await pg.fetch_all(
        """SELECT table_name, column_name FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name <> 'schema_version'"""
    )
    await pg.close()
    pg_columns: dict[str, set[str]] = {}
    for row in rows:
        pg_columns.setdefault(row["table_name"], set()).add(row["column_name"])
    assert pg_columns == columns
    assert "games" in columns and "deadline" in columns["games"]


def test_parameters_are_numbered_for_postgresql() -> None:
    assert numbered("UPDATE t SET a = ? WHERE b = ? AND c = 'no ? here'") == (
        "UPDATE t SET a = $1 WHERE b = $2 AND c = 'no ? here'",
        2,
    )
    assert numbered("SELECT :me WHERE x = :other OR y = :me") == (
        "SELECT $1 WHERE x = $2 OR y = $1",
        ("me", "other"),
    )
    with pytest.raises(ValueError, match="either"):
        numbered("SELECT ? WHERE x = :me")


async def test_game_round_trips_and_stale_save_fails(database: Path | str) -> None:
    db = await open_database(database)
    store = Store(db)
    for user_id in (1, 2):
        await store.users.upsert(
            user_id, username=f"u{user_id}", first_name="U", language_code="en", now=0
        )
    rng = random.Random(3)
    game = Game.start("long", rng, rules="sheshbesh")
    stored = await store.games.create(
        chat_id=-100,
        white_id=1,
        black_id=2,
        game=game,
        move_seconds=90,
        deadline=100.0,
        locale="ru",
        boards=[(-100, Side.WHITE)],
        now=1.0,
    )
    assert stored.game == game
    assert stored.version == 0
    turn = game.legal_turns()[0]
    played = replace(
        stored, game=game.play(turn), input=(), last_turn=turn.played, history=("w 6-5 24/13",)
    )
    saved = await store.games.save(played, expected_version=0, now=2.0)
    assert saved.version == 1 and saved.game == game.play(turn)
    assert saved.last_turn == turn.played and saved.history == ("w 6-5 24/13",)
    with pytest.raises(VersionConflict):
        await store.games.save(played, expected_version=0, now=3.0)
    reloaded = await store.games.get(stored.id)
    assert reloaded == saved
    await db.close()


async def test_watchers_boards_are_counted_added_once_and_taken_away(
    database: Path | str,
) -> None:
    db = await open_database(database)
    store = Store(db)
    for user_id in range(1, 8):
        await store.users.upsert(user_id, username=None, first_name="U", language_code=None, now=0)
    games = [
        await store.games.create(
            chat_id=0,
            white_id=1,
            black_id=2,
            game=Game.start("long", random.Random(seed)),
            move_seconds=90,
            deadline=None,
            locale="en",
            boards=[(1, Side.WHITE), (2, Side.BLACK)],
            now=0,
            watchable=seed == 1,
        )
        for seed in (1, 2)
    ]
    assert [g.watchable for g in games] == [True, False]
    game_id = games[0].id
    # three at most here; watchers joining at once (on PostgreSQL, on separate connections)
    joined = await asyncio.gather(
        *(store.games.add_watcher(game_id, chat, limit=3) for chat in (3, 4, 5, 6, 3))
    )
    assert sorted(w.value for w in joined).count("added") == 3
    boards = await store.games.boards(game_id)
    assert [b.watcher for b in boards].count(True) == 3 and len(boards) == 5
    assert all(b.viewer is Side.WHITE and b.message_id is None for b in boards if b.watcher)
    watcher = next(b.chat_id for b in boards if b.watcher)
    assert await store.games.add_watcher(game_id, watcher, limit=3) is WatchResult.ALREADY
    assert await store.games.add_watcher(game_id, 7, limit=3) is WatchResult.FULL
    await store.games.add_watcher(games[1].id, watcher, limit=3)
    assert await store.games.remove_watcher(watcher, game_id) == [game_id]
    assert await store.games.remove_watcher(watcher, game_id) == []
    assert await store.games.remove_watcher(watcher) == [games[1].id]
    assert await store.games.remove_watcher(1) == []  # a player's board is not a watcher's
    assert len(await store.games.boards(game_id)) == 4
    await db.close()


async def test_usernames_move_to_their_new_owner_and_updates_are_claimed_once(
    database: Path | str,
) -> None:
    db = await open_database(database)
    store = Store(db)
    await store.users.upsert(1, username="Anna", first_name="A", language_code=None, now=0)
    await store.users.upsert(2, username="anna", first_name="B", language_code=None, now=1)
    owner = await store.users.by_username("@ANNA")
    assert owner is not None and owner.id == 2
    first = await store.users.get(1)
    assert first is not None and first.username is None
    assert await store.updates.claim(10, now=0)
    assert not await store.updates.claim(10, now=1)
    await db.close()


async def test_languages_chosen_by_a_user_and_by_a_group_are_kept(database: Path | str) -> None:
    db = await open_database(database)
    store = Store(db)
    await store.users.upsert(1, username="anna", first_name="A", language_code="ru", now=0)
    await store.users.set_locale(1, "ka")
    await store.users.upsert(1, username="anna", first_name="Anna", language_code="uk", now=1)
    user = await store.users.get(1)  # a new name or app language keeps the choice
    assert user is not None and (user.locale, user.language_code) == ("ka", "uk")
    await store.users.set_locale(1, None)
    user = await store.users.get(1)
    assert user is not None and user.locale is None
    assert await store.chats.locale(-5) is None
    await store.chats.set_locale(-5, "hy", now=2)
    await store.chats.set_locale(-5, "az", now=3)
    await store.chats.set_locale(-6, "kk", now=3)
    assert (await store.chats.locale(-5), await store.chats.locale(-6)) == ("az", "kk")
    await store.chats.move_chat(-5, -1005)  # the group became a supergroup
    assert (await store.chats.locale(-5), await store.chats.locale(-1005)) == (None, "az")
    await store.chats.move_chat(-6, -1005)  # a setting made in the supergroup already wins
    assert await store.chats.locale(-1005) == "az"
    await db.close()


@pytest.mark.parametrize("old_version", [1, 12])  # 12: the last with a game field by field
async def test_games_of_an_older_schema_keep_playing_after_the_migrations(
    database: Path | str, old_version: int
) -> None:
    await _build_schema(database, old_version)
    await _execute_raw(
        database,
        "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'A', 0), (2, 'B', 0)",
        """INSERT INTO games (chat_id, white_id, black_id, variant, rule_set, position, dice,
               moved, ply, move_seconds, locale, created_at)
           VALUES (-1, 1, 2, 'long', 'classic', 'long w / 24:15 / 24:15', '5-2', '', 0,
                   90, 'en', 0)""",
        # a step tapped under schema 1 (one step a word), and the board showing that state
        "UPDATE games SET input = '24/19/5/0', version = 3",
        "INSERT INTO boards (game_id, chat_id, viewer, message_id) VALUES (1, -1, 'w', 7)",
    )
    if old_version >= 3:  # the board's version, recorded since schema 3
        await _execute_raw(database, "UPDATE boards SET shown_version = 3")
    db = await open_database(database)
    assert await db.schema_version() == len(MIGRATIONS)
    store = Store(db)
    stored = await store.games.get(1)
    assert stored is not None
    # a game from before fair dice has no proof, shows no seed, and rolls on regardless
    assert stored.dice_proof is None and stored.revealed_seed is None
    assert stored.game.cube is None and stored.match_id is None
    assert (stored.stake, stored.chips_status) == (0, None)
    assert stored.game.legal_turns()  # still playable
    assert stored.input == ((Played(24, 19, 5),),)  # one tap per old step
    # a board that existed is taken to show its game's version: no edit storm after upgrading
    [board] = await store.games.boards(1)
    assert (board.message_id, board.shown_version) == (7, 3)
    assert await store.games.behind(since=0) == []
    user = await store.users.get(1)
    assert user is not None and not user.quick
    assert user.locale is None  # no language chosen: the Telegram language decides
    assert await store.chats.locale(-1) is None  # nor a group's
    assert not stored.hints  # hints came with schema 5, for new games that agree to them
    assert not stored.watchable  # its players never chose to let anyone watch (schema 10)
    assert not board.watcher
    assert stored.start is None  # a game from the variant's start, as every game before 11
    # the computer's five levels are players like anyone, named by their stars
    computers = [await store.users.get(-level) for level in range(1, 6)]
    assert [c.computer_level if c else None for c in computers] == [1, 2, 3, 4, 5]
    assert computers[2] is not None and computers[2].mention == "AI ★★★☆☆"
    # and it plays on: a turn is saved, a new game gets the next id
    turn = stored.game.legal_turns()[0]
    played = replace(stored, game=stored.game.play(turn), input=())
    assert (await store.games.save(played, expected_version=3, now=5.0)).version == 4
    again = await store.games.create(
        chat_id=-1, white_id=2, black_id=1, game=Game.start("long", random.Random(1)),
        move_seconds=90, deadline=None, locale="en", boards=[(-1, Side.WHITE)], now=6.0,
    )  # fmt: skip
    assert again.id == 2
    await db.close()


GAME_COLUMN = 13
"""The migration that keeps a game in one column, its text (bot/engine/notation.py)."""


def _varied_games() -> list[Game]:
    """Games of every variant, dice mode and rule set, in every kind of state: rolled, a strike
    pending and made, a remainder, a chain, the cube centred, offered, owned, and over (borne
    off, dropped, resigned, lost on time): one game a kind of state and play."""
    games: dict[tuple[object, ...], Game] = {}
    for variant, mode, rules in PLAYS:
        for seed in range(3):
            rng = random.Random(seed)
            cube = find_variant(variant).has_cube and seed != 2
            start = Game.start(variant, rng, rules=rules, dice_mode=mode, cube=cube)
            for game in walk(start, rng, 400):
                kind = (
                    variant, mode, rules, game.dice is not None, game.strike_pending,
                    game.struck is not None, bool(game.remainder), game.chain > 0,
                    game.cube, game.result and game.result.outcome,
                )  # fmt: skip
                games.setdefault(kind, game)
    return list(games.values())


def _release_12_row(game: Game) -> str:
    """The columns release 12 wrote for ``game`` (its own codecs, as they were), as SQL."""
    cube = game.cube
    cube_text = None
    if cube is not None:
        owner = cube.owner.value if cube.owner else "-"
        cube_text = f"{cube.value} {owner}" + (" offered" if cube.offered else "")
    result = game.result
    values = (
        game.variant,
        game.rules.name,
        game.position.to_text(),
        str(game.dice) if game.dice else None,
        "".join(side.value for side in (Side.WHITE, Side.BLACK) if side in game.moved),
        game.ply,
        f"{game.opening[0]}-{game.opening[1]}" if game.opening else None,
        cube_text,
        game.dice_mode.value,
        ",".join(map(str, game.remainder)),
        game.chain,
        game.struck,
        result.winner.value if result else None,
        result.outcome.value if result else None,
        result.points if result else None,
    )
    return ", ".join(
        "NULL" if v is None else str(v) if isinstance(v, int) else f"'{v}'" for v in values
    )


async def test_games_stored_field_by_field_read_back_equal_from_their_text(
    database: Path | str,
) -> None:
    await _build_schema(database, GAME_COLUMN - 1)
    games = _varied_games()
    assert len(games) > 150
    await _execute_raw(
        database,
        "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'A', 0), (2, 'B', 0)",
        *(
            f"""INSERT INTO games (id, chat_id, white_id, black_id, variant, rule_set, position,
                    dice, moved, ply, opening, cube, dice_mode, remainder, chain, struck,
                    winner, outcome, points, move_seconds, locale, created_at)
                VALUES ({number}, -1, 1, 2, {_release_12_row(game)}, 90, 'en', 0)"""
            for number, game in enumerate(games, start=1)
        ),
        # taps as schema 3 and later wrote them, and as schema 2 did (one step a tap)
        "UPDATE games SET input = '24/18/6/0 18/13/5/0|13/7/6/1|', last_turn = '3/0/6/0'"
        " WHERE id = 1",
        "UPDATE games SET input = '24/18/6/0 18/13/5/0' WHERE id = 2",
    )
    db = await open_database(database)
    assert await db.schema_version() == len(MIGRATIONS) >= GAME_COLUMN
    store = Store(db)
    for number, game in enumerate(games, start=1):
        stored = await store.games.get(number)
        assert stored is not None and stored.game == game, game.to_text()
        row = await db.fetch_one("SELECT game FROM games WHERE id = ?", (number,))
        assert row is not None and row["game"] == game.to_text()
    first, second = await store.games.get(1), await store.games.get(2)
    assert first is not None and second is not None
    assert first.input == ((Played(24, 18, 6), Played(18, 13, 5)), (Played(13, 7, 6, True),))
    assert first.last_turn == (Played(3, 0, 6),)
    assert second.input == ((Played(24, 18, 6),), (Played(18, 13, 5),))
    # unfinished games are still found by the copies of the result the queries read
    unfinished = [n for n, game in enumerate(games, start=1) if not game.is_over]
    assert [g.id for g in await store.games.active_for(1)] == unfinished[::-1]
    await db.close()


async def test_durable_writes_commit_at_full_and_the_rest_at_normal(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "d.sqlite3")
    store = Store(db)

    async def level() -> int:
        row = await store.database.fetch_one("PRAGMA synchronous")
        assert row is not None
        return int(row[0])

    assert await level() == 1  # NORMAL
    async with store.transaction(durable=True):
        assert await level() == 2  # FULL while it commits
        async with store.transaction():  # joins the durable one
            assert await level() == 2
    assert await level() == 1
    with pytest.raises(sqlite3.OperationalError):
        async with store.transaction(durable=True):
            await store.database.write("INSERT INTO no_such_table VALUES (1)")
    assert await level() == 1  # back to NORMAL after a rollback too
    await store.database.write("UPDATE users SET quick = 1", durable=True)
    assert await level() == 1
    await db.close()


async def test_durable_writes_queued_together_commit_together_and_fail_alone(
    tmp_path: Path,
) -> None:
    """Durable single writes that queue behind the write lock are committed in one group
    (one sync of the log), each changing its own rows (0 for a stale version) or failing
    alone, on the durable connection at FULL; the next ones in a group of their own."""
    db = await open_database(tmp_path / "g.sqlite3")
    assert isinstance(db, SqliteDatabase)
    for n in range(1, 41):
        await db.write(
            "INSERT INTO users (id, first_name, updated_at) VALUES (?, ?, 0)", (n, f"u{n}")
        )
    before = db.group_commits
    held, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:  # another task's transaction holds the write lock meanwhile
        async with db.transaction():
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await held.wait()
    writes = [
        asyncio.ensure_future(
            db.write("UPDATE users SET quick = 1 WHERE id = ?", (n,), durable=True)
        )
        for n in range(1, 41)
    ]
    failing = asyncio.ensure_future(
        db.write(
            "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'again', 0)",
            durable=True,
        )
    )
    stale = asyncio.ensure_future(
        db.write("UPDATE users SET quick = 1 WHERE id = 999", durable=True)
    )
    await asyncio.sleep(0.05)
    assert not any(w.done() for w in writes)  # waiting for the lock
    release.set()
    await holder
    assert await asyncio.gather(*writes) == [1] * 40
    assert await stale == 0
    with pytest.raises(IntegrityError):
        await failing
    assert db.group_commits - before == 1
    row = await db.fetch_one("SELECT count(*) FROM users WHERE quick = 1")
    assert row is not None and row[0] == 40
    assert await db.write("UPDATE users SET quick = 0 WHERE id = 1", durable=True) == 1
    assert db.group_commits - before == 2
    await db.close()
    # what they committed is in the file, for any other connection
    async with (
        aiosqlite.connect(tmp_path / "g.sqlite3") as raw,
        raw.execute("SELECT count(*) FROM users WHERE quick = 1") as cursor,
    ):
        assert await cursor.fetchone() == (39,)


async def test_postgresql_commits_durably_only_what_must_be(postgres: PostgresServer) -> None:
    db = await open_database(await postgres.new_database())

    async def level() -> str:
        row = await db.fetch_one("SHOW synchronous_commit")
        assert row is not None
        return str(row[0])

    assert await level() == "off"
    async with db.transaction(durable=True):
        assert await level() == "on"
        async with db.transaction():  # joins the durable one
            assert await level() == "on"
    assert await level() == "off"
    await db.close()


async def test_workers_starting_together_migrate_once(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    workers = await asyncio.gather(*(open_database(url) for _ in range(4)))
    assert [await w.schema_version() for w in workers] == [len(MIGRATIONS)] * 4
    computers = await workers[0].fetch_all("SELECT id FROM users WHERE id < 0")
    assert len(computers) == 5  # migration 5 ran once
    for worker in workers:
        await worker.close()


async def test_exclusive_serializes_two_workers_and_attempt_skips_what_is_held(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_database()
    one, two = await open_database(url), await open_database(url)  # two workers' pools
    order: list[str] = []
    entered = asyncio.Event()

    async def hold(db: object, name: str, pause: float) -> None:
        assert isinstance(db, type(one))
        async with db.exclusive("game", 7):
            order.append(f"{name} in")
            entered.set()
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    first = asyncio.create_task(hold(one, "one", 0.3))
    await entered.wait()
    async with two.attempt("game", 7) as claimed:
        assert not claimed  # held by the other worker: skipped, not waited for
    async with two.attempt("game", 8) as claimed:
        assert claimed
    await hold(two, "two", 0)
    await first
    assert order == ["one in", "one out", "two in", "two out"]
    async with two.attempt("game", 7) as claimed:
        assert claimed  # let go of
    await one.close()
    await two.close()


async def test_a_dead_workers_hold_is_let_go(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    survivor = await open_database(url)
    dead = await asyncpg.connect(url)  # a worker's connection, holding game 9
    from bot.storage.database import lock_key

    await dead.execute("SELECT pg_advisory_lock($1)", lock_key("game", 9))
    async with survivor.attempt("game", 9) as claimed:
        assert not claimed
    dead.terminate()  # the process died: the server ends its session
    for _ in range(50):
        async with survivor.attempt("game", 9) as claimed:
            if claimed:
                break
        await asyncio.sleep(0.05)
    assert claimed
    await survivor.close()


async def test_a_block_cancelled_mid_query_leaves_no_lock_on_the_pools_connection(
    postgres: PostgresServer,
) -> None:
    """The pool sends nothing to reset a connection it takes back (no
    ``pg_advisory_unlock_all``), so a block cancelled in the middle of a query must still let
    go of its advisory lock, or close the connection, before the connection is handed out
    again."""
    url = await postgres.new_database()
    db = await open_database(url)
    other = await open_database(url)  # another worker
    entered = asyncio.Event()

    async def hold() -> None:
        async with db.exclusive("game", 11):
            entered.set()
            await db.fetch_one("SELECT pg_sleep(30)")

    task = asyncio.create_task(hold())
    await entered.wait()
    await asyncio.sleep(0.1)
    task.cancel()  # mid-query
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(100):  # the server ends the closed connection's session soon
        async with other.attempt("game", 11) as claimed:
            if claimed:
                break
        await asyncio.sleep(0.05)
    assert claimed
    # every connection the pool hands out now holds nothing: the other worker waits for none
    for _ in range(5):
        async with db.exclusive("game", 11), other.attempt("game", 11) as claimed:
            assert not claimed
        async with other.attempt("game", 11) as claimed:
            assert claimed
    await db.close()
    await other.close()


async def test_a_transaction_cancelled_while_it_begins_leaves_none_open(tmp_path: Path) -> None:
    """A task cancelled while its BEGIN runs on the database's thread (a bot stopping) still
    ends what the thread began: the next transaction starts (it failed with "cannot start a
    transaction within a transaction" when the BEGIN was left open)."""
    db = await open_database(tmp_path / "cancelled.sqlite3")
    try:
        for ticks in range(6):  # cancelled at each point of its first round trips

            async def begins() -> None:
                async with db.transaction():
                    await db.write("UPDATE users SET username = username WHERE id = 0")

            task = asyncio.create_task(begins())
            for _ in range(ticks):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            async with db.transaction():
                await db.write("UPDATE users SET username = username WHERE id = 0")
    finally:
        await db.close()
