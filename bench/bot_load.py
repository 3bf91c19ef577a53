"""Bot under load: N concurrent group games through the fake Telegram Bot API server.

    python bench/bot_load.py [--games 50] [--seconds 20] [--stored 1000]

The bot runs as its own process (``python -m bot``), exactly as in production, against the fake
server from ``tests/support`` on 127.0.0.1; this process plays both sides of every game. Before
it starts, ``--stored`` unfinished games are written to its database, so memory is measured
with them in place. Prints tap-to-answer latency (the callback query's answer: the first
response a player sees) p50/p95/p99, the group lag (tap to the board showing its result),
taps per second, and the bot's peak resident memory.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._process import bot_process  # noqa: E402
from bot.callbacks import Move  # noqa: E402
from bot.services import GameService  # noqa: E402
from bot.storage import Store, open_database  # noqa: E402
from tests.bot.gameplay import game_buttons, mover  # noqa: E402
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser  # noqa: E402


async def store_games(path: Path, count: int) -> None:
    """Writes ``count`` unfinished games (between made-up players) into the database, their
    boards recorded as shown."""
    db = await open_database(path)
    store = Store(db)
    service = GameService(store, random.Random(1), move_seconds=3600)
    for index in range(count):
        a = await service.users.see(
            10_000_000 + 2 * index, username=None, first_name="A", language_code="en"
        )
        b = await service.users.see(
            10_000_001 + 2 * index, username=None, first_name="B", language_code="ru"
        )
        challenge = await service.challenges.open(
            chat_id=-(9_000_000 + index), challenger=a, target=b, locale="en"
        )
        _, snapshot = await service.challenges.accept(challenge.id, b)
        for board in await service.boards(snapshot.stored.id):  # as if shown before the bench
            await store.games.set_board_shown(
                board.game_id, board.chat_id, snapshot.stored.version, message_id=1
            )
    await db.close()


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
        confirm = [b for b in buttons if b.move is Move.CONFIRM]
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


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--stored", type=int, default=1000)
    parser.add_argument(
        "--telegram-pace",
        action="store_true",
        help="keep Telegram's limits (30 edits a second overall): measures the pace, not the bot",
    )
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="nardy-load-"))
    database = workdir / "load.sqlite3"
    started = time.perf_counter()
    await store_games(database, args.stored)
    print(f"stored {args.stored} unfinished games in {time.perf_counter() - started:.1f} s")
    async with (
        FakeTelegram() as fake,
        bot_process(fake, database, telegram_pace=args.telegram_pace) as bot,
    ):
        idle, _ = peak_memory_mb(bot.pid)
        tables = await open_tables(fake, args.games)
        latencies: list[float] = []
        lags: list[float] = []
        bot_cpu, own_cpu = cpu_seconds(bot.pid), time.process_time()
        begin = time.monotonic()
        await asyncio.gather(
            *(play(fake, t, begin + args.seconds, latencies, lags) for t in tables)
        )
        elapsed = time.monotonic() - begin
        bot_cpu, own_cpu = cpu_seconds(bot.pid) - bot_cpu, time.process_time() - own_cpu
        current, peak = peak_memory_mb(bot.pid)
    ms = sorted(x * 1000 for x in latencies)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(len(ms) * p))]

    print(
        f"{args.games} concurrent games, {len(ms)} taps in {elapsed:.1f} s: "
        f"{len(ms) / elapsed:.0f} taps/s"
    )
    print(
        f"tap -> answer latency: p50 {statistics.median(ms):.1f} ms, p95 {pct(0.95):.1f} ms, "
        f"p99 {pct(0.99):.1f} ms"
    )
    board_ms = sorted(x * 1000 for x in lags)
    print(
        f"tap -> board shows it (group lag): p50 {statistics.median(board_ms):.0f} ms, "
        f"p95 {board_ms[int(len(board_ms) * 0.95)]:.0f} ms, max {board_ms[-1]:.0f} ms"
    )
    print(
        f"CPU per tap: bot {bot_cpu / len(ms) * 1000:.1f} ms, "
        f"fake Telegram and players {own_cpu / len(ms) * 1000:.1f} ms (2 cores shared)"
    )
    print(
        f"bot memory: {idle:.0f} MiB idle with {args.stored} stored games, "
        f"{current:.0f} MiB after the load, peak {peak:.0f} MiB"
    )


if __name__ == "__main__":
    asyncio.run(main())
