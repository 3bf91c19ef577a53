"""Board edits per turn: whole self-play games of long nardy played through the bot's keyboards.

    python bench/edits.py [--games 50] [--concurrency 10] [--quick] [--telegram-pace]

The bot runs as its own process (``python -m bot``) against the fake Bot API server from
``tests/support``; this process plays both sides of every game, each in a group of its own, like
a person: on each board it taps one of the buttons that play something (a whole-turn button or
a step, chosen at random), then ✅ Confirm (in quick mode the completing tap confirms). It
counts what Telegram would count against the group: every board edit (``editMessageMedia``),
and the turns in each finished game's history (passes and forced turns included: they are
turns the board shows too, played for the player). Prints edits per turn (mean, and a 95%
confidence interval over games), taps per turn, and the board's lag behind the taps: the time
from a tap to the board showing its result (with ``--telegram-pace``, the group's 20 messages a
minute included).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._process import bot_process
from bot.callbacks import GameButton
from bot.services.actions import GameAction
from tests.bot.gameplay import game_buttons, mover
from tests.support.fake_telegram import FakeMessage, FakeTelegram, FakeUser

PLAYING = (GameAction.FINISH, GameAction.STEP)


async def play_game(
    fake: FakeTelegram,
    index: int,
    quick: bool,
    rng: random.Random,
    lags: list[float],
) -> tuple[FakeMessage, int]:
    """Plays one game in a group of its own to the end; returns its board and the taps."""
    a = fake.create_user(f"A{index}", username=f"a{index}")
    b = fake.create_user(f"B{index}", username=f"b{index}")
    group = fake.create_group(f"g{index}", [a, b])
    players = [a, b]
    if quick:
        for user in players:
            fake.send_text(user, group, "/quick")
    fake.send_text(a, group, f"/play @b{index}")
    challenge = await fake.wait_for_message(group, where=lambda m: "⚔" in m.content, timeout=60)
    fake.press(b, challenge, challenge.buttons[0].text)
    board = await fake.wait_for_message(group, where=lambda m: m.photo is not None, timeout=60)
    taps = 0
    while True:
        buttons = game_buttons(board)
        if not buttons:
            return board, taps
        confirm = [x for x in buttons if x.action is GameAction.CONFIRM]
        playing = [x for x in buttons if x.action in PLAYING]
        action: GameButton = confirm[0] if confirm else rng.choice(playing)
        user: FakeUser = mover(board, players)
        started = time.perf_counter()
        fake.tap(user, board, action.pack())
        taps += 1
        await fake.wait_for(
            lambda old=action.version: _moved_on(board, old), timeout=600, description="a board"
        )
        lags.append(time.perf_counter() - started)


def _moved_on(board: FakeMessage, old_version: int) -> bool:
    buttons = game_buttons(board)
    return not buttons or buttons[0].version != old_version


def turns_played(database: Path) -> dict[int, tuple[int, int]]:
    """Turns in each finished game's history (every line is a turn: no cube here), and those
    of them that a player chose (not passes or forced turns)."""
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT id, history FROM games WHERE winner IS NOT NULL").fetchall()
    counts = {}
    for game_id, history in rows:
        lines = [line for line in history.split("\n") if line]
        chosen = [line for line in lines if not line.endswith((" pass", " forced"))]
        counts[game_id] = (len(lines), len(chosen))
    return counts


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(len(values))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="both players in quick mode")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--telegram-pace",
        action="store_true",
        help="keep Telegram's limits (20 edits a minute per group): slow, measures the lag",
    )
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="nardy-edits-"))
    database = workdir / "edits.sqlite3"
    rng = random.Random(args.seed)
    lags: list[float] = []
    async with (
        FakeTelegram() as fake,
        bot_process(fake, database, telegram_pace=args.telegram_pace),
    ):
        started = time.monotonic()
        limit = asyncio.Semaphore(args.concurrency)

        async def one(index: int) -> tuple[FakeMessage, int]:
            async with limit:
                return await play_game(fake, index, args.quick, random.Random(rng.random()), lags)

        played = await asyncio.gather(*(one(i) for i in range(args.games)))
        elapsed = time.monotonic() - started
    turns = turns_played(database)
    edits_per_turn, taps_per_turn = [], []
    for board, taps in played:
        game_id = int((board.caption or "").split(" · #")[1].split("\n")[0])
        edits_per_turn.append(board.edit_count / turns[game_id][0])
        taps_per_turn.append(taps / turns[game_id][0])
    mean, half = mean_interval(edits_per_turn)
    total_turns = sum(every for every, _ in turns.values())
    chosen_turns = sum(chosen for _, chosen in turns.values())
    total_edits = sum(board.edit_count for board, _ in played)
    mode = "quick mode" if args.quick else "normal mode"
    print(f"{args.games} games of long nardy in {mode}, {total_turns} turns, {elapsed:.0f} s")
    print(
        f"board edits per turn: {total_edits / total_turns:.2f} overall; per game mean "
        f"{mean:.2f} ± {half:.2f} (95% CI), median {statistics.median(edits_per_turn):.2f}"
    )
    print(
        f"taps per turn: {statistics.fmean(taps_per_turn):.2f}; edits per turn a player chose"
        f" ({chosen_turns} of them, no pass or forced turn): {total_edits / chosen_turns:.2f}"
    )
    ms = sorted(lag * 1000 for lag in lags)
    print(
        f"tap -> board shows it: p50 {statistics.median(ms):.0f} ms, "
        f"p95 {ms[int(len(ms) * 0.95)]:.0f} ms, max {ms[-1]:.0f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
