"""Short nardy valued by Open Sage: the ``bgsage`` package (MPL-2.0, its nets included; the
version measured is pinned in ``requirements.lock``), a backgammon engine of GNU Backgammon's
class.

Short nardy is backgammon move for move (``shared/rules.md``), so our engine makes every legal
turn and Open Sage values the positions they reach: :class:`SageValuer` is its 1-ply (its raw
nets, told where each turn began), asked as the shipped net is; :meth:`SageValuer.deeper` its
own 2-ply and 3-ply search, only where the game is backgammon's exactly
(:meth:`SageValuer.searches`: short nardy with two dice, anti three); and its money-game cube
decision. Its probabilities come in our nets' order (gammons are mars, backgammons koks), so
equity is priced by the rule set as ever. :func:`board` is Open Sage's board of 26 numbers from
one side's view; :func:`valuer` says which variants it values.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from bot.engine import CHECKERS, DiceMode, Family, Game, Position, RuleSet, Side, Turn

from .cubeful import CubeEquities
from .evaluator import Valuer, evaluator
from .network import OUTPUTS, Array, flip

if TYPE_CHECKING:
    from .evaluator import Evaluator

FILTER: Final = (5, 0.08)
"""Open Sage's move filter inside its search (its default, GNU Backgammon's "tiny"): at each
node the five moves its 1-ply likes best, within 0.08 of the best."""
SAGE_PLAYS: Final = frozenset(
    {("short", DiceMode.TWO), ("short", DiceMode.ANTI_THREE), ("abkhaz", DiceMode.TWO)}
)
"""The (variant, dice mode) pairs Open Sage values; the others keep the shipped net, which
measured as good there (three dice) or better (docs/computer.md, "Figures")."""
SAGE_SEARCHES: Final = frozenset({("short", DiceMode.TWO), ("short", DiceMode.ANTI_THREE)})
"""Those of them whose rolls and moves are backgammon's, where Open Sage's own search looks
ahead."""


def board(position: Position, side: Side) -> list[int]:
    """Open Sage's board of a short-family ``position`` from ``side``'s view (see the module
    docstring)."""
    own = position.checkers(side)
    theirs = position.checkers(side.other)
    # the opponent's own point 25 - p is our p
    return [theirs[25], *(a - b for a, b in zip(own[1:25], theirs[24:0:-1], strict=True)), own[25]]


def position(cells: Sequence[int], side: Side, variant: str = "short") -> Position:
    """The position of Open Sage's board ``cells`` seen from ``side``, ``side``'s opponent to
    move (a board after ``side``'s turn), checkers not on the board borne off.

    >>> start = Position.from_text("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5")
    >>> position(board(start, Side.WHITE), Side.BLACK) == start
    True
    """
    own = [0] * 26
    theirs = [0] * 26
    for point in range(1, 25):
        if cells[point] > 0:
            own[point] = cells[point]
        elif cells[point] < 0:
            theirs[25 - point] = -cells[point]
    own[25], theirs[25] = cells[25], cells[0]
    own[0] = CHECKERS - sum(own)
    theirs[0] = CHECKERS - sum(theirs)
    white, black = (own, theirs) if side is Side.WHITE else (theirs, own)
    return Position(variant, side.other, tuple(white), tuple(black))


def _over(position: Position) -> bool:
    return CHECKERS in (position.white[0], position.black[0])


class SageValuer(Valuer):
    """Open Sage's nets for the short board (see the module docstring): loaded once per
    process, about 15 MB of weights for each of its 1-ply, 2-ply and 3-ply (the last two on
    first use)."""

    def __init__(self) -> None:
        import bgbot_cpp
        from bgsage.weights import bearoff_db_path, default_weights

        self.family = Family.SHORT
        self.open_sage = True
        self._cpp: Any = bgbot_cpp
        self._weights: Any = default_weights()
        self._bearoff: Any = bgbot_cpp.BearoffDB()
        path = bearoff_db_path()
        if path is None or not self._bearoff.load(path):
            raise RuntimeError("Open Sage's bear-off database is missing from its package")
        base = bgbot_cpp.create_strategy(
            self._weights.strategy_type,
            self._weights.weight_paths_list,
            self._weights.hidden_sizes_list,
        )
        self._one: Any = bgbot_cpp.BearoffStrategy(base, self._bearoff)
        self._deep: dict[int, Any] = {}

    def _search(self, plies: int) -> Any:
        """Open Sage's ``plies``-ply search (2 or 3), made on first use."""
        if plies not in self._deep:
            strategy = self._cpp.create_multipy(
                self._weights.strategy_type,
                self._weights.weight_paths_list,
                self._weights.hidden_sizes_list,
                n_plies=plies,
                filter_max_moves=FILTER[0],
                filter_threshold=FILTER[1],
                parallel_evaluate=False,
                parallel_threads=0,
            )
            self._cpp.multipy_set_bearoff_db(strategy, self._bearoff)
            self._deep[plies] = strategy
        return self._deep[plies]

    def probabilities(
        self, positions: Sequence[Position], pending: Sequence[tuple[int, ...]] | None = None
    ) -> Array:
        """Each position's probabilities from its side to move before its roll: the position
        valued as the other side's move left it (``pending`` is a gul-bara matter: not here)."""
        found = np.zeros((len(positions), OUTPUTS), dtype=np.float32)
        for index, one in enumerate(positions):
            if not _over(one):
                cells = board(one, one.turn.other)
                found[index] = self._one.evaluate_board(cells, cells)["probs"]
        return flip(found)

    def equities_after(
        self,
        side: Side,
        before: Sequence[Position],
        positions: Sequence[Position],
        rules: RuleSet,
        pending: Sequence[tuple[int, ...]] | None = None,
    ) -> NDArray[np.float64]:
        if not positions:
            return np.empty(0, dtype=np.float64)
        found = np.zeros((len(positions), OUTPUTS), dtype=np.float32)
        boards: dict[tuple[Position, Side], list[int]] = {}
        again = []  # positions where the mover moves again: valued before its roll
        for index, (start, reached) in enumerate(zip(before, positions, strict=True)):
            mover = start.turn
            if _over(reached):
                continue
            if reached.turn is mover:
                again.append(index)
                continue
            key = (start, mover)
            if key not in boards:
                boards[key] = board(start, mover)
            mine = self._one.evaluate_board(board(reached, mover), boards[key])["probs"]
            found[index] = flip(np.asarray(mine, dtype=np.float32))
        if again:
            found[again] = self.probabilities([positions[i] for i in again])
        return self.equities_of(side, positions, rules, found)

    def searches(self, game: Game) -> bool:
        """Whether :meth:`deeper` may look ahead in ``game``: its rolls are backgammon's."""
        return (game.variant, game.dice_mode) in SAGE_SEARCHES and not game.remainder

    def deeper(
        self, game: Game, turns: Sequence[Turn], plies: int, budget: float | None = None
    ) -> NDArray[np.float64] | None:
        """The mover's equity after each turn by Open Sage's ``plies``-ply search (2: a roll
        ahead, 3: two rolls), each valued knowing where the turn began; None if ``budget``
        (seconds of this thread's processor time) would be passed: the next turn is not begun
        when the time spent plus the longest turn so far would reach it (so a budget of 0 asks
        nothing)."""
        me = game.turn
        start = board(game.position, me)
        search = self._search(plies)
        began = time.thread_time()
        longest = 0.0
        found = np.zeros((len(turns), OUTPUTS), dtype=np.float32)
        try:
            for index, turn in enumerate(turns):
                if _over(turn.position):
                    continue
                now = time.thread_time()
                if budget is not None and now - began + longest >= budget:
                    return None
                mine = search.evaluate_board(board(turn.position, me), start)["probs"]
                longest = max(longest, time.thread_time() - now)
                found[index] = flip(np.asarray(mine, dtype=np.float32))
        finally:
            search.clear_cache()
        return self.equities_of(me, [t.position for t in turns], game.rules, found)

    def cube(self, game: Game) -> CubeEquities:
        """Open Sage's money-game cube decision for ``game``'s side to move before its roll
        (see the module docstring), per unit of the cube; a drop scores the rule set's
        ``drop``."""
        cpp = self._cpp
        me = game.turn
        win = self.probabilities([game.position])[0].tolist()
        cells = board(game.position, me)
        mine, theirs = cpp.pip_counts(cells)
        life = cpp.cube_efficiency(win, cpp.is_race(cells), mine, theirs)
        owner = game.cube.owner if game.cube is not None else None
        held = (
            cpp.CubeOwner.CENTERED
            if owner is None
            else cpp.CubeOwner.PLAYER
            if owner is me
            else cpp.CubeOwner.OPPONENT
        )
        drop = float(game.rules.drop)
        return CubeEquities(
            cpp.cl2cf_money(win, held, life, False) * drop,
            2.0 * cpp.cl2cf_money(win, cpp.CubeOwner.OPPONENT, life, False) * drop,
            drop,
        )


@cache
def sage() -> SageValuer:
    """Open Sage's valuer, loaded once per process."""
    return SageValuer()


def valuer(variant: str, dice_mode: DiceMode = DiceMode.TWO) -> Valuer:
    """What values the positions of ``variant`` played with ``dice_mode``: Open Sage where
    :data:`SAGE_PLAYS` says so, else the shipped net."""
    if (variant, DiceMode(dice_mode)) in SAGE_PLAYS:
        return sage()
    net: Evaluator = evaluator(variant)
    return net


def for_game(game: Game) -> Valuer:
    """:func:`valuer` of ``game``'s variant and dice mode."""
    return valuer(game.variant, game.dice_mode)
