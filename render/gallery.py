"""Sample boards: ``python -m render.gallery DIR`` writes them into DIR and prints, for each,
its name, the median milliseconds that rendering and encoding took (caches warm), and its size
in bytes.

:func:`samples` is also what the golden-image tests draw.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from bot.engine import Dice, Position, Side, Step, cascade

from .board import FILE_NAME, BoardView, render_board

_NAMED = BoardView(white_name="Алексей", black_name="Bob")


def samples() -> list[tuple[str, Position, BoardView]]:
    """Returns named sample positions with their views, one per feature of the drawing."""
    pos = Position.from_text
    return [
        (
            "long-opening",
            pos("long w / 24:15 / 24:15"),
            replace(_NAMED, dice=Dice(5, 3)),
        ),
        (
            "long-six-run",
            pos(
                "long b / 24:4 19:2 18:2 17:2 16:1 15:2 14:1 8:1 "
                "/ 24:6 22:2 21:2 19:1 17:1 13:1 10:1 1:1"
            ),
            replace(_NAMED, last_steps=(Step(20, 15), Step(20, 14)), last_side=Side.WHITE),
        ),
        (
            "long-first-double",
            pos("long w / 24:13 18:2 / 24:15"),
            replace(_NAMED, dice=Dice(6, 6), dice_used=2),
        ),
        (
            "long-bear-off",
            pos("long w / 6:2 5:2 4:2 3:1 2:1 off:7 / 8:3 6:4 5:3 4:2 3:2 1:1"),
            replace(
                _NAMED, dice=Dice(6, 2), last_steps=(Step(12, 8), Step(9, 8)), last_side=Side.BLACK
            ),
        ),
        (
            "long-finished",
            pos("long b / off:15 / 9:2 7:3 6:4 5:3 4:3"),
            replace(
                _NAMED,
                last_steps=(Step(2, 0), Step(1, 0)),
                last_side=Side.WHITE,
                result="Алексей wins — mars ×2",
            ),
        ),
        (
            "short-bar",
            pos("short w / bar:2 13:4 8:3 6:4 5:2 / bar:1 13:5 8:2 6:4 4:2 3:1"),
            replace(
                _NAMED,
                dice=Dice(4, 2),
                last_steps=(Step(8, 4, hit=True), Step(6, 4)),
                last_side=Side.BLACK,
            ),
        ),
        (
            "long-selected",
            pos("long w / 24:10 19:1 16:1 13:2 11:1 / 24:9 22:1 21:1 20:2 18:1 14:1"),
            replace(
                _NAMED,
                dice=Dice(5, 3),
                selected=24,
                destinations=(21, 19),
                last_steps=(Step(24, 20), Step(20, 14)),
                last_side=Side.BLACK,
            ),
        ),
        (
            "long-names",
            pos("long w / 24:12 19:1 17:1 13:1 / 24:12 21:1 20:1 16:1"),
            replace(
                _NAMED,
                dice=Dice(2, 1),
                white_name="Александра Константиновна Преображенская-Милославская 👑",
                black_name="🐉 DragonSlayer_2000 🔥 Дима 👨‍👩‍👧",
            ),
        ),
        (
            "long-black-view",
            pos("long b / 24:10 19:1 16:1 13:2 11:1 / 24:9 22:1 21:1 20:2 18:1 14:1"),
            replace(
                _NAMED,
                bottom=Side.BLACK,
                dice=Dice(4, 1),
                last_steps=(Step(24, 19), Step(16, 13)),
                last_side=Side.WHITE,
                selected=20,
                destinations=(16, 19),
            ),
        ),
        (
            "short-opening",
            pos("short b / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:2 6:5 5:1"),
            replace(
                _NAMED,
                bottom=Side.BLACK,
                dice=Dice(3, 1),
                dice_used=(3,),
                selected=6,
                destinations=(5,),
            ),
        ),
        (
            "long-cube-owned",
            pos("long w / 24:9 19:2 17:1 16:2 13:1 / 24:8 22:2 20:2 18:1 15:2"),
            replace(
                _NAMED,
                dice=Dice(6, 4),
                cube=4,
                cube_owner=Side.WHITE,
                match_label="Матч до 7 · 3:2",
                last_steps=(Step(24, 20), Step(24, 18)),
                last_side=Side.BLACK,
            ),
        ),
        (
            "short-cube-offered",
            pos("short b / 13:5 8:2 6:4 4:2 3:1 2:1 / bar:1 13:4 8:3 6:4 5:3"),
            replace(
                _NAMED,
                bottom=Side.BLACK,
                cube=1,
                cube_offered=True,
                match_label="Match to 5 · 2:4",
                last_steps=(Step(6, 2, hit=True), Step(8, 6)),
                last_side=Side.WHITE,
            ),
        ),
        (
            "long-cube-centred",
            pos("long b / 24:13 19:1 14:1 / 24:13 21:1 18:1"),
            replace(_NAMED, bottom=Side.BLACK, dice=Dice(3, 2), cube=1),
        ),
        (
            "short-cube-crowded-bar",
            pos("short w / bar:2 13:4 8:3 6:4 5:2 / bar:5 13:5 8:2 6:3"),
            replace(
                _NAMED,
                dice=Dice(5, 5),
                dice_used=1,
                cube=8,
                cube_owner=Side.WHITE,
                match_label="Match to 11 · 10:9 · Crawford",
                white_name="Александра Константиновна Преображенская-Милославская 👑",
                black_name="🐉 DragonSlayer_2000 🔥 Дима 👨‍👩‍👧",
            ),
        ),
        (
            "short-three-dice",
            pos("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5"),
            replace(_NAMED, dice=Dice(6, 4, 1), dice_used=(6,), selected=13, destinations=(9, 12)),
        ),
        (
            "abkhaz-triple",
            pos("abkhaz b / 24:2 13:4 8:3 6:5 4:1 / 24:2 13:5 10:1 8:2 6:5"),
            replace(_NAMED, bottom=Side.BLACK, dice=Dice(3, 3, 3), dice_used=2),
        ),
        (
            "short-anti-three-pending",
            pos("short b / 24:2 13:4 8:3 6:4 5:1 3:1 / 24:2 13:5 8:3 6:5"),
            replace(_NAMED, dice=Dice(6, 4, 1), dice_label="Алексей strikes a die"),
        ),
        (
            "abkhaz-anti-three-struck",
            pos("abkhaz w / 24:2 13:5 8:3 6:5 / 24:2 13:4 8:3 6:4 5:1 3:1"),
            replace(
                _NAMED, dice=Dice(6, 1), struck=4, dice_used=(6,), cube=2, cube_owner=Side.BLACK
            ),
        ),
        (
            "crazy-cascade",
            pos("crazy_gulbara w / 24:12 21:1 17:1 13:1 / 24:13 20:1 16:1"),
            replace(
                _NAMED,
                dice=Dice(3, 3),
                moves=cascade(3),
                dice_used=(3, 3, 4),
                last_steps=(Step(24, 21), Step(21, 18), Step(18, 14)),
                last_side=Side.WHITE,
            ),
        ),
        (
            "crazy-four-per-value",
            pos("crazy_gulbara b / 24:12 21:1 17:1 13:1 / 24:13 20:1 16:1"),
            replace(
                _NAMED,
                bottom=Side.BLACK,
                dice=Dice(1, 1),
                moves=cascade(1, 4),
                dice_used=9,
                dice_label="1-1 · four of each",
            ),
        ),
        (
            "gulbara-remainder",
            pos("gulbara b / 24:13 18:1 13:1 / 24:12 20:2 14:1"),
            replace(
                _NAMED,
                moves=(5, 6, 6),
                dice_used=(5,),
                dice_label="Remainder from Алексей",
                last_steps=(Step(24, 18), Step(18, 13)),
                last_side=Side.WHITE,
            ),
        ),
        (
            "gulbara-chain",
            pos("gulbara w / 24:13 18:2 / 24:14 20:1"),
            replace(_NAMED, dice=Dice(3, 1), dice_label="Chain roll 2 (after 6-6)"),
        ),
        (
            "long-worst-move-arrows",
            pos("long w / 24:12 19:1 17:1 13:1 / 24:13 18:1 16:1"),
            replace(
                _NAMED,
                dice=Dice(6, 3),
                arrows=((Step(24, 18), Step(19, 16)), (Step(19, 13), Step(17, 14))),
            ),
        ),
        (
            "short-arrows-bar-hit-off",
            pos("short w / 25:1 6:5 5:4 4:3 3:2 / 24:2 13:5 8:3 6:4 5:1"),
            replace(
                _NAMED,
                dice=Dice(5, 6),
                arrows=(
                    (Step(25, 20, hit=True), Step(6, 0)),
                    (Step(25, 20, hit=True), Step(20, 14)),
                ),
            ),
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    """Writes the sample boards into the folder given; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m render.gallery DIR", file=sys.stderr)
        return 2
    folder = Path(args[0])
    folder.mkdir(parents=True, exist_ok=True)
    suffix = Path(FILE_NAME).suffix
    boards = samples()
    for _, position, view in boards:  # the first board of a theme draws the background
        render_board(position, view=view)
    for name, position, view in boards:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            data = render_board(position, view=view)
            times.append(time.perf_counter() - start)
        (folder / f"{name}{suffix}").write_bytes(data)
        print(f"{name:20} {statistics.median(times) * 1000:6.2f} ms {len(data):8d} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
