"""Dice: two values 1..6; a double gives four moves of its value."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import InvalidDiceError


@dataclass(frozen=True, slots=True)
class Dice:
    """One roll of two dice, in the order they were rolled.

    >>> Dice(6, 6).moves
    (6, 6, 6, 6)
    >>> str(Dice(5, 2))
    '5-2'
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        for value in (self.first, self.second):
            if type(value) is not int or not 1 <= value <= 6:
                raise InvalidDiceError(f"a die shows 1..6, not {value!r}")

    @property
    def is_double(self) -> bool:
        """True when both dice show the same value."""
        return self.first == self.second

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves the roll gives: four of the value for a double, else both values."""
        if self.first == self.second:
            return (self.first,) * 4
        return (self.first, self.second)

    @property
    def high(self) -> int:
        """The larger value."""
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        """The smaller value."""
        return min(self.first, self.second)

    @classmethod
    def from_text(cls, text: str) -> Dice:
        """Parses ``"5-2"`` (the form :meth:`__str__` writes).

        :raises: :exc:`InvalidDiceError` if the text is not two dice.
        """
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InvalidDiceError(f"dice are written like '5-2', not {text!r}")
        return cls(int(parts[0]), int(parts[1]))

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


def roll_die(rng: random.Random) -> int:
    """Rolls one die with ``rng`` (pass ``random.SystemRandom()`` in production)."""
    return rng.randint(1, 6)


def roll(rng: random.Random) -> Dice:
    """Rolls two dice with ``rng`` (pass ``random.SystemRandom()`` in production)."""
    return Dice(rng.randint(1, 6), rng.randint(1, 6))
