"""Drawing boards: format, size, determinism, threads, pixels where the checkers are."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from PIL import Image

from bot.engine import Dice, Position, Side, Step
from render import FILE_NAME, IMAGE_FORMAT, MIME_TYPE, BoardView, render_board, render_image
from render.gallery import samples
from render.layout import layout
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
