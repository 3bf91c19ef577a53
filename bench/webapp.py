"""The Mini App board under load: 50 group games played at once on their boards.

    python bench/webapp.py [--games 50] [--turns 12] [--think 1.0] [--runs 3] [--pin]
                           [--no-pace] [--workers 2] [--watchers 1000]

The bot runs as its own process (``python -m bot``, as in production, with its HTTP server
serving the board), polling the fake Bot API server from ``tests/support``; the fake server and
every board client run in this process (with ``--pin`` on the other processors than the bot's).
Telegram's real pace is kept (a group's 20 edits a minute, 30 messages a second overall) unless
``--no-pace``. Each player's board is a WebSocket client speaking the page's protocol (hello
with signed init data, then the whole turn: the first complete path of the step tree the server
sent, asking for the nodes it sent cut short); a player thinks 0.5–1.5 × ``--think`` seconds
before each turn. Per run it prints:

* latency: Confirm sent on the mover's board → the new state received on the other player's
  board, p50 and p95 over every turn of every game;
* bytes sent per turn: the state messages both boards receive for one confirmed turn;
* memory per open board: what the bot process's resident memory grew by for 200 more boards
  (watchers' sockets) opened on the games, divided by 200;
* edits per turn: the group messages' edits (``editMessageMedia``) over the turns confirmed,
  once the edits held back by the pace are done (under Telegram's pace a turn every few
  seconds is more than a group's 20 edits a minute: the edits then show the newest state only);
* the bot's CPU milliseconds per turn (all its threads, the fake Telegram's work excluded).

Medians over ``--runs`` runs.

With ``--workers 2`` (or more) the bot runs as that many worker processes over one PostgreSQL
database (started here from the machine's binaries, as the tests start theirs), in webhook mode
behind the fake's balancer: each game's two players have their boards on two different
workers, so the latency is a move confirmed on one worker shown on a board of another (the
change feed, over ``LISTEN``/``NOTIFY``), and the bot's CPU is every worker's. ``--watchers``:
how many more boards the memory per open board is measured with (on the first worker).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from bench._process import bot_process, pin
from tests.support.fake_telegram import FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import free_port
from tests.support.postgres import postgres_server
from tests.support.webapp import BoardClient, sign_init_data
from tests.support.workers import Worker, start_worker
from tests.webapp.helpers import APP_NAME, actor, game_of

WATCHERS = 200
"""More boards opened to measure the memory per open board, by default."""


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss(pid: int) -> int:
    """Resident memory of process ``pid`` in bytes."""
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


async def start_games(fake: FakeTelegram, count: int) -> list[tuple[list[FakeUser], FakeMessage]]:
    """``count`` group games, each challenged and accepted; their players and boards."""
    tables = []
    for n in range(count):
        alice = fake.create_user(f"A{n}", username=f"a{n}", language_code="en")
        bob = fake.create_user(f"B{n}", username=f"b{n}", language_code="ru")
        group = fake.create_group(f"Group {n}", [alice, bob])
        fake.send_text(alice, group, f"/play @b{n}")
        tables.append((group, alice, bob))
    started = []
    for group, _alice, bob in tables:
        challenge = await fake.wait_for_message(group, timeout=60)
        fake.press(bob, challenge, challenge.buttons[0].text)
    for group, alice, bob in tables:
        board = await fake.wait_for_message(group, where=lambda m: m.photo is not None, timeout=90)
        started.append(([alice, bob], board))
    return started


async def play(
    boards: list[BoardClient],
    turns: int,
    think: float,
    latencies: list[float],
    rng: random.Random,
) -> tuple[int, int]:
    """Plays ``turns`` turns (rolling where the state asks for it); returns the turns
    confirmed and the bytes their states took."""
    played, before = 0, sum(b.bytes for b in boards)
    for _ in range(turns * 2):
        if played >= turns:
            break
        mover = actor(boards)
        if mover is None:
            break
        other = boards[1] if mover is boards[0] else boards[0]
        state = mover.state
        version = state["version"]
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        if state["tree"] is None:  # a roll, a double to take: not a turn, not measured
            await mover.act("take" if "take" in state["actions"] else "roll")
            await other.wait_version(version, timeout=60)
            continue
        steps = await mover.path()
        sent = time.perf_counter()
        confirm = asyncio.create_task(
            mover.request({"type": "turn", "version": version, "steps": steps}, timeout=60)
        )
        await other.wait_version(version, timeout=60)
        latencies.append(time.perf_counter() - sent)
        answer = await confirm
        assert answer["type"] == "done", answer
        await mover.wait_version(version, timeout=60)
        played += 1
    return played, sum(b.bytes for b in boards) - before


async def settled_edits(boards: list[FakeMessage], quiet: float = 4.0) -> int:
    """The boards' edits once none came for ``quiet`` seconds (the pace's backlog done)."""
    total, since = -1, time.monotonic()
    while time.monotonic() - since < quiet:
        await asyncio.sleep(0.25)
        now = sum(m.edit_count for m in boards)
        if now != total:
            total, since = now, time.monotonic()
    return total


async def run(args: argparse.Namespace) -> dict[str, float]:
    if args.workers > 1:
        return await run_workers(args)
    port = free_port()
    environment = {
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBAPP_URL": f"http://127.0.0.1:{port}/app/",
        "WEBAPP_NAME": APP_NAME,
    }
    with tempfile.TemporaryDirectory() as folder:
        async with (
            FakeTelegram() as fake,
            bot_process(
                fake,
                Path(folder) / "bench.sqlite3",
                telegram_pace=not args.no_pace,
                environment=environment,
            ) as bot,
        ):
            if args.pin:  # the bot alone on the last processor, this process on the others
                cpus = sorted(os.sched_getaffinity(0))
                pin(bot.pid, {cpus[-1]})
                os.sched_setaffinity(0, set(cpus[:-1]))
            url = f"http://127.0.0.1:{port}/app/ws"
            figures = await measure(args, fake, [bot.pid], [url])
            if args.pin:
                os.sched_setaffinity(0, set(cpus))
    return figures


async def run_workers(args: argparse.Namespace) -> dict[str, float]:
    """The same with ``args.workers`` worker processes over PostgreSQL (see the docstring)."""
    with tempfile.TemporaryDirectory() as folder, postgres_server() as server:
        async with FakeTelegram() as fake:
            database = await server.new_database()
            environment = {"WEBAPP_URL": "http://127.0.0.1:9/app/", "WEBAPP_NAME": APP_NAME}
            if not args.no_pace:  # start_worker lifts the pace: put Telegram's back
                environment |= {
                    "GROUP_MESSAGES_PER_MINUTE": "20",
                    "PRIVATE_MESSAGES_PER_SECOND": "1",
                    "MESSAGES_PER_SECOND": "30",
                }
            workers: list[Worker] = []
            try:
                for _ in range(args.workers):
                    workers.append(
                        await start_worker(fake, database, Path(folder), environment=environment)
                    )
                fake.balancer = [w.url for w in workers]
                urls = [f"http://127.0.0.1:{w.port}/app/ws" for w in workers]
                return await measure(args, fake, [w.pid for w in workers], urls)
            finally:
                for worker in workers:
                    await worker.stop()


async def measure(
    args: argparse.Namespace, fake: FakeTelegram, pids: list[int], urls: list[str]
) -> dict[str, float]:
    """Starts the games, opens each game's two boards (the second player's on the next
    worker's address, where there are several), plays, and measures (see the docstring)."""
    started = await start_games(fake, args.games)
    rng = random.Random(1)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        pairs = [
            [
                await BoardClient.open(
                    session, urls[n % len(urls)], sign_init_data(fake.token, p), game_of(board)
                )
                for n, p in enumerate(players)
            ]
            for players, board in started
        ]
        messages = [board for _, board in started]
        edits_before = await settled_edits(messages, quiet=2.0)
        latencies: list[float] = []
        cpu_before = sum(map(cpu_seconds, pids))
        results = await asyncio.gather(
            *(play(p, args.turns, args.think, latencies, rng) for p in pairs)
        )
        cpu = sum(map(cpu_seconds, pids)) - cpu_before
        edits = await settled_edits(messages) - edits_before
        confirmed = sum(r[0] for r in results)
        sent = sum(r[1] for r in results)
        # memory per open board: watchers' boards on the games, on the first worker; each
        # watcher a member of the game's group
        watchers = []
        for n in range(args.watchers):
            watcher = fake.create_user(f"Watcher {n}", username=f"watcher{n}")
            group = messages[n % len(messages)].chat
            group.members[watcher.id] = watcher
            watchers.append((watcher, messages[n % len(messages)]))
        await asyncio.sleep(1.0)
        base = rss(pids[0])
        extra = [
            await BoardClient.open(session, urls[0], sign_init_data(fake.token, w), game_of(b))
            for w, b in watchers
        ]
        assert all(client.state for client in extra), "a watcher's board was refused"
        await asyncio.sleep(1.0)
        grown = rss(pids[0]) - base
        for client in [*extra, *(b for p in pairs for b in p)]:
            await client.close()
    latencies.sort()
    return {
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p95_ms": 1000 * latencies[int(len(latencies) * 0.95)],
        "bytes_per_turn": sent / confirmed,
        "kb_per_board": grown / len(extra) / 1024,
        "edits_per_turn": edits / confirmed,
        "bot_cpu_ms_per_turn": 1000 * cpu / confirmed,
        "turns": confirmed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a player thinks")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pin", action="store_true", help="the bot on a processor of its own")
    parser.add_argument("--no-pace", action="store_true", help="no Telegram pace for edits")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (PostgreSQL)")
    parser.add_argument("--watchers", type=int, default=WATCHERS, help="boards for memory")
    args = parser.parse_args()
    if args.workers > 1 and args.pin:
        parser.error("--pin is for one worker")
    if args.pin and len(os.sched_getaffinity(0)) < 2:
        parser.error("--pin needs two processors")
    logging.disable(logging.INFO)
    runs = [asyncio.run(run(args)) for _ in range(args.runs)]
    for figures in runs:
        print("run:", json.dumps({k: round(v, 2) for k, v in figures.items()}))
    pace = "no pace" if args.no_pace else "Telegram's pace"
    print(
        f"{args.games} games at once, {args.turns} turns each, think {args.think} s, {pace}"
        f"{', the bot pinned' if args.pin else ''}"
        f"{f', {args.workers} workers over PostgreSQL' if args.workers > 1 else ''}"
        f"; medians of {args.runs} runs:"
    )
    for key in runs[0]:
        print(f"  {key}: {statistics.median(r[key] for r in runs):.2f}")


if __name__ == "__main__":
    main()
