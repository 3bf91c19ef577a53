"""Animated boards: :func:`render_animation` draws a sequence of boards as one animated GIF.

GIF because Telegram shows a GIF sent as an animation playing and looping in every client. The
frames are made cheap to store and exact to decode:

- one palette for every frame: the theme's marks in their exact colours, and the rest of 255
  colours chosen (median cut) from the first, the middle and the last board together; the 256th
  index is kept for "unchanged";
- no dithering, so a part of the board that did not change keeps its indices;
- every frame after the first writes only what changed, within the box of the changes, the
  rest transparent over the last frame (GIF disposal 1); one pixel is always written, so every
  board makes its frame.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageChops

from bot.engine import Position

from .board import BoardView, render_image
from .theme import Theme

ANIMATION_FORMAT: Final = "GIF"
ANIMATION_FILE_NAME: Final = "replay.gif"
ANIMATION_MIME_TYPE: Final = "image/gif"
COLOURS: Final = 255
"""Colours of the shared palette; index 255 stands for "as in the frame before"."""
UNCHANGED: Final = 255


def render_animation(
    frames: Sequence[tuple[Position, BoardView]], durations: Sequence[int]
) -> bytes:
    """Returns the boards of ``frames`` as one looping animated GIF, each shown for its
    ``durations`` in milliseconds (see the module docstring). Pure and synchronous, like
    :func:`~render.board.render_board`: run it on a worker thread.

    :raises: :exc:`ValueError` for no frames, or durations that do not match them.
    """
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if len(durations) != len(frames) or any(d <= 0 for d in durations):
        raise ValueError(f"{len(frames)} frames need as many positive durations: {durations}")
    images = [render_image(position, view=view) for position, view in frames]
    palette = _palette(images, frames[0][1].theme)
    indexed = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    written = [indexed[0]]
    for number, (before, after) in enumerate(zip(indexed, indexed[1:], strict=False)):
        # the same index as before (difference 0) becomes "unchanged"
        same = ImageChops.subtract_modulo(after, before).point([255] + [0] * 255, "1")
        frame = after.copy()
        frame.paste(UNCHANGED, mask=same)
        # one pixel as it is, at one corner or the other in turn: no frame is ever the same as
        # the one before it, which a GIF writer would merge into that one
        corner = (number % 2, 0)
        index = after.getpixel(corner)
        assert isinstance(index, int)  # a palette image's pixel is its index
        frame.putpixel(corner, index)
        written.append(frame)
    out = io.BytesIO()
    written[0].save(
        out,
        ANIMATION_FORMAT,
        save_all=True,
        append_images=written[1:],
        duration=list(durations),
        loop=0,
        transparency=UNCHANGED,
        disposal=1,
        optimize=False,
    )
    return out.getvalue()


def _palette(images: Sequence[Image.Image], theme: Theme) -> Image.Image:
    """The shared palette: the theme's marks in their own colours, and median cut over the
    first, the middle and the last image for the rest."""
    marks = list(dict.fromkeys(colour[:3] for colour in _marks(theme)))
    picked = [images[0], images[len(images) // 2], images[-1]]
    width, height = picked[0].size
    sample = Image.new("RGB", (width * len(picked), height))
    for index, image in enumerate(picked):
        sample.paste(image, (index * width, 0))
    cut = sample.quantize(COLOURS - len(marks), method=Image.Quantize.MEDIANCUT)
    found = (cut.getpalette() or [])[: 3 * (COLOURS - len(marks))]
    found += [value for colour in marks for value in colour]
    found += found[:3] * (COLOURS - len(found) // 3)  # a cut of fewer colours: repeat one
    palette = Image.new("P", (1, 1))
    palette.putpalette(found)
    return palette


def _marks(theme: Theme) -> tuple[tuple[int, ...], ...]:
    """The colours that must stay exact however few pixels have them: a small dot or a ring
    would otherwise take a colour of the wood around it."""
    return (
        theme.last_to,
        theme.last_from,
        theme.turn_marker,
        theme.target,
        theme.selected,
        theme.struck,
        theme.cube_offered,
        theme.die_face,
        theme.die_pip,
        theme.die_spent_face,
        theme.die_spent_pip,
        theme.white_checker,
        theme.black_checker,
        theme.text,
    )
