"""Turn input tap by tap, for players who build a turn on a keyboard.

A :class:`TurnInput` holds the taps made so far in this turn, each one or more steps. It offers
only the next steps that lead on to at least one legal complete turn, so a player can never build
an illegal turn or walk into a dead end. Besides single steps it offers the *finishes*: every
distinct way to complete the turn from here, each playable as one tap (a keyboard shows them as
whole-turn buttons when there are few). :meth:`TurnInput.with_forced` plays a remainder that
can be completed one way only, as part of the tap before it, and :meth:`TurnInput.undo` takes
back a whole tap. Nothing here is committed: the finished turn is handed to
:meth:`bot.engine.game.Game.play` like any other.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from functools import cached_property

from .dice import Dice
from .errors import IllegalTurnError
from .moves import Played, Turn
from .position import Position
from .rules import Board, RuleSet, find_variant, legal_turns, resolve_rules


@dataclass(frozen=True)
class TurnInput:
    """The taps made so far towards one of ``turns``, the legal complete turns; ``taps`` holds
    the steps of each tap (one step, or a finish, or a step with its forced remainder).

    >>> from bot.engine import Dice, Position
    >>> start = TurnInput.begin(Position.from_text("long w / 24:15 / 24:15"), Dice(6, 5),
    ...                         first_turn=True, rules=None)
    >>> [str(o.step) for o in start.options]
    ['24/18', '24/19']
    >>> after = start.play(start.options[0])
    >>> [str(o.step) for o in after.options], after.is_complete
    (['18/13'], False)
    >>> str(after.play(after.options[0]).turn())
    '24/18 18/13'
    """

    position: Position
    dice: Dice
    first_turn: bool
    rules: RuleSet
    turns: tuple[Turn, ...]
    taps: tuple[tuple[Played, ...], ...] = ()

    @classmethod
    def begin(
        cls,
        position: Position,
        dice: Dice,
        *,
        first_turn: bool,
        rules: RuleSet | str | None,
    ) -> TurnInput:
        """Starts a turn's input with no step chosen."""
        rule_set = resolve_rules(position.variant, rules)
        turns = legal_turns(position, dice, first_turn=first_turn, rules=rule_set)
        return cls(position, dice, first_turn, rule_set, turns)

    @cached_property
    def played(self) -> tuple[Played, ...]:
        """Every step chosen so far, in order."""
        return tuple(step for tap in self.taps for step in tap)

    @cached_property
    def _goal(self) -> tuple[int, frozenset[int]]:
        """How many dice a finished turn plays, and which dice may open a one-die turn."""
        full = len(self.dice.moves)
        if any(t.position.borne_off(self.position.turn) == 15 for t in self.turns):
            return full, frozenset(self.dice.moves)
        best = max((len(t.played) for t in self.turns), default=0)
        return best, frozenset(t.played[0].die for t in self.turns if best == 1)

    def _board(self) -> Board:
        board = find_variant(self.position.variant).board(
            self.position, self.dice, first_turn=self.first_turn, rules=self.rules
        )
        for played in self.played:
            board.make(played.src, played.dst)
        return board

    def _left(self) -> list[int]:
        left = list(self.dice.moves)
        for played in self.played:
            left.remove(played.die)
        return left

    @cached_property
    def options(self) -> tuple[Played, ...]:
        """The next steps (each with the die it plays) that lead to a legal complete turn."""
        if self.is_complete:
            return ()
        board = self._board()
        found: list[Played] = []
        for die in dict.fromkeys(self._left()):
            for src, dst in board.steps(die):
                hit = board.make(src, dst)
                step = Played(src, dst, die, hit)
                path = (*self.played, step)
                left = self._left()
                left.remove(die)
                if self._completes(board, path, left):
                    found.append(step)
                board.unmake(src, dst, hit)
        return tuple(found)

    def _completes(self, board: Board, path: tuple[Played, ...], left: list[int]) -> bool:
        best, one_die = self._goal
        if self._tainted(path):
            return False
        if board.finished():
            return True
        if len(path) == best:
            return best != 1 or path[0].die in one_die
        for die in dict.fromkeys(left):
            rest = list(left)
            rest.remove(die)
            for src, dst in board.steps(die):
                hit = board.make(src, dst)
                ok = self._completes(board, (*path, Played(src, dst, die, hit)), rest)
                board.unmake(src, dst, hit)
                if ok:
                    return True
        return False

    def _tainted(self, path: tuple[Played, ...]) -> bool:
        """A turn that bears off must play the higher die first, where the rules say so."""
        dice = self.dice
        return (
            self.rules.higher_die_first
            and bool(path)
            and not dice.is_double
            and path[0].die == dice.low
            and any(p.dst == 0 for p in path)
        )

    @property
    def is_complete(self) -> bool:
        """True when the chosen steps make a legal complete turn (a pass is complete at once)."""
        if not self.turns:
            return True
        if not self.played:
            return False
        best, one_die = self._goal
        board = self._board()
        if self._tainted(self.played):
            return False
        if board.finished():
            return True
        return len(self.played) == best and (best != 1 or self.played[0].die in one_die)

    @property
    def current(self) -> Position:
        """The position after the chosen steps, the same side still to move."""
        return self._board().position().with_turn(self.position.turn)

    def play(self, option: Played) -> TurnInput:
        """Returns the input with ``option`` (one of :attr:`options`) chosen next, as a tap.

        :raises: :exc:`IllegalTurnError` if ``option`` is not offered.
        """
        if option not in self.options:
            offered = " ".join(str(o.step) for o in self.options) or "none"
            raise IllegalTurnError(
                f"step {option.step} (die {option.die}) is not offered now (offered: {offered})"
            )
        return replace(self, taps=(*self.taps, (option,)))

    def finishes(self, limit: int) -> tuple[tuple[Played, ...], ...] | None:
        """The distinct ways to complete the turn from here: the remaining steps of each,
        one per resulting position, ordered by their steps from the highest point down; None
        when there are more than ``limit`` (the search stops there, so a turn with thousands of
        completions costs no more than ``limit`` of them). Empty when the input is complete.

        >>> from bot.engine import Dice, Position
        >>> start = TurnInput.begin(Position.from_text("long w / 24:14 13:1 / 24:15"),
        ...                         Dice(6, 5), first_turn=False, rules=None)
        >>> [" ".join(str(p.step) for p in steps) for steps in start.finishes(8)]
        ['24/18 18/13', '24/18 13/8', '13/7 24/19', '13/7 7/2']
        >>> start.finishes(3) is None
        True
        """
        if self.is_complete:
            return ()
        found: dict[Position, tuple[Played, ...]] = {}
        seen: set[Hashable] = set()
        board = self._board()
        if not self._collect(board, self.played, self._left(), found, seen, limit):
            return None
        start = len(self.played)
        return tuple(
            sorted(
                (path[start:] for path in found.values()),
                key=lambda steps: [(-p.src, -p.dst) for p in steps],
            )
        )

    def _collect(
        self,
        board: Board,
        path: tuple[Played, ...],
        left: list[int],
        found: dict[Position, tuple[Played, ...]],
        seen: set[Hashable],
        limit: int,
    ) -> bool:
        """Depth first from ``path`` (made on ``board``): adds each complete turn's result to
        ``found``; False as soon as there are more than ``limit``. A state met again with the
        same dice left (and the same first die and bearing off, which the order rule reads) is
        not searched again."""
        best, one_die = self._goal
        if self._tainted(path):
            return True
        if board.finished() or len(path) == best:
            if board.finished() or best != 1 or path[0].die in one_die:
                found.setdefault(board.position(), path)
            return len(found) <= limit
        first = path[0].die if path else None
        state = (board.key(), tuple(sorted(left)), first, any(p.dst == 0 for p in path))
        if state in seen:
            return True
        seen.add(state)
        for die in dict.fromkeys(left):
            rest = list(left)
            rest.remove(die)
            for src, dst in board.steps(die):
                hit = board.make(src, dst)
                step = Played(src, dst, die, hit)
                ok = self._collect(board, (*path, step), rest, found, seen, limit)
                board.unmake(src, dst, hit)
                if not ok:
                    return False
        return True

    def finish(self, steps: tuple[Played, ...]) -> TurnInput:
        """Returns the input with ``steps`` (one of the :meth:`finishes`) played as one tap.

        :raises: :exc:`IllegalTurnError` if ``steps`` do not complete the turn legally.
        """
        current = self
        for step in steps:
            current = current.play(step)
        if not steps or not current.is_complete:
            raise IllegalTurnError("those steps do not complete the turn")
        return replace(self, taps=(*self.taps, steps))

    def with_forced(self) -> TurnInput:
        """Returns the input with a forced remainder played: when the turn can be completed in
        one way only, its steps join the last tap (so one Undo takes back both). Unchanged when
        the input is complete, has no tap yet, or can be completed in more than one way."""
        if not self.taps or self.is_complete:
            return self
        only = self.finishes(1)
        if only is None or len(only) != 1:
            return self
        return replace(self, taps=(*self.taps[:-1], self.taps[-1] + only[0]))

    def replay(self, taps: tuple[tuple[Played, ...], ...]) -> TurnInput:
        """Returns the input with ``taps`` made after its own, each step checked as :meth:`play`
        checks it (a stored input read back).

        :raises: :exc:`IllegalTurnError` if a step is not offered when its turn comes.
        """
        current = self
        for tap in taps:
            for step in tap:
                current = current.play(step)
        return replace(self, taps=(*self.taps, *taps))

    def undo(self) -> TurnInput:
        """Returns the input without its last tap (unchanged when there is none)."""
        return replace(self, taps=self.taps[:-1]) if self.taps else self

    def turn(self) -> Turn:
        """Returns the finished turn.

        :raises: :exc:`IllegalTurnError` if the input is not complete.
        """
        if not self.is_complete:
            raise IllegalTurnError("the turn is not complete yet")
        if not self.turns:
            return Turn((), self.position.with_turn(self.position.turn.other))
        return Turn(self.played, self._board().position())
