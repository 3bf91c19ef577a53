"""Checks shared by the render tests."""

from __future__ import annotations

from PIL import Image

from bot.engine import BAR, Position, Side
from render import _sprites
from render.layout import layout, viewer_point
from render.theme import DEFAULT_THEME

THEME = DEFAULT_THEME
GEO = layout(THEME)
MAX_BYTES = 150_000
"""The most bytes a board may take."""


def colour_near(pixel: object, colour: tuple[int, ...], within: int) -> bool:
    """Returns whether the RGB ``pixel`` is within ``within`` of ``colour`` in every channel."""
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= within for a, b in zip(pixel[:3], colour[:3], strict=True))


def assert_checkers_drawn(
    image: Image.Image, position: Position, bottom: Side, within: int = 2
) -> None:
    """Every occupied point and bar shows its owner's checker on top of the stack: the pixel at
    the top checker's centre is the checker sprite's own (a little off the centre when a count
    is written there). For a board drawn without marks (ghosts, dots, rings)."""
    for side in (Side.WHITE, Side.BLACK):
        sprite = _sprites.checker(THEME, side)
        for point in range(1, 26):
            count = position.checkers(side)[point]
            if not count:
                continue
            if point == BAR:
                x, y = GEO.bar_xy(side is bottom, count - 1, count)
            else:
                viewer = viewer_point(position.variant, side, point, bottom)
                x, y = GEO.checker_xy(viewer, count - 1, count)
            dy = THEME.checker // 5 if count > THEME.full_stack else 0
            expected = sprite.getpixel((sprite.width // 2, sprite.height // 2 + dy))
            assert isinstance(expected, tuple)
            pixel = image.getpixel((x, y + dy))
            assert colour_near(pixel, expected, within), (position, side, point, pixel, expected)
