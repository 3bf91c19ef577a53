"""How a game ended: the winner, the outcome and the points it scores, and how a bear-off is
scored (:func:`score`). Its own module, below :mod:`.game` and :mod:`.notation`, which both build
it."""

from __future__ import annotations

from dataclasses import dataclass

from .position import Position
from .rules import Outcome, RuleSet
from .types import CHECKERS, FAMILY, Family, Side

HOME = range(1, 7)


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winner, the outcome and the points it scores (times the stake)."""

    winner: Side
    outcome: Outcome
    points: int

    def __str__(self) -> str:
        return f"{self.winner} wins: {self.outcome.value} x{self.points}"


def score(variant: str, rules: RuleSet, position: Position, winner: Side, cube: int = 1) -> Result:
    """Returns the result when ``winner`` has borne off its last checker in ``position``, its
    points multiplied by the ``cube``'s value.

    Long nardy (and gul-bara): oin if the loser has borne off a checker; else home mars where
    the rule set counts it and all the loser's checkers are home; else koks where counted and a
    loser's checker is still on its head (24); else mars. Short and Abkhaz nardy [003]: oin;
    koks if the loser has borne off none and has a checker on the bar or in the winner's home
    (the loser's 19..24); else mars.
    """
    loser = position.checkers(winner.other)
    if loser[0]:
        outcome = Outcome.OIN
    elif FAMILY[variant] is Family.LONG:
        if rules.home_mars is not None and sum(loser[p] for p in HOME) == CHECKERS:
            outcome = Outcome.HOME_MARS
        elif rules.koks is not None and loser[24]:
            outcome = Outcome.KOKS
        else:
            outcome = Outcome.MARS
    elif rules.koks is not None and (loser[25] or any(loser[19:25])):
        outcome = Outcome.KOKS
    else:
        outcome = Outcome.MARS
    return Result(winner, outcome, rules.points(outcome) * cube)
