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

Three searches do this: :func:`_non_double` and :func:`_double` are written out flat for the
rolls almost every search gets, and :class:`_Ordered` is the general depth-first search that an
order rule needs. The flat ones visit the steps in the same order as the general one, so they find
the same turns in the same order; they only drop bookkeeping their case does not need, and work
that could only find a state again.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final, Protocol

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

    def after(self, src: int, dst: int) -> tuple[Hashable, bool, Position]:
        """Returns what :meth:`make` would give: :meth:`key`, whether it hits and
        :meth:`position`, leaving the board as it is. For a search's last step, whose state is
        almost always new: one call instead of four."""
        ...


STEPS: Final = tuple(tuple((src, max(src - die, 0)) for src in range(26)) for die in range(7))
"""``STEPS[die][src]``: the step ``(src, dst)`` of ``die`` from ``src`` (``dst`` 0 bears off), one
shared tuple each: a board's :meth:`~Board.steps` lists these instead of building new ones."""

_Found = dict[Hashable, tuple[tuple[Played, ...], Position]]
"""Turns by the state they reach: the first step sequence found for it, and its position."""


def search_turns(
    board: Board, dice: Dice, rules: RuleSet
) -> list[tuple[tuple[Played, ...], Position]]:
    """Returns one legal step sequence per distinct resulting position, with that position.

    An empty list means the side cannot move and passes.
    """
    first, second = dice.first, dice.second
    if first == second:
        return _double(board, first)
    if not rules.higher_die_first:
        return _non_double(board, first, second)
    search = _Ordered(board, dice)
    search.visit(dice.moves, False)
    best = max((depth for depth, found in enumerate(search.found) if found), default=0)
    if not best:
        return []
    chosen = list(search.found[best].values())
    if best == 1:
        high = [turn for turn in chosen if turn[0][0].die == dice.high]
        chosen = high or chosen
    return chosen


def _non_double(board: Board, first: int, second: int) -> list[tuple[tuple[Played, ...], Position]]:
    """:func:`search_turns` for a non-double without an order rule: ``first`` then ``second``,
    then the other way round, written out flat, the last step with :meth:`Board.after`.

    Two orders of the same two steps reach the same state: each step moves one checker, and a
    hit takes the blot on the step's destination whichever of the two lands there first. So a
    pair of steps that the first order played is skipped when the second order meets it the
    other way round, without being made: its state is already found, and most second-order pairs
    are such. Only legality depends on the order (the blocking rule, bearing off, entering), and
    nothing is assumed about it: a skipped pair was played, legally, in the first order."""
    steps, make, unmake, key = board.steps, board.make, board.unmake, board.key
    finished, position, after = board.finished, board.position, board.after
    new = tuple.__new__  # builds a Played twice as fast as its __new__
    one: _Found = {}
    both: _Found = {}
    # followers[step]: the steps that followed ``step`` in the first order (boards list the
    # shared STEPS tuples, so looking one up in this short list mostly compares identities)
    followers: dict[tuple[int, int], list[tuple[int, int]]] = {}
    nothing: list[tuple[int, int]] = []
    for die, other in ((first, second), (second, first)):
        reversed_order = die == second
        for step in steps(die):
            src, dst = step
            hit = make(src, dst)
            played = new(Played, (src, dst, die, hit))
            if dst == 0 and finished():
                state = key()
                if state not in both:
                    both[state] = ((played,), position())
            else:
                following = steps(other)
                if not following:
                    state = key()
                    if state not in one:
                        one[state] = ((played,), position())
                elif not reversed_order:
                    followers[step] = following
                for step2 in following:
                    if reversed_order and step in followers.get(step2, nothing):
                        continue
                    src2, dst2 = step2
                    state, hit2, reached = after(src2, dst2)
                    if state not in both:
                        both[state] = ((played, new(Played, (src2, dst2, other, hit2))), reached)
            unmake(src, dst, hit)
    if both:
        return list(both.values())
    high = max(first, second)
    chosen = list(one.values())
    return [turn for turn in chosen if turn[0][0].die == high] or chosen


def _double(board: Board, die: int) -> list[tuple[tuple[Played, ...], Position]]:
    """:func:`search_turns` for a double: four steps of ``die``, depth first, written out flat.

    A state reached again after as many steps is not searched again (``seen``), and the last
    step is a plain loop that builds a position only for a state not found yet."""
    steps, make, unmake, key = board.steps, board.make, board.unmake, board.key
    finished, position = board.finished, board.position
    new = tuple.__new__  # builds a Played twice as fast as its __new__
    # found[n]: turns of n steps (a turn that cannot go on, or bears off the last checker: 4)
    found: list[_Found] = [{}, {}, {}, {}, {}]
    full = found[4]
    # seen[n]: the states after n steps that have been searched
    seen: list[set[Hashable]] = [set(), set(), set(), set()]

    def extend(played: tuple[Played, ...]) -> bool:
        """Plays one more step after ``played`` (made on the board) and everything after it;
        returns whether there was a step to play."""
        moves = steps(die)
        depth = len(played) + 1
        if depth == 4:
            for src, dst in moves:
                hit = make(src, dst)
                state = key()
                if state not in full:
                    full[state] = ((*played, new(Played, (src, dst, die, hit))), position())
                unmake(src, dst, hit)
            return bool(moves)
        searched = seen[depth]
        for src, dst in moves:
            hit = make(src, dst)
            path = (*played, new(Played, (src, dst, die, hit)))
            state = key()
            if dst == 0 and finished():
                if state not in full:
                    full[state] = (path, position())
            elif state not in searched:
                searched.add(state)
                if not extend(path) and state not in found[depth]:
                    found[depth][state] = (path, position())
            unmake(src, dst, hit)
        return bool(moves)

    extend(())
    best = max((depth for depth in range(5) if found[depth]), default=0)
    return list(found[best].values()) if best else []


class _Ordered:
    """The general search, for a non-double under an order rule (``higher_die_first``): every
    order of the dice, depth first, recording every node (a forbidden child must not hide its
    parent from the full-use rules), with the states searched keyed also by whether the path has
    borne off and played the lower die first."""

    __slots__ = ("board", "dice", "path", "seen", "found")

    def __init__(self, board: Board, dice: Dice) -> None:
        self.board = board
        self.dice = dice
        self.path: list[tuple[int, int, int, bool]] = []
        # states already searched, by the dice still to play
        self.seen: dict[tuple[int, ...], set[Hashable]] = {}
        # found[dice counted as played]: {state: (steps, position)}
        self.found: list[_Found] = [{}, {}, {}]

    def visit(self, left: tuple[int, ...], bore_off: bool) -> None:
        board, path = self.board, self.path
        for index in range(len(left)):
            die = left[index]
            rest = left[:index] + left[index + 1 :]
            seen = self.seen.setdefault(rest, set())
            for src, dst in board.steps(die):
                hit = board.make(src, dst)
                path.append((src, dst, die, hit))
                off = bore_off or dst == 0
                if board.finished():
                    self._record(2, off)
                elif not rest:
                    self._record(len(path), off)
                else:
                    key = (board.key(), off, self._low_first())
                    if key not in seen:
                        seen.add(key)
                        self.visit(rest, off)
                path.pop()
                board.unmake(src, dst, hit)
        if path:
            self._record(len(path), bore_off)

    def _low_first(self) -> bool:
        return self.path[0][2] == self.dice.low

    def _record(self, depth: int, bore_off: bool) -> None:
        if bore_off and self._low_first():
            return
        found = self.found[depth]
        key = self.board.key()
        if key not in found:
            found[key] = (tuple(map(Played._make, self.path)), self.board.position())
