"""Drawing boards: format, size, determinism, threads, pixels where the checkers are."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields, replace

import numpy as np
import pytest
from PIL import Image, ImageChops

from bot.engine import Dice, Position, Side, Step
from render import (
    FILE_NAME,
    IMAGE_FORMAT,
    MIME_TYPE,
    BoardView,
    _sprites,
    render_board,
    render_image,
)
from render.gallery import samples
from render.layout import Box, CubePlace, layout
from render.theme import DEFAULT_THEME
from tests.render.checks import MAX_BYTES, assert_checkers_drawn, colour_near

GEO = layout(DEFAULT_THEME)


def test_format_and_size() -> None:
    data = render_board(Position.from_text("long w / 24:15 / 24:15"))
    assert data[:3] == b"\xff\xd8\xff" and len(data) <= MAX_BYTES
    image = Image.open(io.BytesIO(data))
    assert (image.format, image.mode, image.size) == (IMAGE_FORMAT, "RGB", (GEO.width, GEO.height))
    assert FILE_NAME.endswith(".jpg") and MIME_TYPE == "image/jpeg"


@pytest.mark.parametrize(("name", "position", "view"), samples(), ids=[s[0] for s in samples()])
def test_samples(name: str, position: Position, view: BoardView) -> None:
    data = render_board(position, view=view)
    assert len(data) <= MAX_BYTES, name
    assert render_board(position, view=view) == data, "the same input gives the same bytes"
    plain = BoardView(bottom=view.bottom)
    assert_checkers_drawn(render_image(position, view=plain), position, view.bottom)
    decoded = Image.open(io.BytesIO(render_board(position, view=plain))).convert("RGB")
    assert_checkers_drawn(decoded, position, view.bottom, within=24)


def test_both_perspectives_put_each_side_on_its_own_points() -> None:
    position = Position.from_text("long w / 24:14 13:1 / 24:15")
    for bottom in (Side.WHITE, Side.BLACK):
        image = render_image(position, view=BoardView(bottom=bottom))
        assert_checkers_drawn(image, position, bottom)
        # The bottom side's head is top right, the other head bottom left.
        mine_count, theirs_count = (15, 14) if bottom is Side.BLACK else (14, 15)
        x, y = GEO.checker_xy(24, mine_count - 1, mine_count)
        top_right = image.getpixel((x, y + 12))  # below the count written on the top checker
        x, y = GEO.checker_xy(12, theirs_count - 1, theirs_count)
        bottom_left = image.getpixel((x, y + 12))
        white, black = DEFAULT_THEME.white_checker, DEFAULT_THEME.black_checker
        mine, theirs = (white, black) if bottom is Side.WHITE else (black, white)
        assert colour_near(top_right, mine, 40) and colour_near(bottom_left, theirs, 40)


def test_bar_checkers_wait_in_the_bar() -> None:
    position = Position.from_text("short w / bar:2 13:4 8:3 6:4 5:2 / bar:1 13:5 8:2 6:4 4:2 3:1")
    # White is at the bottom: its hit checkers wait in the top half of the bar.
    assert_checkers_drawn(render_image(position), position, Side.WHITE)
    assert colour_near(
        render_image(position).getpixel(GEO.bar_xy(True, 1, 2)), DEFAULT_THEME.white_checker, 40
    )


def test_marks_change_the_picture() -> None:
    position = Position.from_text("long w / 24:14 16:1 / 24:15")
    plain = render_image(position)
    for view in (
        BoardView(dice=Dice(3, 1)),
        BoardView(last_steps=(Step(24, 16),), last_side=Side.WHITE),
        BoardView(selected=16, destinations=(13, 15)),
        BoardView(result="White wins"),
        BoardView(white_name="Алексей"),
    ):
        assert render_image(position, view=view).tobytes() != plain.tobytes(), view


def test_spent_dice() -> None:
    assert BoardView(dice=Dice(5, 2), dice_used=1).spent() == (True, False)
    assert BoardView(dice=Dice(5, 2), dice_used=(2,)).spent() == (False, True)
    assert BoardView(dice=Dice(3, 3), dice_used=3).spent() == (True, True, True, False)
    lists = BoardView(dice=Dice(3, 3), dice_used=[3, 3])  # type: ignore[arg-type]
    assert lists.spent() == (True, True, False, False) and lists.dice_used == (3, 3)
    assert BoardView().spent() == ()


@pytest.mark.parametrize(
    "changes",
    [
        {"dice": Dice(5, 2), "dice_used": 3},
        {"dice": Dice(5, 2), "dice_used": (4,)},
        {"dice_used": 1},
        {"selected": 0},
        {"selected": 26},
        {"destinations": (25,)},
        {"cube": 0},
        {"cube": 3},
        {"cube": 128},
        {"cube": -2},
        {"cube": True},
        {"cube_owner": Side.WHITE},
        {"cube_offered": True},
        {"cube": 64, "cube_offered": True},
        {"moves": (0,)},
        {"moves": (7, 1)},
        {"moves": (1,) * 25},
        {"moves": (5, 6, 6), "dice_used": (4,)},
        {"moves": (5, 6, 6), "dice_used": 4},
        {"struck": 4},
        {"dice": Dice(6, 4, 1), "struck": 4},
        {"dice": Dice(6, 1), "struck": 7},
        {"dice": Dice(6, 1), "dice_used": (6, 6)},
    ],
)
def test_bad_views_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        BoardView(**changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name",
    [
        "Александра Константиновна Преображенская-Милославская 👑",
        "🐉 DragonSlayer_2000 🔥 Дима 👨‍👩‍👧",
        "🔥🔥🔥",
        "",
        "محمد علي",
        "e\u0301\u0301\u0301 Zalgo",
        "x" * 500,
        "\x00\x07\u200b\ufeff",
    ],
)
def test_any_name_renders(name: str) -> None:
    position = Position.from_text("long w / 24:15 / 24:15")
    view = BoardView(white_name=name, black_name=name[::-1], result=name or None)
    image = Image.open(io.BytesIO(render_board(position, view=view)))
    assert image.size == (GEO.width, GEO.height)


def test_threads_give_the_serial_bytes() -> None:
    # Fresh names and results, so that the threads also race to fill the text caches.
    jobs = [
        (position, replace(view, white_name=f"Игрок {i}", result=f"Thread {i}" if i % 2 else None))
        for i, (_, position, view) in enumerate(samples() * 3)
    ]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda job: render_board(job[0], view=job[1]), jobs))
    serial = [render_board(position, view=view) for position, view in jobs]
    assert threaded == serial


CUBE_FIELDS = ("cube", "cube_owner", "cube_offered", "match_label")
CUBE_POSITION = Position.from_text("short w / bar:2 13:4 8:3 6:4 5:2 / bar:1 13:5 8:2 6:4 4:2 3:1")
"""Hit checkers of both sides wait on the bar, next to where an owned cube lies."""


def _changed(a: Image.Image, b: Image.Image) -> Box | None:
    return ImageChops.difference(a, b).getbbox()


def _inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _cube_area(place: CubePlace, dice: int = 0) -> Box:
    """The cube's box with the room of its shadow and outline."""
    left, top, right, bottom = GEO.cube_box(place, dice)
    m = _sprites.cube_margin(DEFAULT_THEME)
    return (left - m, top - m, right + m, bottom + m)


def test_cube_face() -> None:
    assert BoardView().cube_face() is None
    assert BoardView(cube=1).cube_face() == 64, "a cube nobody doubled shows 64"
    assert BoardView(cube=4, cube_owner=Side.BLACK).cube_face() == 4
    assert BoardView(cube=1, cube_offered=True).cube_face() == 2
    assert BoardView(cube=16, cube_owner=Side.WHITE, cube_offered=True).cube_face() == 32


def test_the_moves_shown_and_played() -> None:
    cascade = BoardView(dice=Dice(3, 3), moves=(3, 3, 4, 4, 5, 5, 6, 6), dice_used=(3, 3, 4))
    assert cascade.shown() == (3, 3, 4, 4, 5, 5, 6, 6)
    assert cascade.spent() == (True, True, True, False, False, False, False, False)
    remainder = BoardView(moves=[5, 6, 6], dice_used=1)  # type: ignore[arg-type]
    assert remainder.moves == (5, 6, 6) and remainder.spent() == (True, False, False)
    assert BoardView(dice=Dice(6, 4, 1)).shown() == (6, 4, 1)
    assert BoardView(dice=Dice(2, 2, 2), dice_used=5).spent() == (True,) * 5 + (False,)


def _drawn_box(position: Position, view: BoardView, more: BoardView) -> Box | None:
    before, after = render_image(position, view=view), render_image(position, view=more)
    return (
        ImageChops.difference(before, after).convert("L").point(lambda v: 255 * (v > 24)).getbbox()
    )


def test_small_dice_labels_and_a_struck_die_are_drawn_where_the_layout_says() -> None:
    position = Position.from_text("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5")
    plain = BoardView()
    # white (at the bottom) moves: its dice lie in the right half, a label in the left
    cascade = BoardView(moves=tuple(v for v in range(1, 7) for _ in range(4)), dice_used=9)
    changed = _drawn_box(position, plain, cascade)
    centres = GEO.small_dice_xy(24, right=True)
    half = DEFAULT_THEME.small_die // 2 + 4
    assert changed is not None
    assert changed[0] >= centres[0][0] - half and changed[2] <= centres[11][0] + half
    assert changed[1] >= centres[0][1] - half and changed[3] <= centres[12][1] + half + 3
    image = render_image(position, view=cascade)
    spent, fresh = image.getpixel(centres[0][:2]), image.getpixel(centres[23][:2])
    assert spent != fresh  # a played move is greyed
    labelled = _drawn_box(position, plain, BoardView(dice_label="Remainder from Bob"))
    assert labelled is not None and labelled[2] <= GEO.half_box(right=False)[2]
    assert labelled[0] >= GEO.half_box(right=False)[0]
    # the struck die: third of three places, with red on its diagonal
    struck = BoardView(dice=Dice(6, 1), struck=4)
    places = GEO.dice_xy(3, right=True)
    x, y = places[2]
    drawn = render_image(position, view=struck)
    reds = [
        drawn.getpixel((x + d, y + d))
        for d in range(-DEFAULT_THEME.die // 3, DEFAULT_THEME.die // 3)
    ]
    assert any(colour_near(p, DEFAULT_THEME.struck, 60) for p in reds)
    both = _drawn_box(position, BoardView(dice=Dice(6, 1)), struck)
    strip = GEO.half_box(right=True)
    assert both is not None and strip[0] <= both[0] and both[2] <= strip[2]
    assert GEO.middle - DEFAULT_THEME.gap // 2 <= both[1] and both[3] <= GEO.middle + 32


def test_new_fields_left_out_give_the_same_bytes() -> None:
    """A view without a cube and a match label draws exactly what a view from before these
    fields drew: the defaults change nothing."""
    for name, position, view in samples():
        old = {
            f.name: getattr(view, f.name) for f in fields(BoardView) if f.name not in CUBE_FIELDS
        }
        bare = replace(view, cube=None, cube_owner=None, cube_offered=False, match_label=None)
        assert render_board(position, view=bare) == render_board(position, view=BoardView(**old))
        assert (
            render_image(position, view=bare).tobytes()
            == render_image(position, view=BoardView(**old)).tobytes()
        ), name


@pytest.mark.parametrize(
    ("owner", "offered", "place"),
    [
        (None, False, "centre"),
        (Side.WHITE, False, "bottom"),
        (Side.BLACK, False, "top"),
        (None, True, "right"),
        (Side.WHITE, True, "right"),
    ],
)
def test_the_cube_is_drawn_where_the_layout_says(
    owner: Side | None, offered: bool, place: CubePlace
) -> None:
    # White (at the bottom) is to move; the bar holds checkers on both sides of the cube.
    plain = render_image(CUBE_POSITION)
    view = BoardView(cube=2, cube_owner=owner, cube_offered=offered)
    image = render_image(CUBE_POSITION, view=view)
    changed = _changed(plain, image)
    assert changed is not None and _inside(changed, _cube_area(place)), (changed, place)
    # The bar's checkers have not moved, and the cube's face is light around its digits.
    assert_checkers_drawn(image, CUBE_POSITION, Side.WHITE)
    left, top, _, _ = GEO.cube_box(place)
    assert colour_near(image.getpixel((left + 6, top + 6)), DEFAULT_THEME.cube_face, 12)


def test_the_offered_cube_makes_way_for_dice() -> None:
    view = BoardView(dice=Dice(6, 6), cube=4, cube_owner=Side.WHITE)
    plain = render_image(CUBE_POSITION, view=view)
    offered = render_image(CUBE_POSITION, view=replace(view, cube_offered=True))
    # The cube leaves the bar and lies beside the four dice.
    changed = _changed(plain, offered)
    assert changed is not None
    assert _inside(changed, _union(_cube_area("bottom"), _cube_area("right", dice=4)))
    plain_dice = render_image(CUBE_POSITION, view=BoardView(dice=Dice(6, 6)))
    for centre in GEO.dice_xy(4, right=True):
        assert offered.getpixel(centre) == plain_dice.getpixel(centre)


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def test_a_crowded_bar_makes_room_for_the_cube() -> None:
    position = Position.from_text("short w / bar:2 13:4 8:3 6:4 5:2 / bar:5 13:5 8:2 6:3")
    image = render_image(position, view=BoardView(cube=8, cube_owner=Side.WHITE))
    # Black's five hit checkers wait in the bottom half of the bar, squeezed above the cube.
    x, y, dy = GEO.bar_line(False, 5, cube=True)
    assert dy < DEFAULT_THEME.checker
    black = _sprites.checker(DEFAULT_THEME, Side.BLACK)
    expected = black.getpixel((black.width // 2, black.height // 2))
    assert isinstance(expected, tuple)
    assert colour_near(image.getpixel((x, y + 4 * dy)), expected, 2)
    left, top, _, _ = GEO.cube_box("bottom")
    assert colour_near(image.getpixel((left + 6, top + 6)), DEFAULT_THEME.cube_face, 12)


@pytest.mark.parametrize(
    "label", ["Матч до 7 · 3:2", "Match to 7 · 3:2", "🏆 Матч до 11 · 10:10 · Crawford " * 4]
)
def test_the_match_label_is_drawn_in_the_header(label: str) -> None:
    position = Position.from_text("long w / 24:15 / 24:15")
    for view in (
        BoardView(white_name="Алексей", black_name="Bob"),
        BoardView(white_name="Ж" * 80, black_name="Ж" * 80, last_steps=(Step(24, 13),)),
        BoardView(white_name="Алексей", black_name="Bob", result="Bob wins — mars ×2"),
        BoardView(bottom=Side.BLACK, cube=2, cube_owner=Side.BLACK),
    ):
        plain = render_image(position, view=view)
        image = render_image(position, view=replace(view, match_label=label))
        changed = _changed(plain, image)
        assert changed is not None and _inside(changed, GEO.info_box(top=True)), (changed, view)
        data = render_board(position, view=replace(view, match_label=label))
        assert Image.open(io.BytesIO(data)).size == (GEO.width, GEO.height)


def test_cube_and_label_change_nothing_else() -> None:
    position = Position.from_text("long w / 24:13 19:1 14:1 / 24:13 21:1 18:1")
    view = BoardView(white_name="Алексей", black_name="Bob", dice=Dice(3, 2))
    plain = render_image(position, view=view)
    full = replace(view, cube=4, cube_owner=Side.BLACK, match_label="Матч до 7 · 3:2")
    difference = ImageChops.difference(plain, render_image(position, view=full)).convert("L")
    header, cube = GEO.info_box(top=True), _cube_area("top")
    for box in (header, cube):
        difference.paste(0, box)
    assert difference.getbbox() is None


def _inked(image: Image.Image, colour: tuple[int, int, int]) -> list[tuple[int, int]]:
    """The pixels of ``image`` within a few levels of ``colour``."""
    pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    near = (np.abs(pixels - np.array(colour, dtype=np.int16)) <= 24).all(axis=2)
    ys, xs = np.nonzero(near)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def test_arrows_go_from_the_leaving_checker_to_where_it_lands() -> None:
    """A worst move's picture: the turn played in the first colour, the better one in the
    second, each from the column it leaves to the column it reaches; a step both make is
    drawn twice, bent apart."""
    position = Position.from_text("long w / 24:14 13:1 / 24:15")
    played, better = DEFAULT_THEME.arrows
    plain = render_image(position)
    assert len(_inked(plain, played)) < 50 and len(_inked(plain, better)) < 50
    one = render_image(position, view=BoardView(arrows=((Step(24, 18),),)))
    drawn = _inked(one, played)
    assert len(drawn) > 400 and len(_inked(one, better)) < 50
    xs = [x for x, _ in drawn]
    assert abs(min(xs) - GEO.point_x(18)) <= 4  # the head's tip on the landing place
    assert max(xs) > GEO.point_x(24) - DEFAULT_THEME.checker // 2
    assert all(y < GEO.middle for _, y in drawn)  # along the top row, over the field
    both = render_image(position, view=BoardView(arrows=((Step(24, 18),), (Step(24, 18),))))
    first, second = _inked(both, played), _inked(both, better)
    assert len(second) > 400
    # the same step bent twice as far: the second arrow's middle lies nearer the middle
    middle_x = (GEO.point_x(24) + GEO.point_x(18)) // 2
    column = [y for x, y in first if abs(x - middle_x) <= 2]
    column2 = [y for x, y in second if abs(x - middle_x) <= 2]
    assert column and column2 and max(column2) > max(column)
    with pytest.raises(ValueError):
        BoardView(arrows=((Step(26, 18),),))
