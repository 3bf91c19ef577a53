"""What a lesson's step asks, and how the engine judges the answer.

A *play* step asks for a turn: its :class:`Task` is a predicate on a legal turn, read from the
position before the turn and the position the turn reaches, in the mover's own numbering. The
taps of a step offer only the engine's legal steps (:class:`~bot.engine.TurnInput`), so the
answers a step accepts are exactly the legal turns whose result satisfies its task
(:func:`accepted`): no lesson can take an illegal turn, nor refuse a legal one that does what
it asks. Tasks read results, not the steps' order: the engine's legal turns are one per distinct
resulting position, and so are the answers.

An *ask* step asks a question about the position, answered by one of a few options; its
:class:`Question` works the right option out from the engine (the legal turns, the game's
result, the cube), never from a list typed by hand.

Pure: the engine only.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from bot.engine import (
    BAR,
    CHECKERS,
    OFF,
    Family,
    Game,
    Match,
    Outcome,
    Point,
    Position,
    Side,
    Turn,
    find_variant,
)

HEAD: Final = 24
"""Every side's start, the head in long nardy."""
HOME: Final = range(1, 7)


class Task(Protocol):
    """A predicate on a turn's result: whether the turn from ``before`` (the mover to move)
    to ``after`` (the position it reaches) does what the step asks."""

    def accepts(self, before: Position, after: Position) -> bool: ...


def _own(position: Position, mover: Side) -> tuple[int, ...]:
    return position.checkers(mover)


@dataclass(frozen=True, slots=True)
class OneChecker:
    """The turn moves one checker only (whatever the number of its steps): exactly one of the
    mover's checkers ends elsewhere than it started."""

    def accepts(self, before: Position, after: Position) -> bool:
        mover = before.turn
        old, new = _own(before, mover), _own(after, mover)
        return sum(max(0, a - b) for a, b in zip(old, new, strict=True)) == 1


@dataclass(frozen=True, slots=True)
class Leaves:
    """Exactly ``count`` of the mover's checkers leave ``point`` (1..24, or 25: the bar)."""

    point: Point
    count: int = 1

    def accepts(self, before: Position, after: Position) -> bool:
        mover = before.turn
        return _own(before, mover)[self.point] - _own(after, mover)[self.point] == self.count


@dataclass(frozen=True, slots=True)
class Reaches:
    """At least ``count`` more of the mover's checkers stand on ``point`` (1..24) after."""

    point: Point
    count: int = 1

    def accepts(self, before: Position, after: Position) -> bool:
        mover = before.turn
        return _own(after, mover)[self.point] - _own(before, mover)[self.point] >= self.count


@dataclass(frozen=True, slots=True)
class BearsOff:
    """Exactly ``count`` of the mover's checkers are borne off."""

    count: int

    def accepts(self, before: Position, after: Position) -> bool:
        return after.borne_off(before.turn) - before.borne_off(before.turn) == self.count


@dataclass(frozen=True, slots=True)
class Hits:
    """At least ``count`` of the opponent's checkers are hit (sent to the bar)."""

    count: int = 1

    def accepts(self, before: Position, after: Position) -> bool:
        other = before.turn.other
        return after.checkers(other)[BAR] - before.checkers(other)[BAR] >= self.count


@dataclass(frozen=True, slots=True)
class Makes:
    """The mover makes ``point``: two or more of its checkers stand there after, fewer before
    (a made point: in short nardy, closed to the opponent)."""

    point: Point

    def accepts(self, before: Position, after: Position) -> bool:
        mover = before.turn
        return _own(before, mover)[self.point] < 2 <= _own(after, mover)[self.point]


@dataclass(frozen=True, slots=True)
class Run:
    """The mover holds a row of at least ``length`` points in a row after the turn (see
    :func:`longest_run`)."""

    length: int

    def accepts(self, before: Position, after: Position) -> bool:
        return longest_run(after, before.turn) >= self.length


@dataclass(frozen=True, slots=True)
class Wins:
    """The turn bears off the mover's last checker."""

    def accepts(self, before: Position, after: Position) -> bool:
        return after.borne_off(before.turn) == CHECKERS


@dataclass(frozen=True, slots=True)
class All:
    """Every one of ``tasks`` at once."""

    tasks: tuple[Task, ...]

    def accepts(self, before: Position, after: Position) -> bool:
        return all(task.accepts(before, after) for task in self.tasks)


@dataclass(frozen=True, slots=True)
class Not:
    """Anything but ``task``."""

    task: Task

    def accepts(self, before: Position, after: Position) -> bool:
        return not self.task.accepts(before, after)


def longest_run(position: Position, side: Side) -> int:
    """The most points in a row that ``side`` holds: in long nardy a point with any of its
    checkers, counted round the board (a row may go on from its 1 to its 24, as the blocking
    rule counts it along the opponent's route); in short nardy a made point (two or more
    checkers), from its 24 down to its 1.

    >>> longest_run(Position.from_text("long w / 24:10 2:1 1:2 23:1 22:1 / 24:15"), Side.WHITE)
    5
    """
    own = position.checkers(side)
    if find_variant(position.variant).family is Family.SHORT:
        held = [own[p] >= 2 for p in range(24, 0, -1)]
        circular = False
    else:
        held = [own[p] >= 1 for p in range(24, 0, -1)]
        circular = True
    if all(held):
        return 24
    best = run = 0
    for value in held + held if circular else held:
        run = run + 1 if value else 0
        best = max(best, run)
    return min(best, 24)


def accepted(game: Game, task: Task) -> tuple[Turn, ...]:
    """The legal turns of ``game``'s roll that ``task`` accepts: a play step's right answers."""
    return tuple(t for t in game.legal_turns() if task.accepts(game.position, t.position))


def judge(game: Game, turn: Turn, task: Task) -> bool:
    """Whether ``turn`` (a legal turn of ``game``'s roll, built by the taps) does what ``task``
    asks."""
    return task.accepts(game.position, turn.position)


# --- questions -------------------------------------------------------------------------------


class Playable(enum.IntEnum):
    """What a roll of two different dice lets the mover play."""

    BOTH = 1
    HIGH = 2  # only the higher die
    LOW = 3  # only the lower die
    NONE = 4  # nothing: the turn passes


class Remains(enum.IntEnum):
    """What becomes of a move the mover cannot play."""

    LOST = 1
    OPPONENT = 2  # gul-bara: the opponent plays it


class YesNo(enum.IntEnum):
    YES = 1
    NO = 2


class Question(Protocol):
    """An ask step's question: its options, and the right one, worked out by the engine."""

    def options(self, game: Game) -> tuple[int, ...]: ...

    def answer(self, game: Game) -> int: ...


@dataclass(frozen=True, slots=True)
class HeadCount:
    """How many checkers may leave the head this turn: the most any legal turn takes (the head
    rule, and its first-turn exception)."""

    def options(self, game: Game) -> tuple[int, ...]:
        return (1, 2)

    def answer(self, game: Game) -> int:
        mover = game.turn
        head = game.position.checkers(mover)[HEAD]
        return max((head - t.position.checkers(mover)[HEAD] for t in game.legal_turns()), default=0)


@dataclass(frozen=True, slots=True)
class WhatPlays:
    """Which of a non-double's dice the mover can play: both, the higher or the lower one
    only, or none (a pass): read from the dice every legal turn plays (the full-use rule and
    the larger die)."""

    def options(self, game: Game) -> tuple[int, ...]:
        return tuple(Playable)

    def answer(self, game: Game) -> int:
        dice = game.dice
        assert dice is not None and not dice.is_double, "a question for two different dice"
        used = {tuple(sorted(t.dice_used)) for t in game.legal_turns()}
        if not used:
            return Playable.NONE
        if all(len(u) == 2 for u in used):
            return Playable.BOTH
        if used == {(dice.high,)}:
            return Playable.HIGH
        if used == {(min(dice.values),)}:
            return Playable.LOW
        raise ValueError(f"no one answer: {used}")  # the engine never mixes them


@dataclass(frozen=True, slots=True)
class CanBearOff:
    """Whether a legal turn of the roll bears a checker off."""

    def options(self, game: Game) -> tuple[int, ...]:
        return tuple(YesNo)

    def answer(self, game: Game) -> int:
        mover = game.turn
        off = game.position.borne_off(mover)
        bears = any(t.position.borne_off(mover) > off for t in game.legal_turns())
        return YesNo.YES if bears else YesNo.NO


def _outcome_codes() -> tuple[Outcome, ...]:
    return (Outcome.OIN, Outcome.MARS, Outcome.KOKS, Outcome.HOME_MARS)


OUTCOMES: Final = _outcome_codes()
"""The results of a game borne off, in the order their options are shown."""


def _winning(game: Game) -> tuple[Game, ...]:
    """The game after each legal turn, every one of which must bear the last checker off."""
    after = tuple(game.play(turn) for turn in game.legal_turns())
    if not after or any(a.result is None for a in after):
        raise ValueError("every legal turn of the roll must win the game")
    return after


@dataclass(frozen=True, slots=True)
class ResultOf:
    """What the win the mover makes this turn scores, as the engine scores it: oin, mars,
    koks or home mars (by the rule set: an outcome it does not count scores as mars). The
    option is the index in :data:`OUTCOMES`."""

    def options(self, game: Game) -> tuple[int, ...]:
        return tuple(range(len(OUTCOMES)))

    def answer(self, game: Game) -> int:
        outcomes = {a.result.outcome for a in _winning(game) if a.result is not None}
        if len(outcomes) != 1:
            raise ValueError(f"the turns win differently: {outcomes}")
        return OUTCOMES.index(outcomes.pop())


@dataclass(frozen=True, slots=True)
class MayDouble:
    """Whether the side to move may offer to double now, before its roll: the cube in play,
    centred or its own (:attr:`Game.can_double`). The step's game waits for its roll."""

    def options(self, game: Game) -> tuple[int, ...]:
        return tuple(YesNo)

    def answer(self, game: Game) -> int:
        return YesNo.YES if game.can_double else YesNo.NO


@dataclass(frozen=True, slots=True)
class WhereItGoes:
    """What becomes of the moves the mover cannot play: lost, or handed to the opponent
    (gul-bara): read from the legal turns' remainders."""

    def options(self, game: Game) -> tuple[int, ...]:
        return tuple(Remains)

    def answer(self, game: Game) -> int:
        handed = any(t.remainder for t in game.legal_turns())
        return Remains.OPPONENT if handed else Remains.LOST


@dataclass(frozen=True, slots=True)
class MoveCount:
    """How many moves the roll gives (a double's four, crazy gul-bara's cascade);
    ``options`` are the numbers offered."""

    choices: tuple[int, ...]

    def options(self, game: Game) -> tuple[int, ...]:
        return self.choices

    def answer(self, game: Game) -> int:
        moves = game.moves
        assert moves is not None
        return len(moves.values)


@dataclass(frozen=True, slots=True)
class BestRun:
    """The longest row of points in a row (:func:`longest_run`) the mover can hold after any
    legal turn of the roll; ``options`` are the lengths offered (the blocking rule of long
    nardy keeps some out of reach)."""

    choices: tuple[int, ...]

    def options(self, game: Game) -> tuple[int, ...]:
        return self.choices

    def answer(self, game: Game) -> int:
        mover = game.turn
        return max((longest_run(t.position, mover) for t in game.legal_turns()), default=0)


@dataclass(frozen=True, slots=True)
class DropCost:
    """What the side offered a double loses by dropping it (the engine's result of a drop:
    the cube's value before the offer); ``options`` are the numbers offered. The step's game
    has the double offered, its side to act the learner."""

    choices: tuple[int, ...]

    def options(self, game: Game) -> tuple[int, ...]:
        return self.choices

    def answer(self, game: Game) -> int:
        result = game.drop().result
        assert result is not None
        return result.points


@dataclass(frozen=True, slots=True)
class WinsMatch:
    """Whether the win the mover makes this turn wins ``match`` (its score before this game):
    the game's points (the rule set's table times the cube) added by :meth:`Match.after_game`
    reach the match's length."""

    match: Match

    def options(self, game: Game) -> tuple[int, ...]:
        return tuple(YesNo)

    def answer(self, game: Game) -> int:
        points = {a.result.points for a in _winning(game) if a.result is not None}
        if len(points) != 1:
            raise ValueError(f"the turns score differently: {points}")
        after = self.match.after_game(game.turn, points.pop())
        return YesNo.YES if after.winner is game.turn else YesNo.NO


def right_options(game: Game, question: Question) -> Sequence[int]:
    """The options of ``question`` that are right (one)."""
    answer = question.answer(game)
    return [option for option in question.options(game) if option == answer]


__all__ = [
    "HEAD",
    "OFF",
    "OUTCOMES",
    "All",
    "BearsOff",
    "BestRun",
    "CanBearOff",
    "DropCost",
    "HeadCount",
    "Hits",
    "Leaves",
    "Makes",
    "MayDouble",
    "MoveCount",
    "Not",
    "OneChecker",
    "Playable",
    "Question",
    "Reaches",
    "Remains",
    "ResultOf",
    "Run",
    "Task",
    "WhatPlays",
    "WhereItGoes",
    "WinsMatch",
    "Wins",
    "YesNo",
    "accepted",
    "judge",
    "longest_run",
    "right_options",
]
