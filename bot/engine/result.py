"""How a game ended: the winner, the outcome and the points it scores. Its own module, below
:mod:`.game` and :mod:`.notation`, which both build it."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Outcome
from .types import Side


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winner, the outcome and the points it scores (times the stake)."""

    winner: Side
    outcome: Outcome
    points: int

    def __str__(self) -> str:
        return f"{self.winner} wins: {self.outcome.value} x{self.points}"
