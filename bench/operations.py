"""What backing up and forgetting cost on a big database: N finished games (100,000 by default),
seeded by bulk insert from the rows of 20 real games (played at random to their end, long and
short), with their boards, ratings and analyses.

    python bench/operations.py [--games N] [--player-games M] [--runs R] [--postgresql]

Prints, for an SQLite file (and, with ``--postgresql``, a PostgreSQL server the bench starts
from the machine's binaries): the database's size, the backup's time (median of R runs) and
size (``python -m bot backup``'s own function: SQLite's online backup, or ``pg_dump``), and the
time ``/forget`` takes for a player with M of those games (median of R runs, each on a player
of its own). No assertions: figures go into docs/operations.md.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Game
from bot.maintenance import backup
from bot.services.privacy import Privacy
from bot.services.users import Users
from bot.storage import Database, Store, open_database
from tests.engine.strategies import advance

PLAYERS = 2_000
"""Players the games are spread over (ids 1..PLAYERS), besides the forgotten ones."""


TEMPLATES = 20
"""Real games the rows are copied from, in turn (so that no copy sits beside its like: a dump's
compression sees rows as varied as real ones)."""


async def _template(store: Store, seed: int) -> int:
    """One finished game, played at random to its end, stored as the bot stores one."""
    rng = random.Random(seed)
    game = Game.start("long" if seed % 2 else "short", rng)
    lines = []
    while not game.is_over:
        before = game
        game = advance(game, rng)
        lines.append(f"{before.turn.value} {game.to_text().split(' | ')[0][:24]}")
    stored = await store.games.create(
        chat_id=-100_123, white_id=1, black_id=2, game=game, move_seconds=90,
        deadline=None, locale="ru", boards=[(-100_123, game.turn)], now=time.time(),
        history=tuple(lines),
    )  # fmt: skip
    result = game.result
    assert result is not None
    await store.database.write(
        "UPDATE games SET winner = ?, outcome = ?, points = ?, finished_at = ?, deadline = NULL"
        " WHERE id = ?",
        (result.winner.value, result.outcome.value, result.points, time.time(), stored.id),
    )
    return stored.id


async def _columns(db: Database, table: str) -> list[str]:
    if db.dialect == "sqlite":
        rows = await db.fetch_all(f"SELECT name FROM pragma_table_info('{table}')")
    else:
        rows = await db.fetch_all(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "ORDER BY ordinal_position",
            (table,),
        )
    return [str(row[0]) for row in rows]


async def seed(store: Store, games: int, forgotten: list[int], per_player: int) -> None:
    """``games`` copies of one real game between players 1..PLAYERS, each ``forgotten`` player
    in ``per_player`` of them; two boards a game, both players' analyses, everyone's rating."""
    db = store.database
    now = time.time()
    rows = [(n, f"p{n}", f"Player {n}", "ru", now) for n in (*range(1, PLAYERS + 1), *forgotten)]
    await db.write_many(
        "INSERT INTO users (id, username, first_name, language_code, updated_at) "
        "VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    templates = [await _template(store, seed) for seed in range(TEMPLATES)]
    first = templates[0]
    assert templates == list(range(first, first + TEMPLATES))
    columns = [c for c in await _columns(db, "games") if c not in ("id", "white_id", "black_id")]
    kept = ", ".join(columns)
    series = (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :games) "
        "SELECT i FROM n"
        if db.dialect == "sqlite"
        else "SELECT generate_series(1, :games) AS i"
    )
    # white: a forgotten player in each one's share of the games, else someone of PLAYERS
    share = len(forgotten)
    white = " ".join(
        f"WHEN n.i % {share} = {k} AND n.i <= {per_player * share} THEN {player}"
        for k, player in enumerate(forgotten)
    )
    await db.write(
        f"""INSERT INTO games (white_id, black_id, {kept})
            SELECT CASE {white} ELSE 1 + n.i % {PLAYERS} END, 1 + (n.i * 7 + 3) % {PLAYERS},
                   {", ".join(f"t.{c}" for c in columns)}
            FROM ({series}) AS n, games AS t WHERE t.id = :first + n.i % {TEMPLATES}""",
        {"games": games - TEMPLATES, "first": first},
    )
    await db.write(
        """INSERT INTO boards (game_id, chat_id, viewer, message_id, shown_version)
           SELECT id, white_id, 'w', id, version FROM games WHERE id >= :copies""",
        {"copies": first + TEMPLATES},
    )
    await db.write(
        """INSERT INTO boards (game_id, chat_id, viewer, message_id, shown_version)
           SELECT id, black_id, 'b', id, version FROM games WHERE id >= :copies""",
        {"copies": first + TEMPLATES},
    )
    for side, column in (("w", "white_id"), ("b", "black_id")):
        await db.write(
            f"""INSERT INTO game_luck (game_id, side, user_id, variant, luck, pr, error_rate,
                                       decisions, rolls, finished_at, result, luck_points)
                SELECT id, '{side}', {column}, variant, 0.1, 5.5, 0.02, 40, 50, finished_at,
                       1, 0.2
                FROM games"""
        )
    await db.write_many(
        "INSERT INTO ratings VALUES (?, 'long', 1500, 80, 0.06, 50)",
        [(n,) for n in (*range(1, PLAYERS + 1), *forgotten)],
    )


async def measure(target: Path | str, args: argparse.Namespace, folder: Path) -> None:
    forgotten = [10_000_000 + k for k in range(args.runs)]
    db = await open_database(target)
    store = Store(db)
    started = time.perf_counter()
    await seed(store, args.games, forgotten, args.player_games)
    seeded = time.perf_counter() - started
    counts = [
        (await db.fetch_one(f"SELECT count(*) FROM {table}") or [0])[0]
        for table in ("games", "boards", "game_luck")
    ]
    held = [
        (await db.fetch_one("SELECT count(*) FROM games WHERE white_id = ?", (p,)) or [0])[0]
        for p in forgotten
    ]
    if isinstance(target, Path):
        await db.write("PRAGMA wal_checkpoint(TRUNCATE)")
        size = target.stat().st_size
    else:
        row = await db.fetch_one("SELECT pg_database_size(current_database())")
        size = int(row[0]) if row else 0
    print(
        f"{db.dialect}: {counts[0]:,} games, {counts[1]:,} boards, {counts[2]:,} analyses "
        f"seeded in {seeded:.1f} s; database {size / 1e6:.1f} MB"
    )
    times, sizes = [], []
    for run in range(args.runs):
        out = folder / f"backup-{run}"
        done = await asyncio.to_thread(backup, target, out)
        times.append(done.seconds)
        sizes.append(done.size)
    print(
        f"  backup: median {statistics.median(times):.2f} s "
        f"(runs {', '.join(f'{t:.2f}' for t in times)}), {statistics.median(sizes) / 1e6:.1f} MB"
    )
    privacy = Privacy(store, Users(store))
    spent = []
    for player in forgotten:
        started = time.perf_counter()
        assert await privacy.forget(player)
        spent.append(time.perf_counter() - started)
    print(
        f"  /forget of a player with {held[0]:,} games: median {statistics.median(spent):.3f} s "
        f"(runs {', '.join(f'{t:.3f}' for t in spent)})"
    )
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--player-games", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--postgresql", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(Path(folder) / "nardy.sqlite3", args, Path(folder)))
        if args.postgresql:
            from tests.support.postgres import postgres_server

            with postgres_server() as server:
                url = asyncio.run(server.new_database())
                asyncio.run(measure(url, args, Path(folder)))


if __name__ == "__main__":
    main()
