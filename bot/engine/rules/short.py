"""Short nardy (короткие нарды): backgammon movement, the sides going towards each other.

- A checker may stop on an empty point, an own point, or a point with one opponent checker
  (a blot), which is hit and goes to the bar. A point with two or more opponent checkers is
  closed.
- Checkers on the bar enter first, all of them, into the opponent's home: own point 25 - die.
- Bearing off as in long nardy, and only with nothing on the bar.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from ..dice import Dice
from ..position import Position
from ..types import BAR, CHECKERS, Side
from .ruleset import SHORT_RULE_SETS, RuleSet

START: Final = {24: 2, 13: 5, 8: 3, 6: 5}


class ShortBoard:
    """The mover's checkers during a short-nardy search (see :class:`.common.Board`).

    The opponent's checkers are kept in the mover's numbering (slot 25 is the opponent's bar),
    because hits change them.
    """

    __slots__ = ("_me", "_theirs", "_outside", "_hits", "_mover", "_their_own")

    def __init__(self, position: Position) -> None:
        mover = position.turn
        own = position.checkers(mover.other)
        self._mover = mover
        self._their_own = own
        self._me = list(position.checkers(mover))
        self._theirs = [own[0]] + [own[25 - p] for p in range(1, 25)] + [own[BAR]]
        self._outside = sum(self._me[7:26])
        self._hits: list[int] = []

    def steps(self, die: int) -> list[tuple[int, int]]:
        me = self._me
        theirs = self._theirs
        if me[BAR]:
            dst = BAR - die
            return [(BAR, dst)] if theirs[dst] < 2 else []
        found: list[tuple[int, int]] = []
        if self._outside:
            for src in range(24, die, -1):
                if me[src] and theirs[src - die] < 2:
                    found.append((src, src - die))
            return found
        highest = 0
        for src in range(6, 0, -1):
            if me[src]:
                if not highest:
                    highest = src
                dst = src - die
                if dst > 0:
                    if theirs[dst] < 2:
                        found.append((src, dst))
                elif dst == 0 or src == highest:
                    found.append((src, 0))
        return found

    def make(self, src: int, dst: int) -> bool:
        me = self._me
        me[src] -= 1
        me[dst] += 1
        if src > 6 and dst <= 6:
            self._outside -= 1
        theirs = self._theirs
        if dst and theirs[dst] == 1:
            theirs[dst] = 0
            theirs[BAR] += 1
            self._hits.append(dst)
            return True
        return False

    def unmake(self, src: int, dst: int, hit: bool) -> None:
        me = self._me
        me[src] += 1
        me[dst] -= 1
        if src > 6 and dst <= 6:
            self._outside += 1
        if hit:
            theirs = self._theirs
            theirs[dst] = 1
            theirs[BAR] -= 1
            self._hits.remove(dst)

    def key(self) -> Hashable:
        if self._hits:
            return (tuple(self._me), tuple(sorted(self._hits)))
        return tuple(self._me)

    def finished(self) -> bool:
        return self._me[0] == CHECKERS

    def position(self) -> Position:
        mine = tuple(self._me)
        if self._hits:
            theirs = self._theirs
            other = (theirs[0], *theirs[24:0:-1], theirs[BAR])
        else:
            other = self._their_own
        if self._mover is Side.WHITE:
            return Position.unchecked("short", Side.BLACK, mine, other)
        return Position.unchecked("short", Side.WHITE, other, mine)


class ShortNardy:
    """Short nardy behind the :class:`~bot.engine.rules.Variant` interface."""

    name: Final = "short"
    rule_sets: Final = SHORT_RULE_SETS
    default_rule_set: Final = "standard"

    def starting_position(self) -> Position:
        """Returns the backgammon start (own 24: 2, 13: 5, 8: 3, 6: 5), white to move."""
        return Position.from_points("short", Side.WHITE, START, START)

    def board(
        self, position: Position, dice: Dice, *, first_turn: bool, rules: RuleSet
    ) -> ShortBoard:
        """Returns the search state for the side to move (``dice`` and ``first_turn`` change
        nothing in short nardy)."""
        return ShortBoard(position)
