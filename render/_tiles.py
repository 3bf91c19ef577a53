"""A board's JPEG joined from tiles, each drawn and encoded once and cached.

Baseline JPEG with a restart marker after every tile's blocks (a tile: a third of a row of
16×16 blocks, 304×16 pixels of a 912 pixels wide board) codes each tile on its own, so a
picture's JPEG is its header, every tile's data in raster order with the markers RST0…RST7 in
turn, and EOI: byte for byte what libjpeg writes for the whole picture (a test holds the two
equal). A tile's key names what reaches into it, in order (:class:`render._canvas.Canvas`): the
identity of each image pasted and of its mask, or the colour, and the box. A board costs the
keys, the tiles not in the cache and the join. The cache is LRU and holds :data:`CACHE_BYTES` of
coded data; an entry keeps the images its key names alive.
"""

from __future__ import annotations

import functools
import io
import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Final, TypeAlias

from PIL import Image

from ._canvas import Canvas, Paste

BLOCK: Final = 16
"""The side of a block of pixels coded together, with 4:2:0 chroma."""
ROWS: Final = BLOCK
"""Pixel rows per tile: one row of blocks."""
CACHE_BYTES: Final = 4 * 2**20
"""Coded data the tile cache keeps: the tiles of about 45 boards (see the module's note)."""
SUBSAMPLING: Final = "4:2:0"
"""Pillow's default for JPEG, named so that the tiles' height stays right."""

SPARE_TILES: Final = 3
"""Tiles found in the cache that may be encoded again to save starting one more picture
(about 65 µs here, against 25 µs a tile)."""

_SCAN: Final = 0xDA
_FRAME: Final = 0xC0
_RESTART: Final = re.compile(rb"\xff[\xd0-\xd7]")
_MARKERS: Final = tuple(bytes((0xFF, 0xD0 + n)) for n in range(8))
_END: Final = b"\xff\xd9"

Key: TypeAlias = tuple[object, ...]


class TileCache:
    """Coded tiles by key, least recently used first out, safe to share among threads."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        """Bytes of coded data held."""
        self.hits = 0
        self.misses = 0
        self._tiles: OrderedDict[Key, tuple[bytes, tuple[object, ...]]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._tiles)

    def get(self, keys: Sequence[Key]) -> list[bytes | None]:
        """Returns the coded tile of each of ``keys``, ``None`` for those not cached."""
        found: list[bytes | None] = []
        with self._lock:
            tiles = self._tiles
            for key in keys:
                tile = tiles.get(key)
                if tile is None:
                    found.append(None)
                else:
                    tiles.move_to_end(key)
                    found.append(tile[0])
            hits = len(keys) - found.count(None)
            self.hits += hits
            self.misses += len(keys) - hits
        return found

    def put(self, key: Key, data: bytes, keep: tuple[object, ...]) -> None:
        """Keeps ``data`` under ``key``, and ``keep`` (what the key names) alive with it."""
        with self._lock:
            if key in self._tiles:
                return
            self._tiles[key] = (data, keep)
            self.size += len(data)
            while self.size > self.limit:
                old, _ = self._tiles.popitem(last=False)[1]
                self.size -= len(old)

    def clear(self) -> None:
        with self._lock:
            self._tiles.clear()
            self.size = 0


CACHE: Final = TileCache()
"""The process's tile cache, shared by every board drawn."""


def tile_width(width: int) -> int:
    """Returns the width of the tiles of a ``width`` pixels wide board: a third, where that is
    whole blocks (912: 304 pixels, 19 blocks), else the whole width."""
    return width // 3 if width % (3 * BLOCK) == 0 else width


def encode(canvas: Canvas, quality: int, cache: TileCache = CACHE) -> bytes:
    """Returns the JPEG of ``canvas`` at ``quality``: the tiles found in ``cache`` as they are,
    the others drawn, encoded and added to it."""
    width, height = canvas.width, canvas.height
    tile = tile_width(width)
    columns = width // tile
    count = -(-height // ROWS) * columns
    background = id(canvas.background)
    keyed: list[list[object]] = [[background, quality, at] for at in range(count)]
    pasted: list[list[Paste]] = [[] for _ in range(count)]
    for paste in canvas.pastes:
        source, (left, upper, right, lower), mask = paste
        key = (
            source if isinstance(source, tuple) else id(source),
            left,
            upper,
            right,
            lower,
            0 if mask is None else id(mask),
        )
        first, last = max(left, 0) // tile, (min(right, width) - 1) // tile
        for row in range(max(upper, 0) // ROWS, (min(lower, height) - 1) // ROWS + 1):
            for at in range(row * columns + first, row * columns + last + 1):
                keyed[at].extend(key)
                pasted[at].append(paste)
    keys = [tuple(named) for named in keyed]
    coded = cache.get(keys)
    missing = [at for at, data in enumerate(coded) if data is None]
    if missing:
        for at, new in _encode_tiles(canvas, quality, tile, missing):
            coded[at] = new
            cache.put(keys[at], new, (canvas.background, *pasted[at]))
    parts = [_header(width, height, quality)]
    for at, data in enumerate(coded):
        if at:
            parts.append(_MARKERS[(at - 1) % 8])
        assert data is not None
        parts.append(data)
    parts.append(_END)
    return b"".join(parts)


def _encode_tiles(
    canvas: Canvas, quality: int, tile: int, missing: list[int]
) -> Iterator[tuple[int, bytes]]:
    """Yields the ``missing`` tiles (their numbers, in raster order), and maybe some cached
    ones among them, each with its coded data. Each span of them is drawn and encoded where
    it is, as a picture of its own: restart markers at the same blocks, and the picture's own
    edges where it reaches them, so the same blocks and the same padding."""
    columns = canvas.width // tile
    for first_row, last_row, first, last in _spans(missing, columns):
        box = (
            first * tile,
            first_row * ROWS,
            min((last + 1) * tile, canvas.width),
            min((last_row + 1) * ROWS, canvas.height),
        )
        tiles = [
            row * columns + column
            for row in range(first_row, last_row + 1)
            for column in range(first, last + 1)
        ]
        yield from zip(tiles, _scan(_jpeg(canvas.draw(box), quality, tile)), strict=True)


def _spans(missing: list[int], columns: int) -> list[tuple[int, int, int, int]]:
    """Returns rectangles of tiles (first and last row, first and last column) that cover the
    ``missing`` tiles: a row's missing tiles and those between them, joined to the rectangle
    of the row above when that encodes at most :data:`SPARE_TILES` tiles more than two
    pictures would (each picture costs what about three tiles do)."""
    spans: list[tuple[int, int, int, int]] = []
    for row, tiles in itertools.groupby(missing, key=lambda at: at // columns):
        found = [at % columns for at in tiles]
        first, last = found[0], found[-1]
        if spans and spans[-1][1] == row - 1:
            top, _, left, right = spans[-1]
            joined = min(left, first), max(right, last)
            spare = (row - top + 1) * (joined[1] - joined[0] + 1)
            spare -= (row - top) * (right - left + 1) + (last - first + 1)
            if spare <= SPARE_TILES:
                spans[-1] = (top, row, *joined)
                continue
        spans.append((row, row, first, last))
    return spans


def _jpeg(image: Image.Image, quality: int, tile: int) -> bytes:
    """Encodes ``image`` with a restart marker after every ``tile`` pixels of a row of blocks."""
    out = io.BytesIO()
    blocks = -(-tile // BLOCK)
    image.save(out, "JPEG", quality=quality, subsampling=SUBSAMPLING, restart_marker_blocks=blocks)
    return out.getvalue()


def _scan_start(data: bytes) -> tuple[int, int]:
    """Returns where the coded data of ``data`` (a JPEG) starts, and where its frame header
    (SOF0) is."""
    at, frame = 2, -1
    while True:
        marker = data[at + 1]
        end = at + 2 + int.from_bytes(data[at + 2 : at + 4], "big")
        if marker == _FRAME:
            frame = at
        if marker == _SCAN:
            return end, frame
        at = end


def _scan(data: bytes) -> list[bytes]:
    """Returns the coded data of each tile of ``data`` (a JPEG with a restart marker after
    every tile): 0xFF in coded data is followed by 0x00, so the markers split it."""
    start, _ = _scan_start(data)
    return _RESTART.split(data[start : -len(_END)])


@functools.lru_cache(maxsize=8)
def _header(width: int, height: int, quality: int) -> bytes:
    """Returns the header of a ``width``×``height`` JPEG of the tiles: libjpeg's own for a
    row of them, with the frame's height set to ``height``."""
    data = _jpeg(Image.new("RGB", (width, ROWS)), quality, tile_width(width))
    start, frame = _scan_start(data)
    header = bytearray(data[:start])
    header[frame + 5 : frame + 7] = height.to_bytes(2, "big")
    return bytes(header)
