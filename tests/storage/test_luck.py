"""Migration 19 and the automatic analysis's figures on both backends: a game's luck made
zero-sum in the rows analysed before it (their luck-adjusted results unknown), a match's
figures read in the order its games were played, and an inline message's latest game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import Side
from bot.model import PlayerLuck
from bot.storage import Store, open_database
from bot.storage.migrations import MIGRATIONS
from tests.storage.test_database import _build_schema, _execute_raw

ZERO_SUM = 19


def _game(number: int, match: str = "NULL", game_no: int = 1) -> str:
    return f"""INSERT INTO games (id, chat_id, white_id, black_id, variant, rule_set, game,
                   move_seconds, locale, created_at, match_id, game_no)
               VALUES ({number}, -5, 1, 2, 'short', 'standard', '', 60, 'en', 0, {match},
                   {game_no})"""


def _luck(game: int, side: str, user: int, luck: float) -> str:
    return f"""INSERT INTO game_luck (game_id, side, user_id, variant, luck, pr, error_rate,
                   decisions, rolls, finished_at)
               VALUES ({game}, '{side}', {user}, 'short', {luck}, 5, 10, 20, 25, {game})"""


async def test_a_database_of_schema_18_gets_zero_sum_luck(database: Path | str) -> None:
    assert len(MIGRATIONS) >= ZERO_SUM
    await _build_schema(database, ZERO_SUM - 1)
    await _execute_raw(
        database,
        "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'A', 0), (2, 'B', 0)",
        _game(1),
        _game(2),
        _luck(1, "w", 1, 0.25),  # each side's own rolls, as schema 18 kept them
        _luck(1, "b", 2, -0.125),
        _luck(2, "w", 1, 0.5),  # a game with one side's row only: kept as it was
    )
    db = await open_database(database)
    try:
        assert await db.schema_version() == len(MIGRATIONS)
        luck = Store(db).luck
        white, black = await luck.of_game(1)
        assert (white.side, white.luck) == (Side.WHITE, 0.375)
        assert (black.side, black.luck) == (Side.BLACK, -0.375)
        assert white.result is None and white.luck_points is None and white.adjusted is None
        (alone,) = await luck.of_game(2)
        assert alone.luck == 0.5
    finally:
        await db.close()


async def test_a_matchs_figures_and_an_inline_messages_latest_game(
    database: Path | str,
) -> None:
    db = await open_database(database)
    try:
        store = Store(db)
        await _execute_raw(
            database,
            "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'A', 0), (2, 'B', 0)",
            "INSERT INTO matches (id, length, cube, created_at) VALUES (7, 5, 1, 0)",
            _game(1, "7", 2),  # stored first, played second
            _game(2, "7", 1),
            _game(3),
            "INSERT INTO boards (game_id, chat_id, viewer, inline_message_id)"
            " VALUES (2, 0, 'w', 'AAA'), (1, 0, 'w', 'AAA'), (3, 0, 'w', 'BBB')",
        )
        figures = [
            PlayerLuck(game, user, side, "short", luck, 5.0, 10.0, 20, 25, 0.0, result, points)
            for game, user, side, luck, result, points in (
                (1, 1, Side.WHITE, 0.5, 2.0, 0.75),
                (1, 2, Side.BLACK, -0.5, -2.0, -0.75),
                (2, 1, Side.WHITE, -0.25, -1.0, -0.5),
                (2, 2, Side.BLACK, 0.25, 1.0, 0.5),
                (3, 1, Side.WHITE, 0.125, None, None),
            )
        ]
        for game in (1, 2, 3):
            await store.luck.enqueue(game, 0.0, cap=10)
            job = await store.luck.claim(f"t{game}", 0.0, timeout=60)
            assert job is not None
            assert await store.luck.finish(job, [f for f in figures if f.game_id == job.game_id])
        match = await store.luck.of_match(7)
        assert [(f.game_id, f.side) for f in match] == [
            (2, Side.WHITE),
            (2, Side.BLACK),
            (1, Side.WHITE),
            (1, Side.BLACK),
        ]
        assert match[2] == figures[0] and match[2].adjusted == pytest.approx(1.25)
        assert await store.luck.of_match(8) == []
        assert await store.games.shown_inline("AAA") == 2
        assert await store.games.shown_inline("BBB") == 3
        assert await store.games.shown_inline("CCC") is None
    finally:
        await db.close()
