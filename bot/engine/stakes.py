"""What a game's loser pays in chips: the stake times the result's multiplier.

Three modes [000, 003]:

- ``rules``: the rule set's own table, the same numbers as the game's points (Шеш Беш: oin 1,
  mars 2, koks 3, home mars 4, resignation and timeout 4);
- ``amateur`` [003]: oin 0.5, mars 1, no koks (a koks pays as a mars);
- ``pro`` [003]: oin 1, mars 2, koks 3.

The amateur and PRO tables name only oin, mars and koks. The rest is decided here, as the
seeds' platforms score them: a home mars and a resignation or timeout pay as a mars (as the
classic rule set scores them), a dropped double as an oin. The mode prices the outcome the rule
set gives: under the classic rules no koks is counted, so PRO never pays 3 there. Every
multiplier is then times the cube's value, and the amount is rounded down to whole chips.
"""

from __future__ import annotations

import enum
import math
from fractions import Fraction
from typing import Final

from .rules import Outcome, RuleSet


class StakeMode(enum.Enum):
    """Which table turns a result into chips."""

    RULES = "rules"
    AMATEUR = "amateur"
    PRO = "pro"


_TABLES: Final[dict[StakeMode, dict[Outcome, Fraction]]] = {
    StakeMode.AMATEUR: {Outcome.OIN: Fraction(1, 2), Outcome.MARS: Fraction(1)},
    StakeMode.PRO: {Outcome.OIN: Fraction(1), Outcome.MARS: Fraction(2), Outcome.KOKS: Fraction(3)},
}
_AS_OIN: Final = frozenset({Outcome.DROP})


def multiplier(mode: StakeMode, rules: RuleSet, outcome: Outcome) -> Fraction:
    """How many stakes ``outcome`` costs the loser under ``mode`` (before the cube)."""
    if mode is StakeMode.RULES:
        return Fraction(rules.points(outcome))
    table = _TABLES[mode]
    if outcome in table:
        return table[outcome]
    return table[Outcome.OIN] if outcome in _AS_OIN else table[Outcome.MARS]


def chips_due(stake: int, mode: StakeMode, rules: RuleSet, outcome: Outcome, cube: int = 1) -> int:
    """The chips the loser owes: ``stake`` × the multiplier × the cube, rounded down."""
    return math.floor(stake * multiplier(mode, rules, outcome) * cube)
