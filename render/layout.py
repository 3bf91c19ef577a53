"""Board geometry: where each point, checker, die and tray lies, in whole pixels.

Pure arithmetic, no Pillow, so that it is tested exactly. Everything is in the *viewer's*
numbering, that of the side drawn at the bottom; both variants share one layout, its head or
start (24) at the top right, its home (1..6) at the bottom right, checkers going
counter-clockwise::

    13 14 15 16 17 18 | 19 20 21 22 23 24    (top row, left to right)
    12 11 10  9  8  7 |  6  5  4  3  2  1    (bottom row, left to right)

The top side's checkers are drawn at :func:`viewer_point` of their own numbers. Top to bottom:
an info band, a band of point numbers, the field (two rows of columns, the dice strip between
them), numbers, an info band; left to right: a frame, six columns, the bar, six columns, a
frame, the tray, a frame. The dice (up to six, or a long move list as small dice) lie in the
strip of the mover's half; the doubling cube lies on the bar.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal, TypeAlias

from bot.engine import Point, Side, opponent_point

from .theme import Theme

XY: TypeAlias = tuple[int, int]
Box: TypeAlias = tuple[int, int, int, int]
"""``(left, top, right, bottom)``; right and bottom are exclusive, as in Pillow."""
CubePlace: TypeAlias = Literal["centre", "top", "bottom", "left", "right"]
"""Where the doubling cube lies: ``"centre"`` of the bar (nobody owns it), the ``"top"`` or
``"bottom"`` edge of the bar (owned by the side drawn there), or the dice strip of the
``"left"`` or ``"right"`` half (just offered by the side to move)."""


def viewer_point(variant: str, side: Side, point: Point, bottom: Side) -> Point:
    """Returns the bottom side's number for ``point`` of ``side``'s own numbering.

    0 (off) and 25 (bar) are kept: they are not places on the board.

    >>> viewer_point("long", Side.BLACK, 24, Side.WHITE)
    12
    >>> viewer_point("short", Side.BLACK, 24, Side.WHITE)
    1
    """
    return point if side is bottom else opponent_point(variant, point)


def cube_place(bottom: Side, mover: Side, owner: Side | None, offered: bool) -> CubePlace:
    """Returns where the doubling cube lies, seen with ``bottom`` at the bottom.

    An offered cube lies in the half of the side to move (``mover``), where its dice are drawn;
    otherwise an owned cube lies at its owner's edge of the bar, and a cube nobody owns in the
    bar's middle.

    >>> cube_place(Side.WHITE, Side.BLACK, None, offered=True)
    'left'
    >>> cube_place(Side.WHITE, Side.BLACK, Side.WHITE, offered=False)
    'bottom'
    """
    if offered:
        return "right" if mover is bottom else "left"
    if owner is None:
        return "centre"
    return "bottom" if owner is bottom else "top"


def is_top(point: Point) -> bool:
    """Returns whether the viewer's ``point`` (1..24) is in the top row."""
    _check_point(point)
    return point >= 13


def column(point: Point) -> int:
    """Returns the column, 0..11 from the left, of the viewer's ``point`` (1..24)."""
    _check_point(point)
    return point - 13 if point >= 13 else 12 - point


def _check_point(point: Point) -> None:
    if not 1 <= point <= 24:
        raise ValueError(f"a board point is 1..24, not {point!r}")


@dataclass(frozen=True, slots=True)
class Layout:
    """The geometry of one :class:`~render.theme.Theme`: use :func:`layout` to get it."""

    theme: Theme

    # The frame, the bands and the field.
    @property
    def width(self) -> int:
        """Returns the image width."""
        return self.tray_box(top=True)[2] + self.theme.frame

    @property
    def height(self) -> int:
        """Returns the image height."""
        return self.field_bottom + self.theme.number_band + self.theme.info_height

    @property
    def field_top(self) -> int:
        """Returns the top edge of the field (the base line of the top row's triangles)."""
        return self.theme.info_height + self.theme.number_band

    @property
    def field_bottom(self) -> int:
        """Returns the bottom edge of the field (exclusive)."""
        t = self.theme
        return self.field_top + 2 * t.full_stack * t.checker + t.gap

    @property
    def middle(self) -> int:
        """Returns the y of the field's horizontal centre line."""
        return (self.field_top + self.field_bottom) // 2

    @property
    def field_box(self) -> Box:
        """Returns the box of the playing field: both halves and the bar."""
        t = self.theme
        return (t.frame, self.field_top, self.bar_box[2] + 6 * t.point_width, self.field_bottom)

    @property
    def bar_box(self) -> Box:
        """Returns the box of the bar between the halves."""
        t = self.theme
        left = t.frame + 6 * t.point_width
        return (left, self.field_top, left + t.bar_width, self.field_bottom)

    def half_box(self, right: bool) -> Box:
        """Returns the box of the left or the right half of the field."""
        t = self.theme
        left = self.bar_box[2] if right else t.frame
        return (left, self.field_top, left + 6 * t.point_width, self.field_bottom)

    def info_box(self, top: bool) -> Box:
        """Returns the band for the top or the bottom side's name, pips and turn marker."""
        if top:
            return (0, 0, self.width, self.theme.info_height)
        return (0, self.height - self.theme.info_height, self.width, self.height)

    # Points.
    def column_left(self, index: int) -> int:
        """Returns the left x of column ``index`` (0..11 from the left)."""
        if not 0 <= index <= 11:
            raise ValueError(f"a column is 0..11, not {index!r}")
        t = self.theme
        return t.frame + index * t.point_width + (t.bar_width if index >= 6 else 0)

    def point_x(self, point: Point) -> int:
        """Returns the x of the centre of the viewer's ``point`` (1..24)."""
        return self.column_left(column(point)) + self.theme.point_width // 2

    def point_box(self, point: Point) -> Box:
        """Returns the box of the column of the viewer's ``point``: its half of the field."""
        left = self.column_left(column(point))
        right = left + self.theme.point_width
        if is_top(point):
            return (left, self.field_top, right, self.middle)
        return (left, self.middle, right, self.field_bottom)

    def triangle(self, point: Point) -> tuple[XY, XY, XY]:
        """Returns the corners of the viewer's ``point``'s triangle: base left, base right, tip."""
        left = self.column_left(column(point))
        right = left + self.theme.point_width
        if is_top(point):
            base, tip = self.field_top, self.field_top + self.theme.point_length
        else:
            base, tip = self.field_bottom, self.field_bottom - self.theme.point_length
        return ((left, base), (right, base), ((left + right) // 2, tip))

    def number_xy(self, point: Point) -> XY:
        """Returns the centre of the label of the viewer's ``point`` in the number band."""
        band = self.theme.number_band
        y = self.field_top - band // 2 if is_top(point) else self.field_bottom + band // 2
        return (self.point_x(point), y)

    # Checkers.
    def spacing(self, stack: int) -> int:
        """Returns the distance between centres in a column of ``stack`` checkers.

        Up to ``full_stack`` checkers stand side by side; a taller stack is squeezed into the
        same length, so 15 on the head take the room of 5, overlapping like fallen coins.
        """
        t = self.theme
        if stack <= t.full_stack:
            return t.checker
        return (t.full_stack - 1) * t.checker // (stack - 1)

    def stack_line(self, point: Point, stack: int) -> tuple[int, int, int]:
        """Returns ``(x, y, dy)`` for a column of ``stack`` on the viewer's ``point`` (1..24):
        checker ``i`` (0 at the board edge) is centred at ``(x, y + i * dy)``."""
        half = self.theme.checker // 2
        if is_top(point):
            return (self.point_x(point), self.field_top + half, self.spacing(stack))
        return (self.point_x(point), self.field_bottom - half, -self.spacing(stack))

    def bar_line(self, top: bool, stack: int, cube: bool = False) -> tuple[int, int, int]:
        """Returns ``(x, y, dy)`` for ``stack`` hit checkers on the bar, as :meth:`stack_line`.

        The bottom side's hit checkers wait in the top half of the bar, next to the top-right
        quarter where they enter (``top=True``); the top side's wait in the bottom half.
        Each stack starts at the dice strip and grows towards the board edge. With ``cube``
        the doubling cube lies at that edge (see :meth:`cube_xy`): the stack keeps clear of
        it, squeezed as soon as it would reach it.
        """
        t = self.theme
        x = (self.bar_box[0] + self.bar_box[2]) // 2
        offset = t.gap // 2 + t.checker // 2
        spacing = self.spacing(stack)
        if cube and stack > 1:
            room = self.middle - self.field_top - t.gap // 2 - self.cube_room
            spacing = min(t.checker, (room - t.checker) // (stack - 1))
        if top:
            return (x, self.middle - offset, -spacing)
        return (x, self.middle + offset, spacing)

    def checker_xy(self, point: Point, index: int, stack: int = 1) -> XY:
        """Returns the centre of checker ``index`` (0 at the board edge) of a column of ``stack``
        on the viewer's ``point`` (1..24)."""
        if not 0 <= index < max(stack, 1):
            raise ValueError(f"checker {index} is outside a stack of {stack}")
        x, y, dy = self.stack_line(point, stack)
        return (x, y + index * dy)

    def bar_xy(self, top: bool, index: int, stack: int = 1) -> XY:
        """Returns the centre of checker ``index`` of ``stack`` hit checkers on the bar (see
        :meth:`bar_line`)."""
        if not 0 <= index < max(stack, 1):
            raise ValueError(f"checker {index} is outside a stack of {stack}")
        x, y, dy = self.bar_line(top, stack)
        return (x, y + index * dy)

    # The doubling cube.
    @property
    def cube_margin(self) -> int:
        """Returns the room between an owned cube and the board edge, as on either side of it."""
        return max((self.theme.bar_width - self.theme.cube) // 2, 0)

    @property
    def cube_room(self) -> int:
        """Returns the length of the bar that an owned cube takes from the hit checkers."""
        return self.theme.cube + self.cube_margin

    def cube_xy(self, place: CubePlace, dice: int = 0) -> XY:
        """Returns the centre of the doubling cube at ``place`` (see :data:`CubePlace`).

        An offered cube lies in the middle of its half's dice strip; if ``dice`` dice are shown
        there too, it lies between them and the bar instead.
        """
        t = self.theme
        bar_x = (self.bar_box[0] + self.bar_box[2]) // 2
        if place == "centre":
            return (bar_x, self.middle)
        if place == "top":
            return (bar_x, self.field_top + self.cube_margin + t.cube // 2)
        if place == "bottom":
            return (bar_x, self.field_bottom - self.cube_margin - t.cube + t.cube // 2)
        right = place == "right"
        left, _, right_edge, _ = self.half_box(right)
        centre = (left + right_edge) // 2
        if not dice:
            return (centre, self.middle)
        step = t.die + t.die // 5
        reach = (dice - 1) * step // 2 + t.die // 2
        if right:
            return ((left + centre - reach) // 2, self.middle)
        return ((centre + reach + right_edge) // 2, self.middle)

    def cube_box(self, place: CubePlace, dice: int = 0) -> Box:
        """Returns the box of the doubling cube at ``place``, as :meth:`cube_xy`."""
        x, y = self.cube_xy(place, dice)
        left, top = x - self.theme.cube // 2, y - self.theme.cube // 2
        return (left, top, left + self.theme.cube, top + self.theme.cube)

    # The tray and the dice.
    def tray_box(self, top: bool) -> Box:
        """Returns the tray of the top or the bottom side's borne-off checkers."""
        t = self.theme
        left = self.field_box[2] + t.frame
        right = left + t.tray_width
        if top:
            return (left, self.field_top, right, self.middle - t.gap // 2)
        return (left, self.middle + t.gap // 2, right, self.field_bottom)

    def tray_slab(self, top: bool, index: int) -> Box:
        """Returns the box of borne-off checker ``index`` (0..14, 0 at the board edge)."""
        if not 0 <= index < 15:
            raise ValueError(f"a tray holds checkers 0..14, not {index!r}")
        t = self.theme
        left, upper, right, lower = self.tray_box(top)
        margin = (t.tray_width - t.checker) // 2
        if top:
            y = upper + 4 + index * t.borne_off_slab
            return (left + margin, y, right - margin, y + t.borne_off_slab)
        y = lower - 4 - index * t.borne_off_slab
        return (left + margin, y - t.borne_off_slab, right - margin, y)

    def tray_count_xy(self, top: bool) -> XY:
        """Returns the centre of a tray's count, in the dice strip next to that tray."""
        left, _, right, _ = self.tray_box(top)
        quarter = self.theme.gap // 4
        return ((left + right) // 2, self.middle - quarter if top else self.middle + quarter)

    def dice_xy(self, count: int, right: bool) -> tuple[XY, ...]:
        """Returns the centres of ``count`` dice in the dice strip of the right or left half."""
        t = self.theme
        left, _, right_edge, _ = self.half_box(right)
        step = t.die + t.die // 5
        first = (left + right_edge) // 2 - (count - 1) * step // 2
        return tuple((first + i * step, self.middle) for i in range(count))

    def small_dice_xy(self, count: int, right: bool) -> tuple[XY, ...]:
        """Returns the centres of ``count`` small dice (a long move list, at most
        :data:`SMALL_DICE_ROWS` rows of :data:`SMALL_DICE_PER_ROW`) in the dice strip of the
        right or left half, in reading order: one row through the middle, or two rows filled
        evenly, the first above."""
        if not 0 <= count <= SMALL_DICE_ROWS * SMALL_DICE_PER_ROW:
            raise ValueError(f"the strip holds 0..24 small dice, not {count!r}")
        t = self.theme
        left, _, right_edge, _ = self.half_box(right)
        step = t.small_die + t.small_die // 7
        rows = 1 if count <= SMALL_DICE_PER_ROW else 2
        per_row = -(-count // rows)
        centre_x = (left + right_edge) // 2
        found = []
        for index in range(count):
            row, column = divmod(index, per_row)
            in_row = min(per_row, count - row * per_row)
            x = centre_x - (in_row - 1) * step // 2 + column * step
            y = self.middle if rows == 1 else self.middle + (2 * row - 1) * (step // 2)
            found.append((x, y))
        return tuple(found)

    def label_xy(self, right: bool) -> XY:
        """Returns the centre of a dice label in the dice strip of the right or left half (the
        half the dice are not in)."""
        left, _, right_edge, _ = self.half_box(right)
        return ((left + right_edge) // 2, self.middle)


SMALL_DICE_PER_ROW = 12
SMALL_DICE_ROWS = 2
BIG_DICE = 6
"""At most this many moves are drawn as dice of full size (a triple's six); more (a cascade)
are drawn small."""


@functools.cache
def layout(theme: Theme) -> Layout:
    """Returns the (cached) geometry of ``theme``."""
    return Layout(theme)
