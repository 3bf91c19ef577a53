"""The course: short lessons, one idea each, for long nardy, short nardy and what the other
games change, in the order a newcomer takes them.

Each lesson is a few steps; each step is a position with the learner to act (white, drawn at
the bottom), and either a turn to play (:class:`PlayStep`, judged by its
:class:`~.tasks.Task`) or a question (:class:`AskStep`, answered by the engine through its
:class:`~.tasks.Question`). A step has a ``key``: the views name its texts by it (the rule it
teaches, the task in one sentence, why a right answer is right, which rule a wrong one broke),
and the lesson's key names its title. ``marks`` are the points the rule is about, in the
learner's numbering: the picture tints them.

The positions are the engine's notation (``long w / <white> / <black>``, each side in its own
numbering: black's point q is white's (q + 12) mod 24 in long nardy, 25 - q in short); the
first-turn head exception follows from the checkers, as :meth:`Game.setup` reads them (a side
with all 15 on its head has not moved). Every step's answers are checked by the tests: a play
step has at least one legal turn it accepts and one it refuses, an ask step one right option
and a wrong one.

Pure: the engine only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Final

from bot.engine import Cube, Dice, Game, Match, Point, Position, Side

from .tasks import (
    All,
    BearsOff,
    BestRun,
    CanBearOff,
    DropCost,
    HeadCount,
    Hits,
    Leaves,
    Makes,
    MayDouble,
    MoveCount,
    OneChecker,
    Question,
    Reaches,
    ResultOf,
    Run,
    Task,
    WhatPlays,
    WhereItGoes,
    WinsMatch,
)


class Section(enum.Enum):
    """The parts of the course, in order."""

    LONG = "long"
    SHORT = "short"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class PlayStep:
    """A step answered by playing a turn of ``game``'s roll that ``task`` accepts."""

    key: str
    game: Game
    task: Task
    marks: tuple[Point, ...] = ()


@dataclass(frozen=True, slots=True)
class AskStep:
    """A step answered by choosing the option of ``question`` the engine says is right."""

    key: str
    game: Game
    question: Question
    marks: tuple[Point, ...] = ()


Step = PlayStep | AskStep


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its key (its title's name in the views), its section, its steps."""

    key: str
    section: Section
    steps: tuple[Step, ...]

    @property
    def variant(self) -> str:
        """The variant of its first step (what its title names)."""
        return self.steps[0].game.variant


def _game(text: str, dice: tuple[int, int] | None, rules: str | None = None) -> Game:
    """The game at position ``text`` (set up, so the first-turn exception follows from the
    checkers), with ``dice`` rolled (None: before its roll)."""
    game = Game.setup(Position.from_text(text), rules=rules)
    return game.with_dice(Dice(*dice)) if dice is not None else game


def _with_cube(game: Game, cube: Cube) -> Game:
    return replace(game, cube=cube)


# a black army far from home, for the bearing-off positions of long nardy (black's own points
# 24, 22, 10 and 8 are white's 12, 10, 22 and 20: none in white's home)
_BLACK_AWAY: Final = "24:3 22:4 10:4 8:4"

LONG_MOVES: Final = Lesson(
    "long.moves",
    Section.LONG,
    (
        PlayStep(
            "long.moves.one_checker",
            _game("long w / 24:11 19:2 13:2 / 24:11 20:2 18:2", (5, 3)),
            OneChecker(),
        ),
        PlayStep(
            "long.moves.stop",
            _game("long w / 24:12 16:1 11:2 / 24:13 22:2", (6, 2)),
            All((Leaves(16), Reaches(8))),
            marks=(10,),
        ),
        PlayStep(
            "long.moves.double",
            _game("long w / 24:12 21:1 17:1 14:1 / 24:12 20:1 19:1 10:1", (4, 4)),
            OneChecker(),
        ),
    ),
)

LONG_DICE: Final = Lesson(
    "long.dice",
    Section.LONG,
    (
        AskStep(
            "long.dice.larger",
            _game("long w / 24:14 7:1 / 24:12 15:1 13:1 2:1", (6, 4)),
            WhatPlays(),
            marks=(14, 3, 1),
        ),
        AskStep(
            "long.dice.smaller",
            _game("long w / 24:14 7:1 / 24:11 15:1 13:1 6:1 2:1", (6, 4)),
            WhatPlays(),
            marks=(18, 14, 3, 1),
        ),
    ),
)

LONG_HEAD: Final = Lesson(
    "long.head",
    Section.LONG,
    (
        PlayStep(
            "long.head.one",
            _game("long w / 24:13 19:1 16:1 / 24:13 21:1 20:1", (6, 5)),
            Leaves(24, 1),
            marks=(24,),
        ),
        AskStep(
            "long.head.first_six",
            _game("long w / 24:15 / 24:15", (6, 6)),
            HeadCount(),
            marks=(24, 12),
        ),
        AskStep(
            "long.head.first_five",
            _game("long w / 24:15 / 24:15", (5, 5)),
            HeadCount(),
            marks=(24,),
        ),
        AskStep(
            "long.head.second",
            _game("long w / 24:15 / 24:14 6:1", (2, 2)),
            HeadCount(),
            marks=(24, 18),
        ),
    ),
)

LONG_BLOCK: Final = Lesson(
    "long.block",
    Section.LONG,
    (
        AskStep(
            "long.block.forbidden",
            _game("long w / 24:8 13:2 11:1 10:1 9:1 8:1 7:1 / 24:15", (6, 1)),
            BestRun((5, 6)),
            marks=(11, 10, 9, 8, 7, 6),
        ),
        PlayStep(
            "long.block.allowed",
            _game("long w / 24:8 13:2 11:1 10:1 9:1 8:1 7:1 / 24:14 16:1", (6, 1)),
            Run(6),
            marks=(4,),
        ),
    ),
)

LONG_HOME: Final = Lesson(
    "long.home",
    Section.LONG,
    (
        AskStep(
            "long.home.last_in",
            _game(f"long w / 8:1 6:3 5:3 4:3 3:3 2:2 / {_BLACK_AWAY}", (6, 2)),
            CanBearOff(),
            marks=(8,),
        ),
        PlayStep(
            "long.home.exact",
            _game(f"long w / 6:3 5:3 4:3 3:2 2:2 1:2 / {_BLACK_AWAY}", (6, 4)),
            BearsOff(2),
            marks=(6, 4),
        ),
        PlayStep(
            "long.home.higher",
            _game(f"long w / 3:3 2:4 1:3 off:5 / {_BLACK_AWAY}", (6, 1)),
            BearsOff(2),
            marks=(3, 1),
        ),
    ),
)

LONG_RESULTS: Final = Lesson(
    "long.results",
    Section.LONG,
    (
        AskStep(
            "long.results.oin",
            _game("long w / 2:1 off:14 / 3:5 2:5 1:2 off:3", (3, 1)),
            ResultOf(),
        ),
        AskStep(
            "long.results.mars",
            _game("long w / 2:1 off:14 / 9:5 6:5 5:5", (3, 1)),
            ResultOf(),
        ),
        AskStep(
            "long.results.koks",
            _game("long w / 2:1 off:14 / 24:1 9:4 4:5 3:5", (3, 1), rules="sheshbesh"),
            ResultOf(),
            marks=(12,),
        ),
        AskStep(
            "long.results.home_mars",
            _game("long w / 2:1 off:14 / 6:5 5:5 4:5", (3, 1), rules="sheshbesh"),
            ResultOf(),
        ),
    ),
)

# short nardy: black's point q is white's 25 - q
SHORT_BASICS: Final = Lesson(
    "short.basics",
    Section.SHORT,
    (
        PlayStep(
            "short.basics.hit",
            _game("short w / 24:2 13:5 8:3 6:5 / 24:2 16:1 13:4 8:3 6:5", (4, 2)),
            Hits(1),
            marks=(9,),
        ),
        PlayStep(
            "short.basics.point",
            _game("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", (3, 1)),
            Makes(5),
            marks=(5,),
        ),
    ),
)

SHORT_BAR: Final = Lesson(
    "short.bar",
    Section.SHORT,
    (
        PlayStep(
            "short.bar.enter",
            _game("short w / bar:1 24:1 13:5 8:3 6:5 / 24:2 13:4 8:2 6:4 4:2 3:1", (5, 3)),
            Hits(1),
            marks=(22,),
        ),
        AskStep(
            "short.bar.closed",
            _game("short w / bar:1 24:1 13:5 8:3 6:5 / 24:2 13:4 8:2 6:4 4:2 3:1", (6, 4)),
            WhatPlays(),
            marks=(19, 21),
        ),
    ),
)

SHORT_BLOCKS: Final = Lesson(
    "short.blocks",
    Section.SHORT,
    (
        PlayStep(
            "short.blocks.row",
            _game("short w / 24:2 13:4 10:1 9:2 8:2 7:2 6:2 / 24:2 13:5 8:3 6:5", (3, 2)),
            Run(5),
            marks=(10, 9, 8, 7, 6),
        ),
    ),
)

SHORT_HOME: Final = Lesson(
    "short.home",
    Section.SHORT,
    (
        AskStep(
            "short.home.bar",
            _game("short w / bar:1 6:4 5:4 4:3 3:2 2:1 / 24:2 13:4 8:3 6:6", (2, 1)),
            CanBearOff(),
            marks=(25,),
        ),
        AskStep(
            "short.home.koks",
            _game("short w / 1:1 off:14 / 23:1 6:6 5:4 4:4", (3, 1)),
            ResultOf(),
            marks=(2,),
        ),
    ),
)

_SHORT_RACE: Final = "short w / 6:3 5:3 4:3 3:2 off:4 / 6:4 5:4 4:3 3:2 off:2"

SHORT_CUBE: Final = Lesson(
    "short.cube",
    Section.SHORT,
    (
        AskStep(
            "short.cube.centred",
            _with_cube(_game(_SHORT_RACE, None), Cube()),
            MayDouble(),
        ),
        AskStep(
            "short.cube.owned",
            _with_cube(_game(_SHORT_RACE, None), Cube(2, Side.BLACK)),
            MayDouble(),
        ),
        AskStep(
            "short.cube.drop",
            _with_cube(
                _game(_SHORT_RACE.replace("short w", "short b"), None),
                Cube(1, None, offered=True),
            ),
            DropCost((1, 2, 4)),
        ),
        AskStep(
            "short.cube.match",
            _with_cube(
                _game("short w / 1:1 off:14 / 6:5 5:5 4:3 off:2", (3, 1)), Cube(2, Side.WHITE)
            ),
            WinsMatch(Match(5, 3, 4)),
        ),
    ),
)

OTHER_GAMES: Final = Lesson(
    "other.games",
    Section.OTHER,
    (
        PlayStep(
            "other.abkhaz",
            _game("abkhaz w / 24:2 13:4 8:3 6:4 5:2 / 24:2 21:1 13:5 8:3 6:4", (4, 1)),
            Hits(1),
            marks=(4,),
        ),
        AskStep(
            "other.gulbara",
            _game("gulbara w / 24:14 7:1 / 24:12 15:1 13:1 2:1", (6, 4)),
            WhereItGoes(),
            marks=(14, 3, 1),
        ),
        AskStep(
            "other.crazy",
            _game("crazy_gulbara w / 24:13 17:1 13:1 / 24:14 20:1", (4, 4)),
            MoveCount((4, 6, 8)),
        ),
    ),
)

COURSE: Final[tuple[Lesson, ...]] = (
    LONG_MOVES,
    LONG_DICE,
    LONG_HEAD,
    LONG_BLOCK,
    LONG_HOME,
    LONG_RESULTS,
    SHORT_BASICS,
    SHORT_BAR,
    SHORT_BLOCKS,
    SHORT_HOME,
    SHORT_CUBE,
    OTHER_GAMES,
)
"""Every lesson, in the order the course takes them."""

STEPS: Final = sum(len(lesson.steps) for lesson in COURSE)
"""The course's length in steps."""


def learner(step: Step) -> Side:
    """The side the learner plays in ``step``: the one to act (white throughout)."""
    return step.game.to_act


def lesson_index(key: str) -> int | None:
    """The place of lesson ``key`` in :data:`COURSE` (None: no such lesson)."""
    return next((i for i, lesson in enumerate(COURSE) if lesson.key == key), None)
