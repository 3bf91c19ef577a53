"""Small closed sets and aliases shared by the whole engine."""

from __future__ import annotations

import enum
from typing import Final, TypeAlias

Point: TypeAlias = int
"""A point in the mover's OWN numbering: 24 is where it starts, 1..6 its home, 0 off, 25 the bar."""

OFF: Final = 0
BAR: Final = 25
CHECKERS: Final = 15
"""Checkers per side."""


class Side(enum.Enum):
    """A colour. White always moves first in the starting position's text, not in play."""

    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Side:
        """The opponent's colour."""
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    def __str__(self) -> str:
        return self.name.lower()
