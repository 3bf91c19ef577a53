"""The pure rules engine of nardy: positions, dice, legal turns, step input, games, records.

Variants: long and short nardy, Abkhaz nardy, gul-bara and crazy gul-bara (see
:mod:`bot.engine.rules`); dice modes two, three and anti three for the short variants.

Positions have two text forms: the notation (:meth:`Position.to_text`, to read) and the
position ID (:meth:`Position.to_id`, 14 characters to share: the variant in 3 bits, the side to
move in 1, each side's checkers per point in unary as in GNU Backgammon's key, in base64url; the
exact format is in :mod:`bot.engine.position_id`). :meth:`Game.setup` starts a game at any
position. A whole game has one text form too, everything in it on one line
(:meth:`Game.to_text`, :meth:`Game.from_text`; the form is in :mod:`bot.engine.notation`), and
so has a turn being input, its steps with their dice (:func:`taps_text`, :func:`parse_taps`).

Standard library only, no I/O, no clock, no global randomness: dice come from an injected
source, a :class:`random.Random` or a game's provably fair :class:`~bot.engine.fair.FairDice`
(:mod:`.fair`; :mod:`.verify` checks them from a moves file). Everything here is an immutable
value, but for the dice sources.
"""

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
from .game import Game, score
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
from .result import Result
from .rules import (
    VARIANTS,
    Outcome,
    RuleSet,
    TurnPlan,
    UnknownRuleError,
    Variant,
    cascade,
    find_variant,
    legal_turns,
    remainder_turns,
    resolve_rules,
    turns_for,
)
from .stakes import StakeMode, chips_due
from .stepwise import TurnInput
from .types import BAR, CHECKERS, OFF, Family, Point, Side

__all__ = [
    "BAR",
    "CHECKERS",
    "MAX_CUBE",
    "OFF",
    "POSITION_ID_LENGTH",
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
