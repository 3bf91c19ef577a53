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
    public rating on the bot's scale (1500 a new player), from the measured results of each
    level against the one below (``bench/ai.py``)."""

    number: int
    temperature: float
    lookahead: int
    rating: int


LEVELS: Final = (
    Level(1, 0.25, 0, 1200),
    Level(2, 0.12, 0, 1400),
    Level(3, 0.07, 0, 1550),
    Level(4, 0.03, 0, 1700),
    Level(5, 0.0, 6, 1800),
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
