"""The database: migrations, rows round-tripping engine values, optimistic versions."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import aiosqlite
import pytest

from bot.engine import Game, Played, Side
from bot.storage import Store, VersionConflict, open_database
from bot.storage.database import MIGRATIONS, schema_version
from bot.storage.games import decode_steps, decode_taps, encode_steps, encode_taps


async def test_new_database_is_migrated_and_reopening_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "nardy.sqlite3"
    db = await open_database(path)
    assert await schema_version(db) == len(MIGRATIONS)
    await db.close()
    db = await open_database(path)
    assert await schema_version(db) == len(MIGRATIONS)
    async with db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"
    await db.close()


async def test_an_old_database_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(path) as raw:
        await raw.execute("CREATE TABLE unrelated (x INTEGER)")
        await raw.commit()
    db = await open_database(path)
    assert await schema_version(db) == len(MIGRATIONS)
    await db.close()


async def test_game_round_trips_and_stale_save_fails(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "g.sqlite3")
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


def test_steps_codec_round_trips() -> None:
    game = Game.start("short", random.Random(5))
    for turn in game.legal_turns():
        assert decode_steps(encode_steps(turn.played)) == turn.played


async def test_usernames_move_to_their_new_owner_and_updates_are_claimed_once(
    tmp_path: Path,
) -> None:
    db = await open_database(tmp_path / "u.sqlite3")
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


async def test_games_of_schema_1_keep_playing_after_the_migrations(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    async with aiosqlite.connect(path, isolation_level=None) as raw:
        await raw.executescript(f"BEGIN;\n{MIGRATIONS[0]}\nPRAGMA user_version = 1;\nCOMMIT;")
        await raw.execute(
            "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'A', 0), (2, 'B', 0)"
        )
        await raw.execute(
            """INSERT INTO games (chat_id, white_id, black_id, variant, rule_set, position, dice,
                   moved, ply, move_seconds, locale, created_at)
               VALUES (-1, 1, 2, 'long', 'classic', 'long w / 24:15 / 24:15', '5-2', '', 0,
                       90, 'en', 0)"""
        )
        # a step tapped under schema 1 (one step a word), and the board showing that state
        await raw.execute("UPDATE games SET input = '24/19/5/0', version = 3")
        await raw.execute(
            "INSERT INTO boards (game_id, chat_id, viewer, message_id) VALUES (1, -1, 'w', 7)"
        )
    db = await open_database(path)
    assert await schema_version(db) == len(MIGRATIONS) == 5
    store = Store(db)
    stored = await store.games.get(1)
    assert stored is not None
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
    assert not stored.hints  # hints came with schema 5, for new games that agree to them
    # the computer's five levels are players like anyone, named by their stars
    computers = [await store.users.get(-level) for level in range(1, 6)]
    assert [c.computer_level if c else None for c in computers] == [1, 2, 3, 4, 5]
    assert computers[2] is not None and computers[2].mention == "AI ★★★☆☆"
    await db.close()


def test_taps_codec_round_trips_and_reads_schema_2_input() -> None:
    taps = ((Played(24, 18, 6), Played(18, 13, 5)), (Played(13, 7, 6, True),))
    assert decode_taps(encode_taps(taps)) == taps
    assert decode_taps("") == () and encode_taps(()) == ""
    assert decode_taps("24/18/6/0 18/13/5/0") == ((Played(24, 18, 6),), (Played(18, 13, 5),))


async def test_durable_writes_commit_at_full_and_the_rest_at_normal(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "d.sqlite3")
    store = Store(db)

    async def level() -> int:
        row = await store.fetch_one("PRAGMA synchronous")
        assert row is not None
        return int(row[0])

    assert await level() == 1  # NORMAL
    async with store.transaction(durable=True):
        assert await level() == 2  # FULL while it commits
        async with store.transaction():  # joins the durable one
            assert await level() == 2
    assert await level() == 1
    with pytest.raises(aiosqlite.OperationalError):
        async with store.transaction(durable=True) as raw:
            await raw.execute("INSERT INTO no_such_table VALUES (1)")
    assert await level() == 1  # back to NORMAL after a rollback too
    await store.write("UPDATE users SET quick = 1", durable=True)
    assert await level() == 1
    await db.close()
