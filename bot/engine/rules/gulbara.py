"""Gul-bara (гюльбар) [002]: long nardy in which unplayed moves pass to the opponent, and a
fully played double rolls again.

Everything is long nardy's (start on the head, direction, no hitting, the head rule with its
first-turn exception, the blocking rule, full use of the dice and the larger die, bearing off,
oin/mars scored as classic long nardy), and this module reuses :mod:`.long` by composition:
the board is long nardy's; what differs is what a roll gives and what happens to the moves not
played (``shared/rules.md`` "Gul-bara"):

- the mover plays the most moves it can (the larger die when one die of a non-double is played);
  the moves not played, the *remainder*, are played by the opponent, in its own direction,
  before its own roll: the longest beginning of the list it can, as one turn under the head and
  blocking rules (one checker from its head, no first-turn exception); what it cannot play is
  lost, and a remainder never passes back. A side with no legal move hands the whole roll over.
- a double gives four moves; when the mover has played all four, it rolls again at once and
  plays that roll too (a *chain*, which goes on while doubles are played in full). A double with
  a remainder ends the turn.
- the head rule counts per roll: a chain roll may take another checker from the head. The
  first-turn exception is for the side's first roll only (a chain roll is not one).

The flow (remainders, chains) is :class:`bot.engine.game.Game`'s; here are the moves of a roll.

Decisions where rules.md is silent:

- A remainder is played in the order the moves would have come; for a whole two-dice roll
  handed over, that is the order the dice were rolled in.
- Bearing off the last checker in a remainder turn wins the game for the side that played it.
- Playing a remainder is not the side's first roll: the first-turn exception stays for its own
  first roll.
- The doubling cube is not used (the seed [002] scores one to three points a game and names no
  cube, and a turn here can run on through chains and remainders).
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
