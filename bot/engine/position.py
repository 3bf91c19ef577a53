"""Positions: both sides' checkers, each in its own numbering, and the side to move.

Text form (one line, canonical, round-trips exactly)::

    long w / 24:14 13:1 / 24:15
    short b / bar:1 13:5 8:3 6:5 1:1 / 24:2 13:5 8:3 6:5

``<variant> <side to move: w|b> / <white's checkers> / <black's checkers>``. Each side lists
``point:count`` in its OWN numbering from high to low, with ``bar:n`` first and ``off:n`` last;
empty points are left out. A side with nothing on the board is just ``off:15``.

The same position in 14 characters, to share: :meth:`Position.to_id` and
:meth:`Position.from_id` (the format is in :mod:`bot.engine.position_id`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .errors import InvalidPositionError
from .position_id import decode, encode
from .types import BAR, CHECKERS, FAMILY, OFF, VARIANTS, Family, Point, Side

__all__ = ["FAMILY", "OPPONENT_POINT", "VARIANTS", "Position", "opponent_point"]

_SLOTS: Final = 26


def opponent_point(variant: str, point: Point) -> Point:
    """Returns the opponent's number for ``point`` of one side's numbering.

    Long nardy and the gul-bara variants: both sides go the same way round, heads opposite, so
    point p is the opponent's ((p + 11) mod 24) + 1. Short and Abkhaz nardy: the sides go towards
    each other, so p is 25 - p. 0 (off) and 25 (bar) are not on the board and map to themselves.
    The map is its own inverse.

    >>> opponent_point("long", 24), opponent_point("gulbara", 12), opponent_point("abkhaz", 24)
    (12, 24, 1)
    """
    if point in (OFF, BAR):
        return point
    if FAMILY.get(variant, variant) == Family.LONG:
        return (point + 11) % 24 + 1
    return 25 - point


def _long_map() -> tuple[int, ...]:
    return tuple(opponent_point("long", p) for p in range(_SLOTS))


def _short_map() -> tuple[int, ...]:
    return tuple(opponent_point("short", p) for p in range(_SLOTS))


OPPONENT_POINT: Final[dict[str, tuple[int, ...]]] = {
    name: _long_map() if family is Family.LONG else _short_map() for name, family in FAMILY.items()
}
"""``OPPONENT_POINT[variant][p]``: :func:`opponent_point` as a lookup table."""


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable position.

    ``white`` and ``black`` have 26 slots each, indexed by the side's OWN point number:
    slot 0 holds the checkers borne off, 1..24 the board, 25 the bar. Every side has 15.

    >>> p = Position.from_text("long w / 24:15 / 24:15")
    >>> p.white[24], p.black[24], p.pip_count(Side.WHITE)
    (15, 15, 360)
    >>> p
    Position.from_text('long w / 24:15 / 24:15')
    """

    variant: str
    turn: Side
    white: tuple[int, ...] = field(repr=False)
    black: tuple[int, ...] = field(repr=False)

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def unchecked(
        cls, variant: str, turn: Side, white: tuple[int, ...], black: tuple[int, ...]
    ) -> Position:
        """Builds a position without validation: for the engine's own hot paths, whose
        positions are valid by construction.

        Fast: it fills the slots through their descriptors (see :data:`_SET_SLOTS`), skipping
        ``__init__``, the validation and the frozen ``__setattr__``.
        """
        position = _new(cls)
        set_variant, set_turn, set_white, set_black = _SET_SLOTS
        set_variant(position, variant)
        set_turn(position, turn)
        set_white(position, white)
        set_black(position, black)
        return position

    @classmethod
    def from_points(
        cls,
        variant: str,
        turn: Side,
        white: dict[int, int],
        black: dict[int, int],
    ) -> Position:
        """Builds a position from ``{point: count}`` maps in each side's own numbering
        (0 = off, 25 = bar).

        :raises: :exc:`InvalidPositionError` if a point is outside 0..25, a count is negative,
            a side does not have 15 checkers, or both colours share a point.
        """
        return cls(variant, turn, _slots(white, "white"), _slots(black, "black"))

    def checkers(self, side: Side) -> tuple[int, ...]:
        """The 26 slots of ``side`` in its own numbering."""
        return self.white if side is Side.WHITE else self.black

    def pip_count(self, side: Side) -> int:
        """The pips ``side`` still has to travel to bear off every checker."""
        return sum(point * count for point, count in enumerate(self.checkers(side)))

    def borne_off(self, side: Side) -> int:
        """How many checkers ``side`` has borne off."""
        return self.checkers(side)[OFF]

    def with_turn(self, side: Side) -> Position:
        """The same checkers with ``side`` to move."""
        return Position.unchecked(self.variant, side, self.white, self.black)

    def owner(self, side: Side, point: Point) -> tuple[Side | None, int]:
        """Who stands on ``point`` of ``side``'s numbering, and how many: ``(None, 0)`` if empty."""
        own = self.checkers(side)[point]
        if own:
            return side, own
        theirs = self.checkers(side.other)[OPPONENT_POINT[self.variant][point]]
        return (side.other, theirs) if theirs else (None, 0)

    def to_text(self) -> str:
        """The canonical one-line text (see the module docstring)."""
        white, black = _side_text(self.white), _side_text(self.black)
        return f"{self.variant} {self.turn.value} / {white} / {black}"

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Parses the text that :meth:`to_text` writes.

        :raises: :exc:`InvalidPositionError` if the text is malformed or the position invalid.
        """
        parts = [part.strip() for part in text.split("/")]
        head = parts[0].split() if parts else []
        if len(parts) != 3 or len(head) != 2:
            raise InvalidPositionError(
                f"a position reads '<variant> <w|b> / <white> / <black>', not {text!r}"
            )
        variant, turn_text = head
        try:
            turn = Side(turn_text)
        except ValueError:
            raise InvalidPositionError(f"side to move is 'w' or 'b', not {turn_text!r}") from None
        return cls.from_points(
            variant, turn, _parse_side(parts[1], "white"), _parse_side(parts[2], "black")
        )

    def to_id(self) -> str:
        """The position ID: 14 characters naming the variant, the side to move and every
        checker (see :mod:`bot.engine.position_id`).

        >>> Position.from_text("long w / 24:15 / 24:15").to_id()
        'AAAAH__AAAA__4'
        """
        return encode(self)

    @classmethod
    def from_id(cls, text: str) -> Position:
        """Reads a position ID (see :meth:`to_id`).

        :raises: :exc:`InvalidPositionError` if ``text`` is not the ID of a valid position.
        """
        variant, turn, white, black = decode(text)
        try:
            return cls(variant, turn, white, black)
        except InvalidPositionError as error:
            raise InvalidPositionError(f"position ID {text}: {error}") from None

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r})"


_new = object.__new__
_SET_SLOTS: Final = tuple(
    Position.__dict__[name].__set__ for name in ("variant", "turn", "white", "black")
)
"""The slot descriptors' setters of :class:`Position`: calling one stores a field directly,
about twice as fast as ``object.__setattr__`` with its name lookup. For :meth:`Position.unchecked`,
and for the search boards' hottest path, which writes it out to save the call."""


def _slots(points: dict[int, int], name: str) -> tuple[int, ...]:
    slots = [0] * _SLOTS
    for point, count in points.items():
        if type(point) is not int or not 0 <= point < _SLOTS:
            raise InvalidPositionError(f"{name}: point {point!r} is outside 1..24 (0 off, 25 bar)")
        if type(count) is not int or count < 0:
            raise InvalidPositionError(f"{name}: point {point} has count {count!r}")
        slots[point] += count
    return tuple(slots)


def _validate(position: Position) -> None:
    family = FAMILY.get(position.variant)
    if family is None:
        raise InvalidPositionError(
            f"unknown variant {position.variant!r} (known: {', '.join(VARIANTS)})"
        )
    if not isinstance(position.turn, Side):
        raise InvalidPositionError(f"side to move must be a Side, not {position.turn!r}")
    for name, slots in (("white", position.white), ("black", position.black)):
        if type(slots) is not tuple or len(slots) != _SLOTS:
            raise InvalidPositionError(f"{name} must be a tuple of 26 counts")
        if any(type(c) is not int or c < 0 for c in slots):
            raise InvalidPositionError(f"{name} has a negative or non-integer count: {slots}")
        if sum(slots) != CHECKERS:
            raise InvalidPositionError(f"{name} has {sum(slots)} checkers, not {CHECKERS}")
    if family is Family.LONG and (position.white[BAR] or position.black[BAR]):
        raise InvalidPositionError(f"{position.variant} nardy has no bar: nothing is ever hit")
    mapping = OPPONENT_POINT[position.variant]
    for point in range(1, 25):
        if position.white[point] and position.black[mapping[point]]:
            raise InvalidPositionError(
                f"white's point {point} (black's {mapping[point]}) holds checkers of both colours"
            )


def _side_text(slots: tuple[int, ...]) -> str:
    items = [f"bar:{slots[BAR]}"] if slots[BAR] else []
    items += [f"{p}:{slots[p]}" for p in range(24, 0, -1) if slots[p]]
    if slots[OFF]:
        items.append(f"off:{slots[OFF]}")
    return " ".join(items)


def _parse_side(text: str, name: str) -> dict[int, int]:
    points: dict[int, int] = {}
    for item in text.split():
        point_text, sep, count_text = item.partition(":")
        point_text = {"bar": str(BAR), "off": str(OFF)}.get(point_text, point_text)
        if not sep or not point_text.isdigit() or not count_text.isdigit():
            raise InvalidPositionError(f"{name}: {item!r} is not 'point:count'")
        point = int(point_text)
        if point in points:
            raise InvalidPositionError(f"{name}: point {point_text} is listed twice")
        points[point] = int(count_text)
    return points
