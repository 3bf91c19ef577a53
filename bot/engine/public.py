"""The engine's public names: what ``bot.engine`` offers (its ``__init__`` hands them out on
first use, see there). Code outside the engine imports them from ``bot.engine``."""

from __future__ import annotations

from .cube import MAX_CUBE, Cube, CubeError, Match
from .dice import Dice, DiceMode, DiceSource, MoveList, moves_text, parse_moves, roll, roll_die
from .errors import (
    GameOverError,
    IllegalTurnError,
    InvalidDiceError,
    InvalidPositionError,
    NardyError,
)
from .fair import FairDice, FairDiceError, Roll, commitment, derive_die
from .game import Game
from .moves import (
    Played,
    Step,
    Turn,
    parse_played,
    parse_steps,
    parse_taps,
    played_text,
    steps_text,
    taps_text,
)
from .notation import NotationError, opening_text, parse_opening
from .position import Position, opponent_point
from .position_id import LENGTH as POSITION_ID_LENGTH
from .record import RecordError, TurnRecord
from .result import Result, score
from .rules import (
    REGISTRY,
    Outcome,
    RuleSet,
    UnknownRuleError,
    Variant,
    cascade,
    find_variant,
    legal_turns,
    remainder_turns,
    resolve_rules,
    turns_for,
)
from .rules.plan import TurnPlan
from .stakes import StakeMode, chips_due
from .stepwise import TurnInput
from .types import BAR, CHECKERS, OFF, VARIANTS, Family, Point, Side

__all__ = [
    "BAR",
    "CHECKERS",
    "MAX_CUBE",
    "OFF",
    "POSITION_ID_LENGTH",
    "REGISTRY",
    "VARIANTS",
    "Cube",
    "CubeError",
    "Dice",
    "DiceMode",
    "DiceSource",
    "FairDice",
    "Family",
    "FairDiceError",
    "Game",
    "GameOverError",
    "IllegalTurnError",
    "InvalidDiceError",
    "InvalidPositionError",
    "Match",
    "MoveList",
    "NardyError",
    "NotationError",
    "Outcome",
    "Played",
    "Point",
    "Position",
    "RecordError",
    "Result",
    "Roll",
    "RuleSet",
    "Side",
    "StakeMode",
    "Step",
    "Turn",
    "TurnInput",
    "TurnPlan",
    "TurnRecord",
    "UnknownRuleError",
    "Variant",
    "cascade",
    "chips_due",
    "commitment",
    "derive_die",
    "find_variant",
    "legal_turns",
    "moves_text",
    "opening_text",
    "opponent_point",
    "parse_moves",
    "parse_opening",
    "parse_played",
    "parse_steps",
    "parse_taps",
    "played_text",
    "remainder_turns",
    "resolve_rules",
    "roll",
    "roll_die",
    "score",
    "starting_position",
    "steps_text",
    "taps_text",
    "turns_for",
]


def starting_position(variant: str = "long") -> Position:
    """Returns the starting position of ``variant`` with white to move."""
    return find_variant(variant).starting_position()
