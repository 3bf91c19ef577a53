"""An exact one-sided bear-off table: how many rolls a side needs to bear off its home.

With every checker of both sides at home (points 1..6) or off, each side's race is its own: the
table holds, for every home of up to 15 checkers, the distribution of the number of rolls it
needs (each roll played to bear off in the fewest on average), and the side to move wins exactly
when it needs no more rolls than the other. The evaluator takes the chance to win from it
(:meth:`Table.answers`, :meth:`Table.win`). Each distribution keeps :data:`KEPT` rolls.

Built from the engine's own legal turns (``python -m bot.ai.bearoff --family short``) and
shipped beside the weights (``weights/bearoff.npz``); long and short nardy read the one table.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from bot.engine import (
    CHECKERS,
    Dice,
    Family,
    Position,
    Side,
    find_variant,
    resolve_rules,
    turns_for,
)

from .network import LOSE_MARS, OUTPUTS, WIN, WIN_MARS, Array

POINTS: Final = 6
HOMES: Final = comb(CHECKERS + POINTS, POINTS)
"""Homes of 0..15 checkers on 6 points: 54,264."""
KEPT: Final = 16
"""Rolls kept per distribution, from its first with a chance."""
SCALE: Final = 65535
"""Chances are stored as 16-bit integers out of this."""
WEIGHTS: Final = Path(__file__).with_name("weights")
VARIANT: Final = {Family.SHORT: "short", Family.LONG: "long"}
"""The variant whose rules build each family's table."""


def rank(homes: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each row's index among all homes: ``(n, 6)`` checkers on points 1..6.

    Homes are ordered by the number of combinations before them in the stars-and-bars sense:
    a home is read as a sequence of 15 stars (checkers, those off last) and 6 bars, and ranked
    among all such sequences (:func:`homes` lists every home in that order)."""
    n = homes.shape[0]
    out = np.zeros(n, dtype=np.int64)
    # walk the points from 1 to 6; before point i's bar come its checkers
    used = np.zeros(n, dtype=np.int64)
    for point in range(POINTS):
        count = homes[:, point]
        after = POINTS - 1 - point
        # homes with fewer checkers on this point (and the same before it) come first: each
        # such count leaves C(checkers left + points after, points after) homes
        for fewer in range(CHECKERS):
            left = np.clip(CHECKERS - used - fewer, 0, None)
            out += (fewer < count) * _BINOMIAL[left + after, after]
        used += count
    return out


def _binomials() -> NDArray[np.int64]:
    table = np.zeros((CHECKERS + POINTS + 1, POINTS + 1), dtype=np.int64)
    for n in range(table.shape[0]):
        for k in range(min(n, POINTS) + 1):
            table[n, k] = comb(n, k)
    return table


_BINOMIAL: Final = _binomials()


def homes() -> NDArray[np.int64]:
    """Every home in :func:`rank` order, ``(HOMES, 6)``."""
    found = []
    for bars in combinations_with_replacement(range(CHECKERS + 1), POINTS):
        counts = [bars[0], *(b - a for a, b in zip(bars, bars[1:], strict=False))]
        found.append(counts)
    table = np.array(found, dtype=np.int64)
    order = np.argsort(rank(table))
    return table[order]


class Table:
    """One family's distributions: ``first[i]`` the first roll with a chance for home ``i``,
    ``chances[i, k]`` the chance of needing ``first[i] + k`` rolls."""

    def __init__(self, first: NDArray[np.int64], chances: NDArray[np.floating[Any]]) -> None:
        """The sums are kept in ``chances``' precision: float64 while the table is built (its
        choices of turns read them), float32 once it is loaded (12.7 MB a process, not 25.6)."""
        self.first = first
        self.chances = chances
        # P(needs at least r rolls), r = 0..KEPT + max(first): the sums the win chance reads
        longest = int(first.max()) + KEPT + 1
        whole = np.zeros((len(first), longest), dtype=chances.dtype)
        rows = np.arange(len(first))[:, None]
        whole[rows, first[:, None] + np.arange(KEPT)[None, :]] = chances
        self.whole = whole
        self.at_least = whole[:, ::-1].cumsum(axis=1)[:, ::-1]

    def expected(self, index: NDArray[np.int64]) -> NDArray[np.float64]:
        """The mean number of rolls each home needs."""
        out: NDArray[np.float64] = self.whole[index] @ np.arange(self.whole.shape[1])
        return out

    def win(self, mine: NDArray[np.int64], theirs: NDArray[np.int64]) -> NDArray[np.float64]:
        """The side to move's chance to bear off first: its rolls needed n, the other's m, it
        wins when n <= m."""
        mine_rolls = self.whole[rank(mine)]
        their_at_least = self.at_least[rank(theirs)]
        out: NDArray[np.float64] = (mine_rolls * their_at_least).sum(axis=1, dtype=np.float64)
        return out

    @staticmethod
    def answers(own: NDArray[np.int64], theirs: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Which rows of ``own``/``theirs`` (the evaluator's ``(n, 26)`` checkers, the side to
        move's first) the table answers: every checker of both sides at home or off, and
        neither side done."""
        out: NDArray[np.bool_] = (
            (own[:, 7:26].sum(axis=1) == 0)
            & (theirs[:, 7:26].sum(axis=1) == 0)
            & (own[:, 0] < CHECKERS)
            & (theirs[:, 0] < CHECKERS)
        )
        return out

    def exact(self, own: NDArray[np.int64], theirs: NDArray[np.int64], net: Array) -> Array:
        """The five probabilities of rows it :meth:`answers`: the chance to win from the
        table; the mars chances ``net``'s (the net's outputs for the same rows) where a side has
        borne off nothing, kept within the chance to win or to lose, else 0; no koks."""
        win = self.win(own[:, 1:7], theirs[:, 1:7]).astype(np.float32)
        out = np.zeros((own.shape[0], OUTPUTS), dtype=np.float32)
        out[:, WIN] = win
        out[:, WIN_MARS] = np.where(theirs[:, 0] == 0, np.minimum(net[:, WIN_MARS], win), 0.0)
        out[:, LOSE_MARS] = np.where(own[:, 0] == 0, np.minimum(net[:, LOSE_MARS], 1 - win), 0.0)
        return out

    def save(self, path: Path) -> None:
        stored = np.rint(self.chances * SCALE).astype(np.uint16)
        with path.open("wb") as file:
            np.savez_compressed(file, first=self.first.astype(np.uint8), chances=stored)

    @classmethod
    def load(cls, path: Path) -> Table:
        with np.load(path) as data:
            chances = data["chances"].astype(np.float64) / SCALE
            chances /= chances.sum(axis=1, keepdims=True)
            return cls(data["first"].astype(np.int64), chances.astype(np.float32))


SHIPPED: Final = WEIGHTS / "bearoff.npz"


@cache
def table() -> Table:
    """The shipped table (loaded once per process)."""
    return Table.load(SHIPPED)


def build(family: Family, log: bool = True) -> Table:
    """Builds ``family``'s table from the engine's legal turns (see the module docstring):
    homes in order of their pips, each roll's turn the one whose home needs the fewest rolls
    on average."""
    variant = VARIANT[family]
    rules = resolve_rules(variant, None)
    moves = {
        (high, low): find_variant(variant).move_list(Dice(high, low), rules)
        for high, low in combinations_with_replacement(range(6, 0, -1), 2)
    }
    # the other side: all of it on its own first point, out of the mover's home
    theirs = [0] * 26
    theirs[1] = CHECKERS
    every = homes()
    order = np.argsort((every * np.arange(1, POINTS + 1)).sum(axis=1), kind="stable")
    longest = 40
    whole = np.zeros((HOMES, longest), dtype=np.float64)
    mean = np.zeros(HOMES, dtype=np.float64)
    whole[0, 0] = 1.0  # nothing left: no roll needed
    began = time.perf_counter()
    for done, index in enumerate(order[1:], start=1):
        home = every[index]
        mine = [CHECKERS - int(home.sum()), *map(int, home), *[0] * 19]
        position = Position.unchecked(variant, Side.WHITE, tuple(mine), tuple(theirs))
        total = np.zeros(longest, dtype=np.float64)
        for (high, low), listed in moves.items():
            turns = turns_for(position, listed, first_turn=False, rules=rules)
            reached = np.array([t.position.white[1:7] for t in turns], dtype=np.int64)
            indexes = rank(reached) if len(turns) else np.array([index])
            best = indexes[int(np.argmin(mean[indexes]))]
            total[1:] += (1 if high == low else 2) / 36 * whole[best, :-1]
        whole[index] = total
        mean[index] = total @ np.arange(longest)
        if log and done % 5000 == 0:
            sys.stderr.write(f"{family}: {done} homes in {time.perf_counter() - began:.0f} s\n")
    first = np.argmax(whole > 0, axis=1)
    first[0] = 0
    rows = np.arange(HOMES)[:, None]
    columns = np.minimum(first[:, None] + np.arange(KEPT)[None, :], longest - 1)
    kept = whole[rows, columns]
    kept[:, -1] += 1.0 - kept.sum(axis=1)  # the far tail, a few millionths, on the last roll
    return Table(first.astype(np.int64), kept)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.bearoff", description=__doc__)
    parser.add_argument("--family", choices=[family.value for family in Family], required=True)
    parser.add_argument("--out", type=Path, help="where to write (default: the shipped file)")
    args = parser.parse_args(argv)
    family = Family(args.family)
    built = build(family)
    out = args.out or SHIPPED
    built.save(out)
    sys.stderr.write(f"wrote {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
