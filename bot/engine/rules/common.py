"""The search every variant shares: whole turns by depth-first search over the dice.

A variant supplies a :class:`SearchBoard` (the mover's checkers in its own numbering, mutable,
with the single steps a die allows, made and taken back); the search plays every order of the
moves (a :class:`~bot.engine.dice.MoveList`) and keeps the turns the full-use rules allow:

1. a side plays as many moves as any legal sequence allows. Bearing off the last checker ends
   the sequence there and counts the moves it played, no more: where another sequence plays
   more before the last checker is off, only such sequences are legal (rules.md: short nardy,
   last checker on 2, roll 3-1, an opponent blot on 1: ``2/1* 1/off``, not ``2/off``);
2. when not all the moves can be played, the largest dice are played: with two dice, the larger
   die if only one can be; with three, the sorted list of played values is compared, larger
   values first (rules.md "Dice modes");
3. an *ordered* list (a crazy gul-bara cascade, a gul-bara remainder) is played from its
   beginning: the longest beginning the side can;
4. orders a rule set forbids (``higher_die_first``) are dropped *before* rules 1 and 2 choose.

A step a variant's own rule forbids (the head rule, the blocking rule, the Abkhaz home hits) is
not among the board's steps; the answer holds one turn per distinct resulting position.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final, Protocol

from ..dice import MoveList
from ..moves import Played
from ..position import Position
from .ruleset import RuleSet


class SearchBoard(Protocol):
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

    def key_after(self, src: int, dst: int) -> Hashable:
        """Returns the :meth:`key` that :meth:`make` would give, leaving the board as it is:
        for a last step whose state has often been found already (three dice)."""
        ...


STEPS: Final = tuple(tuple((src, max(src - die, 0)) for src in range(26)) for die in range(7))
"""``STEPS[die][src]``: the step ``(src, dst)`` of ``die`` from ``src`` (``dst`` 0 bears off), one
shared tuple each: a board's :meth:`~SearchBoard.steps` lists these instead of building new ones."""

_Found = dict[Hashable, tuple[tuple[Played, ...], Position]]
"""Turns by the state they reach: the first step sequence found for it, and its position."""


def search_turns(
    board: SearchBoard, moves: MoveList, rules: RuleSet
) -> list[tuple[tuple[Played, ...], Position]]:
    """Returns one legal step sequence per distinct resulting position, with that position,
    in the order first found.

    An empty list means the side cannot move and passes. Positions reached twice are searched
    once (a transposition table keyed by the board and the moves left). Five searches do this:
    :func:`_non_double` and :func:`_double` are written out flat for the rolls almost every
    search gets; :func:`_sequence` plays an ordered list (cascades, remainders, triples);
    :func:`_free` three dice in any order; and :class:`_Ordered` is the general depth-first
    search that an order rule needs. The flat ones visit the steps in the same order as the
    general one, so they find the same turns in the same order; they only drop bookkeeping
    their case does not need, and work that could only find a state again.
    """
    values = moves.values
    if len(values) == 2 and not moves.ordered and not rules.higher_die_first:
        return _non_double(board, values[0], values[1])  # most searches: checked first
    first = values[0]
    if values.count(first) == len(values):
        if len(values) == 4:
            return _double(board, first)
        return _sequence(board, values)
    if moves.ordered:
        return _sequence(board, values)
    if len(values) == 2:
        second = values[1]
        search = _Ordered(board, first, second)
        search.visit(values, False)
        best = max((depth for depth, found in enumerate(search.found) if found), default=0)
        if not best:
            return []
        chosen = list(search.found[best].values())
        if best == 1:
            high = [turn for turn in chosen if turn[0][0].die == max(first, second)]
            chosen = high or chosen
        return chosen
    return _free(board, values)


def _non_double(
    board: SearchBoard, first: int, second: int
) -> list[tuple[tuple[Played, ...], Position]]:
    """:func:`search_turns` for a non-double without an order rule: ``first`` then ``second``,
    then the other way round, written out flat, the last step with :meth:`SearchBoard.after`.

    Two orders of the same two steps reach the same state: each step moves one checker, and a
    hit takes the blot on the step's destination whichever of the two lands there first. So a
    pair of steps that the first order played is skipped when the second order meets it the
    other way round, without being made: its state is already found, and most second-order pairs
    are such. Only legality depends on the order (the blocking rule, bearing off, entering), and
    nothing is assumed about it: a skipped pair was played, legally, in the first order."""
    steps, make, unmake, key = board.steps, board.make, board.unmake, board.key
    position, after = board.position, board.after
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
            # bearing off the last checker leaves no step for the other die: a one-die turn
            following = steps(other)
            if not following:
                # kept once per state, by the larger die where both reach it (bearing off)
                state = key()
                if state not in one or die > other:
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


def _double(board: SearchBoard, die: int) -> list[tuple[tuple[Played, ...], Position]]:
    """:func:`search_turns` for a double: four steps of ``die``, depth first, written out flat.

    A state reached again after as many steps is not searched again (``seen``), and the last
    step is a plain loop that builds a position only for a state not found yet."""
    steps, make, unmake, key = board.steps, board.make, board.unmake, board.key
    position = board.position
    new = tuple.__new__  # builds a Played twice as fast as its __new__
    # found[n]: turns of n steps that cannot go on (bearing off the last checker ends one too)
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
            if state not in searched:
                searched.add(state)
                if not extend(path) and state not in found[depth]:
                    found[depth][state] = (path, position())
            unmake(src, dst, hit)
        return bool(moves)

    extend(())
    best = max((depth for depth in range(5) if found[depth]), default=0)
    return list(found[best].values()) if best else []


def _sequence(
    board: SearchBoard, values: tuple[int, ...]
) -> list[tuple[tuple[Played, ...], Position]]:
    """:func:`search_turns` for an ordered list (a cascade, a remainder, a triple's six moves):
    step ``n`` plays ``values[n]``, depth first, as :func:`_double` does for four moves of one
    value; the longest beginning of the list that any sequence plays wins."""
    steps, make, unmake, key = board.steps, board.make, board.unmake, board.key
    position = board.position
    new = tuple.__new__
    count = len(values)
    # found[n]: turns of n steps that cannot go on; found[count]: the whole list played
    found: list[_Found] = [{} for _ in range(count + 1)]
    full = found[count]
    seen: list[set[Hashable]] = [set() for _ in range(count)]

    def extend(played: tuple[Played, ...]) -> bool:
        depth = len(played)
        die = values[depth]
        moves = steps(die)
        depth += 1
        if depth == count:
            for src, dst in moves:
                hit = make(src, dst)
                state = key()
                if state not in full:
                    full[state] = ((*played, new(Played, (src, dst, die, hit))), position())
                unmake(src, dst, hit)
            return bool(moves)
        searched = seen[depth]
        shorter = found[depth]
        for src, dst in moves:
            hit = make(src, dst)
            state = key()
            if state not in searched:
                searched.add(state)
                path = (*played, new(Played, (src, dst, die, hit)))
                # a dead end counts only while no longer sequence is known
                if not extend(path) and not full and state not in shorter:
                    shorter[state] = (path, position())
            unmake(src, dst, hit)
        return bool(moves)

    extend(())
    best = max((depth for depth in range(count + 1) if found[depth]), default=0)
    return list(found[best].values()) if best else []


def _free(board: SearchBoard, values: tuple[int, ...]) -> list[tuple[tuple[Played, ...], Position]]:
    """:func:`search_turns` for three dice in any order (not a triple), written out flat: each
    first die and step, then each second die and step, then the last die. The states after two
    steps are keyed by the die left, so two orders of the same two steps are searched once; a
    final state, reached once per die that may come last, is looked up by its key before its
    position is built. Dead ends are kept by the dice left, and the best of those wins: the
    most dice played, then the largest (rules.md)."""
    steps, make, unmake, key = board.steps, board.make, board.unmake, board.key
    position, after, key_after = board.position, board.after, board.key_after
    new = tuple.__new__
    dice = sorted(values)
    full: _Found = {}
    # stopped[dice left, sorted]: turns that cannot go on before playing them
    stopped: dict[tuple[int, ...], _Found] = {}
    searched: set[tuple[Hashable, int]] = set()
    for index, first in enumerate(dice):
        if index and dice[index - 1] == first:
            continue  # the same value again: the same steps
        pair = (*dice[:index], *dice[index + 1 :])
        orders = (
            ((pair[0], pair[1]),)
            if pair[0] == pair[1]
            else ((pair[0], pair[1]), (pair[1], pair[0]))
        )
        for src1, dst1 in steps(first):
            hit1 = make(src1, dst1)
            step1 = new(Played, (src1, dst1, first, hit1))
            went_on = False
            for second, last in orders:
                for src2, dst2 in steps(second):
                    went_on = True
                    hit2 = make(src2, dst2)
                    state = key()
                    if (state, last) not in searched:
                        searched.add((state, last))
                        step2 = new(Played, (src2, dst2, second, hit2))
                        ends = steps(last)
                        for src3, dst3 in ends:
                            if key_after(src3, dst3) not in full:
                                state3, hit3, reached = after(src3, dst3)
                                full[state3] = (
                                    (step1, step2, new(Played, (src3, dst3, last, hit3))),
                                    reached,
                                )
                        if not ends and not full:
                            two = stopped.setdefault((last,), {})
                            if state not in two:
                                two[state] = ((step1, step2), position())
                    unmake(src2, dst2, hit2)
            if not went_on and not full:
                one = stopped.setdefault(pair, {})
                state = key()
                if state not in one:
                    one[state] = ((step1,), position())
            unmake(src1, dst1, hit1)
    if full:
        return list(full.values())
    if not stopped:
        return []
    best = max(stopped, key=lambda left: played_rank(values, left))
    return list(stopped[best].values())


def played_rank(values: tuple[int, ...], left: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """How good a sequence is that leaves ``left`` of ``values`` unplayed, by the full-use rules:
    more moves played first, then the larger played values (sorted, larger first).

    >>> played_rank((6, 5, 1), (5,)) > played_rank((6, 5, 1), (6,))
    True
    """
    played = list(values)
    for value in left:
        played.remove(value)
    return len(played), tuple(sorted(played, reverse=True))


class _Ordered:
    """The general search, for a non-double under an order rule (``higher_die_first``): every
    order of the dice, depth first, recording every node (a forbidden child must not hide its
    parent from the full-use rules), with the states searched keyed also by whether the path has
    borne off and played the lower die first."""

    __slots__ = ("board", "low", "path", "seen", "found")

    def __init__(self, board: SearchBoard, first: int, second: int) -> None:
        self.board = board
        self.low = min(first, second)
        self.path: list[tuple[int, int, int, bool]] = []
        # states already searched, by the dice still to play
        self.seen: dict[tuple[int, ...], set[Hashable]] = {}
        # found[dice played]: {state: (steps, position)}
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
                if board.finished() or not rest:
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
        return self.path[0][2] == self.low

    def _record(self, depth: int, bore_off: bool) -> None:
        if bore_off and self._low_first():
            return
        found = self.found[depth]
        key = self.board.key()
        # a one-die turn is kept by the larger die where both reach its state (bearing off)
        if key not in found or depth == 1 and not self._low_first():
            found[key] = (tuple(map(Played._make, self.path)), self.board.position())
