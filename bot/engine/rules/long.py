"""Long nardy (длинные нарды): both sides go the same way round, nothing is ever hit.

The rules, as ``shared/rules.md`` reads the seeds:

- A checker may not stop on a point that holds any opponent checker.
- Head rule: at most one checker leaves the head (own 24) per turn. On a side's first turn, a
  double that one head checker cannot play in full (all four moves) lets a second one leave.
- Blocking rule: a side may not own six or more consecutive points, counted along the opponent's
  route, unless an opponent checker already stands past the run (further along the opponent's
  route). The run may straddle the mover's 24/1 boundary. It is checked after every single step.
  With ``karzar_block`` no such run may be built at all until an opponent checker has entered
  its home.
- Bearing off only while all 15 checkers are home; a die bears off from its own point, or from
  the highest occupied point when nothing stands higher than the die.

Decision (not settled by rules.md): the blocking rule is checked on the whole board after each
step, bearing off included. Play never reaches a position that already holds a forbidden run,
so in play this is the same as checking only the run a step creates (the fast path); for a
hand-made position that already holds one, every step that keeps it is illegal.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from operator import itemgetter
from typing import Final

from ..dice import Dice, DiceMode, MoveList
from ..errors import InvalidDiceError
from ..position import _SET_SLOTS, OPPONENT_POINT, Position
from ..types import CHECKERS, Family, Side
from .common import STEPS
from .ruleset import LONG_RULE_SETS, RuleSet

HEAD: Final = 24

# The opponent's route in the mover's numbering: the opponent starts on the mover's 12, goes
# down to the mover's 1, crosses to the mover's 24 and ends in its home, the mover's 18..13.
ROUTE: Final = tuple(range(12, 0, -1)) + tuple(range(24, 12, -1))
ROUTE_INDEX: Final = {point: index for index, point in enumerate(ROUTE)}

_ALONG_ROUTE = itemgetter(*ROUTE)  # a side's counts in route order
_HELD = bytes([0] + [1] * 255)  # translation table: a count to whether the point is held
_SIX_HELD = bytes([1] * 6)

_unchecked = Position.unchecked  # bound once, not looked up on the class per position
_new = object.__new__
_set_variant, _set_turn, _set_white, _set_black = _SET_SLOTS
# Side.WHITE is an enum lookup that costs about 0.1 us on CPython 3.11; a global is a dict lookup
_WHITE: Final = Side.WHITE
_BLACK: Final = Side.BLACK


class LongBoard:
    """The mover's checkers during a long-nardy search (see :class:`.common.SearchBoard`)."""

    __slots__ = (
        "_me",
        "_blocked",
        "_outside",
        "_head_left",
        "_last_passed",
        "_karzar",
        "_whole_board",
        "_white",
        "_theirs",
        "_variant",
    )

    def __init__(self, position: Position, *, head_moves: int, rules: RuleSet) -> None:
        white = position.turn is _WHITE
        mine, theirs = (
            (position.white, position.black) if white else (position.black, position.white)
        )
        self._me = list(mine)
        self._white = white
        self._theirs = theirs
        self._variant = position.variant
        # _blocked[p]: the opponent's checkers on the mover's point p, which is the opponent's
        # p + 12 for p <= 12 and p - 12 above (see OPPONENT_POINT); slices, so no Python loop
        self._blocked = (0, *theirs[13:25], *theirs[1:13], 0)
        self._outside = sum(mine[7:25])
        self._head_left = head_moves
        # An opponent checker stands past route index i exactly when i <= _last_passed: the
        # route meets the opponent's points from its 24 down, so that is 23 - its lowest one.
        self._last_passed = 23 - next(compress(range(1, 25), theirs[1:25]), 25)
        self._karzar = rules.karzar_block and sum(theirs[0:7]) == 0
        self._whole_board = self._has_forbidden_run()

    def steps(self, die: int) -> list[tuple[int, int]]:
        if self._whole_board:
            return self._steps_keeping_the_whole_board(die)
        return self._steps(die, self._run_allowed)

    def _steps(self, die: int, run_allowed: Callable[[int, int], bool]) -> list[tuple[int, int]]:
        me = self._me
        blocked = self._blocked
        found: list[tuple[int, int]] = []
        top = HEAD if self._head_left else HEAD - 1
        of_die = STEPS[die]
        if self._outside:
            for src in range(top, die, -1):
                if me[src]:
                    dst = src - die
                    if not blocked[dst] and (me[dst] or run_allowed(src, dst)):
                        found.append(of_die[src])
            return found
        highest = 0
        for src in range(6, 0, -1):
            if me[src]:
                if not highest:
                    highest = src
                dst = src - die
                if dst > 0:
                    if not blocked[dst] and (me[dst] or run_allowed(src, dst)):
                        found.append(of_die[src])
                elif dst == 0 or src == highest:
                    found.append(of_die[src])
        return found

    def _steps_keeping_the_whole_board(self, die: int) -> list[tuple[int, int]]:
        """The slow path for a position that already holds a forbidden run (never reached in
        play): every step, bearing off too, must leave no forbidden run anywhere."""
        allowed = []
        for src, dst in self._steps(die, lambda src, dst: True):
            self.make(src, dst)
            if not self._has_forbidden_run():
                allowed.append((src, dst))
            self.unmake(src, dst, False)
        return allowed

    def _run_allowed(self, src: int, dst: int) -> bool:
        """Whether newly owning ``dst``, with ``src`` one checker lighter, keeps the blocking
        rule: the run through ``dst`` along the opponent's route is shorter than six, or an
        opponent checker stands past it (and karzar does not forbid it outright)."""
        me = self._me
        me[src] -= 1
        index = ROUTE_INDEX[dst]
        low = high = index
        while low > 0 and me[ROUTE[low - 1]]:
            low -= 1
        while high < 23 and me[ROUTE[high + 1]]:
            high += 1
        me[src] += 1
        if high - low < 5:
            return True
        return not self._karzar and high <= self._last_passed

    def _has_forbidden_run(self) -> bool:
        me = self._me
        if _SIX_HELD not in bytes(_ALONG_ROUTE(me)).translate(_HELD):
            return False  # no six points held in a row at all: found in C, the common case
        run = 0
        for index, point in enumerate(ROUTE):
            run = run + 1 if me[point] else 0
            last = index == 23 or not me[ROUTE[index + 1]]
            if run >= 6 and last and (self._karzar or index > self._last_passed):
                return True
        return False

    def make(self, src: int, dst: int) -> bool:
        me = self._me
        me[src] -= 1
        me[dst] += 1
        if src == HEAD:
            self._head_left -= 1
        if src > 6 and dst <= 6:
            self._outside -= 1
        return False

    def unmake(self, src: int, dst: int, hit: bool) -> None:
        me = self._me
        me[src] += 1
        me[dst] -= 1
        if src == HEAD:
            self._head_left += 1
        if src > 6 and dst <= 6:
            self._outside += 1

    def key(self) -> tuple[int, ...]:
        return tuple(self._me)

    def finished(self) -> bool:
        return self._me[0] == CHECKERS

    def position(self) -> Position:
        mine = tuple(self._me)
        if self._white:
            return _unchecked(self._variant, _BLACK, mine, self._theirs)
        return _unchecked(self._variant, _WHITE, self._theirs, mine)

    def key_after(self, src: int, dst: int) -> tuple[int, ...]:
        me = self._me
        me[src] -= 1
        me[dst] += 1
        mine = tuple(me)
        me[src] += 1
        me[dst] -= 1
        return mine

    def after(self, src: int, dst: int) -> tuple[tuple[int, ...], bool, Position]:
        """:meth:`make`, :meth:`key`, :meth:`position` and :meth:`unmake` in one call, inlined:
        the search's last step is most of its steps (see :meth:`.common.SearchBoard.after`)."""
        me = self._me
        me[src] -= 1
        me[dst] += 1
        mine = tuple(me)
        me[src] += 1
        me[dst] -= 1
        # Position.unchecked written out: one call less for most of the positions built
        position = _new(Position)
        _set_variant(position, self._variant)
        if self._white:
            _set_turn(position, _BLACK)
            _set_white(position, mine)
            _set_black(position, self._theirs)
        else:
            _set_turn(position, _WHITE)
            _set_white(position, self._theirs)
            _set_black(position, mine)
        return mine, False, position


class LongNardy:
    """Long nardy behind the :class:`~bot.engine.rules.Variant` interface."""

    name: Final = "long"
    family: Final = Family.LONG
    rule_sets: Final = LONG_RULE_SETS
    default_rule_set: Final = "classic"
    switches: Final = frozenset({"higher_die_first", "karzar_block"})
    has_cube: Final = True  # the bot's choice: the cube is offered in both classic variants
    dice_modes: Final[tuple[DiceMode, ...]] = (DiceMode.TWO,)
    chains: Final = False

    def starting_position(self) -> Position:
        """Returns the start: 15 checkers on each side's head, white to move."""
        return Position.from_points(self.name, Side.WHITE, {HEAD: 15}, {HEAD: 15})

    def move_list(self, dice: Dice, rules: RuleSet) -> MoveList:
        """The moves of ``dice``: both dice, or four of a double's value.

        :raises: :exc:`~bot.engine.errors.InvalidDiceError` for three dice.
        """
        return two_dice(self.name, dice)

    def board(
        self, position: Position, moves: MoveList | Dice, *, first_turn: bool, rules: RuleSet
    ) -> LongBoard:
        """Returns the search state for the side to move with ``moves`` (a :class:`Dice`
        stands for its plain moves)."""
        if isinstance(moves, Dice):
            moves = MoveList.of(moves)
        head_moves = 1
        if first_turn and moves.double and not head_checker_plays_all(position, moves.values):
            # [000, 001, 004]: a first-turn double that one head checker cannot play in full
            # lets a second checker leave the head.
            head_moves = 2
        return LongBoard(position, head_moves=head_moves, rules=rules)


def two_dice(variant: str, dice: Dice, *, hands_on: bool = False) -> MoveList:
    """The plain moves of a two-dice roll in ``variant`` (see :meth:`MoveList.of`).

    :raises: :exc:`~bot.engine.errors.InvalidDiceError` for three dice.
    """
    if dice.third is not None:
        raise InvalidDiceError(f"{variant} is played with two dice, not {dice}")
    return MoveList.of(dice, hands_on=hands_on)


def head_checker_plays_all(position: Position, values: tuple[int, ...]) -> bool:
    """Whether one checker on the mover's head can play all of ``values`` in turn (a double's
    four moves, or crazy gul-bara's cascade): every point it would stop on is on the board and
    free of opponent checkers."""
    theirs = position.checkers(position.turn.other)
    opp = OPPONENT_POINT["long"]
    point = HEAD
    for value in values:
        point -= value
        if point < 1 or theirs[opp[point]]:
            return False
    return True
