"""Board geometry, tested exactly and without Pillow.

The theme is spelled out here, so that a new default look does not move these numbers::

    x:  14 | 6 columns of 62 | bar 60 | 6 columns of 62 | 14 | tray 66 | 14   = 912
    y:  info 58 | numbers 28 | 5 checkers of 56 | gap 60 | 5 checkers of 56 | numbers 28 | info 58
        = 792; the field runs from y 86 to 706, its middle line is y 396.
    The bar runs from x 386 to 446; the doubling cube is 46 wide.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.engine import Side, opponent_point
from render.layout import Box, CubePlace, column, cube_place, is_top, layout, viewer_point
from render.theme import Theme

THEME = Theme(
    checker=56,
    point_width=62,
    point_length=254,
    full_stack=5,
    bar_width=60,
    frame=14,
    number_band=28,
    tray_width=66,
    info_height=58,
    gap=60,
    die=44,
    cube=46,
    borne_off_slab=16,
)
GEO = layout(THEME)


def test_image_and_field_size() -> None:
    assert (GEO.width, GEO.height) == (912, 792)
    assert (GEO.field_top, GEO.field_bottom, GEO.middle) == (86, 706, 396)
    assert GEO.field_box == (14, 86, 818, 706)
    assert GEO.bar_box == (386, 86, 446, 706)
    assert GEO.half_box(right=False) == (14, 86, 386, 706)
    assert GEO.half_box(right=True) == (446, 86, 818, 706)
    assert GEO.info_box(top=True) == (0, 0, 912, 58)
    assert GEO.info_box(top=False) == (0, 734, 912, 792)


# The viewer's numbering, as seen from the bottom side:
#   13 14 15 16 17 18 | 19 20 21 22 23 24
#   12 11 10  9  8  7 |  6  5  4  3  2  1
@pytest.mark.parametrize(
    ("point", "col", "top", "x"),
    [
        (13, 0, True, 45),
        (18, 5, True, 355),
        (19, 6, True, 477),
        (24, 11, True, 787),
        (12, 0, False, 45),
        (7, 5, False, 355),
        (6, 6, False, 477),
        (1, 11, False, 787),
    ],
)
def test_points(point: int, col: int, top: bool, x: int) -> None:
    assert column(point) == col
    assert is_top(point) is top
    assert GEO.point_x(point) == x


@pytest.mark.parametrize("point", [0, 25, -1, 26])
def test_off_board_points_are_refused(point: int) -> None:
    with pytest.raises(ValueError, match="1..24"):
        column(point)


def test_triangles_and_numbers() -> None:
    assert GEO.triangle(24) == ((756, 86), (818, 86), (787, 340))
    assert GEO.triangle(1) == ((756, 706), (818, 706), (787, 452))
    assert GEO.point_box(24) == (756, 86, 818, 396)
    assert GEO.point_box(12) == (14, 396, 76, 706)
    assert GEO.number_xy(24) == (787, 72)
    assert GEO.number_xy(12) == (45, 720)


def test_checkers_stand_side_by_side_up_to_five() -> None:
    assert GEO.checker_xy(24, 0) == (787, 114)
    assert GEO.checker_xy(24, 4, 5) == (787, 338)
    assert GEO.checker_xy(1, 0) == (787, 678)
    assert GEO.checker_xy(1, 4, 5) == (787, 454)
    assert GEO.spacing(1) == GEO.spacing(5) == 56


def test_fifteen_on_the_head_fit_the_room_of_five() -> None:
    assert GEO.spacing(15) == 16
    assert GEO.checker_xy(24, 14, 15) == GEO.checker_xy(24, 4, 5) == (787, 338)
    assert GEO.checker_xy(12, 14, 15) == (45, 454)


@pytest.mark.parametrize("stack", range(1, 16))
def test_no_stack_reaches_the_dice_strip(stack: int) -> None:
    for point in range(1, 25):
        x, y = GEO.checker_xy(point, stack - 1, stack)
        if is_top(point):
            assert y + THEME.checker // 2 <= GEO.middle - THEME.gap // 2
        else:
            assert y - THEME.checker // 2 >= GEO.middle + THEME.gap // 2
        left, _, right, _ = GEO.point_box(point)
        assert left <= x - THEME.checker // 2 and x + THEME.checker // 2 <= right


def test_index_outside_the_stack_is_refused() -> None:
    with pytest.raises(ValueError):
        GEO.checker_xy(24, 5, 5)
    with pytest.raises(ValueError):
        GEO.bar_xy(True, -1, 2)


def test_bar() -> None:
    # The bottom side's hit checkers wait in the top half, next to where they enter.
    assert GEO.bar_xy(top=True, index=0) == (416, 338)
    assert GEO.bar_xy(top=True, index=1, stack=2) == (416, 282)
    assert GEO.bar_xy(top=False, index=0) == (416, 454)
    assert GEO.bar_xy(top=True, index=4, stack=5) == (416, 114)


def test_trays_and_dice() -> None:
    assert GEO.tray_box(top=True) == (832, 86, 898, 366)
    assert GEO.tray_box(top=False) == (832, 426, 898, 706)
    assert GEO.tray_slab(top=False, index=0) == (837, 686, 893, 702)
    assert GEO.tray_slab(top=True, index=14) == (837, 314, 893, 330)
    for top in (True, False):
        tray = GEO.tray_box(top)
        for i in range(15):
            x0, y0, x1, y1 = GEO.tray_slab(top, i)
            assert tray[0] <= x0 < x1 <= tray[2] and tray[1] <= y0 < y1 <= tray[3]
    assert GEO.tray_count_xy(top=True) == (865, 381)
    assert GEO.dice_xy(2, right=True) == ((606, 396), (658, 396))
    assert GEO.dice_xy(4, right=False) == ((122, 396), (174, 396), (226, 396), (278, 396))


def test_viewer_numbering() -> None:
    # Long nardy: the heads stand opposite; each side sees the other's head as its own 12.
    assert viewer_point("long", Side.BLACK, 24, bottom=Side.WHITE) == 12
    assert viewer_point("long", Side.WHITE, 24, bottom=Side.BLACK) == 12
    assert viewer_point("long", Side.WHITE, 7, bottom=Side.WHITE) == 7
    # Short nardy: the sides go towards each other, as in backgammon.
    assert viewer_point("short", Side.BLACK, 24, bottom=Side.WHITE) == 1
    assert viewer_point("short", Side.BLACK, 6, bottom=Side.WHITE) == 19
    for variant in ("long", "short"):
        for point in (0, 25):
            assert viewer_point(variant, Side.BLACK, point, bottom=Side.WHITE) == point


def _turning(path: list[tuple[int, int]]) -> list[int]:
    """Signs of the cross products along a closed path of centres (y grows downwards)."""
    signs = []
    for (ax, ay), (bx, by), (cx, cy) in zip(path, path[1:], path[2:], strict=False):
        cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
        if cross:
            signs.append(1 if cross > 0 else -1)
    return signs


@pytest.mark.parametrize("variant", ["long", "short"])
@pytest.mark.parametrize("bottom", [Side.WHITE, Side.BLACK])
def test_orientation(variant: str, bottom: Side) -> None:
    """From its own side, a player's start (24) is top right, its home (1..6) bottom right, and
    its checkers go counter-clockwise; in long nardy the opponent's head is bottom left."""
    head = GEO.point_x(24), is_top(24)
    assert head == (787, True)
    home = [GEO.point_box(p) for p in range(1, 7)]
    assert all(box[0] >= GEO.bar_box[2] and box[1] >= GEO.middle for box in home)
    for side in (Side.WHITE, Side.BLACK):
        route = [
            GEO.checker_xy(viewer_point(variant, side, p, bottom), 0) for p in range(24, 0, -1)
        ]
        # On screen (y down) counter-clockwise turns have a negative cross product.
        turns = _turning(route)
        if variant == "long" or side is bottom:
            assert turns and all(sign < 0 for sign in turns), (side, turns)
        else:
            # In short nardy the top side runs the other way round: clockwise on screen.
            assert turns and all(sign > 0 for sign in turns), (side, turns)
    if variant == "long":
        other_head = viewer_point(variant, bottom.other, 24, bottom)
        assert (column(other_head), is_top(other_head)) == (0, False)
        assert other_head == opponent_point("long", 24) == 12


def test_scaled_theme_keeps_the_width_formula() -> None:
    for factor in (0.5, 0.8, 1.4):
        theme = THEME.scaled(factor)
        geo = layout(theme)
        expected = 3 * theme.frame + 12 * theme.point_width + theme.bar_width + theme.tray_width
        assert geo.width == expected
        assert geo.checker_xy(24, 14, 15)[1] + theme.checker // 2 <= geo.middle


def test_layout_loads_without_pillow() -> None:
    code = (
        "import sys; import render.layout, render.theme; sys.exit(1 if 'PIL' in sys.modules else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr or "render.layout imported Pillow"


PLACES: tuple[CubePlace, ...] = ("centre", "top", "bottom", "left", "right")


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _around(xy: tuple[int, int], size: int) -> Box:
    x, y = xy
    return (x - size // 2, y - size // 2, x - size // 2 + size, y - size // 2 + size)


@pytest.mark.parametrize("bottom", [Side.WHITE, Side.BLACK])
def test_cube_place(bottom: Side) -> None:
    top = bottom.other
    for mover in (bottom, top):
        for owner in (None, bottom, top):
            # An offer puts the cube in the mover's half, where the mover's dice lie.
            offered = cube_place(bottom, mover, owner, offered=True)
            assert offered == ("right" if mover is bottom else "left")
            assert GEO.dice_xy(2, right=offered == "right")[0][0] in range(
                *GEO.half_box(offered == "right")[::2]
            )
        assert cube_place(bottom, mover, None, offered=False) == "centre"
        assert cube_place(bottom, mover, bottom, offered=False) == "bottom"
        assert cube_place(bottom, mover, top, offered=False) == "top"


def test_cube_positions() -> None:
    assert (GEO.cube_margin, GEO.cube_room) == (7, 53)
    assert GEO.cube_xy("centre") == (416, 396) and GEO.cube_box("centre") == (393, 373, 439, 419)
    assert GEO.cube_box("top") == (393, 93, 439, 139)
    assert GEO.cube_box("bottom") == (393, 653, 439, 699)
    assert GEO.cube_xy("right") == (632, 396) and GEO.cube_xy("left") == (200, 396)
    # Beside the dice, between them and the bar.
    assert GEO.cube_xy("right", dice=2) == (515, 396)
    assert GEO.cube_xy("left", dice=4) == (343, 396)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("dice", [0, 2, 4])
def test_cube_keeps_clear(place: CubePlace, dice: int) -> None:
    """The cube lies where its place says, inside the field, and covers no checker that may
    wait on the bar, no die and no point number."""
    box = GEO.cube_box(place, dice)
    assert (box[2] - box[0], box[3] - box[1]) == (THEME.cube, THEME.cube)
    field = GEO.field_box
    assert field[0] <= box[0] and box[2] <= field[2] and field[1] <= box[1] and box[3] <= field[3]
    x, y = GEO.cube_xy(place, dice)
    strip = (GEO.middle - THEME.gap // 2, GEO.middle + THEME.gap // 2)
    if place in ("centre", "top", "bottom"):
        bar = GEO.bar_box
        assert bar[0] <= box[0] and box[2] <= bar[2]
        assert x == (bar[0] + bar[2]) // 2
    if place == "centre":
        assert y == GEO.middle
    elif place == "bottom":
        assert box[1] >= GEO.middle and GEO.field_bottom - box[3] == GEO.cube_margin
    elif place == "top":
        assert box[3] <= GEO.middle and box[1] - GEO.field_top == GEO.cube_margin
    else:
        half = GEO.half_box(place == "right")
        assert half[0] <= box[0] and box[2] <= half[2]
        assert strip[0] <= box[1] and box[3] <= strip[1]
    # No die: a cube on the bar is clear of any roll in either half, an offered one is clear
    # of the ``dice`` shown in its half.
    on_bar = place in ("centre", "top", "bottom")
    halves = (False, True) if on_bar else (place == "right",)
    for right in halves:
        for count in (2, 4) if on_bar else (dice,):
            for centre in GEO.dice_xy(count, right):
                assert not _overlap(box, _around(centre, THEME.die)), (place, count, centre)
    # No checker on the bar, however many wait there.
    for top in (True, False):
        has_cube = place == ("top" if top else "bottom")
        for stack in range(1, 16):
            for index in range(stack):
                x0, y0, dy = GEO.bar_line(top, stack, has_cube)
                slot = _around((x0, y0 + index * dy), THEME.checker)
                assert not _overlap(box, slot), (place, top, stack, index)
    # No point number: they lie outside the field.
    for point in range(1, 25):
        label = _around(GEO.number_xy(point), THEME.number_band)
        assert not _overlap(box, label)


def test_bar_checkers_make_room_for_an_owned_cube() -> None:
    # Up to four stand as without the cube; more are squeezed into the room of four.
    for stack in range(1, 5):
        assert GEO.bar_line(False, stack, cube=True) == GEO.bar_line(False, stack)
    assert GEO.bar_line(False, 5, cube=True) == (416, 454, 42)
    assert GEO.bar_line(True, 5, cube=True) == (416, 338, -42)
    assert GEO.bar_line(True, 15, cube=True) == (416, 338, -12)
    # Without a cube the bar is as before.
    assert GEO.bar_line(True, 5) == (416, 338, -56)


@pytest.mark.parametrize("factor", [0.5, 0.8, 1.4])
def test_cube_keeps_clear_in_scaled_themes(factor: float) -> None:
    geo = layout(THEME.scaled(factor))
    theme = geo.theme
    for place in ("top", "bottom"):
        box = geo.cube_box(place)
        top = place == "top"
        for stack in range(1, 16):
            x, y, dy = geo.bar_line(top, stack, cube=True)
            slot = _around((x, y + (stack - 1) * dy), theme.checker)
            assert not _overlap(box, slot), (factor, place, stack)
    centre = geo.cube_box("centre")
    for top in (True, False):
        x, y, _ = geo.bar_line(top, 1)
        assert not _overlap(centre, _around((x, y), theme.checker))


def test_small_dice_of_a_long_move_list() -> None:
    # step 29 (26 + 26 // 7); the right half's strip is 446..818, centre 632
    eight = GEO.small_dice_xy(8, right=True)
    assert eight[0] == (531, 396) and eight[-1] == (734, 396)
    assert {y for _, y in eight} == {GEO.middle}
    # 24 moves: two rows of 12, 14 above and below the middle, the first row above
    rows = GEO.small_dice_xy(24, right=False)
    assert rows[0] == (41, 382) and rows[11] == (360, 382) and rows[12] == (41, 410)
    assert GEO.label_xy(right=False) == (200, 396)
    with pytest.raises(ValueError):
        GEO.small_dice_xy(25, right=True)


@pytest.mark.parametrize("count", [1, 7, 12, 13, 19, 24])
@pytest.mark.parametrize("right", [True, False])
def test_small_dice_stay_in_their_strip_apart(count: int, right: bool) -> None:
    half = GEO.half_box(right)
    size = THEME.small_die
    centres = GEO.small_dice_xy(count, right)
    assert len(set(centres)) == count
    for x, y in centres:
        assert half[0] <= x - size // 2 and x + size // 2 <= half[2]
        assert GEO.middle - THEME.gap // 2 <= y - size // 2
        assert y + size // 2 <= GEO.middle + THEME.gap // 2
    for (x0, y0), (x1, y1) in zip(centres, centres[1:], strict=False):
        assert y0 != y1 or x1 - x0 > size  # neighbours in a row do not touch
