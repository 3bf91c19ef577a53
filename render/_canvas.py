"""A board as a list of pastes on a cached background, drawn whole or a part at a time.

Everything on a board is a paste: a sprite with its own alpha, an opaque patch, a colour
through a text mask, a colour into a box. :class:`Canvas` keeps them in order instead of
drawing them at once, so that :mod:`render._tiles` can tell which parts of the picture are the
same as on a board it encoded before (the same pastes touch them) and draw only the others.

A paste's source and mask are Pillow images that nobody draws on after they are made (the
sprite and text caches' images, the background): a paste is known by their identity, which
is what makes comparing boards cheap.
"""

from __future__ import annotations

from typing import TypeAlias

from PIL import Image

Box: TypeAlias = tuple[int, int, int, int]
Colour: TypeAlias = tuple[int, ...]
Paste: TypeAlias = tuple[Image.Image | Colour, Box, Image.Image | None]
"""What is pasted (an image or a colour), where (left, upper, right, lower) and through what
mask: ``None`` covers the box (an opaque patch, a colour filling a box); a sprite with alpha
is pasted through itself."""


class Canvas:
    """Pastes recorded on ``background``; :meth:`draw` makes the picture, or a part of it."""

    __slots__ = ("background", "height", "pastes", "width")

    def __init__(self, background: Image.Image) -> None:
        self.background = background
        self.width, self.height = background.size
        self.pastes: list[Paste] = []

    def paste(
        self,
        source: Image.Image | Colour,
        where: tuple[int, int] | Box,
        mask: Image.Image | None = None,
    ) -> None:
        """Records a paste, as :meth:`PIL.Image.Image.paste` takes it: an image at its top left
        corner or in a box of its size, or a colour in a box."""
        if len(where) == 2:
            if not isinstance(source, Image.Image):
                raise TypeError("a colour is pasted into a box, not at a corner")
            x, y = where[0], where[1]
            box = (x, y, x + source.width, y + source.height)
        else:
            box = (where[0], where[1], where[2], where[3])
        self.pastes.append((source, box, mask))

    def draw(self, box: Box | None = None) -> Image.Image:
        """Returns the part of the picture in ``box`` (the whole picture by default) as a new
        RGB image: that part of the background with every paste that reaches into it, in
        order."""
        left, top, right, bottom = box or (0, 0, self.width, self.height)
        image = self.background.crop((left, top, right, bottom))
        for source, (x0, y0, x1, y1), mask in self.pastes:
            if y1 > top and y0 < bottom and x1 > left and x0 < right:
                image.paste(source, (x0 - left, y0 - top, x1 - left, y1 - top), mask)
        return image
