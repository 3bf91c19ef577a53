"""Benchmark of the tournament pictures: ``python bench/tournament_image.py [--runs N]``.

Draws the first page of a 64-player bracket (two rounds played, the third under way), a
16-player bracket (one picture) and the first page of a
256-player Swiss after 4 of 8 rounds (32 rows: see ``render/tournament_layout.py``), and for
comparison an 8-player bracket and a 7-player Swiss, each ``--runs`` times, and prints the
first run (text masks not yet cached: the first picture of a tournament), the median and p95
of the others (the pinned message edited after a result: the same names), the part of it
spent encoding the PNG, and the bytes. Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from render import tournament
from tests.render.tournament_samples import knockout, swiss


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(
    name: str, draw: Callable[[], Image.Image], render: Callable[[], bytes], runs: int
) -> None:
    """Prints ``render``'s first run, median and p95 over ``runs``, encoding's median and the
    size of the bytes."""
    times = []
    data = b""
    for _ in range(runs):
        start = time.perf_counter()
        data = render()
        times.append(time.perf_counter() - start)
    image = draw()
    encode = []
    for _ in range(max(3, runs // 3)):
        start = time.perf_counter()
        tournament._encode(image)
        encode.append(time.perf_counter() - start)
    rest = times[1:] or times
    print(
        f"{name:32} {image.width}x{image.height:<5} first {_ms(times[0])}  "
        f"median {_ms(statistics.median(rest))}  p95 {_ms(_p95(rest))}  "
        f"(encode {_ms(statistics.median(encode))})  {len(data):7,} bytes"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="pictures drawn of each")
    args = parser.parse_args()
    bracket64 = knockout(64, 2)
    bracket16 = knockout(16, 2)
    bracket8 = knockout(8, 2)
    swiss256 = swiss(256, 8, 4)
    swiss7 = swiss(7, 3, 3)
    print(f"PNG, {tournament.PALETTE_COLOURS}-colour palette; {args.runs} runs each")
    measure(
        "knock-out, 64 players, page 1 of 5",
        lambda: tournament.bracket_image(bracket64),
        lambda: tournament.render_bracket(bracket64),
        args.runs,
    )
    measure(
        "knock-out, 16 players",
        lambda: tournament.bracket_image(bracket16),
        lambda: tournament.render_bracket(bracket16),
        args.runs,
    )
    measure(
        "Swiss, 256 players, page 1 of 8",
        lambda: tournament.table_image(swiss256),
        lambda: tournament.render_table(swiss256),
        args.runs,
    )
    measure(
        "knock-out, 8 players",
        lambda: tournament.bracket_image(bracket8),
        lambda: tournament.render_bracket(bracket8),
        args.runs,
    )
    measure(
        "Swiss, 7 players",
        lambda: tournament.table_image(swiss7),
        lambda: tournament.render_table(swiss7),
        args.runs,
    )


if __name__ == "__main__":
    main()
