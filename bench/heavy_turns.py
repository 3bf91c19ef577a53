"""Heavy turns: the other games' tap latency while a crazy gul-bara cascade is being searched.

    python bench/heavy_turns.py [--games 20] [--interval 0.5] [--quiet 4] [--runs 3] [--pin]

The bot runs as its own process (``python -m bot``, as in production) against the fake Telegram
Bot API server from ``tests/support``; this process plays both sides of every game. Before the
bot starts, one crazy gul-bara game (international rules) is written to its database with dice
chosen through its seed (``tests/support/cascades.py``): white's turn to tap, then black's
forced turn, then white's 1-1, a cascade of 24 moves whose first look searches about 107,000
nodes (2.8 s on one core of the machine that found it). ``--games`` long nardy games are then
tapped, each player tapping every ``--interval`` seconds (a step, or Confirm; 0: as soon as the
board changes), for ``--quiet`` seconds alone, then while white taps 4/2, 2/1 and Confirm: the
cascade is searched from that Confirm until white's board shows it.

Printed for each run and as medians over ``--runs`` fresh bot processes: the other games'
tap-to-answer latency (the callback query's answer, what a player sees first) p50/p99 in the
quiet seconds and while the cascade is searched, how many of their taps were answered in the
search, and how long it took (Confirm to the cascade's board). Unpaced: the bot is given
Telegram pacing settings far above any load. With ``--pin`` the bot runs on a processor of its
own and this process on the others (see ``bench/bot_load.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._process import bot_process, pin
from bench.bot_load import Table, open_tables, percentile, redrawn
from bot.callbacks import GameButton
from bot.engine import Dice, Game, Position
from bot.services import compose
from bot.services.actions import GameAction
from bot.services.snapshots import WHOLE_TURN_BUTTONS
from bot.storage import Store, open_database
from tests.bot.gameplay import game_buttons, mover
from tests.support.cascades import HEAVY_BEFORE, HEAVY_STEPS, start_heavy_game
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser


def heavy_taps() -> list[tuple[GameAction, int]]:
    """White's buttons that tap :data:`HEAVY_STEPS`, as the bot offers them (in the engine's
    order): a step's, or once the turn has few ways to finish, the finish's."""
    game = Game.setup(Position.from_text(HEAVY_BEFORE), rules="international")
    current = game.with_dice(Dice(2, 1)).turn_input()
    taps: list[tuple[GameAction, int]] = []
    left = list(HEAVY_STEPS)
    while left:
        finishes = current.finishes(WHOLE_TURN_BUTTONS)
        if finishes is not None:
            ways = [[(p.src, p.dst) for p in steps] for steps in finishes]
            taps.append((GameAction.FINISH, ways.index(left)))
            return taps
        steps = [(o.src, o.dst) for o in current.options]
        index = steps.index(left.pop(0))
        taps.append((GameAction.STEP, index))
        current = current.play(current.options[index]).with_forced()
    return taps


async def store_heavy_game(
    database: Path, white: FakeUser, black: FakeUser, group: FakeChat
) -> None:
    """Writes the heavy game into ``database``, its board in ``group`` not shown yet (the bot
    shows it when it starts)."""
    db = await open_database(database)
    services = compose(Store(db), random.Random(1), move_seconds=3600)
    service = services.games
    for user in (white, black):
        await services.users.see(user.id, username=user.username, first_name=user.first_name,
                                language_code="en")  # fmt: skip
    await start_heavy_game(
        service, chat_id=group.id, white_id=white.id, black_id=black.id, move_seconds=3600
    )
    await db.close()


async def tap_board(
    fake: FakeTelegram, board: FakeMessage, user: FakeUser, action: GameButton
) -> None:
    """``user`` taps ``action`` on ``board`` and waits for the board to change."""
    edits = board.edit_count
    await fake.next_answer_to(fake.tap(user, board, action.pack()), timeout=60)
    await fake.wait_for(lambda: redrawn(board, edits, action.version), timeout=120)


async def tap_others(
    fake: FakeTelegram,
    table: Table,
    interval: float,
    stop: asyncio.Event,
    taps: list[tuple[float, float]],
) -> None:
    """Taps one long nardy game (a step, or Confirm) until ``stop``, each tap ``interval``
    seconds after the one before or, if the board shows it later, as soon as it does (0: flat
    out), recording each tap's (start, latency to its answer)."""
    board = table.board
    await asyncio.sleep(random.uniform(0, interval))  # the players do not tap in step
    while not stop.is_set():
        due = time.perf_counter() + interval
        buttons = game_buttons(board)
        if not buttons:
            return
        confirm = [b for b in buttons if b.action is GameAction.CONFIRM]
        action = confirm[0] if confirm else buttons[0]
        edits = board.edit_count
        started = time.perf_counter()
        await fake.next_answer_to(fake.tap(mover(board, table.players), board, action.pack()),
                                  timeout=60)  # fmt: skip
        taps.append((started, time.perf_counter() - started))
        await fake.wait_for(lambda old=action.version, n=edits: redrawn(board, n, old), timeout=60)
        await asyncio.sleep(due - time.perf_counter())


def latency(taps: list[tuple[float, float]], begin: float, end: float) -> tuple[float, float, int]:
    """p50 and p99 (ms) of the taps started in [begin, end), and how many there were."""
    ms = [spent * 1000 for started, spent in taps if begin <= started < end]
    if not ms:
        return float("nan"), float("nan"), 0
    return statistics.median(ms), percentile(ms, 0.99), len(ms)


async def measure(args: argparse.Namespace, workdir: Path, number: int) -> dict[str, float]:
    """One run on a fresh database and bot process."""
    database = workdir / f"heavy-{number}.sqlite3"
    processors = os.sched_getaffinity(0)
    async with FakeTelegram() as fake:
        white = fake.create_user("White", username="white")
        black = fake.create_user("Black", username="black")
        group = fake.create_group("cascade", [white, black])
        await store_heavy_game(database, white, black, group)
        async with bot_process(fake, database, telegram_pace=False, workdir=workdir) as bot:
            if args.pin:
                cpus = sorted(os.sched_getaffinity(0))
                pin(bot.pid, {cpus[-1]})
                os.sched_setaffinity(0, set(cpus[:-1]))
            heavy = await fake.wait_for_message(group, where=lambda m: m.photo is not None,
                                                timeout=60)  # fmt: skip
            tables = await open_tables(fake, args.games)
            stop = asyncio.Event()
            taps: list[tuple[float, float]] = []
            players = [
                asyncio.create_task(tap_others(fake, t, args.interval, stop, taps)) for t in tables
            ]
            quiet_from = time.perf_counter() + 1.0  # the first taps meet the opening boards
            await asyncio.sleep(1.0 + args.quiet)
            quiet_to = time.perf_counter()
            for move, index in heavy_taps():
                [tap] = [b for b in game_buttons(heavy) if b.action is move and b.arg == index]
                await tap_board(fake, heavy, white, tap)
            [confirm] = [b for b in game_buttons(heavy) if b.action is GameAction.CONFIRM]
            searched_from = time.perf_counter()
            await tap_board(fake, heavy, white, confirm)
            searched_to = time.perf_counter()
            stop.set()
            await asyncio.gather(*players)
    os.sched_setaffinity(0, processors)  # undone for the next run's set-up
    quiet = latency(taps, quiet_from, quiet_to)
    during = latency(taps, searched_from, searched_to)
    return {
        "quiet p50": quiet[0],
        "quiet p99": quiet[1],
        "quiet taps": quiet[2],
        "during p50": during[0],
        "during p99": during[1],
        "during taps": during[2],
        "search s": searched_to - searched_from,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="long nardy games tapped meanwhile")
    parser.add_argument(
        "--quiet", type=float, default=4, help="seconds measured before the cascade"
    )
    parser.add_argument(
        "--interval",
        type=float,
        default=0.5,
        help="seconds between a player's taps (0: each taps as soon as the board changes, "
        "which keeps the bot busy all the time)",
    )
    parser.add_argument("--runs", type=int, default=3, help="fresh bot processes; medians")
    parser.add_argument("--pin", action="store_true", help="the bot on a processor of its own")
    args = parser.parse_args()
    if args.pin and len(os.sched_getaffinity(0)) < 2:
        parser.error("--pin needs two processors")
    workdir = Path(tempfile.mkdtemp(prefix="nardy-heavy-"))
    runs = []
    try:
        for number in range(1, args.runs + 1):
            run = await measure(args, workdir, number)
            runs.append(run)
            print(
                f"run {number}: quiet p50 {run['quiet p50']:.1f} ms p99 {run['quiet p99']:.1f} ms "
                f"({run['quiet taps']:.0f} taps); during the cascade's search "
                f"({run['search s']:.2f} s) p50 {run['during p50']:.1f} ms "
                f"p99 {run['during p99']:.1f} ms ({run['during taps']:.0f} taps)"
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    def med(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    pace = f"every {args.interval:g} s" if args.interval else "flat out"
    print(f"medians of {len(runs)} run(s), {args.games} other games tapped {pace}:")
    print(
        f"other games' tap -> answer, without a cascade: p50 {med('quiet p50'):.1f} ms, "
        f"p99 {med('quiet p99'):.1f} ms"
    )
    print(
        f"other games' tap -> answer, while a cascade is searched ({med('search s'):.2f} s, "
        f"{med('during taps'):.0f} taps): p50 {med('during p50'):.1f} ms, "
        f"p99 {med('during p99'):.1f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
