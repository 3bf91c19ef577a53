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


class _Search:
    """One search: the board, the dice, and what has been found so far."""

    __slots__ = ("board", "dice", "full", "ordered", "path", "seen", "found")

    def __init__(self, board: Board, dice: Dice, rules: RuleSet) -> None:
        self.board = board
        self.dice = dice
        self.full = len(dice.moves)
        # A rule set that forbids some orders (higher_die_first) must record every node: a
        # forbidden child must not hide its parent from the full-use rules.
        self.ordered = rules.higher_die_first and not dice.is_double
        self.path: list[tuple[int, int, int, bool]] = []
        # states already searched, by the dice still to play
        self.seen: dict[tuple[int, ...], set[Hashable]] = {}
        # found[dice counted as played]: {state: (steps, position)}
        self.found: list[dict[Hashable, tuple[tuple[Played, ...], Position]]] = [
            {} for _ in range(self.full + 1)
        ]

    def visit(self, left: tuple[int, ...], bore_off: bool) -> None:
        board, path = self.board, self.path
        extended = False
        for index in range(1 if self.dice.is_double else len(left)):
            die = left[index]
            rest = left[:index] + left[index + 1 :]
            seen = self.seen.setdefault(rest, set())
            for src, dst in board.steps(die):
                hit = board.make(src, dst)
                extended = True
                path.append((src, dst, die, hit))
                off = bore_off or dst == 0
                if board.finished():
                    self._record(self.full, off)
                elif not rest:
                    self._record(len(path), off)
                else:
                    key = board.key()
                    if self.ordered:
                        key = (key, off, self._low_first())
                    if key not in seen:
                        seen.add(key)
                        self.visit(rest, off)
                path.pop()
                board.unmake(src, dst, hit)
        if path and (self.ordered or not extended):
            self._record(len(path), bore_off)

    def pair(self, first: int, second: int) -> None:
        """The two orders of a non-double, written out flat: most searches are these, and the
        general :meth:`visit` spends most of its time on bookkeeping they do not need."""
        board = self.board
        steps, make, unmake, key = board.steps, board.make, board.unmake, board.key
        found1, found2 = self.found[1], self.found[2]
        for src, dst in steps(first):
            hit = make(src, dst)
            played = Played(src, dst, first, hit)
            if dst == 0 and board.finished():
                self.found[2].setdefault(key(), ((played,), board.position()))
            else:
                following = steps(second)
                if not following:
                    found1.setdefault(key(), ((played,), board.position()))
                for src2, dst2 in following:
                    hit2 = make(src2, dst2)
                    state = key()
                    if state not in found2:
                        found2[state] = (
                            (played, Played(src2, dst2, second, hit2)),
                            board.position(),
                        )
                    unmake(src2, dst2, hit2)
            unmake(src, dst, hit)

    def _low_first(self) -> bool:
        return self.path[0][2] == self.dice.low

    def _record(self, depth: int, bore_off: bool) -> None:
        if self.ordered and bore_off and self._low_first():
            return
        found = self.found[depth]
        key = self.board.key()
        if key not in found:
            found[key] = (tuple(map(Played._make, self.path)), self.board.position())


def search_turns(
    board: Board, dice: Dice, rules: RuleSet
) -> list[tuple[tuple[Played, ...], Position]]:
    """Returns one legal step sequence per distinct resulting position, with that position.

    An empty list means the side cannot move and passes.
    """
    search = _Search(board, dice, rules)
    if dice.is_double or search.ordered:
        search.visit(dice.moves, False)
    else:
        search.pair(dice.first, dice.second)
        search.pair(dice.second, dice.first)
    best = max((depth for depth, found in enumerate(search.found) if found), default=0)
    if not best:
        return []
    chosen = list(search.found[best].values())
    if best == 1 and not dice.is_double:
        high = [turn for turn in chosen if turn[0][0].die == dice.high]
        chosen = high or chosen
    return chosen
