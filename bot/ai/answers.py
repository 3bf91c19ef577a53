"""What the computer answers, as plain values: picklable across the process pool, and readable
by the bot's own process without numpy."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.engine import Turn


@dataclass(frozen=True, slots=True)
class Ranked:
    """A roll's turns with the mover's equity after each, best first."""

    turns: tuple[Turn, ...]
    equities: tuple[float, ...]


class Action(enum.Enum):
    """What the computer does when a game waits for it."""

    PLAY = "play"  # play ``turn`` (None: pass)
    ROLL = "roll"  # roll rather than double
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    STRIKE = "strike"  # strike the die showing ``value`` (anti three dice)


@dataclass(frozen=True, slots=True)
class Decision:
    """The computer's answer for a game that waits for it."""

    action: Action
    turn: Turn | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """The best turns for a roll by the strongest level, best first, with their equities;
    :meth:`loss` says how much worse another turn is."""

    ranked: Ranked

    @property
    def best(self) -> Turn | None:
        return self.ranked.turns[0] if self.ranked.turns else None

    def loss(self, turn: Turn) -> float | None:
        """The equity ``turn`` gives away against the best (None if it is not a turn of the
        roll). Turns the look-ahead did not reach are judged at 0-ply."""
        for other, value in zip(self.ranked.turns, self.ranked.equities, strict=True):
            if other.position == turn.position and other.remainder == turn.remainder:
                return max(0.0, self.ranked.equities[0] - value)
        return None
