"""The Mini App board under load: 50 group games played at once on their boards.

    python bench/webapp.py [--games 50] [--turns 12] [--runs 3]

The real bot (in this process, polling the fake Bot API server from ``tests/support``, its
own HTTP server serving the board) plays ``--games`` group games at once; each player's board
is a WebSocket client speaking the page's protocol (hello with signed init data, then the
whole turn: the first complete path of the step tree the server sent). Per run it prints:

* latency: Confirm sent on the mover's board → the new state received on the other player's
  board, p50 and p95 over every turn of every game (all games playing at once; the clients
  share the bot's event loop, so this is an upper bound);
* bytes sent per turn: the state messages both boards receive for one confirmed turn;
* memory per open board: what the process's resident memory grew by for 200 more boards
  (watchers) opened on the games, divided by 200 (the clients live in the same process, so
  this is an upper bound for the server's share);
* edits per turn in a group: the group message's edits (``editMessageMedia``) over the turns
  confirmed (goal: exactly 1, the result included in the last).

Medians over ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import logging  # noqa: E402

import aiohttp  # noqa: E402

from tests.bot.gameplay import wait_for_board  # noqa: E402
from tests.support.fake_telegram import FakeMessage, FakeTelegram, FakeUser  # noqa: E402
from tests.support.harness import BotHarness  # noqa: E402
from tests.support.webapp import sign_init_data  # noqa: E402
from tests.webapp.helpers import board_bot, game_of  # noqa: E402


class Board:
    """One open board: a socket, the states it received, their bytes."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.state: dict[str, Any] = {}
        self.bytes = 0
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for message in self.socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if data["type"] == "state":
                self.bytes += len(message.data.encode())
                self.state = data
                self.changed.set()


async def open_board(session: aiohttp.ClientSession, url: str, init: str, game: int) -> Board:
    socket = await session.ws_connect(url)
    await socket.send_str(json.dumps({"type": "hello", "init": init, "game": game}))
    board = Board(socket)
    asyncio.create_task(board.read())
    while not board.state:
        await board.changed.wait()
        board.changed.clear()
    return board


async def start_game(harness: BotHarness, n: int) -> tuple[list[FakeUser], FakeMessage]:
    fake = harness.fake
    alice = fake.create_user(f"A{n}", username=f"a{n}", language_code="en")
    bob = fake.create_user(f"B{n}", username=f"b{n}", language_code="ru")
    group = fake.create_group(f"Group {n}", [alice, bob])
    fake.send_text(alice, group, f"/play @b{n}")
    await harness.settle()
    fake.press(bob, fake.last_message(group), "✅ Accept")
    return [alice, bob], await wait_for_board(fake, group)


async def play(boards: list[Board], turns: int, latencies: list[float]) -> tuple[int, int]:
    """Plays ``turns`` turns; returns the turns confirmed and the bytes their states took."""
    played, before = 0, sum(b.bytes for b in boards)
    for _ in range(turns):
        state = boards[0].state
        if state["over"]:
            break
        mover = next(b for b in boards if b.state["you"] == b.state["to_act"])
        other = boards[1] if mover is boards[0] else boards[0]
        tree, version = mover.state["tree"], mover.state["version"]
        if tree is None:
            break
        steps, node = [], tree
        while not node[0]:
            if node[1] is None:
                break
            src, dst, die, _, node = node[1][0]
            steps.append([src, dst, die])
        other.changed.clear()
        sent = time.perf_counter()
        await mover.socket.send_str(
            json.dumps({"type": "turn", "version": version, "steps": steps})
        )
        while other.state["version"] <= version:
            await other.changed.wait()
            other.changed.clear()
        latencies.append(time.perf_counter() - sent)
        while mover.state["version"] <= version:
            await mover.changed.wait()
            mover.changed.clear()
        played += 1
    return played, sum(b.bytes for b in boards) - before


async def run(games: int, turns: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeTelegram() as fake, board_bot(fake, Path(folder) / "bench.sqlite3") as bot:
            started = [await start_game(bot, n) for n in range(games)]
            url = f"{bot.web_url}/app/ws"
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
                pairs = []
                for players, message in started:
                    game = game_of(message)
                    pairs.append(
                        [
                            await open_board(session, url, sign_init_data(fake.token, p), game)
                            for p in players
                        ]
                    )
                await bot.idle()
                edits_before = sum(m.edit_count for _, m in started)
                latencies: list[float] = []
                results = await asyncio.gather(*(play(p, turns, latencies) for p in pairs))
                await bot.idle()
                edits = sum(m.edit_count for _, m in started) - edits_before
                confirmed = sum(r[0] for r in results)
                sent = sum(r[1] for r in results)
                # memory per open board: 200 watchers' boards on the games
                watcher = fake.create_user("Watcher", username="watcher")
                base = _rss()
                extra = [
                    await open_board(session, url, sign_init_data(fake.token, watcher), game_of(m))
                    for _, m in (started * 4)[:200]
                ]
                grown = _rss() - base
                for board in [*extra, *(b for p in pairs for b in p)]:
                    await board.socket.close()
    latencies.sort()
    return {
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p95_ms": 1000 * latencies[int(len(latencies) * 0.95)],
        "bytes_per_turn": sent / confirmed,
        "kb_per_board": grown / len(extra) / 1024,
        "edits_per_turn": edits / confirmed,
        "turns": confirmed,
    }


def _rss() -> int:
    """The process's resident memory in bytes (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    logging.disable(logging.INFO)
    runs = [asyncio.run(run(options.games, options.turns)) for _ in range(options.runs)]
    for run_ in runs:
        print("run:", {k: round(v, 2) for k, v in run_.items()})
    print(f"{options.games} games at once, medians of {options.runs} runs:")
    for key in runs[0]:
        print(f"  {key}: {statistics.median(r[key] for r in runs):.2f}")


if __name__ == "__main__":
    main()
