"""A game's text form: one line with everything a :class:`~bot.engine.game.Game` holds.

:meth:`Game.to_text <bot.engine.game.Game.to_text>` writes it (:func:`game_text`) and
:meth:`Game.from_text <bot.engine.game.Game.from_text>` reads it back, equal (:func:`parse_game`):
the bot stores a game as this line, and a person can read it, or write one to set up a test.
The position, then :data:`ITEMS` in their order, separated by ``|``; the format, item by item,
is :func:`game_text`'s. Reading is strict about the order and the values, lenient about spaces;
what it refuses raises :exc:`NotationError`, naming the item. :func:`opening_text` and
:func:`parse_opening` write and read an opening roll.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Final, Protocol, TypedDict, TypeVar

from .cube import Cube
from .dice import Dice, DiceMode, moves_text, parse_moves
from .errors import NardyError
from .position import Position
from .result import Result
from .rules import Outcome, RuleSet, find_variant, resolve_rules
from .types import Side


class NotationError(NardyError, ValueError):
    """Raised for text that is not a game in the engine's text form (or an opening roll)."""


SEPARATOR: Final = " | "
"""What stands between two items of a game's text (a position's text has no ``|``)."""
ITEMS: Final = (
    "rules",
    "mode",
    "ply",
    "moved",
    "opening",
    "dice",
    "struck",
    "remainder",
    "chain",
    "cube",
    "result",
)
"""The items after the position, in the order they are written."""
_REQUIRED: Final = frozenset({"rules", "ply"})
_NUMBER: Final = re.compile(r"0|[1-9][0-9]*")
_DIE: Final = re.compile(r"[1-6]")
_OPENING: Final = re.compile(r"([1-6])-([1-6])")
_MOVED: Final = {"w": (Side.WHITE,), "b": (Side.BLACK,), "wb": (Side.WHITE, Side.BLACK)}
_SIDE_ORDER: Final = (Side.WHITE, Side.BLACK)
_FIXED_RULE_FIELDS: Final = frozenset({"name", "three_dice"})
"""Rule set fields never written as ``field=value``: the name is the preset's, and
``three_dice`` follows the dice mode (:class:`~bot.engine.game.Game` sets it)."""


def opening_text(opening: tuple[int, int]) -> str:
    """Writes an opening roll, white's die first: ``5-2``.

    >>> opening_text((5, 2))
    '5-2'
    """
    return f"{opening[0]}-{opening[1]}"


def parse_opening(text: str) -> tuple[int, int]:
    """Reads what :func:`opening_text` writes.

    :raises: :exc:`NotationError` if ``text`` is not two dice, white's and black's.
    """
    found = _OPENING.fullmatch(text.strip())
    if found is None:
        raise NotationError(
            f"an opening roll is written like '5-2' (white's die, black's), not {text!r}"
        )
    return int(found.group(1)), int(found.group(2))


class GameState(Protocol):
    """What a game's text holds: every field of a :class:`~bot.engine.game.Game`. The codec
    reads these and gives them back (:class:`GameFields`), and :class:`Game` builds itself from
    them, so that this module needs nothing of the class (which calls it)."""

    @property
    def variant(self) -> str: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def position(self) -> Position: ...
    @property
    def dice(self) -> Dice | None: ...
    @property
    def moved(self) -> frozenset[Side]: ...
    @property
    def ply(self) -> int: ...
    @property
    def result(self) -> Result | None: ...
    @property
    def opening(self) -> tuple[int, int] | None: ...
    @property
    def cube(self) -> Cube | None: ...
    @property
    def dice_mode(self) -> DiceMode: ...
    @property
    def remainder(self) -> tuple[int, ...]: ...
    @property
    def chain(self) -> int: ...
    @property
    def struck(self) -> int | None: ...


class GameFields(TypedDict):
    """A game's fields as :func:`parse_game` reads them: ``Game(**fields)``."""

    variant: str
    rules: RuleSet
    position: Position
    dice: Dice | None
    moved: frozenset[Side]
    ply: int
    result: Result | None
    opening: tuple[int, int] | None
    cube: Cube | None
    dice_mode: DiceMode
    remainder: tuple[int, ...]
    chain: int
    struck: int | None


def game_text(game: GameState) -> str:
    """Writes ``game`` as its one line. Black's first turn played, white to play 3-4; an anti
    three dice game with the cube, white to play 1-5 after black struck a 5; a finished game
    (each is one line, broken here to fit)::

        long w / 24:15 / 24:14 15:1 | rules classic | ply 1 | moved b | opening 1-3 | dice 3-4

        short w / 24:1 22:1 13:3 10:1 8:2 6:4 5:1 4:1 3:1 / 23:1 18:1 13:5 7:1 6:5 4:1 2:1
            | rules standard | mode anti_three | ply 6 | moved wb | opening 3-2 | dice 1-5
            | struck 5 | cube 2 b

        long b / 3:1 2:3 1:10 off:1 / off:15 | rules sheshbesh | ply 87 | moved wb
            | opening 2-5 | result b oin 1

    Items separated by ``|``, in this order; the position, the rule set and the ply always, the
    others only when the game has them (a default is left out):

    ``<position>``
        :meth:`Position.to_text <bot.engine.position.Position.to_text>`: the variant (the
        game's), the side to move and every checker.
    ``rules <name>[ <field>=<value> ...]``
        The rule set: a preset of the variant by name, then each field that differs from the
        preset (``true``/``false``, a number, ``none``), as a rule set made with switches (the
        CLI's ``rules`` object) has: ``rules classic karzar_block=true``. ``three_dice`` is
        never written: it follows the dice mode.
    ``mode three`` / ``mode anti_three``
        The dice mode (``two`` is left out).
    ``ply 12``
        The turns played.
    ``moved w`` / ``b`` / ``wb``
        The sides that have played a roll of their own (long nardy's head exception).
    ``opening 5-2``
        The opening roll: white's die, black's (:func:`opening_text`; the moves file writes it
        so).
    ``dice 5-2`` / ``dice 5-2-3``
        The roll to play (:class:`~bot.engine.dice.Dice`; three dice in ``anti_three`` are a
        roll waiting for its strike).
    ``struck 5``
        ``anti_three``: the die the opponent struck from this roll.
    ``remainder 5,6,6``
        Gul-bara: the moves handed to the side to move (:func:`~bot.engine.dice.moves_text`).
    ``chain 1``
        Gul-bara: the rolls again this turn after a double played in full.
    ``cube 1`` / ``cube 2 b`` / ``cube 4 w offered``
        The doubling cube: its value, its owner (none while centred) and an open offer; no
        ``cube`` item for a game without one.
    ``result w mars 2``
        The winner, the outcome (:class:`~bot.engine.rules.Outcome`'s value) and the points.

    :raises: :exc:`NotationError` for a game no text can hold: a rule set that is no preset of
        its variant (nor one changed from a preset), or a position of another variant.
    """
    if game.position.variant != game.variant:
        raise NotationError(f"a {game.variant} game with a {game.position.variant} position")
    items = [game.position.to_text(), "rules " + _rules_text(game.variant, game.rules)]
    if game.dice_mode is not DiceMode.TWO:
        items.append(f"mode {game.dice_mode.value}")
    items.append(f"ply {game.ply}")
    if game.moved:
        items.append("moved " + "".join(side.value for side in _SIDE_ORDER if side in game.moved))
    if game.opening is not None:
        items.append("opening " + opening_text(game.opening))
    if game.dice is not None:
        items.append(f"dice {game.dice}")
    if game.struck is not None:
        items.append(f"struck {game.struck}")
    if game.remainder:
        items.append("remainder " + moves_text(game.remainder))
    if game.chain:
        items.append(f"chain {game.chain}")
    if game.cube is not None:
        items.append("cube " + _cube_text(game.cube))
    if game.result is not None:
        result = game.result
        items.append(f"result {result.winner.value} {result.outcome.value} {result.points}")
    return SEPARATOR.join(items)


def parse_game(text: str) -> GameFields:
    """Reads what :func:`game_text` writes: the game's fields.

    :raises: :exc:`NotationError` if ``text`` is not a game's text (whether the fields make a
        game that can be is :class:`~bot.engine.game.Game`'s to say).
    """
    head, *rest = (item.strip() for item in text.split("|"))
    try:
        position = Position.from_text(head)
    except NardyError as error:
        raise NotationError(f"the game's text begins with its position: {error}") from None
    variant = position.variant
    values: dict[str, str] = {}
    last = -1
    for item in rest:
        key, _, value = item.partition(" ")
        if key not in ITEMS:
            raise NotationError(f"unknown item {item!r} (known: {', '.join(ITEMS)})")
        index = ITEMS.index(key)
        if index <= last:
            raise NotationError(f"{key!r} {'again' if key in values else 'out of order'}: {item!r}")
        last = index
        values[key] = value.strip()
    missing = [key for key in ITEMS if key in _REQUIRED and key not in values]
    if missing:
        raise NotationError(f"no {' or '.join(map(repr, missing))} in the game's text {text!r}")
    rules = _item(values, "rules", lambda v: _parse_rules(variant, v), None)
    assert rules is not None  # required, above
    return GameFields(
        variant=variant,
        rules=rules,
        position=position,
        dice=_item(values, "dice", Dice.from_text, None),
        moved=_item(values, "moved", _parse_moved, frozenset()),
        ply=_item(values, "ply", _number, 0),
        result=_item(values, "result", _parse_result, None),
        opening=_item(values, "opening", parse_opening, None),
        cube=_item(values, "cube", lambda v: _parse_cube(variant, v), None),
        dice_mode=_item(values, "mode", DiceMode, DiceMode.TWO),
        remainder=_item(values, "remainder", parse_moves, ()),
        chain=_item(values, "chain", _number, 0),
        struck=_item(values, "struck", _die, None),
    )


_T = TypeVar("_T")
_D = TypeVar("_D")


def _item(values: dict[str, str], key: str, parse: Callable[[str], _T], default: _D) -> _T | _D:
    """The value of item ``key``, or ``default`` when the text has none."""
    if key not in values:
        return default
    try:
        return parse(values[key])
    except (NardyError, ValueError) as error:
        raise NotationError(f"{key} {values[key]!r}: {error}") from None


def _parse_result(text: str) -> Result:
    words = text.split()
    if len(words) != 3:
        raise NotationError("a result is written '<w|b> <outcome> <points>'")
    winner, outcome, points = words
    return Result(_side(winner), Outcome(outcome), _number(points))


def _rules_text(variant: str, rules: RuleSet) -> str:
    found = find_variant(variant)
    preset = found.rule_sets.get(rules.name)
    if preset is None:
        raise NotationError(
            f"rule set {rules.name!r} is not one of {variant}'s presets "
            f"(known: {', '.join(found.rule_sets)})"
        )
    words = [rules.name]
    for field in fields(RuleSet):
        if field.name in _FIXED_RULE_FIELDS:
            continue
        value = getattr(rules, field.name)
        if value != getattr(preset, field.name) or type(value) is not type(
            getattr(preset, field.name)
        ):
            words.append(f"{field.name}={_rule_value_text(value)}")
    return " ".join(words)


def _rule_value_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_rules(variant: str, text: str) -> RuleSet:
    name, *changes = text.split() or [""]
    rules = resolve_rules(variant, name)
    kinds = {f.name: str(f.type) for f in fields(RuleSet) if f.name not in _FIXED_RULE_FIELDS}
    values: dict[str, bool | int | None] = {}
    for change in changes:
        field, equals, value = change.partition("=")
        if not equals or field not in kinds:
            raise NotationError(
                f"a rule set's change is written '<field>=<value>' with a field of "
                f"{', '.join(kinds)}, not {change!r}"
            )
        if field in values:
            raise NotationError(f"{field!r} is changed twice")
        values[field] = _rule_value(kinds[field], value)
    return replace(rules, **values) if values else rules  # type: ignore[arg-type]


def _rule_value(kind: str, text: str) -> bool | int | None:
    if kind == "bool":
        if text not in ("true", "false"):
            raise NotationError(f"a switch is true or false, not {text!r}")
        return text == "true"
    if text == "none" and "None" in kind:
        return None
    return _number(text)


def _cube_text(cube: Cube) -> str:
    words = [str(cube.value)]
    if cube.owner is not None:
        words.append(cube.owner.value)
    if cube.offered:
        words.append("offered")
    return " ".join(words)


def _parse_cube(variant: str, text: str) -> Cube:
    if not find_variant(variant).has_cube:
        raise NotationError(f"{variant} is played without the doubling cube")
    value, *rest = text.split() or [""]
    offered = bool(rest) and rest[-1] == "offered"
    if offered:
        rest = rest[:-1]
    if len(rest) > 1:
        raise NotationError("a cube is written '<value> [w|b] [offered]'")
    return Cube(_number(value), _side(rest[0]) if rest else None, offered)


def _parse_moved(text: str) -> frozenset[Side]:
    sides = _MOVED.get(text)
    if sides is None:
        raise NotationError("the sides that have moved are written 'w', 'b' or 'wb'")
    return frozenset(sides)


def _side(text: str) -> Side:
    if text not in ("w", "b"):
        raise NotationError(f"a side is 'w' or 'b', not {text!r}")
    return Side(text)


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise NotationError(f"{text!r} is not a number")
    return int(text)


def _die(text: str) -> int:
    if not _DIE.fullmatch(text):
        raise NotationError(f"a die shows 1..6, not {text!r}")
    return int(text)
