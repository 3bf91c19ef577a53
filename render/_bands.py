"""A board's JPEG joined from bands of 16 rows, each band drawn and encoded once and cached.

Baseline JPEG with 4:2:0 chroma codes a picture in rows of 16×16 blocks. With a restart
marker after every such row, each row's coded data stands alone: it starts from zero DC
predictions and ends on a byte boundary. A picture's JPEG is then its header, every row's
data with the markers RST0…RST7 in turn between them, and EOI: byte for byte what libjpeg
writes for the whole picture with ``restart_marker_rows=1``, whichever rows were encoded when
(a test holds the two equal). The markers cost about 0.3 % in size.

A band's pixels follow from the background and the pastes that reach into it, in order
(:class:`render._canvas.Canvas`), so a band's key names those: the identity of each image
pasted and of its mask, or the colour, and the box. From one board of a game to the next
most bands are the same (a step changes two columns of checkers, the dice and an info band),
and many are the same on every board (the empty parts of the field). A board then costs the
keys, the drawing and encoding of the bands not in the cache, and the join.

The cache is LRU and holds :data:`CACHE_BYTES` of coded data (a board is about 85 KB). Of the
bands of 1,609 boards the bot showed under ``bench/bot_load.py`` (50 games at once), 72 % were
found with 4 MiB, 74 % with 8, 75 % with 16 or 32: most hits are bands that many boards share,
so the rate holds with many more games at once. An entry keeps the pastes of its key, and so
their images, alive: while it is cached no other image can take an identity its key names.
"""

from __future__ import annotations

import functools
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final, TypeAlias

from PIL import Image

from ._canvas import Canvas, Paste

ROWS: Final = 16
"""Pixel rows per band: one row of 4:2:0 blocks (16×16 pixels)."""
CACHE_BYTES: Final = 8 * 2**20
"""Coded data the band cache keeps: the bands of about 95 boards (see the module's note)."""
SUBSAMPLING: Final = "4:2:0"
"""Pillow's default for JPEG, named so that the bands' height stays right."""

_SCAN: Final = 0xDA
_FRAME: Final = 0xC0
_RESTART: Final = re.compile(rb"\xff[\xd0-\xd7]")
_MARKERS: Final = tuple(bytes((0xFF, 0xD0 + n)) for n in range(8))
_END: Final = b"\xff\xd9"

Key: TypeAlias = tuple[object, ...]


class BandCache:
    """Coded bands by key, least recently used first out, safe to share among threads."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        """Bytes of coded data held."""
        self.hits = 0
        self.misses = 0
        self._bands: OrderedDict[Key, tuple[bytes, tuple[object, ...]]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._bands)

    def get(self, keys: Sequence[Key]) -> list[bytes | None]:
        """Returns the coded band of each of ``keys``, ``None`` for those not cached."""
        found: list[bytes | None] = []
        with self._lock:
            bands = self._bands
            for key in keys:
                band = bands.get(key)
                if band is None:
                    found.append(None)
                else:
                    bands.move_to_end(key)
                    found.append(band[0])
            hits = len(keys) - found.count(None)
            self.hits += hits
            self.misses += len(keys) - hits
        return found

    def put(self, key: Key, data: bytes, keep: tuple[object, ...]) -> None:
        """Keeps ``data`` under ``key``, and ``keep`` (what the key names) alive with it."""
        with self._lock:
            if key in self._bands:
                return
            self._bands[key] = (data, keep)
            self.size += len(data)
            while self.size > self.limit:
                old, _ = self._bands.popitem(last=False)[1]
                self.size -= len(old)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self.size = 0


CACHE: Final = BandCache()
"""The process's band cache, shared by every board drawn."""


def encode(canvas: Canvas, quality: int, cache: BandCache = CACHE) -> bytes:
    """Returns the JPEG of ``canvas`` at ``quality``: the bands found in ``cache`` as they are,
    the others drawn and encoded (a run of neighbours at once) and added to it."""
    height = canvas.height
    count = -(-height // ROWS)
    keyed: list[list[object]] = [[] for _ in range(count)]
    pasted: list[list[Paste]] = [[] for _ in range(count)]
    for paste in canvas.pastes:
        source, box, mask = paste
        key = (
            source if isinstance(source, tuple) else id(source),
            box,
            None if mask is None else id(mask),
        )
        for band in range(max(box[1], 0) // ROWS, (min(box[3], height) - 1) // ROWS + 1):
            keyed[band].append(key)
            pasted[band].append(paste)
    base = (id(canvas.background), quality)
    keys = [(base, band, tuple(named)) for band, named in enumerate(keyed)]
    coded = cache.get(keys)
    band = 0
    while band < count:
        if coded[band] is not None:
            band += 1
            continue
        end = band + 1
        while end < count and coded[end] is None:
            end += 1
        strip = canvas.draw(band * ROWS, min(end * ROWS, height))
        for at, new in enumerate(_scan(_jpeg(strip, quality)), band):
            coded[at] = new
            cache.put(keys[at], new, (canvas.background, *pasted[at]))
        band = end
    parts = [_header(canvas.width, height, quality)]
    for at, data in enumerate(coded):
        if at:
            parts.append(_MARKERS[(at - 1) % 8])
        assert data is not None
        parts.append(data)
    parts.append(_END)
    return b"".join(parts)


def _jpeg(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, subsampling=SUBSAMPLING, restart_marker_rows=1)
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
    """Returns the coded data of each band of ``data`` (a JPEG with a restart marker after
    every row of blocks): 0xFF in coded data is followed by 0x00, so the markers split it."""
    start, _ = _scan_start(data)
    return _RESTART.split(data[start : -len(_END)])


@functools.lru_cache(maxsize=8)
def _header(width: int, height: int, quality: int) -> bytes:
    """Returns the header of a ``width``×``height`` JPEG of the bands: libjpeg's own for a
    band, with the frame's height set to ``height``."""
    data = _jpeg(Image.new("RGB", (width, ROWS)), quality)
    start, frame = _scan_start(data)
    header = bytearray(data[:start])
    header[frame + 5 : frame + 7] = height.to_bytes(2, "big")
    return bytes(header)
