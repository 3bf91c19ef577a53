"""Crazy gul-bara (бешеный гюльбар) [002]: gul-bara in which a double gives a cascade.

Everything is gul-bara's (:mod:`.gulbara`, long nardy's board with remainders passing to the
opponent), except what a double gives and that it does not roll again: a double d-d gives the
moves d, d, d+1, d+1, …, 6, 6, two of each value from d up to 6, played in that order ("при
выпадении дубля «четыре-четыре» … на 4, … на 4, … на 5, … на 5, … на 6 … на 6") [002]. A 6-6
gives 6, 6. The mover plays the longest beginning of the list that any sequence of single moves
allows (the moves of one value in either order); the rest of the list is the remainder.

Rule switch ``four_per_value`` (preset ``international``): four moves of each value, d-d
through 6-6, so 1-1 gives 24 moves.

The first-turn head exception reads the cascade: on a side's first roll, a double whose
cascade one head checker cannot play in full lets a second checker leave the head.
"""

from __future__ import annotations

from typing import Final

from ..dice import Dice, DiceMode, MoveList
from ..position import Position
from ..types import Family
from .gulbara import long_start
from .long import LongBoard, LongNardy, two_dice
from .ruleset import CRAZY_GULBARA_RULE_SETS, RuleSet


def cascade(die: int, per_value: int = 2) -> tuple[int, ...]:
    """The moves of a double ``die`` in crazy gul-bara: ``per_value`` of each value from
    ``die`` up to 6.

    >>> cascade(4), cascade(6), len(cascade(1, 4))
    ((4, 4, 5, 5, 6, 6), (6, 6), 24)
    """
    return tuple(value for value in range(die, 7) for _ in range(per_value))


class CrazyGulBara:
    """Crazy gul-bara behind the :class:`~bot.engine.rules.Variant` interface: long nardy's
    board (a :class:`.long.LongNardy` inside), remainders, and a cascade for a double."""

    name: Final = "crazy_gulbara"
    family: Final = Family.LONG
    rule_sets: Final = CRAZY_GULBARA_RULE_SETS
    default_rule_set: Final = "classic"
    switches: Final = frozenset({"four_per_value"})
    has_cube: Final = False
    dice_modes: Final[tuple[DiceMode, ...]] = (DiceMode.TWO,)
    chains: Final = False

    def __init__(self) -> None:
        self._long = LongNardy()

    def starting_position(self) -> Position:
        """Returns long nardy's start: 15 checkers on each side's head, white to move."""
        return long_start(self._long, self.name)

    def move_list(self, dice: Dice, rules: RuleSet) -> MoveList:
        """The moves of ``dice``: both dice of a non-double; a double's cascade (ordered).
        The moves not played pass to the opponent."""
        plain = two_dice(self.name, dice, hands_on=True)
        if not dice.is_double:
            return plain
        values = cascade(dice.first, 4 if rules.four_per_value else 2)
        return MoveList(values, ordered=True, hands_on=True, double=True)

    def board(
        self, position: Position, moves: MoveList | Dice, *, first_turn: bool, rules: RuleSet
    ) -> LongBoard:
        """Returns long nardy's search state for the side to move."""
        return self._long.board(position, moves, first_turn=first_turn, rules=rules)
