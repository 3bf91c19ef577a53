"""Dice statistics of a player (``/dice``): doubles, pips and each face's count against what fair
dice give, with Pearson's chi-square and its p-value. Pure arithmetic, standard library only.

What is counted: every die of the player's own rolls in finished games with fair dice. Each face
is counted over all of them (the opening roll's single die, two dice, three dice). Doubles and
pips are counted over the rolls of two dice only, where their expectations are the familiar
ones: a double one roll in six, 49/6 = 8.17 pips a roll with a double counting four times its
value (crazy gul-bara's cascades leave the pips of the roll alone).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from bot.model import PlayerRolls

FACES: Final = 6
DEGREES_OF_FREEDOM: Final = FACES - 1
MIN_DICE: Final = 30
"""Below this the chi-square figure is not given: each face should be expected at least five
times for the statistic to follow its distribution (the usual rule)."""
FAIR_DOUBLES: Final = 1 / 6
FAIR_PIPS: Final = 49 / 6
"""A roll of two dice's pips on average: 7 for the 30 non-doubles, 4d for the double d-d."""


def chi_square_survival(statistic: float, freedom: int) -> float:
    """The probability that a chi-square variable with ``freedom`` degrees of freedom is at
    least ``statistic``: the regularized upper incomplete gamma function Q(k/2, x/2), exact for
    whole ``freedom`` by the recurrence Q(a + 1, x) = Q(a, x) + x^a e^-x / Γ(a + 1) from
    Q(1/2, x) = erfc(√x) or Q(1, x) = e^-x.

    >>> round(chi_square_survival(11.0705, 5), 4), round(chi_square_survival(0.0, 5), 4)
    (0.05, 1.0)

    :raises: :exc:`ValueError` for a negative statistic or fewer than one degree.
    """
    if freedom < 1 or statistic < 0:
        raise ValueError(f"no chi-square of {statistic} with {freedom} degrees of freedom")
    x = statistic / 2
    if freedom % 2:
        a, q = 0.5, math.erfc(math.sqrt(x))
    else:
        a, q = 1.0, math.exp(-x)
    while a < freedom / 2:
        if x > 0:
            q += math.exp(a * math.log(x) - x - math.lgamma(a + 1))
        a += 1
    return min(q, 1.0)


@dataclass(frozen=True, slots=True)
class DiceStats:
    """One player's dice (see the module docstring)."""

    games: int
    faces: tuple[int, ...]
    """How many of the player's dice showed 1, 2 … 6."""
    rolls: int
    """Rolls of two dice."""
    doubles: int
    pips: int
    """The pips of those rolls, a double four times its value."""

    @property
    def dice(self) -> int:
        """Every die counted in :attr:`faces`."""
        return sum(self.faces)

    @property
    def expected(self) -> float:
        """Each face's expected count with fair dice."""
        return self.dice / FACES

    @property
    def chi_square(self) -> float | None:
        """Pearson's statistic of the faces against fair dice (None below :data:`MIN_DICE`)."""
        if self.dice < MIN_DICE:
            return None
        expected = self.expected
        return sum((count - expected) ** 2 / expected for count in self.faces)

    @property
    def p_value(self) -> float | None:
        """How often fair dice would give faces at least this uneven (None below
        :data:`MIN_DICE`)."""
        statistic = self.chi_square
        return None if statistic is None else chi_square_survival(statistic, DEGREES_OF_FREEDOM)

    @property
    def doubles_share(self) -> float | None:
        return self.doubles / self.rolls if self.rolls else None

    @property
    def average_pips(self) -> float | None:
        return self.pips / self.rolls if self.rolls else None


def dice_stats(games: int, rolls: Iterable[tuple[int, ...]]) -> DiceStats:
    """The statistics of a player's ``rolls`` (each one's dice) over ``games`` games."""
    return of_counts(PlayerRolls.counted(rolls, games))


def of_counts(counted: PlayerRolls) -> DiceStats:
    """The statistics of a player's dice as the store counts them."""
    return DiceStats(counted.games, counted.faces, counted.rolls, counted.doubles, counted.pips)
