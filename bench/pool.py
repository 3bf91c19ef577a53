"""The pool ("play anyone now"): how long one enter takes, pairing included, on an SQLite file.

    python bench/pool.py [--seekers N] [--per-second R] [--leave P] [--seed S]

N seekers (10,000 by default) arrive R a second (20) on a simulated clock, each with one of four
kinds of terms (long or short, a single game or a match to 3) and a rating drawn around 1500
(σ 200); a fraction P of those left waiting (0.2) leave again, one at each arrival, and the
timers' look at the pool runs every simulated second: the pairs made among those waiting as
their windows widen (``Pool.pair_waiting``), the computer's offers (``Pool.sweep``) and the
waits that ran out (``Pool.expire``). One process, one SQLite file in a temporary folder.
Printed: median and p95 of an enter (which pairs when it can), of a leave and of a look, and
how many pairings were made (on entering, by the look), the mean wait before one, and the
largest pool seen.

Figures only, no assertions (tests/services/test_pool.py checks the pool).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.model import Terms
from bot.services.pool import Pool
from bot.storage import Store, open_database

KINDS = (Terms(), Terms(match_length=3), Terms(variant="short"), Terms("short", match_length=3))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def summary(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered) * 1e3:6.2f} ms   p95 {p95 * 1e3:6.2f} ms"


async def run(seekers: int, per_second: float, leave: float, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "pool.sqlite3")
        store, clock = Store(db), Clock()
        pool = Pool(store, clock=clock)
        enters: list[float] = []
        leaves: list[float] = []
        sweeps: list[float] = []
        waiting: dict[int, float] = {}
        waits: list[float] = []
        largest = on_entering = by_look = ran_out = 0
        next_sweep = clock.now + 1
        for user in range(1, seekers + 1):
            clock.now += rng.expovariate(per_second)
            start = time.perf_counter()
            pairing = await pool.enter(user, 0, rng.choice(KINDS), rng.gauss(1500, 200), clock.now)
            enters.append(time.perf_counter() - start)
            if pairing is None:
                waiting[user] = clock.now
            else:
                waits.append(clock.now - waiting.pop(pairing.waiting.user_id))
                on_entering += 1
            if waiting and rng.random() < leave:
                gone = rng.choice(list(waiting))
                start = time.perf_counter()
                await pool.leave(gone)
                leaves.append(time.perf_counter() - start)
                del waiting[gone]
            if clock.now >= next_sweep:
                start = time.perf_counter()
                paired = await pool.pair_waiting(clock.now)
                await pool.sweep(clock.now)
                expired = await pool.expire(clock.now)
                sweeps.append(time.perf_counter() - start)
                for each in paired:
                    for seeker in (each.waiting, each.entering):
                        waits.append(clock.now - waiting.pop(seeker.user_id))
                for seeker in expired:
                    del waiting[seeker.user_id]
                by_look += len(paired)
                ran_out += len(expired)
                next_sweep = clock.now + 1
            largest = max(largest, len(waiting))
        await db.close()
    print(f"{seekers} seekers, {per_second:g} a second, SQLite file, one process")
    print(f"enter (pairing included):   {summary(enters)}")
    print(f"leave:                      {summary(leaves)}  ({len(leaves)} left)")
    print(f"look (pair, offer, expire): {summary(sweeps)}  ({len(sweeps)} looks)")
    print(
        f"pairings {on_entering} on entering, {by_look} by the look; mean wait "
        f"{statistics.mean(waits):.1f} s (each seeker paired by the look counted); "
        f"{ran_out} waits ran out; largest pool {largest}, left waiting at the end {len(waiting)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seekers", type=int, default=10_000)
    parser.add_argument("--per-second", type=float, default=20.0)
    parser.add_argument("--leave", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.seekers, args.per_second, args.leave, args.seed))


if __name__ == "__main__":
    main()
