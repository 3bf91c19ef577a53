"""Scale: what each command and each tick costs as the history and the pool grow.

    python bench/scale.py [--sizes 10000,100000,1000000] [--backends sqlite,postgresql]
                          [--repeat 40] [--seekers 1000,2000,5000,10000] [--explain]
                          [--memory 100000]

For each backend (an SQLite file; a PostgreSQL server started from the machine's binaries as
the tests start theirs) and each size N it seeds a fresh database with N finished games among
N / 10 users (bulk inserts: ``executemany`` in one transaction, ``COPY``), N / 10 games in
progress (a tenth of them correspondence games, an hour a move or more), two boards a game,
ratings, groups and tournament games. Players and groups are drawn skewed (the square of a
uniform number), so the busiest player has about 0.3% of all games (6,000 at 1M games) and the
busiest group a few percent: the heavy ones are what a command must not be linear in. The rows
are written at schema 19 (the schema this seeder knows) and the database is then opened as the
bot opens it, so that later migrations run on it and fill in what they derive (their time is
printed: a release's upgrade of a database that size).

Then each command's service call (as its handler makes it, less Telegram) runs ``--repeat``
times, for the heaviest player (and a median one where it differs), the busiest group, and a
pair of heavy players; and the timers' tick with nothing due. Printed: p50 and p95 in ms at each
size, and the growth of p95 from one size to the next (1.0: flat; 10: linear in the size).

``--seekers``: the ``/find`` look (``Pool.pair_waiting``, what the timers run every 0.5 s, the
clock moved on half a second each time) with that many seekers in the private pool, who
entered over the last 49 s, none of whom can be paired (eight kinds of terms, ratings 351 apart
within a kind: wider than any window before a minute), on SQLite and PostgreSQL.

``--explain``: every statement the measured calls ran is explained at the largest size, and the
plans that read a whole table of more than 1,000 rows (SQLite's ``SCAN t`` without an index
that bounds it, PostgreSQL's ``Seq Scan``) are printed with their statement.

``--memory N``: the bot's services meet N distinct users and N distinct groups (each user's
record read, a snapshot's head-to-head scores, the middlewares' maps), and the process's
resident memory is printed after each quarter, and after twice as many (flat: bounded maps).

Figures only, no assertions. Run it niced, alone: the 1M seeds take a few minutes a backend.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from bot.engine import Game, Outcome, Result, Side
from bot.model import Seeker, Terms
from bot.services import compose
from bot.services.pool import Pool
from bot.storage import Store, open_database
from bot.storage.migrations import MIGRATIONS, for_postgres
from tests.support.postgres import PostgresServer, postgres_server

SEED_SCHEMA = 19
"""The schema version the seeder's rows are written for; later migrations run on them."""
NOW = 1_800_000_000.0
YEAR = 365 * 86400.0
BIG_TABLES = {
    "games",
    "boards",
    "users",
    "ratings",
    "seekers",
    "tournament_games",
    "ledger",
    "game_luck",
}

QUEUES = ("games_unshown", "tournaments_behind")
"""Partial indexes that hold only what is due."""
GAME_COLUMNS = (
    "id",
    "chat_id",
    "white_id",
    "black_id",
    "variant",
    "rule_set",
    "game",
    "winner",
    "outcome",
    "points",
    "history",
    "last_turn",
    "input",
    "move_seconds",
    "deadline",
    "locale",
    "version",
    "created_at",
    "finished_at",
    "game_no",
    "stake",
    "stake_mode",
    "hints",
    "chat_instance",
    "dice_seed",
    "dice_commitment",
    "dice_client",
    "dice_rolls",
    "watchable",
)


def templates(rng: random.Random) -> tuple[list[tuple[str, str, str, int]], list[str]]:
    """Finished games' texts (variant, text, outcome, points) and in-progress ones' texts."""
    finished, running = [], []
    for variant in ("long", "short"):
        for _ in range(3):
            game = Game.start(variant, rng)
            running.append(game.to_text())
            for outcome, points in ((Outcome.OIN, 1), (Outcome.MARS, 2), (Outcome.KOKS, 3)):
                for winner in Side:
                    done = replace(game, dice=None, result=Result(winner, outcome, points))
                    finished.append((variant, done.to_text(), outcome.value, points))
    return finished, running


def history_text(rng: random.Random, turns: int) -> tuple[str, str]:
    """A game's history (one line a turn) and its roll log, as the bot writes them."""
    lines, rolls = [], []
    number = 2
    rolls.append("0 w 5")
    rolls.append("1 b 3")
    for turn in range(turns):
        side = "w" if turn % 2 == 0 else "b"
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        rolls.append(f"{number} {side} {a}-{b}")
        number += 2
        lines.append(f"{side} {a}-{b} 24/{24 - a} 13/{13 - b}")
    return "\n".join(lines), "\n".join(rolls)


@dataclass
class Seed:
    """What a seeded database holds, for the measurements to aim at."""

    games: int
    users: int
    heavy: int = 0
    heavy2: int = 0
    median: int = 0
    group: int = 0
    instance: str = ""
    heavy_games: int = 0
    median_games: int = 0
    group_games: int = 0
    in_progress: int = 0
    tables: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)


def skewed(rng: random.Random, count: int) -> int:
    """0..count-1, 0 the most often (the square of a uniform number)."""
    return min(count - 1, int(count * rng.random() ** 2))


def make_rows(size: int, seed: int = 1) -> Seed:
    """Every row of a database of ``size`` finished games (see the module docstring)."""
    rng = random.Random(seed)
    users = max(size // 10, 100)
    groups = max(users // 20, 5)
    in_progress = max(size // 10, 10)
    finished_texts, running_texts = templates(rng)
    histories = [history_text(rng, rng.randint(20, 70)) for _ in range(64)]
    found = Seed(size, users, in_progress=in_progress)
    user_rows = [
        (1000 + u, f"user{u}", f"User {u}", "en" if u % 3 else "ru", 1, 0, NOW - YEAR, 0, None)
        for u in range(users)
    ]
    games, boards, tournament, counts, group_counts = [], [], [], [0] * users, [0] * groups
    total = size + in_progress
    for index in range(total):
        game_id = index + 1
        white, black = skewed(rng, users), skewed(rng, users)
        while black == white:
            black = rng.randrange(users)
        counts[white] += 1
        counts[black] += 1
        place = rng.random()
        chat_id, instance = 0, None
        if place < 0.3:
            group = skewed(rng, groups)
            chat_id = -(1_000_000_000 + group)
            group_counts[group] += index < size
        elif place < 0.35:
            instance = f"inst{skewed(rng, groups)}"
        history, rolls = histories[index % len(histories)]
        if index < size:  # finished, in order of finishing
            variant, text, outcome, points = finished_texts[index % len(finished_texts)]
            finished_at = NOW - YEAR + YEAR * index / size
            winner = text.split("| result ")[1][0]
            correspondence = False
            deadline = None
        else:
            variant, text, outcome, points = "long", rng.choice(running_texts), None, None
            finished_at, winner = None, None
            correspondence = rng.random() < 0.1
            deadline = NOW + rng.random() * (86400 * 3 if correspondence else 90)
        move_seconds = 86400 * 3 if correspondence else 90
        games.append(
            (
                game_id, chat_id, 1000 + white, 1000 + black, variant,
                "classic" if variant == "long" else "short_classic", text, winner, outcome,
                points, history, "", "", move_seconds, deadline, "en", 60,
                (finished_at or NOW) - 1800, finished_at, 1, 0, "rules", 0, instance,
                "ab" * 32, "cd" * 32, str(game_id), rolls, 1,
            )
        )  # fmt: skip
        if chat_id:
            boards.append((game_id, chat_id, "w", 7 + index, 60))
            if rng.random() < 0.05:  # a tournament of another group counts it too
                tournament.append((game_id, -(1_000_000_000 + skewed(rng, groups))))
        else:
            boards.append((game_id, 1000 + white, "w", 7 + index, 60))
            boards.append((game_id, 1000 + black, "b", 8 + index, 60))
    # ratings in both variants for everyone who played
    ratings = [
        (1000 + u, variant, 1500 + rng.gauss(0, 200), 80.0, 0.06, counts[u])
        for u in range(users)
        if counts[u]
        for variant in ("long", "short")
    ]
    found.heavy, found.heavy2 = 1000, 1001
    ordered = sorted(range(users), key=lambda u: counts[u])
    found.median = 1000 + ordered[len(ordered) // 2]
    found.heavy_games = counts[0]
    found.median_games = counts[ordered[len(ordered) // 2]]
    found.group = -1_000_000_000
    found.group_games = group_counts[0]
    found.instance = "inst0"
    found.tables = {
        "users": user_rows,
        "games": games,
        "boards": boards,
        "tournament_games": list({g: (g, c) for g, c in tournament}.values()),
        "ratings": ratings,
    }
    return found


USER_COLUMNS = (
    "id",
    "username",
    "first_name",
    "language_code",
    "private_chat",
    "blocked",
    "updated_at",
    "quick",
    "locale",
)
TABLE_COLUMNS = {
    "users": USER_COLUMNS,
    "games": tuple(GAME_COLUMNS),
    "boards": ("game_id", "chat_id", "viewer", "message_id", "shown_version"),
    "tournament_games": ("game_id", "chat_id"),
    "ratings": ("user_id", "variant", "rating", "deviation", "volatility", "games"),
}


def seed_sqlite(path: Path, seed: Seed) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    for number, script in enumerate(MIGRATIONS[:SEED_SCHEMA], start=1):
        db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    db.execute("BEGIN")
    for table, rows in seed.tables.items():
        columns = TABLE_COLUMNS[table]
        db.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            rows,
        )
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


async def seed_postgres(url: str, seed: Seed) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
        for number, script in enumerate(MIGRATIONS[:SEED_SCHEMA], start=1):
            async with conn.transaction():
                await conn.execute(for_postgres(script))
                await conn.execute("UPDATE schema_version SET version = $1", number)
        for table, rows in seed.tables.items():
            await conn.copy_records_to_table(table, records=rows, columns=TABLE_COLUMNS[table])
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))"
        )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


class Recorder:
    """Notes every statement a database runs (for ``--explain``)."""

    def __init__(self, store: Store) -> None:
        self.statements: dict[str, Any] = {}
        self.on = False
        db = store.database
        for name in ("fetch_all", "fetch_one"):
            original = getattr(db, name)

            def wrapped(sql: str, params: Any = (), _original: Any = original) -> Any:
                if self.on and sql not in self.statements:
                    self.statements[sql] = params
                return _original(sql, params)

            setattr(db, name, wrapped)


async def explain(store: Store, recorder: Recorder, counts: dict[str, int]) -> list[str]:
    """The recorded statements whose plan reads a whole big table, each with its plan."""
    db = store.database
    found = []
    postgres = db.dialect == "postgresql"
    for sql, params in recorder.statements.items():
        if not sql.lstrip().upper().startswith(("SELECT", "WITH")):
            continue
        prefix = "EXPLAIN " if postgres else "EXPLAIN QUERY PLAN "
        rows = await db.fetch_all(prefix + sql, params)
        lines = [str(row[0]) if postgres else str(row["detail"]) for row in rows]
        whole = [
            table
            for line in lines
            for table, rows_in in counts.items()
            if rows_in > 1000 and reads_whole(line.strip().lstrip("->").strip(), table, postgres)
        ]
        if whole:
            found.append(
                f"  whole {', '.join(sorted(set(whole)))}:\n    "
                + " ".join(sql.split())[:400]
                + "\n      "
                + "\n      ".join(lines)
            )
    return found


def reads_whole(step: str, table: str, postgres: bool) -> bool:
    """Whether one step of a plan reads all of ``table`` (or all of one of its indexes)."""
    if postgres:
        return f"Seq Scan on {table}" in step
    if step == f"SCAN {table}":
        return True
    # SQLite: "SCAN t USING INDEX i" reads the whole index; "(a=?)" would bound it, and so
    # does a partial index of only what is due (read whole, bounded by what it returns)
    if any(f" {index}" in step for index in QUEUES):
        return False
    return step.startswith(f"SCAN {table} ") and "(" not in step


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    await call()  # warm: caches and prepared statements
    seconds = []
    for _ in range(repeat):
        began = time.perf_counter()
        await call()
        seconds.append(time.perf_counter() - began)
    return seconds


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def commands(services: Any, store: Store, seed: Seed) -> dict[str, Callable[[], Awaitable[object]]]:
    """The measured calls, by name: each what one command or tick makes of the database."""
    scores, games = services.scores, store.games
    heavy, heavy2, median = seed.heavy, seed.heavy2, seed.median

    async def snapshot_scores() -> object:  # a finished game's caption: the pair's score
        return await games.head_to_head(heavy, heavy2)

    async def score() -> object:
        return (await scores.head_to_head(heavy, heavy2), await scores.latest_match(heavy, heavy2))

    async def tick() -> object:
        await services.timeouts.timeouts()
        await services.deadlines.reminders()
        await services.challenges.expire()
        await services.pool.pair_waiting()
        await services.pool.sweep()
        await services.pool.expire()
        return await services.tournaments.due()

    return {
        "/top (busiest group)": lambda: scores.top(seed.group),
        "/league standings": lambda: services.leagues.standings(seed.group),
        "inline leaderboard": lambda: scores.top_in_instance(seed.instance),
        "/top rating": lambda: scores.top_rated(seed.group, "long"),
        "/history (heavy player)": lambda: scores.recent_games(user_id=heavy),
        "/history (busiest group)": lambda: scores.recent_games(chat_id=seed.group),
        "/stats (heavy player)": lambda: scores.stats(heavy),
        "/stats (median player)": lambda: scores.stats(median),
        "/dice (heavy player)": lambda: scores.dice_stats(heavy),
        "/dice (median player)": lambda: scores.dice_stats(median),
        "/score (heavy pair)": score,
        "head-to-head of a caption": snapshot_scores,
        "rating update's repeats": lambda: games.finished_between(
            heavy, heavy2, "long", NOW - 30 * 86400, besides=0
        ),
        "unfinished games of a player": lambda: games.active_for(heavy),
        "timer tick (nothing due)": tick,
        "boards behind (start-up, sweep)": lambda: games.behind(NOW - 3600),
    }


@contextlib.asynccontextmanager
async def database(backend: str, server: PostgresServer | None, seed: Seed) -> AsyncIterator[str]:
    with tempfile.TemporaryDirectory(prefix="nardy-scale-") as folder:
        if backend == "sqlite":
            path = Path(folder) / "scale.sqlite3"
            seed_sqlite(path, seed)
            yield str(path)
        else:
            assert server is not None
            url = await server.new_database()
            await seed_postgres(url, seed)
            yield url


async def measure_size(
    backend: str, server: PostgresServer | None, size: int, repeat: int, want_plans: bool
) -> tuple[dict[str, list[float]], list[str], Seed]:
    began = time.perf_counter()
    seed = make_rows(size)
    made = time.perf_counter() - began
    async with database(backend, server, seed) as target:
        seeded = time.perf_counter() - began - made
        opened = time.perf_counter()
        db = await open_database(target)
        migrated = time.perf_counter() - opened
        print(
            f"  {size:>9,} games: rows made in {made:.1f} s, written in {seeded:.1f} s, "
            f"later migrations {migrated:.1f} s; heavy player {seed.heavy_games:,} games, "
            f"median {seed.median_games}, busiest group {seed.group_games:,}",
            flush=True,
        )
        counts = {table: len(rows) for table, rows in seed.tables.items()}
        seed.tables = {}
        gc.collect()
        store = Store(db)
        recorder = Recorder(store)
        clock = Clock()
        services = compose(store, random.Random(1), clock=clock)
        figures: dict[str, list[float]] = {}
        try:
            for name, call in commands(services, store, seed).items():
                recorder.on = want_plans
                figures[name] = await timed(call, repeat)
                recorder.on = False
            plans = await explain(store, recorder, counts) if want_plans else []
        finally:
            await db.close()
    return figures, plans, seed


async def pool_look(
    backend: str, server: PostgresServer | None, seekers: int, repeat: int
) -> list[float]:
    """The timers' look at a pool of ``seekers`` nobody of whom can be paired."""
    kinds = [
        Terms(),
        Terms(match_length=3),
        Terms(variant="short"),
        Terms("short", match_length=3),
        Terms(match_length=5),
        Terms("short", match_length=5),
        Terms(move_seconds=60),
        Terms("short", move_seconds=60),
    ]
    with tempfile.TemporaryDirectory(prefix="nardy-pool-") as folder:
        if backend == "sqlite":
            target = str(Path(folder) / "pool.sqlite3")
        else:
            assert server is not None
            target = await server.new_migrated_database()
        db = await open_database(target)
        store, clock = Store(db), Clock()
        pool = Pool(store, clock=clock)
        rows = []
        for index in range(seekers):
            terms = kinds[index % len(kinds)]
            rating = 1000 + 351 * (index // len(kinds))  # beyond any window under a minute
            rows.append((index + 1, terms, rating, NOW - 49.0 * index / seekers))
        async with store.transaction():  # put as entering would leave them: none pairable
            for user_id, terms, rating, since in rows:
                await store.pool.put(Seeker(user_id, 0, terms, rating, since, 60))
        looks = iter(range(1_000_000))

        async def look() -> object:  # every half second, as the timers look
            return await pool.pair_waiting(NOW + 0.5 * next(looks))

        try:
            return await timed(look, repeat)
        finally:
            await db.close()


async def memory(count: int) -> list[tuple[int, float]]:
    """Resident memory after meeting ``count`` (then twice as many) users and groups."""
    from aiogram.types import Chat, Update
    from aiogram.types import User as TgUser

    from bot.handlers.middlewares import RememberUsers

    def rss() -> float:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    found = []
    with tempfile.TemporaryDirectory(prefix="nardy-memory-") as folder:
        db = await open_database(Path(folder) / "memory.sqlite3")
        store = Store(db)
        services = compose(store, random.Random(1))
        remember = RememberUsers()

        async def handler(event: object, data: dict[str, Any]) -> None:
            return None

        step = max(count // 4, 1)
        for index in range(2 * count):
            user = TgUser(id=10_000 + index, is_bot=False, first_name=f"U{index}")
            chat = Chat(id=-(10_000 + index), type="group")
            await remember(
                handler,
                Update(update_id=index),
                {"users": services.users, "event_from_user": user, "event_chat": chat},
            )
            await services.chats.locale(chat.id)
            await services.scores.head_to_head(10_000 + index, 10_001 + index)
            if (index + 1) % step == 0:
                gc.collect()
                found.append((index + 1, rss()))
        await db.close()
    return found


async def main(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.sizes.split(",") if s]
    backends = [b for b in args.backends.split(",") if b]
    seekers = [int(s) for s in args.seekers.split(",") if s]
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(postgres_server()) if "postgresql" in backends else None
        for backend in backends:
            print(f"\n== {backend} ==", flush=True)
            results: dict[int, dict[str, list[float]]] = {}
            names: list[str] = []
            plans: list[str] = []
            for size in sizes:
                figures, found, _ = await measure_size(
                    backend, server, size, args.repeat, args.explain and size == sizes[-1]
                )
                results[size] = figures
                plans = found or plans
            names = list(results[sizes[0]]) if sizes else []
            header = "".join(f"{size:>20,}" for size in sizes)
            print(f"\n  {'p50 / p95 ms':<34}{header}   growth of p95")
            for name in names:
                cells = "".join(
                    f"{statistics.median(results[s][name]) * 1e3:>10.2f} /"
                    f"{p95(results[s][name]) * 1e3:>8.2f}"
                    for s in sizes
                )
                growth = " → ".join(
                    f"{p95(results[b][name]) / max(p95(results[a][name]), 1e-9):.1f}×"
                    for a, b in zip(sizes, sizes[1:], strict=False)
                )
                print(f"  {name:<34}{cells}   {growth}", flush=True)
            if args.explain and sizes:
                print(f"\n  plans that read a whole table at {sizes[-1]:,} games:")
                print("\n".join(plans) if plans else "  none")
            for count in seekers:
                seconds = await pool_look(backend, server, count, args.pool_repeat)
                print(
                    f"  /find look, {count:>6,} seekers nobody can pair: "
                    f"p50 {statistics.median(seconds) * 1e3:8.2f} ms  "
                    f"p95 {p95(seconds) * 1e3:8.2f} ms",
                    flush=True,
                )
    if args.memory:
        print("\n== memory (SQLite) ==")
        for seen, megabytes in await memory(args.memory):
            print(f"  {seen:>8,} users and groups met: {megabytes:6.1f} MB resident")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--seekers", default="1000,2000,5000,10000")
    parser.add_argument("--pool-repeat", type=int, default=20)
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--memory", type=int, default=0)
    asyncio.run(main(parser.parse_args()))
