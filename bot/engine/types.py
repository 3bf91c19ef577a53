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


class Family(enum.StrEnum):
    """The board a variant is played on, which its numbering and its scoring follow.

    ``LONG``: both sides go the same way round from heads at opposite corners, no hits, no bar
    (long nardy, gul-bara, crazy gul-bara). ``SHORT``: the sides go towards each other, a
    single checker is hit to the bar (short and Abkhaz nardy). A :class:`~enum.StrEnum`, so a
    family is also its name (``Family.LONG == "long"``), as in the weights files' ``info``.
    """

    LONG = "long"
    SHORT = "short"


VARIANTS: Final = ("long", "short", "abkhaz", "gulbara", "crazy_gulbara")
"""Variant names the position format knows (the rules live in :mod:`bot.engine.rules`); here,
beside the numbering, so that :mod:`.position` and :mod:`.position_id` both read them."""

FAMILY: Final[dict[str, Family]] = {
    "long": Family.LONG,
    "gulbara": Family.LONG,
    "crazy_gulbara": Family.LONG,
    "short": Family.SHORT,
    "abkhaz": Family.SHORT,
}
"""The board each variant is played on (:class:`~bot.engine.types.Family`); the numbering
follows it. The variants' own :attr:`~bot.engine.rules.Variant.family` says the same."""
