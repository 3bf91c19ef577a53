"""History lines: one line of text per turn played, for game records and moves files.

A line says who played, what it played (a roll, a roll after a strike, a gul-bara chain roll, or
a remainder handed over), the steps in move notation, the moves it left to the opponent, and a
note (the bot writes ``pass`` and ``forced``)::

    w 5-2 13/8 6/4                      a roll of two dice
    b 6-5-1 13/7 7/2 6/5                three dice
    w 6-3 x5 13/7 8/5                   anti three dice: 6-3 played, the opponent struck a 5
    w 4-4 24/20(2) 20/15 15/10 left 5,6,6    crazy gul-bara: a cascade not played in full
    b remainder 5,6,6 13/8 8/2          the opponent's remainder played (what it cannot is lost)
    w 6-6 24/18 18/12 12/6 6/off        gul-bara: a double played in full ...
    w chain 3-1 18/15 15/14             ... and the roll after it
    w 6-5 left 6,5 pass                 gul-bara: no move, the whole roll passes over

``<side> [chain] (<dice> [x<die>] | remainder <moves>) [<steps>] [left <moves>] [<note>]``,
where dice are written ``5-2`` or ``5-2-3`` and a list of moves ``5,6,6``. The form is
:class:`TurnRecord`'s; :meth:`TurnRecord.from_text` reads back what :meth:`TurnRecord.to_text`
writes, and :meth:`bot.engine.game.Game.record` makes the record of a turn about to be played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .dice import Dice, moves_text, parse_moves
from .errors import InvalidDiceError, NardyError
from .moves import Step, parse_steps, steps_text
from .types import Side

_DICE_RE: Final = re.compile(r"^[1-6]-[1-6](-[1-6])?$")
_STRUCK_RE: Final = re.compile(r"^x([1-6])$")
_STEP_RE: Final = re.compile(r"^(bar|\d{1,2})/(off|\d{1,2})\*?(\(\d{1,2}\))?$")
_NOTE_RE: Final = re.compile(r"^[a-z][a-z_]*$")
_KEYWORDS: Final = frozenset({"chain", "remainder", "left"})


class RecordError(NardyError, ValueError):
    """Raised for text that is not a history line."""


def _moves(text: str) -> tuple[int, ...]:
    try:
        return parse_moves(text)
    except InvalidDiceError as error:
        raise RecordError(str(error)) from None


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn as a history line (see the module docstring).

    :param side: who played.
    :param dice: the roll played: two or three dice (after a strike, the two left); ``None``
        for a remainder turn.
    :param struck: ``anti_three``: the value the opponent struck from the three dice rolled.
    :param chain: gul-bara: a roll made again after a double played in full.
    :param remainder: a remainder turn: the moves handed over, which this side played (as far
        as it could).
    :param steps: the steps played, in order.
    :param left: the moves the turn did not play and handed to the opponent (gul-bara).
    :param note: one lower-case word, e.g. ``pass`` or ``forced``; empty for none.
    """

    side: Side
    dice: Dice | None = None
    struck: int | None = None
    chain: bool = False
    remainder: tuple[int, ...] = ()
    steps: tuple[Step, ...] = ()
    left: tuple[int, ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        if (self.dice is None) == (not self.remainder):
            raise RecordError("a history line has dice or a remainder, one of them")
        if self.remainder and (self.struck is not None or self.chain):
            raise RecordError("a remainder turn has no strike and is no chain roll")
        if self.struck is not None and not (type(self.struck) is int and 1 <= self.struck <= 6):
            raise RecordError(f"a struck die shows 1..6, not {self.struck!r}")
        if self.note and (not _NOTE_RE.match(self.note) or self.note in _KEYWORDS):
            raise RecordError(f"a note is one lower-case word, not {self.note!r}")

    def to_text(self) -> str:
        """The history line (see the module docstring)."""
        words = [self.side.value]
        if self.chain:
            words.append("chain")
        if self.dice is not None:
            words.append(str(self.dice))
            if self.struck is not None:
                words.append(f"x{self.struck}")
        else:
            words += ["remainder", moves_text(self.remainder)]
        if self.steps:
            words.append(steps_text(self.steps))
        if self.left:
            words += ["left", moves_text(self.left)]
        if self.note:
            words.append(self.note)
        return " ".join(words)

    @classmethod
    def from_text(cls, text: str) -> TurnRecord:
        """Reads a history line written by :meth:`to_text` (or by the bot before these forms
        existed: ``w 5-2 13/8 6/4 forced``).

        :raises: :exc:`RecordError` if the text is not a history line.
        """
        words = text.split()
        if not words or words[0] not in ("w", "b"):
            raise RecordError(f"a history line starts with w or b: {text!r}")
        side = Side(words[0])
        rest = words[1:]
        chain = bool(rest) and rest[0] == "chain"
        if chain:
            rest = rest[1:]
        dice: Dice | None = None
        struck: int | None = None
        remainder: tuple[int, ...] = ()
        if rest and rest[0] == "remainder" and len(rest) > 1:
            remainder = _moves(rest[1])
            rest = rest[2:]
        elif rest and _DICE_RE.match(rest[0]):
            dice = Dice.from_text(rest[0])
            rest = rest[1:]
            found = _STRUCK_RE.match(rest[0]) if rest else None
            if found:
                struck = int(found.group(1))
                rest = rest[1:]
        else:
            raise RecordError(f"no dice or remainder in the history line {text!r}")
        count = 0
        while count < len(rest) and _STEP_RE.match(rest[count]):
            count += 1
        try:
            steps = parse_steps(" ".join(rest[:count])) if count else ()
        except NardyError as error:
            raise RecordError(f"{error} in the history line {text!r}") from None
        rest = rest[count:]
        left: tuple[int, ...] = ()
        if rest and rest[0] == "left" and len(rest) > 1:
            left = _moves(rest[1])
            rest = rest[2:]
        if len(rest) > 1:
            raise RecordError(f"unexpected {' '.join(rest)!r} in the history line {text!r}")
        note = rest[0] if rest else ""
        return cls(side, dice, struck, chain, remainder, steps, left, note)

    def __str__(self) -> str:
        return self.to_text()
