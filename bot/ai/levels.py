"""The computer's five levels: how each plays, and its public rating.

Numbers only, no numpy: the bot's own process reads them (challenges, /stats) without loading
the net, which lives in the worker processes (:mod:`bot.services.computer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Level:
    """How one level plays: ``temperature`` of its softmax over equities (0: always the best),
    and how many of 0-ply's best turns it looks a roll ahead at (0: none); ``rating``, its
    public rating on the bot's scale (1500 a new player).

    The ratings follow the measured points share of each level against the one below
    (``bench/ai.py``, paired games, 2026-12-07: short nardy on Open Sage's values, long on the
    net), turned into rating points as Elo does (400 × log10(share / (1 - share))) and
    averaged over long and short nardy, level 3 set at 1500: 2 vs 1 88.4% short, 81.8% long
    (+307); 3 vs 2 76.5%, 75.4% (+200); 4 vs 3 67.2%, 72.9% (+148); 5 vs 4 65.9%, 70.9% (+135)."""

    number: int
    temperature: float
    lookahead: int
    rating: int
    deeper: int = 0
    """How many of the turns 1-ply likes best it looks at two rolls ahead (2-ply, two dice
    only; 0: none)."""
    sage_temperature: float | None = None
    """Its temperature where Open Sage values the game (:mod:`bot.ai.sage`), if not
    :attr:`temperature`: Open Sage's 1-ply errs less than the shipped net, and level 4 at the
    net's temperature stood too close to level 5 there."""

    def temperature_for(self, sage: bool) -> float:
        """Its temperature with Open Sage's values (``sage``) or the shipped net's."""
        if sage and self.sage_temperature is not None:
            return self.sage_temperature
        return self.temperature


LEVELS: Final = (
    Level(1, 0.25, 0, 995),
    Level(2, 0.12, 0, 1300),
    Level(3, 0.07, 0, 1500),
    Level(4, 0.03, 0, 1650, sage_temperature=0.04),
    Level(5, 0.0, 6, 1785, deeper=2),
)
STRONGEST: Final = len(LEVELS)
MAX_LISTED: Final = 6
"""The most moves a roll may give for its turns to be listed and ranked (a triple of three dice
gives six)."""


def level(number: int) -> Level:
    """The level numbered ``number`` (1..5).

    :raises: :exc:`ValueError` for another number.
    """
    if not 1 <= number <= STRONGEST:
        raise ValueError(f"levels are 1 to {STRONGEST}, not {number}")
    return LEVELS[number - 1]
