"""Abkhaz nardy (абхазские нарды): short nardy with restrictions on hitting in one's own home.

Everything is short nardy's, and this module reuses :mod:`.short` by composition:
:class:`AbkhazBoard` wraps a short-nardy board and only removes steps. The restrictions, as
``shared/rules.md`` reads [003 7.3, 7.5], within one turn:

- a checker that hits an opponent blot on an own home point (1..6) is a *hitter* for the rest
  of the turn, and after every single move every hitter stands alone: no own checker may land on
  it, and it may not move on to a point holding an own checker;
- a hitter may move on to an empty point, or hit another blot (anywhere), and stays a hitter; it
  is never borne off in that turn;
- a turn that hits in the own home bears off no checker, before or after the hit;
- hits outside the own home are unrestricted and make no hitter.

They apply after every single move, before the full-use rules choose (a die whose every use
breaks them is lost). A turn that can make no home hit is a plain short-nardy turn.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from ..dice import Dice, DiceMode, MoveList
from ..position import Position
from ..types import Family, Side
from .ruleset import ABKHAZ_RULE_SETS, RuleSet
from .short import ShortBoard, ShortNardy, short_moves


class AbkhazBoard:
    """A short-nardy board with the Abkhaz home-hit restrictions (see :class:`.common.SearchBoard`).

    ``_hitters`` is a bit mask of the own points where a hitter stands; it is not empty exactly
    when the turn has hit in the own home, since a hitter is never borne off.
    """

    __slots__ = ("_short", "_me", "_theirs", "_hitters", "_undo", "_off")

    def __init__(self, short: ShortBoard) -> None:
        self._short = short
        self._me, self._theirs = short.counts()
        self._hitters = 0
        self._undo: list[int] = []
        self._off = self._me[0]  # borne off before the turn: more means the turn bore off

    def steps(self, die: int) -> list[tuple[int, int]]:
        me, theirs, hitters = self._me, self._theirs, self._hitters
        found = self._short.steps(die)
        if not hitters and me[0] == self._off:
            return found  # no home hit and no bearing off yet: nothing is restricted
        allowed = []
        for step in found:
            src, dst = step
            if hitters:
                if hitters >> dst & 1:
                    continue  # "нельзя закрыть шашку, которой срубили"
                if hitters >> src & 1 and me[dst]:
                    continue  # "нельзя поставить её на свою шашку этим же ходом"
                if dst == 0:
                    continue  # no bearing off in a turn with a home hit (the hitter neither)
            if 1 <= dst <= 6 and theirs[dst] == 1 and me[0] > self._off:
                continue  # a home hit after bearing off in this turn
            allowed.append(step)
        return allowed

    def make(self, src: int, dst: int) -> bool:
        hit = self._short.make(src, dst)
        hitters = self._hitters
        self._undo.append(hitters)
        if hitters >> src & 1:
            self._hitters = hitters & ~(1 << src) | 1 << dst
        elif hit and dst <= 6:
            self._hitters = hitters | 1 << dst
        return hit

    def unmake(self, src: int, dst: int, hit: bool) -> None:
        self._short.unmake(src, dst, hit)
        self._hitters = self._undo.pop()

    def key(self) -> Hashable:
        key = self._short.key()
        return (key, self._hitters) if self._hitters else key

    def finished(self) -> bool:
        return self._short.finished()

    def position(self) -> Position:
        return self._short.position()

    def key_after(self, src: int, dst: int) -> Hashable:
        if not self._hitters and not (0 < dst <= 6 and self._theirs[dst] == 1):
            return self._short.key_after(src, dst)  # no hitter before or after the step
        hit = self.make(src, dst)
        found = self.key()
        self.unmake(src, dst, hit)
        return found

    def after(self, src: int, dst: int) -> tuple[Hashable, bool, Position]:
        if not self._hitters and not (0 < dst <= 6 and self._theirs[dst] == 1):
            return self._short.after(src, dst)  # no hitter before or after the step
        hit = self.make(src, dst)
        found = self.key(), hit, self._short.position()
        self.unmake(src, dst, hit)
        return found


class AbkhazNardy:
    """Abkhaz nardy behind the :class:`~bot.engine.rules.Variant` interface: short nardy's
    movement (a :class:`.short.ShortNardy` inside) with the home-hit restrictions."""

    name: Final = "abkhaz"
    family: Final = Family.SHORT
    rule_sets: Final = ABKHAZ_RULE_SETS
    default_rule_set: Final = "standard"
    switches: Final = frozenset({"three_dice"})
    has_cube: Final = True  # [003 7.1]: «Куб Даве применяется»
    dice_modes: Final[tuple[DiceMode, ...]] = tuple(DiceMode)  # as short nardy
    chains: Final = False

    def __init__(self) -> None:
        self._short = ShortNardy()

    def starting_position(self) -> Position:
        """Returns short nardy's start [003 7.1], white to move."""
        start = self._short.starting_position()
        return Position.unchecked(self.name, Side.WHITE, start.white, start.black)

    def move_list(self, dice: Dice, rules: RuleSet) -> MoveList:
        """The moves of ``dice``, as in short nardy (three dice with ``three_dice``)."""
        return short_moves(self.name, dice, rules)

    def board(
        self, position: Position, moves: MoveList | Dice, *, first_turn: bool, rules: RuleSet
    ) -> ShortBoard | AbkhazBoard:
        """Returns the search state for the side to move: the short board, restricted when the
        opponent has a blot in the mover's home (else no home hit is possible this turn)."""
        short = self._short.board(position, moves, first_turn=first_turn, rules=rules)
        _, theirs = short.counts()
        if any(theirs[point] == 1 for point in range(1, 7)):
            return AbkhazBoard(short)
        return short
