"""Bot under load: N concurrent group games through the fake Telegram Bot API server.

    python bench/bot_load.py [--games 50] [--seconds 20] [--stored 1000] [--runs 3] [--pin]
                             [--database sqlite|postgresql] [--workers N [--sticky]]
                             [--profile FILE [--profile-gil]]

The bot runs as its own process (``python -m bot``), exactly as in production, against the fake
server from ``tests/support`` on 127.0.0.1; this process plays both sides of every game. Before
it starts, ``--stored`` unfinished games are written to its database, so memory is measured
with them in place. Unpaced unless ``--telegram-pace``: the bot is given Telegram pacing
settings far above any load, so the pace limiter is not what is measured.

``--database postgresql`` puts the games on a PostgreSQL server that the bench starts from the
machine's binaries (as the tests do); its CPU per tap is printed apart from the bot's. With
``--workers N`` the bot runs as N webhook workers over that one database, the fake Telegram
posting each update to the next worker in turn (a reverse proxy's round robin), or with
``--sticky`` each chat's updates to one worker; without it, as one long-polling process (the
default set-up).

Each of ``--runs`` runs starts fresh bot processes on a fresh copy of the stored games, and the
figures printed are medians over the runs: the bot's CPU milliseconds per tap (all its workers
together; their main threads, where the event loops run, and their other threads: the
database's and the drawing thread) and taps per second per bot CPU core (taps handled / CPU
seconds the bot used: the capacity of one core, whatever else the machine runs), tap-to-answer
latency (the callback query's answer: the first response a player sees) p50/p95/p99, the group
lag (tap to the board showing its result), wall-clock taps per second, and each worker's
resident memory. The CPU per tap is also given in JPEG encodes of a board: after each run
this process times encoding one board, a yardstick of the machine that the bot's code does not
change (the same commit's CPU per tap differed threefold between two machines of this project,
and the encode about as much: 1.4 ms there, 4.2 ms here).

The fake server and the players run in this process: on a machine with few cores they, not the
bot, limit the wall-clock rate, and they share the bot's processors. With ``--pin`` the bot
(every worker) runs on a processor of its own and this process on the others, as in production,
where Telegram runs elsewhere: the bot's threads then stay on one processor, which costs it less
CPU per tap than being moved among processors that the load generator keeps busy. The
PostgreSQL server is not pinned.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._process import UNPACED, bot_process, pin
from bot.engine import starting_position
from bot.services import compose
from bot.services.actions import GameAction
from bot.storage import Store, open_database
from render import IMAGE_FORMAT, render_image
from render.theme import DEFAULT_THEME
from tests.bot.gameplay import game_buttons, mover
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.postgres import PostgresServer, postgres_server
from tests.support.workers import Worker, start_worker


async def store_games(target: Path | str, count: int) -> None:
    """Writes ``count`` unfinished games (between made-up players) into the database
    ``target`` (an SQLite file or a PostgreSQL URL), their boards recorded as shown."""
    db = await open_database(target)
    store = Store(db)
    services = compose(store, random.Random(1), move_seconds=3600)
    for index in range(count):
        a = await services.users.see(
            10_000_000 + 2 * index, username=None, first_name="A", language_code="en"
        )
        b = await services.users.see(
            10_000_001 + 2 * index, username=None, first_name="B", language_code="ru"
        )
        challenge = await services.challenges.open(
            chat_id=-(9_000_000 + index), challenger=a, target=b, locale="en"
        )
        _, snapshot = await services.lobby.accept(challenge.id, b)
        for board in await services.board_messages.boards(
            snapshot.stored.id
        ):  # as if shown before the bench
            await store.games.set_board_shown(
                board.game_id, board.chat_id, snapshot.stored.version, message_id=1
            )
    await db.close()


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds so far of process ``pid`` and of its children alive now (a PostgreSQL
    server: its connections' processes, which the bot's pools keep open all run long)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def peak_memory_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of process ``pid`` in MiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


class Table:
    """One game: its group, two players and the board message."""

    def __init__(self, group: FakeChat, players: list[FakeUser], board: FakeMessage) -> None:
        self.group, self.players, self.board = group, players, board


async def open_tables(fake: FakeTelegram, count: int) -> list[Table]:
    tables = []
    for index in range(count):
        a = fake.create_user(f"A{index}", username=f"a{index}")
        b = fake.create_user(f"B{index}", username=f"b{index}", language_code="ru")
        group = fake.create_group(f"g{index}", [a, b])
        fake.send_text(a, group, f"/play @b{index}")
        tables.append((group, a, b))
    ready = []
    for group, a, b in tables:
        challenge = await fake.wait_for_message(group, timeout=30)
        fake.press(b, challenge, challenge.buttons[0].text)
        ready.append((group, a, b))
    found = []
    for group, a, b in ready:
        board = await fake.wait_for_message(group, where=lambda m: m.photo is not None, timeout=60)
        found.append(Table(group, [a, b], board))
    return found


def redrawn(board: FakeMessage, edits: int, old_version: int) -> bool:
    """Whether the board shows a newer state than ``old_version`` (or the game ended). Checks
    the edit count first: every waiter is woken on every event of the fake server, and parsing
    the buttons each time would make the players, not the bot, the bottleneck."""
    if board.edit_count == edits:
        return False
    buttons = game_buttons(board)
    return not buttons or buttons[0].version != old_version


async def play(
    fake: FakeTelegram, table: Table, until: float, latencies: list[float], lags: list[float]
) -> None:
    """Taps like a quick player: a step (or Confirm) as soon as the board shows new buttons.
    The first tap of each game is a warm-up, not counted: it meets the 50 opening boards still
    being drawn and sent."""
    board = table.board
    first = True
    while time.monotonic() < until:
        buttons = game_buttons(board)
        if not buttons:
            return  # game over
        confirm = [b for b in buttons if b.action is GameAction.CONFIRM]
        action = confirm[0] if confirm else buttons[0]
        user = mover(board, table.players)
        edits = board.edit_count
        started = time.perf_counter()
        tap = fake.tap(user, board, action.pack())
        await fake.next_answer_to(tap, timeout=30)
        if not first:
            latencies.append(time.perf_counter() - started)
        await fake.wait_for(lambda old=action.version, n=edits: redrawn(board, n, old), timeout=60)
        if not first:
            lags.append(time.perf_counter() - started)
        first = False


def thread_cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds of process ``pid`` so far: (its main thread, where the event loop runs; all
    its other threads: the database's and the drawing thread)."""
    main = other = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:  # a thread that has just ended
            continue
        seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if int(task.name) == pid:
            main += seconds
        else:
            other += seconds
    return main, other


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


class Bot:
    """The bot's processes for one run: one polling process, or webhook workers."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def threads_cpu(self) -> tuple[float, float]:
        loops = others = 0.0
        for pid in self.pids:
            loop, other = thread_cpu_seconds(pid)
            loops, others = loops + loop, others + other
        return loops, others

    def memory(self) -> list[tuple[float, float]]:
        return [peak_memory_mb(pid) for pid in self.pids]


@contextlib.asynccontextmanager
async def bot_started(
    args: argparse.Namespace, fake: FakeTelegram, database: Path | str, workdir: Path
) -> AsyncIterator[Bot]:
    """The bot as the arguments ask: ``args.workers`` webhook workers behind the fake's round
    robin, or one polling process."""
    if not args.workers:
        async with bot_process(
            fake, database, telegram_pace=args.telegram_pace, workdir=workdir
        ) as process:
            yield Bot([process.pid])
        return
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    environment = {"MOVE_SECONDS": "3600", **({} if args.telegram_pace else UNPACED)}
    workers: list[Worker] = []
    try:
        for _ in range(args.workers):
            workers.append(await start_worker(fake, url, workdir, environment=environment))
        fake.balancer = [worker.url for worker in workers]
        fake.sticky_chats = args.sticky
        yield Bot([worker.pid for worker in workers])
    finally:
        for worker in workers:
            await worker.stop()


async def measure(
    args: argparse.Namespace,
    database: Path | str,
    workdir: Path,
    server: PostgresServer | None,
    profile: str | None,
) -> dict[str, float]:
    """One run: a fresh bot on ``database`` (on ``server`` if PostgreSQL), ``args.games``
    games tapped for ``args.seconds`` (recorded by py-spy into ``profile`` if given: with
    several workers, each into ``profile.N``); returns its figures."""
    async with FakeTelegram() as fake, bot_started(args, fake, database, workdir) as bot:
        if args.pin:  # the bot alone on the last processor, this process on the others
            cpus = sorted(os.sched_getaffinity(0))
            for pid in bot.pids:
                pin(pid, {cpus[-1]})
            os.sched_setaffinity(0, set(cpus[:-1]))
        idle = [current for current, _ in bot.memory()]
        tables = await open_tables(fake, args.games)
        latencies: list[float] = []
        lags: list[float] = []
        profilers = []
        for number, pid in enumerate(bot.pids if profile else []):
            output = profile if len(bot.pids) == 1 else f"{profile}.{number}"
            profilers.append(
                subprocess.Popen(
                    ["py-spy", "record", "--pid", str(pid), "--rate", "200", "--format", "raw"]
                    + ["--duration", str(int(args.seconds)), "--output", str(output)]
                    # sampling without stopping the bot each time, which halved its rate
                    + ["--nonblocking"]
                    + (["--gil"] if args.profile_gil else []),
                    stdout=subprocess.DEVNULL,
                )
            )
        bot_cpu, own_cpu = bot.cpu(), time.process_time()
        loop_cpu, others_cpu = bot.threads_cpu()
        server_cpu = tree_cpu_seconds(server.pid) if server is not None else 0.0
        requests_before = len(fake.requests)
        begin = time.monotonic()
        await asyncio.gather(
            *(play(fake, t, begin + args.seconds, latencies, lags) for t in tables)
        )
        elapsed = time.monotonic() - begin
        edits = sum(r.method.startswith("edit") for r in fake.requests[requests_before:])
        bot_cpu, own_cpu = bot.cpu() - bot_cpu, time.process_time() - own_cpu
        loop_after, others_after = bot.threads_cpu()
        if server is not None:
            server_cpu = tree_cpu_seconds(server.pid) - server_cpu
        memory = bot.memory()
        for profiler in profilers:
            profiler.wait(30)
    taps = len(latencies)
    ms = [x * 1000 for x in latencies]
    board_ms = [x * 1000 for x in lags]
    return {
        "taps": taps,
        "seconds": elapsed,
        "taps/s": taps / elapsed,
        "bot ms/tap": bot_cpu / taps * 1000,
        "loop ms/tap": (loop_after - loop_cpu) / taps * 1000,
        "threads ms/tap": (others_after - others_cpu) / taps * 1000,
        "taps/s/core": taps / bot_cpu,
        "edits/tap": edits / taps,
        "server ms/tap": server_cpu / taps * 1000,
        "own ms/tap": own_cpu / taps * 1000,
        "p50": statistics.median(ms),
        "p95": percentile(ms, 0.95),
        "p99": percentile(ms, 0.99),
        "lag p50": statistics.median(board_ms),
        "lag p95": percentile(board_ms, 0.95),
        "lag max": max(board_ms),
        "idle MiB": max(idle),
        "after MiB": max(current for current, _ in memory),
        "peak MiB": max(peak for _, peak in memory),
    }


def jpeg_milliseconds(times: int = 60) -> float:
    """The median CPU milliseconds this process takes to encode one board (912×792) as the
    bot's JPEG: a yardstick of the machine that none of the bot's code changes (libjpeg-turbo),
    to compare CPU per tap across machines (the same commit's differed threefold here)."""
    image = render_image(starting_position("long"))
    spent = []
    for _ in range(times):
        started = time.process_time()
        image.save(io.BytesIO(), IMAGE_FORMAT, quality=DEFAULT_THEME.jpeg_quality)
        spent.append(time.process_time() - started)
    return statistics.median(spent) * 1000


def report(runs: list[dict[str, float]], args: argparse.Namespace) -> None:
    """Prints the medians over ``runs`` (and each run's CPU per tap, to show the spread), the
    CPU per tap also in JPEG encodes of a board (timed after each run: see
    :func:`jpeg_milliseconds`)."""

    def med(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    spread = ", ".join(f"{run['bot ms/tap']:.2f}" for run in runs)
    bot = f"{args.workers} webhook worker(s)" if args.workers else "one polling process"
    if args.workers and args.sticky:
        bot += ", each chat's updates to one of them"
    pinned = ", the bot on a processor of its own" if args.pin else ""
    print(
        f"medians of {len(runs)} run(s), {args.games} concurrent games each, {args.database}, "
        f"{bot}{pinned}:"
    )
    print(
        f"bot CPU per tap: {med('bot ms/tap'):.2f} ms (runs: {spread}); "
        f"event loop thread {med('loop ms/tap'):.2f} ms, "
        f"database and drawing threads {med('threads ms/tap'):.2f} ms"
    )
    print(
        f"taps per second per bot CPU core: {med('taps/s/core'):.0f}; "
        f"board edits per tap: {med('edits/tap'):.2f}; "
        f"CPU per tap in board JPEG encodes: {med('encodes/tap'):.2f} "
        f"(one takes {med('jpeg ms'):.2f} ms here)"
    )
    if args.database == "postgresql":
        print(f"PostgreSQL server CPU per tap: {med('server ms/tap'):.2f} ms")
    print(
        f"taps per second (wall clock): {med('taps/s'):.0f}, {med('taps'):.0f} taps a run; "
        f"fake Telegram and players {med('own ms/tap'):.2f} ms CPU per tap"
    )
    print(
        f"tap -> answer latency: p50 {med('p50'):.1f} ms, p95 {med('p95'):.1f} ms, "
        f"p99 {med('p99'):.1f} ms"
    )
    print(
        f"tap -> board shows it (group lag): p50 {med('lag p50'):.0f} ms, "
        f"p95 {med('lag p95'):.0f} ms, max {med('lag max'):.0f} ms"
    )
    each = " (the largest worker)" if args.workers and args.workers > 1 else ""
    print(
        f"bot memory{each}: {med('idle MiB'):.0f} MiB idle, {med('after MiB'):.0f} MiB after "
        f"the load, peak {med('peak MiB'):.0f} MiB"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--stored", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3, help="fresh bot processes; medians")
    parser.add_argument(
        "--telegram-pace",
        action="store_true",
        help="keep Telegram's limits (30 edits a second overall): measures the pace, not the bot",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="run the bot on one processor of its own and the fake Telegram and the players on "
        "the others (as in production, where Telegram is elsewhere): on a machine with few "
        "cores they then neither take the bot's processor nor move its threads between "
        "processors",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="record the bot's measured seconds of the last run with py-spy (raw stacks, "
        "for flamegraph.pl or a script; `pip install py-spy`, root or ptrace rights); with "
        "several workers, each worker into FILE.N",
    )
    parser.add_argument(
        "--profile-gil",
        action="store_true",
        help="with --profile: only the thread holding the GIL (Python's own CPU)",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="where the games are: an SQLite file (default) or a PostgreSQL server that the "
        "bench starts (PostgreSQL 15's initdb and pg_ctl)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="run the bot as N webhook workers over one database (several need --database "
        "postgresql) instead of one polling process",
    )
    parser.add_argument(
        "--sticky",
        action="store_true",
        help="with --workers: each chat's updates go to one worker (a proxy with affinity), "
        "not to each worker in turn",
    )
    args = parser.parse_args()
    if args.profile and shutil.which("py-spy") is None:
        parser.error("--profile needs py-spy on PATH")
    if args.pin and len(os.sched_getaffinity(0)) < 2:
        parser.error("--pin needs two processors")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers needs a number of 1 or more")
    if args.workers and args.workers > 1 and args.database != "postgresql":
        parser.error("several workers share one database server: add --database postgresql")
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(postgres_server()) if args.database == "postgresql" else None
        await run_all(args, server)


async def run_all(args: argparse.Namespace, server: PostgresServer | None) -> None:
    """Stores the games once, then measures ``args.runs`` runs, each on a fresh copy of them."""
    processors = sorted(os.sched_getaffinity(0))
    workdir = Path(tempfile.mkdtemp(prefix="nardy-load-"))
    template: Path | str = workdir / "stored.sqlite3"
    if server is not None:
        template = await server.new_database()
    started = time.perf_counter()
    await store_games(template, args.stored)
    print(f"stored {args.stored} unfinished games in {time.perf_counter() - started:.1f} s")
    runs = []
    for number in range(1, args.runs + 1):
        database: Path | str
        if server is not None:  # every run starts from the same stored games
            database = await server.new_database(template=str(template).rsplit("/", 1)[1])
        else:
            database = workdir / f"load-{number}.sqlite3"
            shutil.copyfile(template, database)
        profile = args.profile if number == args.runs else None
        run = await measure(args, database, workdir, server, profile)
        if args.pin:  # the yardstick on the processor the bot had: a VM's differ in speed
            os.sched_setaffinity(0, {sorted(processors)[-1]})
        run["jpeg ms"] = jpeg_milliseconds()  # the machine as it is now, right after the run
        os.sched_setaffinity(0, set(processors))  # undone for the next run's set-up
        run["encodes/tap"] = run["bot ms/tap"] / run["jpeg ms"]
        runs.append(run)
        print(
            f"run {number}: {run['taps']:.0f} taps in {run['seconds']:.1f} s, "
            f"bot {run['bot ms/tap']:.2f} ms CPU per tap ({run['taps/s/core']:.0f} taps/s per "
            f"core, {run['encodes/tap']:.2f} board JPEG encodes), answer p50 {run['p50']:.0f} ms"
        )
    report(runs, args)
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
