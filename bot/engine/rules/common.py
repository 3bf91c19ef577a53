"""The search every variant shares: whole turns by depth-first search over the dice.

A variant supplies a :class:`Board`: the mover's checkers in the mover's own numbering, mutable,
with the single steps a die allows and a way to make and take back a step. The search plays every
order of the dice from it, GNU Backgammon style, and keeps the turns that the full-use rules
allow:

1. a side plays as many dice as any legal sequence allows (bearing off the last checker counts
   as playing them all: the game ends at once);
2. when only one die of a non-double can be played, it must be the larger if that one can be;
3. a rule set may forbid some orders outright (``higher_die_first``): such sequences are dropped
   *before* rules 1 and 2 choose among the rest.

Positions reached twice are searched once (a transposition table keyed by the board and the dice
left), and the answer holds one turn per distinct resulting position, in the order first found.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

from ..dice import Dice
from ..moves import Played
from ..position import Position
from .ruleset import RuleSet


class Board(Protocol):
    """The mover's side of a position during the search (see the module docstring)."""

    def steps(self, die: int) -> list[tuple[int, int]]:
        """Returns the legal single steps ``(src, dst)`` for ``die`` in the current state."""
        ...

    def make(self, src: int, dst: int) -> bool:
        """Makes a step; returns whether it hit."""
        ...

    def unmake(self, src: int, dst: int, hit: bool) -> None:
        """Takes back a step made by :meth:`make`."""
        ...

    def key(self) -> Hashable:
        """A value equal for equal states (both sides' checkers)."""
        ...

    def finished(self) -> bool:
        """True when the mover has borne off every checker."""
        ...

    def position(self) -> Position:
        """The current state as a position with the opponent to move."""
        ...


@dataclass(slots=True)
class _Search:
    board: Board
    dice: Dice
    rules: RuleSet
    # (state, steps played) -> (dice counted as played, steps, position); terminal nodes only,
    # or every node when an order filter is on (a filtered child must not hide its parent)
    found: dict[tuple[Hashable, int], tuple[int, tuple[Played, ...], Position]]
    seen: set[Hashable]
    ordered: bool

    def run(self) -> None:
        self._visit((), self.dice.moves, False)

    def _visit(self, path: tuple[Played, ...], left: tuple[int, ...], bore_off: bool) -> None:
        board = self.board
        extended = False
        tried: set[int] = set()
        for index, die in enumerate(left):
            if die in tried:
                continue
            tried.add(die)
            rest = left[:index] + left[index + 1 :]
            for src, dst in board.steps(die):
                hit = board.make(src, dst)
                off = bore_off or dst == 0
                taint = self.ordered and off and self._low_first(path, die)
                state = (board.key(), rest, taint, off if self.ordered else False)
                if state not in self.seen:
                    self.seen.add(state)
                    step = (*path, Played(src, dst, die, hit))
                    if board.finished():
                        self._record(step, len(self.dice.moves), taint)
                    elif rest:
                        self._visit(step, rest, off)
                    else:
                        self._record(step, len(step), taint)
                board.unmake(src, dst, hit)
                extended = True
        if path and (not extended or self.ordered):
            self._record(path, len(path), self.ordered and bore_off and self._low_first(path, 0))

    def _low_first(self, path: tuple[Played, ...], die: int) -> bool:
        first = path[0].die if path else die
        return not self.dice.is_double and first == self.dice.low

    def _record(self, path: tuple[Played, ...], depth: int, tainted: bool) -> None:
        if tainted:
            return
        key = (self.board.key(), len(path))
        if key not in self.found:
            self.found[key] = (depth, path, self.board.position())


def search_turns(
    board: Board, dice: Dice, rules: RuleSet
) -> list[tuple[tuple[Played, ...], Position]]:
    """Returns one legal step sequence per distinct resulting position, with that position.

    An empty list means the side cannot move and passes.
    """
    search = _Search(board, dice, rules, {}, set(), rules.higher_die_first)
    search.run()
    candidates = list(search.found.values())
    if not candidates:
        return []
    best = max(depth for depth, _, _ in candidates)
    chosen = [(path, position) for depth, path, position in candidates if depth == best]
    if best == 1 and not dice.is_double:
        high = [turn for turn in chosen if turn[0][0].die == dice.high]
        chosen = high or chosen
    if len({position for _, position in chosen}) == len(chosen):
        return chosen
    unique: dict[Position, tuple[tuple[Played, ...], Position]] = {}
    for path, position in chosen:
        unique.setdefault(position, (path, position))
    return list(unique.values())
