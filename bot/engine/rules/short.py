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

from ..dice import Dice, DiceMode, MoveList
from ..errors import InvalidDiceError
from ..position import _SET_SLOTS, Position
from ..types import BAR, CHECKERS, Family, Side
from .common import STEPS
from .ruleset import SHORT_RULE_SETS, RuleSet

START: Final = {24: 2, 13: 5, 8: 3, 6: 5}

_unchecked = Position.unchecked  # bound once, not looked up on the class per position
_new = object.__new__
_set_variant, _set_turn, _set_white, _set_black = _SET_SLOTS
# Side.WHITE is an enum lookup that costs about 0.1 us on CPython 3.11; a global is a dict lookup
_WHITE: Final = Side.WHITE
_BLACK: Final = Side.BLACK


class ShortBoard:
    """The mover's checkers during a short-nardy search (see :class:`.common.SearchBoard`).

    The opponent's checkers are kept in the mover's numbering (slot 25 is the opponent's bar),
    because hits change them. The points hit so far are a bit mask, cheaper to keep and to put in
    the state's key than a list of points.
    """

    __slots__ = ("_me", "_theirs", "_outside", "_hits", "_white", "_their_own", "_variant")

    def __init__(self, position: Position) -> None:
        self._variant = position.variant
        white = position.turn is _WHITE
        me, own = (position.white, position.black) if white else (position.black, position.white)
        self._white = white
        self._their_own = own
        self._me = list(me)
        # own[24:0:-1] is the opponent's 24..1, which are the mover's 1..24
        self._theirs = [own[0], *own[24:0:-1], own[BAR]]
        self._outside = sum(me[7:26])
        self._hits = 0

    def steps(self, die: int) -> list[tuple[int, int]]:
        me = self._me
        theirs = self._theirs
        of_die = STEPS[die]
        if me[BAR]:
            return [of_die[BAR]] if theirs[BAR - die] < 2 else []
        found: list[tuple[int, int]] = []
        if self._outside:
            for src in range(24, die, -1):
                if me[src] and theirs[src - die] < 2:
                    found.append(of_die[src])
            return found
        highest = 0
        for src in range(6, 0, -1):
            if me[src]:
                if not highest:
                    highest = src
                dst = src - die
                if dst > 0:
                    if theirs[dst] < 2:
                        found.append(of_die[src])
                elif dst == 0 or src == highest:
                    found.append(of_die[src])
        return found

    def counts(self) -> tuple[list[int], list[int]]:
        """The live counts during the search, both in the mover's numbering: the mover's
        checkers and the opponent's (slot 25 its bar). For boards that add rules on top of this
        one (Abkhaz nardy): read them, never write them."""
        return self._me, self._theirs

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
            self._hits += 1 << dst
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
            self._hits -= 1 << dst

    def key(self) -> Hashable:
        hits = self._hits
        return (tuple(self._me), hits) if hits else tuple(self._me)

    def finished(self) -> bool:
        return self._me[0] == CHECKERS

    def position(self) -> Position:
        mine = tuple(self._me)
        other = self._their_checkers() if self._hits else self._their_own
        if self._white:
            return _unchecked(self._variant, _BLACK, mine, other)
        return _unchecked(self._variant, _WHITE, other, mine)

    def after(self, src: int, dst: int) -> tuple[Hashable, bool, Position]:
        """:meth:`make`, :meth:`key`, :meth:`position` and :meth:`unmake` in one call, inlined:
        the search's last step is most of its steps (see :meth:`.common.SearchBoard.after`)."""
        me = self._me
        me[src] -= 1
        me[dst] += 1
        mine = tuple(me)
        me[src] += 1
        me[dst] -= 1
        hits = self._hits
        theirs = self._theirs
        hit = dst > 0 and theirs[dst] == 1
        if hit:
            hits += 1 << dst
            theirs[dst] = 0
            theirs[BAR] += 1
            other = self._their_checkers()
            theirs[dst] = 1
            theirs[BAR] -= 1
        else:
            other = self._their_checkers() if hits else self._their_own
        # Position.unchecked written out: one call less for most of the positions built
        position = _new(Position)
        _set_variant(position, self._variant)
        if self._white:
            _set_turn(position, _BLACK)
            _set_white(position, mine)
            _set_black(position, other)
        else:
            _set_turn(position, _WHITE)
            _set_white(position, other)
            _set_black(position, mine)
        return (mine, hits) if hits else mine, hit, position

    def key_after(self, src: int, dst: int) -> Hashable:
        me = self._me
        me[src] -= 1
        me[dst] += 1
        mine = tuple(me)
        me[src] += 1
        me[dst] -= 1
        hits = self._hits
        if dst and self._theirs[dst] == 1:
            hits += 1 << dst
        return (mine, hits) if hits else mine

    def _their_checkers(self) -> tuple[int, ...]:
        """The opponent's checkers in its own numbering, hits included."""
        theirs = self._theirs
        return (theirs[0], *theirs[24:0:-1], theirs[BAR])


class ShortNardy:
    """Short nardy behind the :class:`~bot.engine.rules.Variant` interface."""

    name: Final = "short"
    family: Final = Family.SHORT
    rule_sets: Final = SHORT_RULE_SETS
    default_rule_set: Final = "standard"
    switches: Final = frozenset({"three_dice"})
    has_cube: Final = True  # [003]
    dice_modes: Final[tuple[DiceMode, ...]] = tuple(DiceMode)  # rules.md "Dice modes"
    chains: Final = False

    def starting_position(self) -> Position:
        """Returns the backgammon start (own 24: 2, 13: 5, 8: 3, 6: 5), white to move."""
        return Position.from_points(self.name, Side.WHITE, START, START)

    def move_list(self, dice: Dice, rules: RuleSet) -> MoveList:
        """The moves of ``dice``: two dice (a double four moves), or with ``three_dice`` three
        dice (a triple six moves).

        :raises: :exc:`~bot.engine.errors.InvalidDiceError` if the number of dice is not the
            rule set's.
        """
        return short_moves(self.name, dice, rules)

    def board(
        self, position: Position, moves: MoveList | Dice, *, first_turn: bool, rules: RuleSet
    ) -> ShortBoard:
        """Returns the search state for the side to move (the moves and ``first_turn`` change
        nothing in short nardy)."""
        return ShortBoard(position)


def short_moves(variant: str, dice: Dice, rules: RuleSet) -> MoveList:
    """The moves of ``dice`` in a short variant: the number of dice must be the rule set's
    (three with ``three_dice``, else two).

    :raises: :exc:`~bot.engine.errors.InvalidDiceError` otherwise.
    """
    three = dice.third is not None
    if three != rules.three_dice:
        wanted = "three dice (three_dice)" if rules.three_dice else "two dice"
        raise InvalidDiceError(f"{variant} with these rules rolls {wanted}, not {dice}")
    return MoveList.of(dice)
