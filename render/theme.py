"""The look of the board: sizes in pixels, colours and fonts, as one frozen value.

A :class:`Theme` is hashable, so the static background and the sprites drawn from it are cached
per theme. This module imports nothing but the standard library: the geometry in
:mod:`render.layout` reads its sizes without Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Final, TypeAlias

RGB: TypeAlias = tuple[int, int, int]
RGBA: TypeAlias = tuple[int, int, int, int]

ASSETS: Final = Path(__file__).resolve().parent / "assets"
"""The folder of the fonts shipped with the package."""


@dataclass(frozen=True, slots=True)
class Theme:
    """Sizes, colours and fonts of the board image.

    Sizes are in pixels of the final image. The board width follows from them::

        width = 2 * frame + 12 * point_width + bar_width + frame + tray_width

    and the default comes to 912 x 792: near a phone's own resolution for a photo in a chat, and
    small enough to encode in about 2 ms (see ``bench/render.py``).
    """

    # Sizes.
    checker: int = 56
    """Checker diameter."""
    point_width: int = 62
    """Width of a point (triangle) and of its column of checkers."""
    point_length: int = 254
    """Height of a triangle, from the board edge to its tip."""
    full_stack: int = 5
    """Checkers a column holds without overlapping; taller stacks overlap and show a count."""
    bar_width: int = 60
    frame: int = 14
    """Wooden frame around each half and the tray column."""
    number_band: int = 28
    """Band above and below the field that carries the point numbers."""
    tray_width: int = 66
    info_height: int = 58
    """Band above and below the board with each side's name, pips and turn marker."""
    gap: int = 60
    """Height of the strip between the two rows of columns, where the dice lie."""
    die: int = 44
    small_die: int = 26
    """A die of a long move list (a crazy gul-bara cascade), up to two rows of 12 in the strip."""
    cube: int = 46
    """Side of the doubling cube; it lies on the bar, so at most ``bar_width``."""
    borne_off_slab: int = 16
    """Height of one borne-off checker seen edge-on in the tray."""

    # Colours.
    table: RGB = (38, 30, 25)
    """The info bands around the board."""
    frame_wood: RGB = (92, 56, 33)
    frame_dark: RGB = (64, 38, 22)
    field_wood: RGB = (214, 178, 126)
    bar_wood: RGB = (98, 60, 35)
    tray_wood: RGB = (160, 118, 74)
    point_dark: RGB = (128, 46, 32)
    point_light: RGB = (246, 232, 203)
    white_checker: RGB = (246, 241, 229)
    white_rim: RGB = (150, 140, 122)
    white_label: RGB = (60, 48, 40)
    black_checker: RGB = (44, 40, 40)
    black_rim: RGB = (12, 10, 10)
    black_label: RGB = (236, 228, 214)
    black_edge: RGB = (176, 164, 150)
    """A light rim that sets a dark checker off a dark point where the board is drawn flat
    (the Mini App's; the pictures' checkers have a lighter inner ring instead): 3:1 or more
    against :attr:`point_dark` and :attr:`bar_wood`."""
    number: RGB = (236, 214, 176)
    text: RGB = (244, 236, 222)
    text_dim: RGB = (170, 156, 140)
    turn_marker: RGB = (255, 196, 60)
    last_from: RGBA = (255, 170, 40, 230)
    """Outline of a checker's place before the last turn."""
    last_to: RGB = (255, 170, 40)
    """Dot on a checker that arrived in the last turn."""
    selected: RGBA = (80, 200, 255, 255)
    destination: RGBA = (90, 230, 110, 120)
    """Tint of a point the selected checker may go to."""
    target: RGBA = (90, 230, 110, 230)
    """Ring where the selected checker would land."""
    die_face: RGB = (252, 250, 244)
    die_pip: RGB = (30, 26, 24)
    die_spent_face: RGB = (150, 140, 130)
    die_spent_pip: RGB = (95, 86, 80)
    banner: RGBA = (20, 14, 10, 205)
    cube_face: RGB = (250, 246, 236)
    cube_digit: RGB = (36, 28, 24)
    cube_offered: RGB = (255, 196, 60)
    """Outline of a cube just offered, waiting for the opponent's answer."""
    struck: RGB = (214, 52, 44)
    """The cross over a die the opponent struck (anti three dice)."""
    label_fill: RGB = (58, 47, 40)
    """The plate of the match label in the top info band."""
    label_edge: RGB = (112, 96, 82)

    # Fonts and output.
    font_regular: str = str(ASSETS / "DejaVuSans.ttf")
    font_bold: str = str(ASSETS / "DejaVuSans-Bold.ttf")
    jpeg_quality: int = 85
    supersample: int = 4
    """Scale at which sprites and the background are drawn before smoothing them down."""

    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        # Every sprite cache is keyed by the theme, some fifty look-ups a board: hashing its
        # sixty fields for each cost a tenth of a millisecond a board. So it is hashed once.
        if not self._hash:
            value = hash(tuple(getattr(self, name) for name in _COMPARED)) or 1
            object.__setattr__(self, "_hash", value)
        return self._hash

    def scaled(self, factor: float) -> Theme:
        """Returns the theme with every size multiplied by ``factor`` (rounded to whole pixels)."""
        sizes = {name: max(round(getattr(self, name) * factor), 1) for name in _SIZES}
        return replace(self, **sizes)


_SIZES: Final = (
    "checker",
    "point_width",
    "point_length",
    "bar_width",
    "frame",
    "number_band",
    "tray_width",
    "info_height",
    "gap",
    "die",
    "small_die",
    "cube",
    "borne_off_slab",
)

_COMPARED: Final = tuple(f.name for f in fields(Theme) if f.compare)
"""The fields that make a theme what it is: what :meth:`Theme.__hash__` hashes."""

DEFAULT_THEME: Final = Theme()
