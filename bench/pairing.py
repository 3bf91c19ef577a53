"""Tournament pairing: how long a Swiss round of many players takes to pair.

    python bench/pairing.py [--players N] [--rounds R] [--repeat K] [--seed S]

- one Swiss round of N players (256 by default) paired K times at the start, in the middle and
  at the last round of an R-round tournament (8 by default, ``ceil(log2 256)``) played with
  random results: median and p95;
- whole R-round tournaments of N players with random results, each round paired from the
  results before it, and the standings at the end: median and p95 of the total, the slowest
  round seen, and how many pairings were repeats (none expected);
- for scale: a knock-out bracket of N played out, and the round-robin table of N.

Figures only, no assertions (tests/services/test_pairing.py checks the pairings).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pairing import (
    PairingResult,
    SeededPlayer,
    knockout_bracket,
    round_robin,
    standings,
    swiss_round,
)
from tests.services.pairings import results_of


def timings(function: Callable[[], object], repeat: int) -> list[float]:
    """Seconds per call, ``repeat`` calls."""
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - start)
    return seconds


def summary(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered) * 1e3:7.1f} ms   p95 {p95 * 1e3:7.1f} ms"


def tournament(
    entrants: list[SeededPlayer], rounds: int, rng: random.Random
) -> tuple[list[PairingResult], float, int]:
    """A whole Swiss with random results: the results, the slowest round, repeated pairings."""
    history: list[PairingResult] = []
    met: set[frozenset[int]] = set()
    slowest = 0.0
    repeats = 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        paired = swiss_round(entrants, history, number)
        slowest = max(slowest, time.perf_counter() - start)
        for pairing in paired.matches:
            repeats += frozenset(pairing.players) in met
            met.add(frozenset(pairing.players))
        history += results_of(paired, rng)
    standings(entrants, history)
    return history, slowest, repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    entrants = [SeededPlayer(player, rng.uniform(1000, 2200)) for player in range(args.players)]
    history, _, _ = tournament(entrants, args.rounds - 1, rng)
    per_round = len(history) // max(1, args.rounds - 1)
    print(f"Swiss, {args.players} players, one round paired {args.repeat} times:")
    for number in sorted({1, (args.rounds + 1) // 2, args.rounds}):
        before = history[: per_round * (number - 1)]
        seconds = timings(partial(swiss_round, entrants, before, number), args.repeat)
        print(f"  round {number:2}: {summary(seconds)}")

    runs = max(3, args.repeat // 4)
    totals, slowest, repeats = [], 0.0, 0
    for _ in range(runs):
        start = time.perf_counter()
        _, worst, repeated = tournament(entrants, args.rounds, rng)
        totals.append(time.perf_counter() - start)
        slowest, repeats = max(slowest, worst), repeats + repeated
    print(
        f"Swiss, {args.players} players, {args.rounds} rounds with random results and the "
        f"standings, {runs} tournaments:\n  total: {summary(totals)}   slowest round "
        f"{slowest * 1e3:.1f} ms   repeated pairings {repeats}"
    )

    def knockout() -> None:
        bracket = knockout_bracket(entrants)
        played = bracket.first_round()
        while len(played.pairings) > 1:
            played = bracket.next_round(played, results_of(played, rng))

    print(f"Knock-out of {args.players}, played out: {summary(timings(knockout, args.repeat))}")
    players = [entrant.player for entrant in entrants]
    table = timings(lambda: round_robin(players), args.repeat)
    print(f"Round-robin table of {args.players}: {summary(table)}")


if __name__ == "__main__":
    main()
