"""Engine speed: legal-turn enumeration, random self-play, and the CLI in batch mode.

    python bench/engine.py [--games N] [--repeat R]

Prints medians over R runs of a fixed, seeded set of positions taken from self-play, so the
figures compare across commits. No assertions: targets live in the issue notes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Dice, Game, Position, legal_turns  # noqa: E402
from bot.engine.cli import answer_line, request  # noqa: E402


def self_play(variant: str, rng: random.Random) -> Game:
    """Plays one game with uniformly random legal turns and returns the finished game."""
    game = Game.start(variant, rng)
    while not game.is_over:
        if game.dice is None:
            game = game.roll(rng)
        turns = game.legal_turns()
        game = game.play(rng.choice(turns)) if turns else game.pass_turn()
    return game


def sample(variant: str, games: int, seed: int) -> list[tuple[Position, Dice, bool]]:
    """Collects every (position, dice, first_turn) met in ``games`` seeded self-play games."""
    rng = random.Random(seed)
    found: list[tuple[Position, Dice, bool]] = []
    for _ in range(games):
        game = Game.start(variant, rng)
        while not game.is_over:
            if game.dice is None:
                game = game.roll(rng)
            assert game.dice is not None
            found.append((game.position, game.dice, game.first_turn))
            turns = game.legal_turns()
            game = game.play(rng.choice(turns)) if turns else game.pass_turn()
    return found


def time_each(cases: list[tuple[Position, Dice, bool]], repeat: int) -> list[float]:
    """Microseconds per enumeration for each case: the median of ``repeat`` timings."""
    per_case: list[list[float]] = [[] for _ in cases]
    clock = time.perf_counter
    for _ in range(repeat):
        for index, (position, dice, first) in enumerate(cases):
            start = clock()
            legal_turns(position, dice, first_turn=first)
            per_case[index].append((clock() - start) * 1e6)
    return [statistics.median(t) for t in per_case]


def report(name: str, micros: list[float]) -> None:
    micros = sorted(micros)
    p99 = micros[min(len(micros) - 1, int(len(micros) * 0.99))]
    print(
        f"{name:<22} n={len(micros):<6} median {statistics.median(micros):8.1f} us"
        f"   p99 {p99:8.1f} us   max {micros[-1]:8.1f} us"
    )


def cli_requests(cases: list[tuple[Position, Dice, bool]]) -> list[str]:
    import json

    lines = []
    for position, dice, first in cases:
        lines.append(json.dumps(request(position, dice, first_turn=first)))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}, {args.games} seeded self-play games per variant, "
        f"median of {args.repeat} runs per position"
    )
    for variant in ("long", "short"):
        cases = sample(variant, args.games, seed=2026)
        singles = [c for c in cases if not c[1].is_double]
        doubles = [c for c in cases if c[1].is_double]
        report(f"{variant} all", time_each(cases, args.repeat))
        report(f"{variant} non-doubles", time_each(singles, args.repeat))
        report(f"{variant} doubles", time_each(doubles, args.repeat))
    for variant in ("long", "short"):
        rng = random.Random(7)
        rates = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            count = 0
            while time.perf_counter() - start < 1.0:
                self_play(variant, rng)
                count += 1
            rates.append(count / (time.perf_counter() - start))
        print(f"{variant} self-play            {statistics.median(rates):8.1f} games/s")
    lines = cli_requests(sample("long", args.games, seed=2026))
    runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for line in lines:
            answer_line(line)
        runs.append((time.perf_counter() - start) / len(lines) * 1e6)
    print(
        f"CLI long (JSON in+out) {statistics.median(runs):8.1f} us/request "
        f"({len(lines)} requests, in process)"
    )


if __name__ == "__main__":
    main()
