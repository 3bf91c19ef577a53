"""Steps (one checker, one die) and turns (a whole roll's steps with the position they reach).

Move text follows GNU Backgammon, in the mover's own numbering: ``24/18 18/13``; a step repeated
in a row is written once with its count, ``13/7(2)``; bearing off is ``6/off``, entering from
the bar ``bar/22``, and a step that hits is marked ``*``: ``13/7*``. Steps appear in the order
played.

Steps with their dice (:class:`Played`: a turn being input, kept between taps) have a text of
their own, which keeps each step's die (bearing off with a higher die needs it):
:func:`played_text` and :func:`parse_played`, and for the taps of a turn, each one or more
steps, :func:`taps_text` and :func:`parse_taps`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from .errors import IllegalTurnError
from .position import Position
from .types import BAR, OFF, Point


def _point_text(point: Point) -> str:
    if point == OFF:
        return "off"
    if point == BAR:
        return "bar"
    return str(point)


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved from ``src`` to ``dst`` in the mover's own numbering (0 off, 25 bar).

    >>> str(Step(13, 7, hit=True)), str(Step(3, 0))
    ('13/7*', '3/off')
    """

    src: Point
    dst: Point
    hit: bool = False

    def __str__(self) -> str:
        return f"{_point_text(self.src)}/{_point_text(self.dst)}{'*' if self.hit else ''}"


class Played(NamedTuple):
    """A step as the search plays it: with the die used (bearing off with a higher die needs to
    know which) and whether it hit. A named tuple, not a dataclass: the search makes one per
    node, so it must be cheap."""

    src: Point
    dst: Point
    die: int
    hit: bool = False

    @property
    def step(self) -> Step:
        """The step without its die."""
        return Step(self.src, self.dst, self.hit)


@dataclass(frozen=True, slots=True)
class Turn:
    """A legal complete turn: its steps in playing order (with their dice) and the position they
    reach, with the opponent to move. An empty turn is a pass.

    ``remainder`` holds the moves the turn did not play when they pass to the opponent
    (gul-bara), in the order they would have come; it is empty in every other case.

    Legal-turn lists hold one turn per distinct resulting position (and remainder).
    """

    played: tuple[Played, ...]
    position: Position
    remainder: tuple[int, ...] = ()

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps in playing order."""
        return tuple(Step(p.src, p.dst, p.hit) for p in self.played)

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The die each step played, in order."""
        return tuple(p.die for p in self.played)

    def __str__(self) -> str:
        return steps_text(self.steps)


def make_turns(
    found: list[tuple[tuple[Played, ...], Position]], remainders: list[tuple[int, ...]] | None
) -> tuple[Turn, ...]:
    """The searches' answer as turns, ``remainders[i]`` the remainder of the ``i``-th (none:
    every one empty). Built through the slot descriptors, skipping the frozen ``__setattr__``
    (about three times as fast): a search can answer thousands."""
    turns: list[Turn] = []
    append = turns.append
    for index, (played, position) in enumerate(found):
        turn = _new(Turn)
        _set_played(turn, played)
        _set_position(turn, position)
        _set_remainder(turn, remainders[index] if remainders is not None else ())
        append(turn)
    return tuple(turns)


_new = object.__new__
_set_played, _set_position, _set_remainder = (
    Turn.__dict__[name].__set__ for name in ("played", "position", "remainder")
)


def steps_text(steps: tuple[Step, ...] | list[Step]) -> str:
    """Writes steps as GNU Backgammon move text; no steps is ``"pass"``.

    A step repeated in a row is written once with its count; the steps keep their playing
    order, so that :func:`parse_steps` gives back a sequence that can be played as written
    (with three dice or a cascade, a step may come again after others).

    >>> steps_text([Step(13, 7), Step(13, 7), Step(6, 0)])
    '13/7(2) 6/off'
    >>> steps_text([Step(13, 9), Step(9, 8), Step(13, 9)])
    '13/9 9/8 13/9'
    """
    if not steps:
        return "pass"
    runs: list[tuple[Step, int]] = []
    for step in steps:
        if runs and runs[-1][0] == step:
            runs[-1] = (step, runs[-1][1] + 1)
        else:
            runs.append((step, 1))
    return " ".join(f"{step}({n})" if n != 1 else str(step) for step, n in runs)


_STEP_RE = re.compile(r"^(bar|\d{1,2})/(off|\d{1,2})(\*?)(?:\((\d{1,2})\))?$")


def parse_steps(text: str) -> tuple[Step, ...]:
    """Parses move text written by :func:`steps_text` (``"pass"`` is no steps).

    :raises: :exc:`IllegalTurnError` if the text is not move text.
    """
    if text.strip() == "pass":
        return ()
    steps: list[Step] = []
    for word in text.split():
        match = _STEP_RE.match(word)
        if not match:
            raise IllegalTurnError(f"{word!r} is not a step like '24/18', '6/off' or 'bar/22*'")
        src_text, dst_text, star, repeat = match.groups()
        src = BAR if src_text == "bar" else int(src_text)
        dst = OFF if dst_text == "off" else int(dst_text)
        if not (1 <= src <= BAR and 0 <= dst <= 24 and dst < src):
            raise IllegalTurnError(f"{word!r} does not move a checker forward")
        steps += [Step(src, dst, hit=bool(star))] * int(repeat or 1)
    return tuple(steps)


_PLAYED_RE = re.compile(r"(\d{1,2})/(\d{1,2})/([1-6])/([01])")


def played_text(played: Iterable[Played]) -> str:
    """Writes steps with their dice as ``src/dst/die/hit`` words, in the mover's numbering
    (0 off, 25 bar; hit 0 or 1); no steps is the empty text.

    >>> played_text([Played(24, 18, 6), Played(3, 0, 5), Played(13, 7, 6, True)])
    '24/18/6/0 3/0/5/0 13/7/6/1'
    """
    return " ".join(f"{p.src}/{p.dst}/{p.die}/{int(p.hit)}" for p in played)


def parse_played(text: str) -> tuple[Played, ...]:
    """Reads what :func:`played_text` writes.

    :raises: :exc:`IllegalTurnError` if a word is not a step with its die, or does not move a
        checker forward.
    """
    steps: list[Played] = []
    for word in text.split():
        match = _PLAYED_RE.fullmatch(word)
        if not match:
            raise IllegalTurnError(f"{word!r} is not a step with its die like '24/18/6/0'")
        src, dst, die, hit = (int(part) for part in match.groups())
        if not (1 <= src <= BAR and 0 <= dst <= 24 and dst < src):
            raise IllegalTurnError(f"{word!r} does not move a checker forward")
        steps.append(Played(src, dst, die, bool(hit)))
    return tuple(steps)


def taps_text(taps: Iterable[tuple[Played, ...]]) -> str:
    """Writes a turn's taps so far, each its steps (:func:`played_text`) ended by ``|``.

    >>> taps_text([(Played(24, 18, 6), Played(18, 13, 5)), (Played(13, 7, 6, True),)])
    '24/18/6/0 18/13/5/0|13/7/6/1|'
    """
    return "".join(played_text(tap) + "|" for tap in taps)


def parse_taps(text: str) -> tuple[tuple[Played, ...], ...]:
    """Reads what :func:`taps_text` writes.

    :raises: :exc:`IllegalTurnError` if a tap is not steps with their dice, or the last one is
        not ended by ``|``.
    """
    if not text.strip():
        return ()
    if not text.rstrip().endswith("|"):
        raise IllegalTurnError(f"each tap is ended by '|': {text!r}")
    return tuple(parse_played(tap) for tap in text.rstrip().split("|")[:-1])
