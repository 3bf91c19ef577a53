"""Text on the board: the fonts, which characters they can draw, and cached text masks.

Player names come from Telegram and may hold emoji, flags or any script. The shipped font
(DejaVu Sans) draws Latin (Azerbaijani's ə ğ ş too), Cyrillic (Kazakh's қ ә ү, Ukrainian's ї є ґ),
Armenian, Georgian and much more, so every language of the bot, but no emoji (a test compares
each letter of every catalog with the font's .notdef box); a character the font lacks would
come out as a box, so :func:`printable` draws a stand-in or drops it, reading the font's own
character map (``cmap``).

FreeType faces are not meant to be shared by threads at once, so every use of a font goes
through one lock. Text is drawn once into a mask and cached: names repeat on every board of a
game, so the lock is taken only on a cache miss.
"""

from __future__ import annotations

import functools
import struct
import threading
import unicodedata
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from ._canvas import Canvas

_FONT_LOCK: Final = threading.Lock()
_DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


@functools.cache
def font(path: str, size: int) -> ImageFont.FreeTypeFont:
    """Returns the font at ``path`` in ``size`` pixels, loaded once.

    The basic layout engine is used even where libraqm is installed, so that the same text
    gives the same pixels on every machine.
    """
    with _FONT_LOCK:
        return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def coverage(path: str) -> frozenset[int]:
    """Returns the code points that the TrueType font at ``path`` has glyphs for."""
    with open(path, "rb") as file:
        data = file.read()
    return frozenset(_parse_cmap(data))


def _parse_cmap(data: bytes) -> set[int]:
    (num_tables,) = struct.unpack_from(">H", data, 4)
    cmap = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise ValueError("the font has no cmap table")
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    subtables: dict[int, int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3)):
            fmt = struct.unpack_from(">H", data, cmap + offset)[0]
            subtables.setdefault(fmt, cmap + offset)
    if 12 in subtables:
        return _format12(data, subtables[12])
    if 4 in subtables:
        return _format4(data, subtables[4])
    raise ValueError("the font has no Unicode cmap of format 4 or 12")


def _format4(data: bytes, at: int) -> set[int]:
    (seg_x2,) = struct.unpack_from(">H", data, at + 6)
    segs = seg_x2 // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * seg_x2)
    range_at = at + 16 + 3 * seg_x2
    range_offsets = struct.unpack_from(f">{segs}H", data, range_at)
    points: set[int] = set()
    for i, (start, end, delta, range_offset) in enumerate(
        zip(starts, ends, deltas, range_offsets, strict=True)
    ):
        for code in range(start, end + 1):
            if code == 0xFFFF:
                continue
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                where = range_at + 2 * i + range_offset + 2 * (code - start)
                glyph = struct.unpack_from(">H", data, where)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                points.add(code)
    return points


def _format12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    points: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
        points.update(range(start + (glyph == 0), end + 1))
    return points


@functools.lru_cache(maxsize=1024)
def printable(text: str, path: str) -> str:
    """Returns ``text`` without what the font at ``path`` cannot draw.

    A letter the font lacks is drawn as its compatibility form (NFKC: the "𝓐𝓵𝓲" and "Ａｌｉ"
    of decorated Telegram names read "Ali") or as its lower case (Georgian Mtavruli capitals,
    "ᲜᲐᲠᲓᲘ", which DejaVu lacks, as the Mkhedruli "ნარდი"), when the font has those. Drops the
    other characters missing from the font (emoji, most symbols outside its range), control
    and format characters (zero-width joiners, variation selectors, direction marks), and
    squeezes runs of white space into one space.

    >>> from render.theme import DEFAULT_THEME
    >>> printable("Ас🔥 я  Bob\u200d", DEFAULT_THEME.font_regular)
    'Ас я Bob'
    >>> printable("ᲒᲘᲝᲠᲒᲘ 𝓐𝓵𝓲", DEFAULT_THEME.font_regular)
    'გიორგი Ali'
    """
    have = coverage(path)
    kept = [_drawable(ch, have) for ch in text]
    return " ".join("".join(kept).split())


def _drawable(ch: str, have: frozenset[int]) -> str:
    """``ch`` as the font can draw it: itself, a stand-in (see :func:`printable`), a space for
    white space, or nothing."""
    if ch.isspace():
        return " "
    if unicodedata.category(ch) in _DROPPED_CATEGORIES:
        return ""
    if ord(ch) in have:
        return ch
    for stand_in in (unicodedata.normalize("NFKC", ch), ch.lower()):
        if stand_in != ch and all(ord(c) in have and not c.isspace() for c in stand_in):
            return stand_in
    return ""


@functools.lru_cache(maxsize=1024)
def fit(text: str, path: str, size: int, width: int) -> str:
    """Returns ``text`` cut with an ellipsis so that it is at most ``width`` pixels long."""
    face = font(path, size)
    with _FONT_LOCK:
        if face.getlength(text) <= width:
            return text
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if face.getlength(text[:mid].rstrip() + "…") <= width:
                low = mid
            else:
                high = mid - 1
    return text[:low].rstrip() + "…"


@functools.lru_cache(maxsize=1024)
def mask(text: str, path: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """Returns ``text`` drawn white on black as an ``L`` image, with the offset of its top left
    corner from the anchor point (Pillow's anchors: ``"lm"``, ``"mm"``, ``"rm"`` ...).

    The image is shared by every caller: paste from it, never draw on it.
    """
    face = font(path, size)
    with _FONT_LOCK:
        left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor=anchor))
        image = Image.new("L", (max(right - left, 1), max(bottom - top, 1)))
        ImageDraw.Draw(image).text((-left, -top), text, fill=255, font=face, anchor=anchor)
    return image, left, top


def draw(
    canvas: Canvas | Image.Image,
    xy: tuple[int, int],
    text: str,
    *,
    path: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """Draws ``text`` (already :func:`printable`) on ``canvas`` (a board's, or a sprite
    being made) at ``xy`` with ``anchor``."""
    if not text:
        return
    glyphs, dx, dy = mask(text, path, size, anchor)
    x, y = xy[0] + dx, xy[1] + dy
    canvas.paste(fill, (x, y, x + glyphs.width, y + glyphs.height), glyphs)
