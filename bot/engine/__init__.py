"""The pure rules engine of long and short nardy: positions, dice, legal turns, games.

Standard library only, no I/O, no clock, no global randomness: dice come from an injected
:class:`random.Random`. Everything here is an immutable value.
"""

from __future__ import annotations

from .cube import MAX_CUBE, Cube, CubeError, Match
from .dice import Dice, roll, roll_die
from .errors import (
    GameOverError,
    IllegalTurnError,
    InvalidDiceError,
    InvalidPositionError,
    NardyError,
)
from .game import Game, Result, score
from .moves import Played, Step, Turn, parse_steps, steps_text
from .position import Position, opponent_point
from .rules import (
    VARIANTS,
    Outcome,
    RuleSet,
    UnknownRuleError,
    Variant,
    find_variant,
    legal_turns,
    resolve_rules,
)
from .stakes import StakeMode, chips_due
from .stepwise import TurnInput
from .types import BAR, CHECKERS, OFF, Point, Side

__all__ = [
    "BAR",
    "CHECKERS",
    "MAX_CUBE",
    "OFF",
    "VARIANTS",
    "Cube",
    "CubeError",
    "Dice",
    "Game",
    "GameOverError",
    "IllegalTurnError",
    "InvalidDiceError",
    "InvalidPositionError",
    "Match",
    "NardyError",
    "Outcome",
    "Played",
    "Point",
    "Position",
    "Result",
    "RuleSet",
    "Side",
    "StakeMode",
    "Step",
    "Turn",
    "TurnInput",
    "UnknownRuleError",
    "Variant",
    "chips_due",
    "find_variant",
    "legal_turns",
    "opponent_point",
    "parse_steps",
    "resolve_rules",
    "roll",
    "roll_die",
    "score",
    "starting_position",
    "steps_text",
]


def starting_position(variant: str = "long") -> Position:
    """Returns the starting position of ``variant`` with white to move."""
    return find_variant(variant).starting_position()
