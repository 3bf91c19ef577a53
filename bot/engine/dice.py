"""Dice and the moves they give.

A roll is two dice (three in the three-dice modes of the short variants). A double gives four
moves of its value, a triple of three dice six. What a roll gives in a particular variant (the
cascade of crazy gul-bara, say) is a :class:`MoveList`, which the variant makes from the dice
(:meth:`bot.engine.rules.Variant.move_list`); a remainder handed to the opponent in gul-bara is a
:class:`MoveList` too, with no dice behind it.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Protocol

from .errors import InvalidDiceError


def _check_die(value: object) -> None:
    if type(value) is not int or not 1 <= value <= 6:
        raise InvalidDiceError(f"a die shows 1..6, not {value!r}")


@dataclass(frozen=True, slots=True)
class Dice:
    """One roll of two dice (or three, with ``third``), in the order they were rolled.

    >>> Dice(6, 6).moves
    (6, 6, 6, 6)
    >>> str(Dice(5, 2)), str(Dice(5, 2, 2)), Dice(3, 3, 3).moves
    ('5-2', '5-2-2', (3, 3, 3, 3, 3, 3))
    """

    first: int
    second: int
    third: int | None = None

    def __post_init__(self) -> None:
        _check_die(self.first)
        _check_die(self.second)
        if self.third is not None:
            _check_die(self.third)

    @property
    def values(self) -> tuple[int, ...]:
        """The dice as rolled: two values, or three."""
        if self.third is None:
            return (self.first, self.second)
        return (self.first, self.second, self.third)

    @property
    def is_double(self) -> bool:
        """True when every die shows the same value (a double, or a triple of three dice)."""
        return self.first == self.second and self.third in (None, self.first)

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves the roll gives: each die one move; a double gives four moves of its value,
        a triple six. (A pair among three dice is not special: three moves.)"""
        if self.third is None:
            if self.first == self.second:
                return (self.first,) * 4
            return (self.first, self.second)
        if self.is_double:
            return (self.first,) * 6
        return (self.first, self.second, self.third)

    @property
    def high(self) -> int:
        """The largest value."""
        return max(self.values)

    @property
    def low(self) -> int:
        """The smallest value."""
        return min(self.values)

    def without(self, value: int) -> Dice:
        """Returns the two dice left when one die showing ``value`` is struck from three
        (anti three dice), in the order they were rolled.

        >>> Dice(6, 3, 6).without(6)
        Dice(first=3, second=6, third=None)

        :raises: :exc:`InvalidDiceError` if these are not three dice or none shows ``value``.
        """
        values = list(self.values)
        if len(values) != 3 or value not in values:
            raise InvalidDiceError(f"cannot strike a {value!r} from {self}")
        values.remove(value)
        return Dice(values[0], values[1])

    @classmethod
    def from_text(cls, text: str) -> Dice:
        """Parses ``"5-2"`` or ``"5-2-3"`` (the form :meth:`__str__` writes).

        :raises: :exc:`InvalidDiceError` if the text is not two or three dice.
        """
        parts = text.strip().split("-")
        if len(parts) not in (2, 3) or not all(p.isdigit() and len(p) == 1 for p in parts):
            raise InvalidDiceError(f"dice are written like '5-2' or '5-2-3', not {text!r}")
        return cls(*(int(p) for p in parts))

    def __str__(self) -> str:
        return "-".join(str(v) for v in self.values)


_MOVES_RE = re.compile(r"[1-6](,[1-6])*")


def moves_text(values: tuple[int, ...]) -> str:
    """Writes a list of moves (a gul-bara remainder) as ``5,6,6``: the form of history lines
    and of a game's text.

    >>> moves_text((5, 6, 6))
    '5,6,6'
    """
    return ",".join(map(str, values))


def parse_moves(text: str) -> tuple[int, ...]:
    """Reads what :func:`moves_text` writes (at least one move).

    :raises: :exc:`InvalidDiceError` if ``text`` is not moves of 1..6 separated by commas.
    """
    if not _MOVES_RE.fullmatch(text.strip()):
        raise InvalidDiceError(f"moves are written like '5,6,6', not {text!r}")
    return tuple(int(v) for v in text.strip().split(","))


class DiceMode(enum.Enum):
    """How many dice a side rolls in the short variants (rules.md "Dice modes").

    ``TWO``: two dice, as always. ``THREE`` («три кубика»): three dice, all played, a triple
    gives six moves. ``ANTI_THREE`` («анти 3 кубика»): three dice are rolled, the opponent
    strikes one, and the two left are an ordinary roll.
    """

    TWO = "two"
    THREE = "three"
    ANTI_THREE = "anti_three"


@dataclass(frozen=True, slots=True)
class MoveList:
    """The moves one turn may play, as the variant reads a roll, or a remainder.

    :param values: the move values, in the order they come.
    :param ordered: the side plays the longest beginning of the list that it can (crazy
        gul-bara's cascade, a remainder handed over); otherwise the moves may be played in any
        order, as many as possible, the largest dice first when not all can be played.
    :param hands_on: the moves not played are the turn's remainder, which the opponent plays
        (a roll in gul-bara); otherwise they are lost.
    :param double: the list comes from a double (the first-turn head exception reads it).

    >>> MoveList((4, 4, 5, 5, 6, 6), ordered=True, hands_on=True).left_after((4, 4, 5))
    (5, 6, 6)
    >>> MoveList((6, 5), hands_on=True).left_after((6,))
    (5,)
    """

    values: tuple[int, ...]
    ordered: bool = False
    hands_on: bool = False
    double: bool = False

    def __post_init__(self) -> None:
        if type(self.values) is not tuple or not self.values:
            raise InvalidDiceError(f"a move list is a non-empty tuple, not {self.values!r}")
        for value in self.values:
            _check_die(value)

    @classmethod
    def of(cls, dice: Dice, *, hands_on: bool = False) -> MoveList:
        """The plain moves of ``dice`` (:attr:`Dice.moves`), in any order (looked up: every
        search starts here, and each is made once, when first asked for)."""
        made = _HANDS_ON if hands_on else _PLAIN
        found = made.get(dice)
        if found is None:
            found = made[dice] = cls(dice.moves, hands_on=hands_on, double=dice.is_double)
        return found

    @classmethod
    def remainder(cls, values: tuple[int, ...]) -> MoveList:
        """A remainder handed over: played from its beginning, and what is left is lost."""
        return cls(tuple(values), ordered=True)

    def left_after(self, played: tuple[int, ...]) -> tuple[int, ...]:
        """The moves left when the dice ``played`` (in playing order) have been played: the
        rest of the list if it is ordered, else the list without those values.

        :raises: :exc:`InvalidDiceError` if ``played`` are not moves of the list.
        """
        if self.ordered:
            if played != self.values[: len(played)]:
                raise InvalidDiceError(f"{played} is not a beginning of {self.values}")
            return self.values[len(played) :]
        left = list(self.values)
        for value in played:
            if value not in left:
                raise InvalidDiceError(f"{played} are not moves of {self.values}")
            left.remove(value)
        return tuple(left)

    def __str__(self) -> str:
        return moves_text(self.values)


_PLAIN: dict[Dice, MoveList] = {}
_HANDS_ON: dict[Dice, MoveList] = {}
"""The move lists :meth:`MoveList.of` has made, by roll (at most 252 rolls each): filled on
demand, not at import, which the CLI's start-up waits for."""


class DiceSource(Protocol):
    """Where dice come from: a :class:`random.Random` (self-play, tests, benchmarks) or a
    game's :class:`~bot.engine.fair.FairDice`. The engine asks it for one die at a time,
    ``randint(1, 6)``, and for nothing else."""

    def randint(self, a: int, b: int, /) -> int: ...


def roll_die(rng: DiceSource) -> int:
    """Rolls one die with ``rng`` (a game's :class:`~bot.engine.fair.FairDice` in the bot)."""
    return rng.randint(1, 6)


def roll(rng: DiceSource, count: int = 2) -> Dice:
    """Rolls two dice (or three, with ``count=3``) with ``rng`` (a game's
    :class:`~bot.engine.fair.FairDice` in the bot), one die at a time in order."""
    if count == 3:
        return Dice(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    return Dice(rng.randint(1, 6), rng.randint(1, 6))
