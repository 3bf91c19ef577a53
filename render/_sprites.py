"""The static pictures a board is assembled from, drawn once per theme and cached.

Everything is drawn ``theme.supersample`` times larger and scaled down, which smooths the edges
that ImageDraw leaves jagged. The images returned are shared by every thread: paste from them,
never draw on them.
"""

from __future__ import annotations

import functools
import math
import random

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.engine import Side

from . import _text
from .layout import layout
from .theme import RGB, RGBA, Theme

_WOOD_SEED = 1795
"""Seed of the wood grain: the background is the same on every run."""


def _smooth(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    return big.resize(size, Image.Resampling.LANCZOS)


def _shade(colour: RGB, factor: float) -> RGB:
    """Returns ``colour`` lighter (factor > 1) or darker (factor < 1)."""
    if factor >= 1:
        return tuple(round(c + (255 - c) * (factor - 1)) for c in colour)  # type: ignore[return-value]
    return tuple(round(c * factor) for c in colour)  # type: ignore[return-value]


def _grain(size: tuple[int, int], seed: int, vertical: bool) -> Image.Image:
    """Returns a soft ``L`` pattern of streaks along one axis, like the grain of a plank."""
    rng = random.Random(seed)
    width, height = size
    cells = (max(width // 5, 1), 6) if vertical else (6, max(height // 5, 1))
    noise = Image.frombytes(
        "L", cells, bytes(rng.randrange(256) for _ in range(cells[0] * cells[1]))
    )
    return noise.resize(size, Image.Resampling.BICUBIC)


def _wood(
    size: tuple[int, int], colour: RGB, seed: int, vertical: bool, depth: float
) -> Image.Image:
    """Returns a plank of ``colour`` with a grain ``depth`` darker at its darkest."""
    light = Image.new("RGB", size, _shade(colour, 1 + depth / 3))
    dark = Image.new("RGB", size, _shade(colour, 1 - depth))
    return Image.composite(light, dark, _grain(size, seed, vertical))


@functools.cache
def background(theme: Theme) -> Image.Image:
    """Returns the board without checkers: table, frame, field, points, bar, trays, numbers.

    It is the same for both variants and both perspectives, since the layout is drawn in the
    viewer's numbering.
    """
    geo = layout(theme)
    s = theme.supersample
    size = (geo.width, geo.height)

    image = Image.new("RGB", size, theme.table)
    # The wooden box: the frame, then the field halves, the bar and the tray wells on it.
    box = (0, theme.info_height, geo.width, geo.height - theme.info_height)
    frame = _wood((box[2] - box[0], box[3] - box[1]), theme.frame_wood, _WOOD_SEED, False, 0.18)
    image.paste(frame, box[:2])
    draw = ImageDraw.Draw(image)
    draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=theme.frame_dark, width=3)
    for right in (False, True):
        half = geo.half_box(right)
        field = _wood(
            (half[2] - half[0], half[3] - half[1]),
            theme.field_wood,
            _WOOD_SEED + right + 1,
            True,
            0.07,
        )
        image.paste(field, half[:2])
    bar = geo.bar_box
    image.paste(
        _wood((bar[2] - bar[0], bar[3] - bar[1]), theme.bar_wood, _WOOD_SEED + 5, True, 0.2),
        bar[:2],
    )
    for top in (True, False):
        tray = geo.tray_box(top)
        well = _wood(
            (tray[2] - tray[0], tray[3] - tray[1]),
            theme.tray_wood,
            _WOOD_SEED + 7 + top,
            True,
            0.12,
        )
        image.paste(well, tray[:2])

    # Points, each drawn large in a patch of its own and smoothed, over the field: one
    # supersampled layer of the whole board would take about 100 MB while it is drawn.
    for point in range(1, 25):
        colour = theme.point_dark if point % 2 else theme.point_light
        (x0, y0), (x1, y1), (xt, yt) = geo.triangle(point)
        origin_x, origin_y = min(x0, xt) - 2, min(y0, yt) - 2
        patch = (max(x1, xt) + 2 - origin_x, max(y0, yt) + 2 - origin_y)
        layer = Image.new("RGBA", (patch[0] * s, patch[1] * s), (0, 0, 0, 0))
        pen = ImageDraw.Draw(layer)
        triangle = ((x0, y0), (x1, y1), (xt, yt))
        corners = [((x - origin_x) * s, (y - origin_y) * s) for x, y in triangle]
        inset = s * 3
        (a0, b0), (a1, b1), (at, bt) = corners
        pen.polygon(
            [(a0 + inset, b0), (a1 - inset, b1), (at, bt)], fill=(*_shade(colour, 0.78), 255)
        )
        inner = [
            (a0 + inset + 2 * s, b0),
            (a1 - inset - 2 * s, b1),
            (at, bt - 3 * s if bt > b0 else bt + 3 * s),
        ]
        pen.polygon(inner, fill=(*colour, 255))
        smooth = _smooth(layer, patch)
        image.paste(smooth, (origin_x, origin_y), smooth)

    # Inner shadows along the edges of the field, the bar and the trays.
    shadow = Image.new("L", size, 0)
    sd = ImageDraw.Draw(shadow)
    for edge in (
        geo.half_box(False),
        geo.half_box(True),
        *(geo.tray_box(t) for t in (True, False)),
    ):
        sd.rectangle((edge[0], edge[1], edge[2] - 1, edge[3] - 1), outline=120, width=4)
    shadow = shadow.filter(ImageFilter.GaussianBlur(3))
    clip = Image.new("L", size, 0)
    cd = ImageDraw.Draw(clip)
    for edge in (
        geo.half_box(False),
        geo.half_box(True),
        *(geo.tray_box(t) for t in (True, False)),
    ):
        cd.rectangle((edge[0], edge[1], edge[2] - 1, edge[3] - 1), fill=255)
    shadow = ImageChops.multiply(shadow, clip)
    image.paste((0, 0, 0), (0, 0), shadow)
    draw = ImageDraw.Draw(image)
    for edge in (
        geo.half_box(False),
        geo.half_box(True),
        geo.bar_box,
        *(geo.tray_box(t) for t in (True, False)),
    ):
        draw.rectangle(
            (edge[0] - 1, edge[1] - 1, edge[2], edge[3]), outline=theme.frame_dark, width=1
        )

    # Point numbers in the viewer's numbering.
    for point in range(1, 25):
        _text.draw(
            image,
            geo.number_xy(point),
            str(point),
            path=theme.font_bold,
            size=theme.number_band * 2 // 3,
            fill=theme.number,
            anchor="mm",
        )
    return image


def _disc(theme: Theme, diameter: int, face: RGB, rim: RGB) -> Image.Image:
    """Returns a shaded round checker of ``diameter`` as an RGBA image of that size."""
    s = theme.supersample
    big = diameter * s
    body = Image.new("RGB", (big, big), rim)
    pen = ImageDraw.Draw(body)
    edge = max(s * diameter // 26, s)
    pen.ellipse((edge, edge, big - 1 - edge, big - 1 - edge), fill=face)
    # A soft light from the upper left, a soft shade to the lower right.
    light = Image.new("L", (big, big), 0)
    ImageDraw.Draw(light).ellipse((big * 0.14, big * 0.1, big * 0.66, big * 0.58), fill=110)
    light = light.filter(ImageFilter.GaussianBlur(big / 9))
    body.paste(_shade(face, 1.35) if face[0] < 128 else (255, 255, 255), (0, 0), light)
    shade = Image.new("L", (big, big), 0)
    ImageDraw.Draw(shade).ellipse((big * 0.3, big * 0.36, big * 1.05, big * 1.05), fill=90)
    shade = shade.filter(ImageFilter.GaussianBlur(big / 8))
    ring = Image.new("L", (big, big), 255)
    ImageDraw.Draw(ring).ellipse((edge, edge, big - 1 - edge, big - 1 - edge), fill=0)
    shade = ImageChops.subtract(shade, ring)
    body.paste(_shade(face, 0.72), (0, 0), shade)
    # The groove of a turned checker.
    groove = big * 0.2
    ImageDraw.Draw(body).ellipse(
        (groove, groove, big - 1 - groove, big - 1 - groove),
        outline=_shade(face, 0.8),
        width=max(s * 2, 1),
    )
    ImageDraw.Draw(body).ellipse(
        (groove + 2 * s, groove + 2 * s, big - 1 - groove - 2 * s, big - 1 - groove - 2 * s),
        outline=_shade(face, 1.12),
        width=s,
    )
    alpha = Image.new("L", (big, big), 0)
    ImageDraw.Draw(alpha).ellipse((0, 0, big - 1, big - 1), fill=255)
    body.putalpha(alpha)
    return _smooth(body, (diameter, diameter))


def _colours(theme: Theme, side: Side) -> tuple[RGB, RGB, RGB]:
    """Returns the face, rim and label colours of ``side``'s checkers."""
    if side is Side.WHITE:
        return theme.white_checker, theme.white_rim, theme.white_label
    return theme.black_checker, theme.black_rim, theme.black_label


def label_colour(theme: Theme, side: Side) -> RGB:
    """Returns the colour of a count written on ``side``'s checker."""
    return _colours(theme, side)[2]


@functools.cache
def checker(theme: Theme, side: Side) -> Image.Image:
    """Returns ``side``'s checker, ``theme.checker`` wide, with its shadow: an RGBA image
    ``theme.checker + 2 * checker_margin(theme)`` wide."""
    d = theme.checker
    m = checker_margin(theme)
    face, rim, _ = _colours(theme, side)
    sprite = Image.new("RGBA", (d + 2 * m, d + 2 * m), (0, 0, 0, 0))
    shadow = Image.new("L", sprite.size, 0)
    ImageDraw.Draw(shadow).ellipse((m + 1, m + 4, m + d + 1, m + d + 3), fill=150)
    shadow = shadow.filter(ImageFilter.GaussianBlur(3))
    sprite.paste((0, 0, 0, 255), (0, 0), shadow)
    sprite.putalpha(shadow)
    disc = _disc(theme, d, face, rim)
    sprite.alpha_composite(disc, (m, m))
    return sprite


@functools.lru_cache(maxsize=256)
def column(theme: Theme, side: Side, count: int, spacing: int, downward: bool) -> Image.Image:
    """Returns ``count`` of ``side``'s checkers stacked ``spacing`` apart, each over the one
    before it: one sprite per column instead of one per checker.

    The first checker is at the top (``downward``) or at the bottom. The sprite is
    ``point_width`` wide, so that it never spills onto the next column; only the fringe of
    the shadow is cut.
    """
    single = checker(theme, side)
    length = single.height + spacing * (count - 1)
    image = Image.new("RGBA", (single.width, length), (0, 0, 0, 0))
    for i in range(count):
        y = i * spacing if downward else length - single.height - i * spacing
        image.alpha_composite(single, (0, y))
    cut = max((single.width - theme.point_width + 1) // 2, 0)
    return image.crop((cut, 0, single.width - cut, length)) if cut else image


@functools.lru_cache(maxsize=512)
def column_on_board(
    theme: Theme, side: Side, count: int, spacing: int, downward: bool, corner: tuple[int, int]
) -> Image.Image:
    """Returns :func:`column` already laid on the background with its top left at ``corner``:
    an opaque RGB patch that is pasted without a mask, several times faster than blending.
    Only for a column with nothing under it but the board."""
    sprite = column(theme, side, count, spacing, downward)
    x, y = corner
    patch = background(theme).crop((x, y, x + sprite.width, y + sprite.height))
    patch.paste(sprite, (0, 0), sprite)
    return patch


def checker_margin(theme: Theme) -> int:
    """Returns the room around a checker sprite for its shadow."""
    return max(theme.checker // 10, 4)


@functools.cache
def ghost(theme: Theme, side: Side) -> Image.Image:
    """Returns the faded outline of ``side``'s checker, marking where one stood before the last
    turn: an RGBA image ``theme.checker`` wide."""
    d, s = theme.checker, theme.supersample
    disc = _disc(theme, d, *_colours(theme, side)[:2])
    faded = disc.getchannel("A").point(lambda a: a * 45 // 100)
    disc.putalpha(faded)
    ring = Image.new("RGBA", (d * s, d * s), (0, 0, 0, 0))
    width = max(d * s // 22, s)
    colour = theme.last_from
    ImageDraw.Draw(ring).ellipse(
        (width // 2, width // 2, d * s - 1 - width // 2, d * s - 1 - width // 2),
        outline=colour,
        width=width,
    )
    disc.alpha_composite(_smooth(ring, (d, d)))
    return disc


@functools.cache
def ring(theme: Theme, colour: RGBA, scale: float, thickness: float) -> Image.Image:
    """Returns a ring ``scale`` times a checker wide, its line ``thickness`` of that width."""
    s = theme.supersample
    size = round(theme.checker * scale)
    big = size * s
    width = max(round(big * thickness), s)
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((0, 0, big - 1, big - 1), outline=colour, width=width)
    return _smooth(image, (size, size))


@functools.cache
def dot(theme: Theme, colour: RGB, small: bool = False) -> Image.Image:
    """Returns the dot marking a checker that arrived in the last turn (a small one for the
    tray)."""
    s = theme.supersample
    size = theme.borne_off_slab * 3 // 4 if small else theme.checker * 3 // 10
    big = size * s
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.ellipse((0, 0, big - 1, big - 1), fill=(30, 20, 10, 200))
    pen.ellipse((2 * s, 2 * s, big - 1 - 2 * s, big - 1 - 2 * s), fill=(*colour, 255))
    return _smooth(image, (size, size))


@functools.cache
def point_tint(theme: Theme, top: bool, colour: RGBA) -> Image.Image:
    """Returns a translucent triangle over a whole column, tip towards the centre: the
    highlight of a selectable or reachable point, ``point_width`` by half the field."""
    geo = layout(theme)
    s = theme.supersample
    width, height = theme.point_width, geo.middle - geo.field_top
    image = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    tip = (theme.point_length + theme.checker // 2) * s
    corners = [(0, 0), (width * s - 1, 0), (width * s // 2, tip)]
    ImageDraw.Draw(image).polygon(corners, fill=colour)
    image = _smooth(image, (width, height))
    return image if top else image.transpose(Image.Transpose.FLIP_TOP_BOTTOM)


@functools.cache
def box_tint(theme: Theme, size: tuple[int, int], colour: RGBA) -> Image.Image:
    """Returns a translucent rectangle of ``size``."""
    return Image.new("RGBA", size, colour)


@functools.cache
def slab(theme: Theme, side: Side) -> Image.Image:
    """Returns ``side``'s checker seen edge-on in the tray."""
    s = theme.supersample
    geo = layout(theme)
    left, top, right, bottom = geo.tray_slab(False, 0)
    width, height = right - left, bottom - top
    face, rim, _ = _colours(theme, side)
    big = Image.new("RGBA", (width * s, height * s), (0, 0, 0, 0))
    pen = ImageDraw.Draw(big)
    radius = height * s // 2 - s
    pen.rounded_rectangle((0, s, width * s - 1, height * s - 1 - s), radius, fill=rim)
    pen.rounded_rectangle(
        (2 * s, 3 * s, width * s - 1 - 2 * s, height * s - 1 - 3 * s), radius - 2 * s, fill=face
    )
    pen.line((4 * s, 5 * s, width * s - 4 * s, 5 * s), fill=_shade(face, 1.25), width=s)
    return _smooth(big, (width, height))


_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@functools.cache
def die(theme: Theme, value: int, spent: bool, small: bool = False) -> Image.Image:
    """Returns a die showing ``value``, greyed when its move has been played, with a shadow;
    ``small`` for the dice of a long move list."""
    s = theme.supersample
    size = theme.small_die if small else theme.die
    margin = size // 8
    full = size + 2 * margin
    big = full * s
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    shadow = Image.new("L", (big, big), 0)
    ImageDraw.Draw(shadow).rounded_rectangle(
        (
            margin * s + 2 * s,
            margin * s + 4 * s,
            (margin + size) * s + 2 * s,
            (margin + size) * s + 4 * s,
        ),
        size * s // 6,
        fill=0 if spent else 140,
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(3 * s))
    image.paste((0, 0, 0, 255), (0, 0), shadow)
    image.putalpha(shadow)
    face = theme.die_spent_face if spent else theme.die_face
    pip = theme.die_spent_pip if spent else theme.die_pip
    pen = ImageDraw.Draw(image)
    body = (margin * s, margin * s, (margin + size) * s - 1, (margin + size) * s - 1)
    pen.rounded_rectangle(body, size * s // 6, fill=(*_shade(face, 0.8), 255))
    inset = body[0] + s * 2, body[1] + s * 2, body[2] - s * 2, body[3] - s * 3
    pen.rounded_rectangle(inset, size * s // 6 - 2 * s, fill=(*face, 255))
    radius = size * s * 0.09
    for fx, fy in _PIPS[value]:
        cx, cy = (margin + fx * size) * s, (margin + fy * size) * s
        pen.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=(*pip, 255))
    return _smooth(image, (full, full))


@functools.cache
def struck_die(theme: Theme, value: int) -> Image.Image:
    """Returns a greyed die showing ``value`` with a thin red cross over it, its pips still
    readable: the die the opponent struck (anti three dice)."""
    image = die(theme, value, True)
    s = theme.supersample
    big = image.resize((image.width * s, image.height * s), Image.Resampling.LANCZOS)
    cross = Image.new("RGBA", big.size, (0, 0, 0, 0))
    pen = ImageDraw.Draw(cross)
    margin = image.width * s // 6
    end = image.width * s - margin
    width = max(theme.die * s // 16, 1)
    colour = (*theme.struck, 210)
    pen.line((margin, margin, end, end), fill=colour, width=width)
    pen.line((margin, end, end, margin), fill=colour, width=width)
    return _smooth(Image.alpha_composite(big, cross), image.size)


@functools.cache
def banner(theme: Theme, size: tuple[int, int]) -> Image.Image:
    """Returns the translucent band the result is written on."""
    s = theme.supersample
    image = Image.new("RGBA", (size[0] * s, size[1] * s), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle(
        (0, 0, size[0] * s - 1, size[1] * s - 1),
        14 * s,
        fill=theme.banner,
        outline=(*theme.turn_marker, 255),
        width=3 * s,
    )
    return _smooth(image, size)


@functools.cache
def icon(theme: Theme, side: Side) -> Image.Image:
    """Returns ``side``'s small checker for its info band."""
    size = theme.info_height // 2
    return _disc(theme, size, *_colours(theme, side)[:2])


def cube_margin(theme: Theme) -> int:
    """Returns the room around a cube sprite for its shadow and its outline when offered."""
    return max(theme.cube // 6, 4)


@functools.lru_cache(maxsize=32)
def cube(theme: Theme, face: int, offered: bool) -> Image.Image:
    """Returns the doubling cube showing ``face`` (2..64), with a shadow, and with an outline
    in ``theme.cube_offered`` when it is ``offered``: an RGBA image
    ``theme.cube + 2 * cube_margin(theme)`` wide."""
    s = theme.supersample
    size = theme.cube
    margin = cube_margin(theme)
    full = size + 2 * margin
    big = full * s
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    body = (margin * s, margin * s, (margin + size) * s - 1, (margin + size) * s - 1)
    radius = size * s // 6
    shadow = Image.new("L", (big, big), 0)
    ImageDraw.Draw(shadow).rounded_rectangle(
        (body[0] + s, body[1] + 3 * s, body[2] + s, body[3] + 3 * s), radius, fill=150
    )
    shadow = shadow.filter(ImageFilter.GaussianBlur(2 * s))
    image.paste((0, 0, 0, 255), (0, 0), shadow)
    image.putalpha(shadow)
    pen = ImageDraw.Draw(image)
    if offered:
        reach = margin * s - s
        pen.rounded_rectangle(
            (body[0] - reach, body[1] - reach, body[2] + reach, body[3] + reach),
            radius + reach,
            outline=(*theme.cube_offered, 255),
            width=3 * s,
        )
    pen.rounded_rectangle(body, radius, fill=(*_shade(theme.cube_face, 0.74), 255))
    inset = (body[0] + 2 * s, body[1] + 2 * s, body[2] - 2 * s, body[3] - 3 * s)
    pen.rounded_rectangle(inset, radius - 2 * s, fill=(*theme.cube_face, 255))
    text = str(face)
    points = size * (13 if len(text) == 1 else 11) // 23
    centre = ((body[0] + body[2]) // 2, (body[1] + inset[3]) // 2)
    _text.draw(
        image,
        centre,
        text,
        path=theme.font_bold,
        size=points * s,
        fill=theme.cube_digit,
        anchor="mm",
    )
    return _smooth(image, (full, full))


@functools.lru_cache(maxsize=64)
def plate(theme: Theme, size: tuple[int, int]) -> Image.Image:
    """Returns the rounded plate the match label is written on."""
    s = theme.supersample
    image = Image.new("RGBA", (size[0] * s, size[1] * s), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, size[0] * s - 1, size[1] * s - 1),
        size[1] * s // 2,
        fill=(*theme.label_fill, 255),
        outline=(*theme.label_edge, 255),
        width=2 * s,
    )
    return _smooth(image, size)


@functools.lru_cache(maxsize=256)
def arrow(
    theme: Theme, start: tuple[int, int], end: tuple[int, int], bend: int, colour: RGB
) -> tuple[Image.Image, tuple[int, int]]:
    """Returns an arrow from ``start`` to ``end`` (board pixels), curved ``bend`` pixels to
    the left of its way (negative: to the right), with a dark edge that shows on any wood,
    and the board position of the image's top left corner."""
    s = theme.supersample
    (x0, y0), (x1, y1) = start, end
    length = max(math.hypot(x1 - x0, y1 - y0), 1.0)
    nx, ny = (y0 - y1) / length, (x1 - x0) / length  # the left of the way, on the board
    control = ((x0 + x1) / 2 + nx * bend, (y0 + y1) / 2 + ny * bend)
    width, head = theme.arrow_width, theme.arrow_width * 3
    curve = [_bezier(start, control, end, i / 24) for i in range(25)]
    # the line stops where the head begins; the head points along the curve's last stretch
    tx, ty = end[0] - curve[-3][0], end[1] - curve[-3][1]
    tangent = max(math.hypot(tx, ty), 1.0)
    ux, uy = tx / tangent, ty / tangent
    base = (end[0] - ux * head, end[1] - uy * head)
    body = [p for p in curve if math.hypot(p[0] - end[0], p[1] - end[1]) > head] + [base]
    tip = [
        end,
        (base[0] - uy * head * 0.55, base[1] + ux * head * 0.55),
        (base[0] + uy * head * 0.55, base[1] - ux * head * 0.55),
    ]
    pad = head + width
    left = int(min(p[0] for p in curve) - pad)
    top = int(min(p[1] for p in curve) - pad)
    right = int(max(p[0] for p in curve) + pad)
    bottom = int(max(p[1] for p in curve) + pad)
    size = (right - left, bottom - top)
    image = Image.new("RGBA", (size[0] * s, size[1] * s), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)

    def scaled(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [((x - left) * s, (y - top) * s) for x, y in points]

    edge = (24, 16, 10, 200)
    for fill, extra in ((edge, 2 * s), ((*colour, 255), 0)):
        pen.line(scaled(body), fill=fill, width=width * s + extra, joint="curve")
        pen.polygon(scaled(tip), fill=fill, outline=fill, width=max(extra, 1))
    return _smooth(image, size), (left, top)


def _bezier(
    start: tuple[float, float], control: tuple[float, float], end: tuple[float, float], t: float
) -> tuple[float, float]:
    """The point at ``t`` (0..1) of the quadratic Bézier curve through ``control``."""
    u = 1 - t
    return (
        u * u * start[0] + 2 * u * t * control[0] + t * t * end[0],
        u * u * start[1] + 2 * u * t * control[1] + t * t * end[1],
    )
