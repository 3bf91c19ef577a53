"""Gul-bara (гюльбар) [002]: long nardy in which unplayed moves pass to the opponent, and a
fully played double rolls again.

Everything is long nardy's, and this module reuses :mod:`.long` by composition: the board is
long nardy's; what differs is what a roll gives and where the moves not played go
(``shared/rules.md`` "Gul-bara"):

- the mover plays the most moves it can; the moves not played, the *remainder*, are played by
  the opponent, in its own direction, before its own roll: the longest beginning of the list it
  can, as one turn under the head and blocking rules (one checker from its head, no first-turn
  exception); what it cannot play is lost, and a remainder never passes back. A side with no
  legal move hands the whole roll over;
- a double played in full rolls again at once (a *chain*); a double with a remainder ends the
  turn; the head rule counts per roll, and the first-turn exception is for the side's first roll
  only.

The flow (remainders, chains) is :class:`bot.engine.game.Game`'s; here are the moves of a roll.
"""

from __future__ import annotations

from typing import Final

from ..dice import Dice, DiceMode, MoveList
from ..position import Position
from ..types import Family, Side
from .long import LongBoard, LongNardy, two_dice
from .ruleset import GULBARA_RULE_SETS, RuleSet


class GulBara:
    """Gul-bara behind the :class:`~bot.engine.rules.Variant` interface: long nardy's board (a
    :class:`.long.LongNardy` inside) with remainders and chains of doubles."""

    name: Final = "gulbara"
    family: Final = Family.LONG
    rule_sets: Final = GULBARA_RULE_SETS
    default_rule_set: Final = "classic"
    switches: Final[frozenset[str]] = frozenset()
    has_cube: Final = False
    dice_modes: Final[tuple[DiceMode, ...]] = (DiceMode.TWO,)
    chains: Final = True
    """A fully played double rolls again."""

    def __init__(self) -> None:
        self._long = LongNardy()

    def starting_position(self) -> Position:
        """Returns long nardy's start: 15 checkers on each side's head, white to move."""
        return long_start(self._long, self.name)

    def move_list(self, dice: Dice, rules: RuleSet) -> MoveList:
        """The moves of ``dice``: both dice, or four of a double's value; those not played
        pass to the opponent."""
        return two_dice(self.name, dice, hands_on=True)

    def board(
        self, position: Position, moves: MoveList | Dice, *, first_turn: bool, rules: RuleSet
    ) -> LongBoard:
        """Returns long nardy's search state for the side to move."""
        return self._long.board(position, moves, first_turn=first_turn, rules=rules)


def long_start(long: LongNardy, name: str) -> Position:
    """Long nardy's starting position under the variant name ``name``."""
    start = long.starting_position()
    return Position.unchecked(name, Side.WHITE, start.white, start.black)
