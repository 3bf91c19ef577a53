"""The doubling cube (куб Даве) [003] and a match to N points with the Crawford rule.

Cube: before rolling, the side to move may offer to double when the cube is centred or its own.
The opponent takes (the value doubles and the taker owns the cube, so only it may redouble) or
drops (and loses the game at the value before the offer). The value multiplies the points of
the game's result. The cube is not offered before the game's first roll: the opening roll is
played at once, as in backgammon.

Match: games are played until a side has ``length`` points. Each game adds the points of its
result (the rule set's table times the cube). Crawford rule: the first game after a side reaches
``length - 1`` is played without the cube; later games have it again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from .errors import NardyError
from .types import Side

MAX_CUBE: Final = 64
"""The highest value on the cube: a cube at 64 cannot be doubled again."""


class CubeError(NardyError, ValueError):
    """Raised for a cube action that is not allowed now."""


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube: its value, its owner (``None`` while centred) and whether the side to move has
    just offered to double (the opponent must then take or drop)."""

    value: int = 1
    owner: Side | None = None
    offered: bool = False

    def __post_init__(self) -> None:
        if self.value < 1 or self.value > MAX_CUBE or self.value & (self.value - 1):
            raise CubeError(f"a cube shows 1, 2, 4, ..., {MAX_CUBE}, not {self.value}")

    def may_double(self, side: Side) -> bool:
        """True if ``side`` may offer to double now (the cube centred or its own, no offer open,
        below the top value)."""
        return not self.offered and self.value < MAX_CUBE and self.owner in (None, side)

    def offer(self, side: Side) -> Cube:
        """The cube with ``side``'s offer open."""
        if not self.may_double(side):
            raise CubeError(f"{side} may not double a cube of {self.value} owned by {self.owner}")
        return replace(self, offered=True)

    def take(self, taker: Side) -> Cube:
        """The cube after ``taker`` accepts the open offer: doubled, owned by the taker."""
        if not self.offered:
            raise CubeError("no double has been offered")
        return Cube(self.value * 2, taker)


@dataclass(frozen=True, slots=True)
class Match:
    """A match to ``length`` points: the score and where the Crawford rule stands.

    ``crawford`` is true while the next (or current) game is the Crawford game: the first one
    after a side reached ``length - 1``. ``crawford_played`` is true once it has been played.
    """

    length: int
    white: int = 0
    black: int = 0
    crawford: bool = False
    crawford_played: bool = False

    def __post_init__(self) -> None:
        if self.length < 1:
            raise ValueError(f"a match is played to 1 point or more, not {self.length}")

    def score(self, side: Side) -> int:
        """The points ``side`` has."""
        return self.white if side is Side.WHITE else self.black

    @property
    def winner(self) -> Side | None:
        """The side that has reached the length, if any."""
        if self.white >= self.length:
            return Side.WHITE
        if self.black >= self.length:
            return Side.BLACK
        return None

    @property
    def is_over(self) -> bool:
        """True once a side has won the match."""
        return self.winner is not None

    @property
    def cube_allowed(self) -> bool:
        """True if the next game may use the cube (it is not the Crawford game)."""
        return not self.crawford

    def after_game(self, winner: Side, points: int) -> Match:
        """The match after a game that ``winner`` won for ``points``.

        :raises: :exc:`ValueError` if the match is already over or ``points`` is not positive.
        """
        if self.is_over:
            raise ValueError("the match is over")
        if points < 1:
            raise ValueError(f"a game scores at least 1 point, not {points}")
        white = self.white + (points if winner is Side.WHITE else 0)
        black = self.black + (points if winner is Side.BLACK else 0)
        played = self.crawford_played or self.crawford
        crawford = (
            not played
            and max(white, black) == self.length - 1
            and min(white, black) < self.length - 1
        )
        return Match(self.length, white, black, crawford, played)
