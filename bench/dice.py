"""Fair dice: how long a die takes, how uniform a million are, how long a moves file's check is.

    python bench/dice.py [--dice N] [--repeat R]

- the time per die of :func:`bot.engine.derive_die` and of :meth:`FairDice.randint` (what a game
  rolls with), against ``random.Random.randint`` and ``random.SystemRandom.randint`` (what games
  rolled with before);
- over N dice of one seed (the uniformity test's seed and client value, 10⁶ by default): each
  face's count, the worst deviation from N/6 in standard deviations, chi-square and its p-value,
  doubles among the N/2 pairs;
- ``verify`` of the moves file of a long-nardy game played to the end with random choices.

Figures only, no assertions (tests/engine/test_fair.py asserts the bounds).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import FairDice, derive_die
from bot.engine.verify import verify
from bot.services.dice_stats import chi_square_survival
from bot.services.export import moves_text
from tests.services.test_fair_dice import KINDS, play_fair

SEED = hashlib.sha256(b"uniformity").digest()
CLIENT = "7301442855912344781"


def per_call(function: Callable[[], object], calls: int, repeat: int) -> float:
    """The best of ``repeat`` runs, in microseconds a call."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dice", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    counter = iter(range(10**12))
    fair = FairDice(SEED, CLIENT)
    seeded, system = random.Random(1), random.SystemRandom()
    speeds = {
        "derive_die": per_call(
            lambda: derive_die(SEED, CLIENT, next(counter)), 100_000, args.repeat
        ),
        "FairDice.randint": per_call(lambda: fair.randint(1, 6), 100_000, args.repeat),
        "Random.randint": per_call(lambda: seeded.randint(1, 6), 100_000, args.repeat),
        "SystemRandom.randint": per_call(lambda: system.randint(1, 6), 100_000, args.repeat),
    }
    for name, micros in speeds.items():
        print(f"{name:22} {micros:6.2f} µs a die")

    total = args.dice
    start = time.perf_counter()
    dice = [derive_die(SEED, CLIENT, n) for n in range(total)]
    elapsed = time.perf_counter() - start
    counts = Counter(dice)
    expected = total / 6
    sigma = math.sqrt(total * (1 / 6) * (5 / 6))
    chi_square = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    worst = max(range(1, 7), key=lambda f: abs(counts[f] - expected))
    pairs = total // 2
    doubles = sum(dice[2 * i] == dice[2 * i + 1] for i in range(pairs))
    print(
        f"{total:,} dice in {elapsed:.2f} s: "
        + ", ".join(f"{f}: {counts[f]:,}" for f in range(1, 7))
    )
    print(
        f"worst face {worst}: {counts[worst] - expected:+.1f} "
        f"({(counts[worst] - expected) / sigma:+.2f} sd); "
        f"chi-square {chi_square:.2f}, p = {chi_square_survival(chi_square, 5):.3f}; "
        f"doubles {doubles / pairs:.5f} of {pairs:,} pairs "
        f"({(doubles - pairs / 6) / math.sqrt(pairs * 5 / 36):+.2f} sd)"
    )

    stored = play_fair(hashlib.sha256(b"bench").digest(), "1", KINDS[0], random.Random(1))
    text = moves_text(stored, None, None)
    start = time.perf_counter()
    verdict = verify(text)
    elapsed = time.perf_counter() - start
    proof = stored.dice_proof
    assert proof is not None and verdict.ok
    print(
        f"verify, a long-nardy game of {len(stored.history)} turns, {len(proof.rolls)} rolls: "
        f"{elapsed * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
