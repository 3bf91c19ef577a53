"""The engine's command-line contract (``shared/engine-cli.md``) as plain functions.

``answer_line`` turns one JSON request line into one JSON answer line; ``__main__`` loops over
stdin. Kept apart from ``__main__`` so tests and benchmarks call it without a process.
"""

from __future__ import annotations

import json
from itertools import compress
from typing import TYPE_CHECKING, Any, NamedTuple

from .dice import Dice, DiceMode, MoveList
from .errors import NardyError
from .moves import Turn
from .position import VARIANTS, Position
from .rules import RuleSet, find_variant, legal_turns, resolve_rules, turns_for
from .types import BAR, CHECKERS, OFF, Side

if TYPE_CHECKING:
    from .game import Game

_KEYS = tuple(str(p) for p in range(25))
_POINTS = {str(p): p for p in range(1, 25)}
"""A side's point keys as the contract writes them (``"1"`` … ``"24"``): ``"01"``, ``" 7"`` or
``"²"`` name no point."""
_POINT_TEXT = tuple(tuple(f'"{p}":{n}' for n in range(CHECKERS + 1)) for p in range(25))
"""``_POINT_TEXT[point][count]``: one entry of a side's points as JSON text."""
_STEP_TEXT = tuple(tuple(f"[{src},{dst}]" for dst in range(25)) for src in range(26))
"""``_STEP_TEXT[src][dst]``: a step of an answer's ``moves`` as JSON text."""
_SIDES = {"white": Side.WHITE, "black": Side.BLACK}
_BOARD = range(1, 25)
_BOTH = frozenset(Side)
_PAIR_KEYS = frozenset({"white", "black"})
_NO_PAIR: dict[str, int] = {}
"""An omitted ``bar`` or ``off``: no checkers (read, never written)."""
_HANDS_ON = frozenset({"gulbara", "crazy_gulbara"})
"""The variants whose answers carry a ``remainder`` and that take ``remainder`` requests."""
MAX_REMAINDER = 24
"""The longest remainder a request may hand over: crazy gul-bara's longest cascade (1-1 with
``four_per_value``)."""


class BadRequest(ValueError):
    """A request the contract calls bad input."""


def request(
    position: Position,
    dice: Dice | None,
    *,
    first_turn: bool = False,
    rules: dict[str, bool] | None = None,
    remainder: tuple[int, ...] | None = None,
) -> dict[str, Any]:
    """Returns the request object that asks for the legal turns of ``position`` (the inverse of
    reading one): for ``dice``, or for a gul-bara ``remainder`` (then ``dice`` is None); for
    tools, tests and benchmarks that speak the contract."""
    found: dict[str, Any] = {
        "variant": position.variant,
        "turn": str(position.turn),
        "white": _points(position.white),
        "black": _points(position.black),
        "bar": {"white": position.white[BAR], "black": position.black[BAR]},
        "off": {"white": position.white[OFF], "black": position.black[OFF]},
        "first_turn": first_turn,
    }
    if remainder is not None:
        found["remainder"] = list(remainder)
    else:
        if dice is None:
            raise ValueError("a request has dice or a remainder")
        found["dice"] = list(dice.values)
    if rules:
        found["rules"] = rules
    return found


def answer_line(line: str) -> tuple[str, bool]:
    """Answers one request line; returns the answer line and whether the request was good."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return _error(f"malformed JSON: {error}"), False
    try:
        return _answer_text(*_legal_turns(request)), True
    except (BadRequest, NardyError) as error:
        return _error(str(error)), False


def answer(request: Any) -> dict[str, Any]:
    """Answers one decoded request (see ``engine-cli.md``).

    :raises: :exc:`BadRequest` or an engine :exc:`~bot.engine.errors.NardyError` for bad input.
    """
    turns, with_remainder = _legal_turns(request)
    return {"turns": [_turn(t, with_remainder) for t in turns]}


def _legal_turns(request: Any) -> tuple[tuple[Turn, ...], bool]:
    """Checks a decoded request and returns its legal turns (see :func:`answer`), and whether
    the answer's entries carry a remainder (the gul-bara variants). A gul-bara roll that cannot
    be played at all is one turn with no steps and the whole roll as its remainder; a remainder
    that cannot be played at all is one turn with no steps and nothing left (it is lost)."""
    _, turns, hands_on = _read(request)
    return turns, hands_on


def situation(request: Any) -> tuple[Game, tuple[Turn, ...], bool]:
    """Checks a decoded request and returns the game it describes (the side to move with its
    dice or remainder; both sides have moved before unless ``first_turn``), its legal turns as
    ``turns`` answers them, and whether their entries carry a remainder.

    :raises: :exc:`BadRequest` or an engine :exc:`~bot.engine.errors.NardyError` for bad input.
    """
    # imported here, for ``best``: ``turns`` needs no game, and games (with their records,
    # fair dice and step input) are a third of the engine's import time at the CLI's start
    from .game import Game

    asked, turns, hands_on = _read(request)
    position, rule_set = asked.position, asked.rules
    if asked.dice is None:
        game = Game(position.variant, rule_set, position, moved=_BOTH, remainder=asked.remainder)
    else:
        mode = DiceMode.TWO if asked.dice.third is None else DiceMode.THREE
        moved = frozenset() if asked.first_turn else _BOTH
        game = Game(position.variant, rule_set, position, asked.dice, moved=moved, dice_mode=mode)
    return game, turns, hands_on


class _Asked(NamedTuple):
    """A request as read: what :func:`situation` makes its game of."""

    position: Position
    rules: RuleSet
    dice: Dice | None
    """The roll; None for a remainder request."""
    remainder: tuple[int, ...]
    first_turn: bool


def _read(request: Any) -> tuple[_Asked, tuple[Turn, ...], bool]:
    """Checks a decoded request; returns it as read, its legal turns as ``turns`` answers them
    (see :func:`_legal_turns`), and whether their entries carry a remainder.

    :raises: :exc:`BadRequest` or an engine :exc:`~bot.engine.errors.NardyError` for bad input.
    """
    if not isinstance(request, dict):
        raise BadRequest("a request is a JSON object")
    variant = request.get("variant")
    if variant not in VARIANTS:
        raise BadRequest(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    turn = _SIDES.get(request.get("turn"))  # type: ignore[arg-type]
    if turn is None:
        raise BadRequest(f"turn is 'white' or 'black', not {request.get('turn')!r}")
    first_turn = request.get("first_turn", False)
    if not isinstance(first_turn, bool):
        raise BadRequest(f"first_turn is true or false, not {first_turn!r}")
    rules = request.get("rules") or {}
    if not isinstance(rules, dict):
        raise BadRequest(f"rules is an object of switches, not {rules!r}")
    bar_white, bar_black = _pair(request, "bar")
    off_white, off_black = _pair(request, "off")
    white = _side(request, "white", bar_white, off_white)
    black = _side(request, "black", bar_black, off_black)
    position = Position(variant, turn, white, black)
    # no switches is the default rule set: skip checking an empty set of them
    rule_set = resolve_rules(variant, rules or None)
    hands_on = variant in _HANDS_ON
    remainder = request.get("remainder")
    dice = request.get("dice")
    if remainder is not None:
        if not hands_on:
            raise BadRequest(f"remainder is for gulbara and crazy_gulbara, not {variant}")
        if dice is not None:
            raise BadRequest("a request has dice or a remainder, not both")
        if (
            not isinstance(remainder, list)
            or not 1 <= len(remainder) <= MAX_REMAINDER
            or not all(type(d) is int and 1 <= d <= 6 for d in remainder)
        ):
            raise BadRequest(
                f"remainder is a list of 1..{MAX_REMAINDER} moves 1..6, not {remainder!r}"
            )
        handed = tuple(remainder)
        asked = _Asked(position, rule_set, None, handed, False)
        turns = turns_for(position, MoveList.remainder(handed), first_turn=False, rules=rule_set)
        # nothing of it can be played: one entry, no moves, and what is left is lost
        return asked, turns or (Turn((), position.with_turn(turn.other), ()),), True
    count = 3 if rule_set.three_dice else 2
    if (
        not isinstance(dice, list)
        or len(dice) != count
        or not all(type(d) is int and 1 <= d <= 6 for d in dice)
    ):
        wanted = "three values 1..6 (three_dice)" if count == 3 else "two values 1..6"
        known = find_variant(variant).switches
        if isinstance(dice, list) and len(dice) == 3 and count == 2 and "three_dice" in known:
            wanted += "; three dice need the three_dice switch"
        raise BadRequest(f"dice are {wanted}, not {dice!r}")
    roll = Dice(*dice)
    asked = _Asked(position, rule_set, roll, (), first_turn)
    turns = legal_turns(position, roll, first_turn=first_turn, rules=rule_set)
    if hands_on and not turns:
        whole = find_variant(variant).move_list(roll, rule_set).values
        return asked, (Turn((), position.with_turn(turn.other), whole),), True
    return asked, turns, hands_on


def _error(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)


def _pair(request: dict[str, Any], name: str) -> tuple[int, int]:
    """A ``bar`` or ``off`` object as (white's count, black's); omitted is (0, 0)."""
    value = request.get(name, _NO_PAIR)
    if not isinstance(value, dict) or not value.keys() <= _PAIR_KEYS:
        raise BadRequest(f"{name} is an object {{'white': n, 'black': n}}, not {value!r}")
    white, black = value.get("white", 0), value.get("black", 0)
    for side, count in (("white", white), ("black", black)):
        if type(count) is not int or not 0 <= count <= CHECKERS:
            raise BadRequest(f"{name}.{side} is a count 0..15, not {count!r}")
    return white, black


def _side(request: dict[str, Any], name: str, bar: int, off: int) -> tuple[int, ...]:
    points = request.get(name)
    if not isinstance(points, dict):
        raise BadRequest(f"{name} is an object of point: count, not {points!r}")
    slots = [0] * 26
    for key, count in points.items():
        point = _POINTS.get(key)
        if point is None:
            raise BadRequest(f"{name}: point {key!r} is outside 1..24")
        if type(count) is not int or count < 0:
            raise BadRequest(f"{name}: point {key} has count {count!r}")
        slots[point] = count
    slots[BAR] = bar
    slots[OFF] = off
    total = sum(slots)
    if total != CHECKERS:
        raise BadRequest(f"{name} has {total} checkers (board, bar and off), not {CHECKERS}")
    return tuple(slots)


def _points(slots: tuple[int, ...]) -> dict[str, int]:
    return {_KEYS[p]: slots[p] for p in range(1, 25) if slots[p]}


def entry(turn: Turn, with_remainder: bool) -> dict[str, Any]:
    """One entry of an answer's ``turns`` (see :func:`answer`)."""
    return _turn(turn, with_remainder)


def _turn(turn: Turn, with_remainder: bool) -> dict[str, Any]:
    white, black = turn.position.white, turn.position.black
    entry: dict[str, Any] = {
        "moves": [[p.src, p.dst] for p in turn.played],
        "white": _points(white),
        "black": _points(black),
        "bar": {"white": white[BAR], "black": black[BAR]},
        "off": {"white": white[OFF], "black": black[OFF]},
    }
    if with_remainder:
        entry["remainder"] = list(turn.remainder)
    return entry


def _answer_text(turns: tuple[Turn, ...], with_remainder: bool) -> str:
    """``json.dumps(answer(request), separators=(",", ":"))``, byte for byte, written directly:
    building the dicts and encoding them costs three times as much. A side's checkers are
    written once per request (in long nardy the opponent's side is the same in every turn), a
    step's text is looked up, not formatted, and the loop calls no function of its own (a call
    per side and turn was a tenth of the text's time)."""
    sides: dict[tuple[int, ...], str] = {}
    steps = _STEP_TEXT
    parts = []
    for turn in turns:
        white, black = turn.position.white, turn.position.black
        white_text = sides.get(white)
        if white_text is None:
            white_text = sides[white] = _points_text(white)
        black_text = sides.get(black)
        if black_text is None:
            black_text = sides[black] = _points_text(black)
        moves = ",".join([steps[p.src][p.dst] for p in turn.played])
        end = f',"remainder":[{",".join(map(str, turn.remainder))}]}}' if with_remainder else "}"
        parts.append(
            f'{{"moves":[{moves}],"white":{white_text},"black":{black_text},'
            f'"bar":{{"white":{white[BAR]},"black":{black[BAR]}}},'
            f'"off":{{"white":{white[OFF]},"black":{black[OFF]}}}{end}'
        )
    return '{"turns":[' + ",".join(parts) + "]}"


def _points_text(slots: tuple[int, ...]) -> str:
    """:func:`_points` as JSON text: the occupied points are picked in C (``compress``), and
    their entries are looked up, not formatted."""
    return "{" + ",".join([_POINT_TEXT[p][slots[p]] for p in compress(_BOARD, slots[1:25])]) + "}"
