"""Analysis throughput with luck and PR (bot/ai/luck.py): games analysed a minute, one process.

    python bench/luck.py [--games N] [--runs R] [--ply P] [--variant V ...]

Each run plays N seeded games of self-play (level 3 against level 3: its softmax makes every
game different) and times their full analysis: the replay (``states``), the review of every
turn (``review``, the errors and PR) and the luck of every roll (``luck`` at ``--ply``, 1 the
review's own depth, 0 the net alone: what the bot runs), then each side's figures
(``game_luck``). Self-play has no cube, so no cube decisions are judged. Printed: the
median over R runs of games a minute, and the mean number of turns a game. The play itself is
not timed. No assertions: the figures go into the issue notes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.ai  # noqa: F401  (before numpy: it limits numpy's BLAS threads)
from bot.ai.analysis import review, states
from bot.ai.computer import Computer
from bot.ai.luck import game_luck, luck
from bot.engine import Game, TurnRecord


def self_play(variant: str, seed: int) -> tuple[Game, list[TurnRecord]]:
    """One game of level 3 against itself: its start and its history."""
    rng = random.Random(seed)
    player = Computer(3)
    start = Game.start(variant, rng)
    game = start
    records = []
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        turn = player.choose(game, rng)
        if turn is None:
            turn = game.only_turn()
            assert turn is not None
        records.append(game.record(turn))
        game = game.play(turn)
    return start, records


def run(variant: str, games: int, ply: int, seed: int) -> tuple[float, float]:
    """Games a minute and mean turns a game over ``games`` games."""
    played = [self_play(variant, seed + i) for i in range(games)]
    began = time.perf_counter()
    for start, records in played:
        turns = states(start, records)
        every = range(len(turns))
        last, turn = turns[-1]
        game_luck(luck(turns, every, ply), review(turns, every), last.play(turn).result)
    spent = time.perf_counter() - began
    return 60.0 * games / spent, statistics.mean(len(r) for _, r in played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ply", type=int, default=1)
    parser.add_argument("--variant", nargs="+", default=["long", "short"])
    args = parser.parse_args()
    for variant in args.variant:
        rates = []
        turns = 0.0
        for r in range(args.runs):
            rate, turns = run(variant, args.games, args.ply, seed=1000 * r)
            rates.append(rate)
        print(
            f"{variant}: {statistics.median(rates):.1f} games a minute at ply {args.ply} "
            f"(median of {args.runs} runs of {args.games} games, ~{turns:.0f} turns a game; "
            f"runs {', '.join(f'{x:.1f}' for x in rates)})"
        )


if __name__ == "__main__":
    main()
