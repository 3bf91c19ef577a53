"""Line charts as PNG: a player's PR and luck trend (``/stats``) and a game's per-turn equity
and luck (its analysis). :func:`render_chart` draws panels stacked one above the other, each
with its title (the chart's whole width, a second line when it needs one), a legend under it,
a few gridlines with their values, a zero line where zero is in range, and its series as lines
(with dots while they are few), coloured from :data:`CHART`'s palette.

Render decides nothing: the caller hands in the titles and names (translated) and the values;
a series may be shorter than another (a variant with fewer games), each starts at the left.
PNG with a small palette, for the reasons the tournament pictures give
(:mod:`render.tournament`): flat colours and thin lines, which JPEG would blur.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from PIL import Image, ImageDraw

from . import _text
from .theme import DEFAULT_THEME, RGB

CHART_FILE_NAME: Final = "chart.png"
DOTS_UP_TO: Final = 40
"""Points a series may have and still get a dot each."""
TITLE_LINES: Final = 2
"""Lines a panel's title may take (see :func:`title_lines`)."""


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its name in the legend and its values, left to right."""

    name: str
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Panel:
    """One chart: its title and its lines."""

    title: str
    series: tuple[Series, ...]


@dataclass(frozen=True, slots=True)
class ChartTheme:
    """Sizes and colours of the charts."""

    width: int = 640
    panel_height: int = 210
    margin: int = 14
    left: int = 52
    """Room for the gridlines' values."""
    title_size: int = 17
    label_size: int = 13
    background: RGB = (250, 247, 240)
    plot: RGB = (255, 255, 255)
    grid: RGB = (225, 220, 210)
    zero: RGB = (120, 110, 100)
    ink: RGB = (40, 35, 30)
    palette: tuple[RGB, ...] = field(
        default=((200, 60, 40), (40, 100, 190), (40, 150, 80), (170, 110, 20), (120, 60, 160))
    )
    font_regular: str = DEFAULT_THEME.font_regular
    font_bold: str = DEFAULT_THEME.font_bold


CHART: Final = ChartTheme()


def render_chart(
    panels: Sequence[Panel],
    *,
    theme: ChartTheme = CHART,
    number: Callable[[float], str] | None = None,
) -> bytes:
    """The panels, one above the other, as PNG bytes (see :func:`chart_image`)."""
    return encode(chart_image(panels, theme=theme, number=number))


def chart_image(
    panels: Sequence[Panel],
    *,
    theme: ChartTheme = CHART,
    number: Callable[[float], str] | None = None,
) -> Image.Image:
    """The panels drawn on one image (for the golden tests; :func:`render_chart` encodes it).
    ``number`` writes a gridline's value as the reader writes numbers (``0,5`` in Russian); by
    default as English does, with the real minus sign."""
    t = theme
    image = Image.new("RGB", (t.width, max(1, len(panels)) * t.panel_height), t.background)
    for index, panel in enumerate(panels):
        _panel(image, panel, index * t.panel_height, t, number or tick_text)
    return image


def ticks(low: float, high: float, count: int = 5) -> tuple[float, ...]:
    """Round values for ``count`` or so gridlines from ``low`` to ``high``: steps of 1, 2 or
    5 times a power of ten.

    >>> ticks(0, 10), ticks(-0.8, 1.3)
    ((0.0, 2.0, 4.0, 6.0, 8.0, 10.0), (-0.5, 0.0, 0.5, 1.0))
    """
    span = max(high - low, 1e-9)
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9)
    found = []
    n = first
    while n * step <= high + 1e-9:
        found.append(round(n * step, 10) + 0.0)
        n += 1
    return tuple(found)


def value_range(panel: Panel) -> tuple[float, float]:
    """The panel's vertical range: its values with a tenth more on each side (at least 1
    wide)."""
    values = [v for s in panel.series for v in s.values]
    if not values:
        return (-1.0, 1.0)
    low, high = min(values), max(values)
    if high - low < 1.0:
        middle = (high + low) / 2
        low, high = middle - 0.5, middle + 0.5
    pad = (high - low) / 10
    return (low - pad, high + pad)


def _panel(
    image: Image.Image, panel: Panel, top: int, t: ChartTheme, number: Callable[[float], str]
) -> None:
    draw = ImageDraw.Draw(image)
    y = top + t.margin
    for line in title_lines(panel.title, t):
        _write(image, line, (t.margin, y + t.title_size // 2), t, bold=True)
        y += t.title_size + 4
    legend_y = y + t.label_size // 2 + 2
    head = (legend_y - top) + t.label_size // 2 + 8 if panel.series else y - top + 4
    box = (t.left, top + head, t.width - t.margin, top + t.panel_height - t.margin)
    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=t.plot, outline=t.grid)
    low, high = value_range(panel)

    def y_of(value: float) -> float:
        return box[3] - 1 - (value - low) / (high - low) * (box[3] - box[1] - 2)

    for tick in ticks(low, high):
        tick_y = round(y_of(tick))
        colour = t.zero if tick == 0 else t.grid
        draw.line((box[0], tick_y, box[2] - 1, tick_y), fill=colour, width=1)
        _write(image, number(tick), (box[0] - 6, tick_y), t, anchor="rm")
    longest = max((len(s.values) for s in panel.series), default=0)
    step = (box[2] - box[0] - 16) / max(1, longest - 1)
    legend_x = t.left
    for index, series in enumerate(panel.series):
        colour = t.palette[index % len(t.palette)]
        points = [(box[0] + 8 + i * step, y_of(v)) for i, v in enumerate(series.values)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        if len(points) <= DOTS_UP_TO:
            for px, py in points:
                draw.ellipse((px - 3, py - 3, px + 3, py + 3), fill=colour)
        # the legend, left to right on its own line under the title
        draw.rectangle((legend_x, legend_y - 6, legend_x + 12, legend_y + 6), fill=colour)
        name = _text.printable(series.name, t.font_regular)
        _write(image, series.name, (legend_x + 18, legend_y), t)
        width = int(_text.font(t.font_regular, t.label_size).getbbox(name)[2]) if name else 0
        legend_x += 18 + min(width, t.width // 3) + 18


def title_lines(title: str, t: ChartTheme = CHART) -> list[str]:
    """The panel's title in as many lines of the chart's width as it needs, at most
    :data:`TITLE_LINES` (what still does not fit is cut with an ellipsis): a title is never
    cut short of a line's room, in any language."""
    face = _text.font(t.font_bold, t.title_size)
    room = t.width - 2 * t.margin
    words = _text.printable(title, t.font_bold).split(" ")
    lines: list[str] = []
    for word in words:
        if lines and face.getlength(lines[-1] + " " + word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > TITLE_LINES:
        lines = [*lines[: TITLE_LINES - 1], " ".join(lines[TITLE_LINES - 1 :])]
    return lines


def tick_text(value: float) -> str:
    """A gridline's value: whole numbers without decimals, the others with what they need, a
    negative one with the real minus sign.

    >>> tick_text(2.0), tick_text(-0.5), tick_text(0.25)
    ('2', '−0.5', '0.25')
    """
    text = str(int(abs(value))) if value == int(value) else f"{abs(value):g}"
    return "\N{MINUS SIGN}" + text if value < 0 else text


def tick_decimals(value: float) -> int:
    """How many decimals :func:`tick_text` writes for ``value``."""
    text = f"{abs(value):g}"
    return 0 if value == int(value) or "." not in text else len(text.split(".")[1])


def _write(
    image: Image.Image,
    text: str,
    xy: tuple[int, int],
    t: ChartTheme,
    *,
    bold: bool = False,
    anchor: str = "lm",
) -> None:
    path = t.font_bold if bold else t.font_regular
    size = t.title_size if bold else t.label_size
    room = t.width - 2 * t.margin if bold else t.width // 3  # a title's line, a name, a value
    shown = _text.fit(_text.printable(text, path), path, size, room)
    _text.draw(image, xy, shown, path=path, size=size, fill=t.ink, anchor=anchor)


def encode(image: Image.Image) -> bytes:
    """PNG with a palette of 64 colours (fast octree, no dithering)."""
    palette = image.quantize(64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, "PNG")
    return out.getvalue()
