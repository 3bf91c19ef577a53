"""Migration 20's running totals and indexes: the totals it backfills from a database's games
are those the bot adds up game by game, and every statement a command or a tick runs is planned
on an index that bounds it (EXPLAIN on both backends, over a small seed: cheap, but a plan that
reads a whole table shows as one whatever the size)."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Game, Outcome, Result, Side, starting_position
from bot.model import DiceProof, Seeker, Terms
from bot.storage import Store, open_database
from bot.storage import stats as stats_module
from bot.storage.database import Database
from tests.storage.test_database import _build_schema, _execute_raw

BEFORE_TOTALS = 19
"""A schema from before the totals (the games' columns as the rows below write them); opening
the database runs every migration after it."""
PLAYERS = (1, 2, 3, -3)  # -3: the computer at level 3
GROUPS = (-50, -60)


def _games(seed: int, count: int) -> list[dict[str, Any]]:
    """Finished games among ``PLAYERS`` in order of finishing, of every kind that counts
    differently: in a group or private or inline, from a chosen position, with fair dice."""
    rng = random.Random(seed)
    games = []
    for number in range(1, count + 1):
        white, black = rng.sample(PLAYERS, 2)
        outcome = rng.choice([Outcome.OIN, Outcome.MARS, Outcome.KOKS, Outcome.HOME_MARS])
        rolls = [f"0 w {rng.randint(1, 6)}", f"1 b {rng.randint(1, 6)}"]
        rolls += [
            f"{2 + 2 * n} {'wb'[n % 2]} " + "-".join(str(rng.randint(1, 6)) for _ in range(k))
            for n in range(rng.randint(0, 9))
            for k in [rng.choice((2, 2, 2, 3))]
        ]
        games.append(
            {
                "white": white,
                "black": black,
                "result": Result(rng.choice(list(Side)), outcome, rng.randint(1, 4)),
                "chat": rng.choice((0, *GROUPS)),
                "instance": rng.choice((None, None, "inst")),
                "start": rng.random() < 0.15,
                "rolls": "\n".join(rolls) if rng.random() < 0.8 else None,
                "finished": 100.0 + number,
            }
        )
    return games


async def _users(db: Database) -> None:
    for user_id in PLAYERS:
        if user_id > 0:
            await db.write(
                "INSERT INTO users (id, first_name, updated_at) VALUES (?, ?, 0)",
                (user_id, f"P{user_id}"),
            )


async def _finish_live(store: Store, games: list[dict[str, Any]]) -> None:
    """The games as the bot plays them: started, then each result saved in order."""
    for spec in games:
        proof = None
        if spec["rolls"] is not None:
            proof = DiceProof("c" * 64, "7", b"\x01" * 32, ())
        stored = await store.games.create(
            chat_id=spec["chat"],
            white_id=spec["white"],
            black_id=spec["black"],
            game=Game.start("long", random.Random(1)),
            move_seconds=60,
            deadline=None,
            locale="en",
            boards=(),
            now=0,
            chat_instance=spec["instance"],
            dice_proof=proof,
            start=starting_position("long") if spec["start"] else None,
        )
        if proof is not None:
            await store.database.write(  # the rolls as the game made them
                "UPDATE games SET dice_rolls = ? WHERE id = ?", (spec["rolls"], stored.id)
            )
            stored = await store.games.get(stored.id)
            assert stored is not None
        ended = replace(stored, game=replace(stored.game, dice=None, result=spec["result"]))
        await store.games.save(ended, expected_version=stored.version, now=spec["finished"])


def _raw_row(number: int, spec: dict[str, Any]) -> str:
    game = Game.start("long", random.Random(1))
    text = replace(game, dice=None, result=spec["result"]).to_text()
    result: Result = spec["result"]

    def sql(value: object) -> str:
        if value is None:
            return "NULL"
        if isinstance(value, str):
            return "'" + value.replace("'", "''") + "'"
        return str(value)

    start = starting_position("long").to_text() if spec["start"] else None
    return f"""INSERT INTO games (id, chat_id, white_id, black_id, variant, rule_set, game,
                   winner, outcome, points, move_seconds, locale, created_at, finished_at,
                   chat_instance, dice_seed, dice_commitment, dice_client, dice_rolls, start)
               VALUES ({number}, {spec["chat"]}, {spec["white"]}, {spec["black"]}, 'long',
                   'classic', {sql(text)}, '{result.winner.value}', '{result.outcome.value}',
                   {result.points}, 60, 'en', 0, {spec["finished"]}, {sql(spec["instance"])},
                   {sql("ab" * 32 if spec["rolls"] is not None else None)}, 'c', '7',
                   {sql(spec["rolls"] or "")}, {sql(start)})"""


async def _totals(store: Store) -> dict[str, object]:
    players = [p for p in PLAYERS if p > 0]
    return {
        "stats": [await store.stats.player(p) for p in players],
        "dice": [await store.stats.rolls(p) for p in PLAYERS],
        "pairs": [await store.games.head_to_head(a, b) for a in PLAYERS for b in PLAYERS],
        "top": [
            [(s.user.id, s.games, s.wins, s.points) for s in await store.games.top(g)]
            for g in GROUPS
        ],
        "inline": [(s.user.id, s.points) for s in await store.games.top_in_instance("inst")],
    }


async def test_the_backfilled_totals_are_those_added_up_game_by_game(
    database: Path | str, tmp_path: Path
) -> None:
    games = _games(seed=20, count=40)
    await _build_schema(database, BEFORE_TOTALS)
    await _execute_raw(
        database,
        "INSERT INTO users (id, first_name, updated_at) VALUES (1, 'P1', 0), (2, 'P2', 0),"
        " (3, 'P3', 0)",
        *(_raw_row(number, spec) for number, spec in enumerate(games, start=1)),
    )
    migrated = await open_database(database)  # migration 20 backfills the totals
    live = await open_database(tmp_path / "live.sqlite3")
    try:
        await _users(live)
        await _finish_live(Store(live), games)
        backfilled, added = await _totals(Store(migrated)), await _totals(Store(live))
        assert backfilled == added
        assert any(stats.games for stats in backfilled["stats"])  # type: ignore[attr-defined]
    finally:
        await migrated.close()
        await live.close()


BIG = ("games", "boards", "users", "seekers", "standings", "pair_totals", "ratings")
INDEXES = (
    "games_remind",  # the reminders due, not every game in progress
    "games_unshown",
    "standings_rank",
    "games_white_finished",
    "games_black_finished",
    "games_pair",
    "seekers_since",
    "seekers_rating",
)
WALKED = "ratings_rank"
"""A large group's rating table walks the ratings: SQLite does as it is told; PostgreSQL picks
between that and joining the group's players by its statistics (both bounded)."""
QUEUES = ("games_unshown", "tournaments_behind")
"""Partial indexes that hold only what is due: read whole, they are bounded by what they
return."""


async def test_every_command_and_tick_reads_from_an_index(
    database: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await open_database(database)
    store = Store(db)
    statements: dict[str, Any] = {}
    for name in ("fetch_all", "fetch_one"):
        original = getattr(db, name)

        def recorded(sql: str, params: Any = (), _original: Any = original) -> Any:
            statements.setdefault(sql, params)
            return _original(sql, params)

        setattr(db, name, recorded)
    try:
        await _users(db)
        await _finish_live(store, _games(seed=3, count=6))
        await store.pool.put(Seeker(1, 0, Terms(), 1500, 90.0))
        seeker = Seeker(2, 0, Terms(), 1600, 95.0)
        statements.clear()
        await store.games.top(GROUPS[0])
        await store.games.top_in_instance("inst")
        await store.stats.top_rated(GROUPS[0], "long")
        monkeypatch.setattr(stats_module, "_WALK_FROM", 1)  # a large group's, walked
        await store.stats.top_rated(GROUPS[0], "long")
        await store.stats.recent(user_id=1)
        await store.stats.recent(chat_id=GROUPS[0])
        await store.stats.player(1)
        await store.stats.rolls(1)
        await store.games.head_to_head(1, 2)
        await store.games.finished_between(1, 2, "long", 0, besides=0)
        await store.matches.latest_between(1, 2)
        await store.games.active_for(1)
        await store.games.due(1e12)
        await store.games.to_remind(1e12, min_seconds=3600)
        await store.games.behind(0)
        await store.tournaments.behind()
        await store.pool.entered_within([(0, 100), (10, 200)])
        await store.pool.within_reach([(seeker, 350), (seeker, math.inf)])
        whole, used = {}, ""
        for sql, params in list(statements.items()):
            plan = await _plan(db, sql, params)
            used += "\n".join(plan)
            scans = [step for step in plan if _reads_whole(step, db.dialect)]
            if scans:
                whole[" ".join(sql.split())[:120]] = scans
        assert whole == {}
        # and each of migration 20's indexes bounds what it was made for
        expected = INDEXES + ((WALKED,) if db.dialect == "sqlite" else ())
        assert [index for index in expected if index not in used] == []
        assert len(statements) >= 17
    finally:
        await db.close()


async def _plan(db: Database, sql: str, params: Any) -> list[str]:
    if db.dialect == "sqlite":
        return [row["detail"] for row in await db.fetch_all("EXPLAIN QUERY PLAN " + sql, params)]
    async with db.transaction():  # the index wherever there is one, however small the seed
        await db.write("SET LOCAL enable_seqscan = off")
        return [row[0] for row in await db.fetch_all("EXPLAIN " + sql, params)]


def _reads_whole(step: str, dialect: str) -> bool:
    step = step.strip().lstrip("->").strip()
    if any(f" {index} " in f" {step} " for index in QUEUES):
        return False
    if dialect == "postgresql":
        return any(f"Seq Scan on {table}" in step for table in BIG)
    return any(
        step == f"SCAN {table}" or step.startswith(f"SCAN {table} ") and "(" not in step
        for table in BIG
    )


async def test_the_games_behind_are_those_marked_and_the_shown_are_unmarked(
    database: Path | str,
) -> None:
    db = await open_database(database)
    store = Store(db)

    async def marked() -> list[int]:
        rows = await db.fetch_all("SELECT id FROM games WHERE unshown <> 0 ORDER BY id")
        return [row["id"] for row in rows]

    try:
        await _users(db)
        stored = await store.games.create(
            chat_id=0,
            white_id=1,
            black_id=2,
            game=Game.start("long", random.Random(1)),
            move_seconds=60,
            deadline=None,
            locale="en",
            boards=((1, Side.WHITE), (2, Side.BLACK)),
            now=0,
        )
        assert await store.games.behind(0) == [stored.id] == await marked()  # not sent yet
        for chat in (1, 2):  # as a worker sharing the database records it, board by board
            await store.games.set_board_shown(stored.id, chat, stored.version, message_id=7)
        assert await marked() == [stored.id]  # until a look finds it shown
        assert await store.games.behind(0) == [] == await marked()
        changed = await store.games.save(stored, expected_version=stored.version, now=1)
        assert await store.games.behind(0) == [stored.id] == await marked()
        await store.games.set_boards_shown([(stored.id, 1, changed.version)])
        assert await marked() == [stored.id]  # one board of two shows it
        await store.games.set_boards_shown([(stored.id, 2, changed.version)])
        assert await marked() == []  # both: unmarked as they are recorded
        ended = replace(changed, game=changed.game.resign(Side.WHITE))
        await store.games.save(ended, expected_version=changed.version, now=2)
        assert await store.games.behind(1) == [stored.id]  # finished after 1
        assert await store.games.behind(3) == [] == await marked()  # finished by 3: let go
    finally:
        await db.close()
