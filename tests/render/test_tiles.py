"""A board's JPEG joined from cached tiles is the JPEG libjpeg writes for the whole picture.

The tiles of a board are drawn and encoded only when no board drawn lately had the same
pastes in them (:mod:`render._tiles`); the reference here is the picture drawn whole
(``render_image``) and encoded whole by Pillow with a restart marker after every tile.
"""

from __future__ import annotations

import gc
import io
import itertools
import threading
import weakref

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.engine import Position, starting_position
from render import BoardView, _tiles, render_board, render_image
from render._canvas import Canvas
from render._tiles import TileCache, encode, tile_width
from render.board import board_canvas
from render.gallery import samples
from render.theme import DEFAULT_THEME
from tests.render.test_render_selfplay import self_play

QUALITY = DEFAULT_THEME.jpeg_quality
WIDTH, HEIGHT = 912, 792
BLOCKS = 19
"""Blocks (16 pixels) of a tile: a third of the board's width."""
TILES = 3 * 50
"""A board's tiles: three a row of blocks, 49 rows and a half one."""


def whole(position: Position, view: BoardView) -> bytes:
    """The reference: the picture drawn whole and encoded whole, with restart markers."""
    out = io.BytesIO()
    render_image(position, view=view).save(
        out, "JPEG", quality=QUALITY, subsampling="4:2:0", restart_marker_blocks=BLOCKS
    )
    return out.getvalue()


def pixels(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGB").tobytes()


@settings(max_examples=12, deadline=None)
@given(
    variant=st.sampled_from(["long", "short", "abkhaz", "gulbara"]),
    seed=st.integers(0, 2**16),
    limit=st.sampled_from([0, 20_000, 200_000, 8 * 2**20]),
)
def test_a_game_s_boards_are_libjpeg_s_own_whatever_the_cache_holds(
    variant: str, seed: int, limit: int
) -> None:
    """Every board of a random game, through a cache from none at all to a roomy one (so with
    no hits, with evictions mid-board, with most tiles found), is byte for byte the picture's
    whole encoding."""
    cache = TileCache(limit)
    for position, view in itertools.islice(self_play(variant, seed), 0, 400, 7):
        assert encode(board_canvas(position, view), QUALITY, cache) == whole(position, view)
        assert cache.size <= limit
    if limit >= 200_000:
        assert cache.hits > 0


def test_the_gallery_through_render_board_decodes_to_the_whole_picture_s_pixels() -> None:
    """What the bot sends decodes to what libjpeg's encoding of the picture without restart
    markers decodes to: the markers change the file, not one pixel."""
    for _, position, view in samples():
        out = io.BytesIO()
        render_image(position, view=view).save(out, "JPEG", quality=QUALITY)
        assert pixels(render_board(position, view=view)) == pixels(out.getvalue())


def test_a_board_seen_again_is_joined_from_the_cache_alone() -> None:
    cache = TileCache()
    position, view = starting_position("long"), BoardView(white_name="Ann", black_name="Bob")
    first = encode(board_canvas(position, view), QUALITY, cache)
    assert (cache.hits, cache.misses, len(cache)) == (0, TILES, TILES)
    assert encode(board_canvas(position, view), QUALITY, cache) == first
    assert (cache.hits, cache.misses) == (TILES, TILES)


def test_a_step_re_encodes_only_the_tiles_it_changed() -> None:
    """A checker picked up tints its point and its destination's: the tiles of the other half
    of the board, and the third column of tiles of this half, are found in the cache."""
    cache = TileCache()
    position = starting_position("long")
    plain = BoardView(white_name="Ann", black_name="Bob")
    encode(board_canvas(position, plain), QUALITY, cache)
    before = cache.misses
    picked = BoardView(white_name="Ann", black_name="Bob", selected=24, destinations=(18,))
    assert encode(board_canvas(position, picked), QUALITY, cache) == whole(position, picked)
    changed = cache.misses - before
    assert 0 < changed <= TILES // 3  # two of the three columns of tiles, in one half


def test_the_cache_keeps_its_bytes_under_the_limit_and_drops_the_oldest_first() -> None:
    cache = TileCache(limit=300)
    cache.put(("a",), b"x" * 100, ())
    cache.put(("b",), b"x" * 100, ())
    cache.put(("c",), b"x" * 100, ())
    assert cache.get([("a",)]) == [b"x" * 100]  # now the newest
    cache.put(("d",), b"x" * 100, ())
    assert cache.size == 300
    assert cache.get([("b",), ("a",), ("c",), ("d",)]) == [None, b"x" * 100, b"x" * 100, b"x" * 100]


def test_an_entry_keeps_the_images_its_key_names_alive() -> None:
    """A key names a sprite by its identity: while the entry is cached the sprite cannot die
    and give its identity to another image."""
    cache = TileCache()
    sprite = Image.new("RGBA", (10, 10), (200, 0, 0, 255))
    alive = weakref.ref(sprite)
    canvas = Canvas(Image.new("RGB", (32, 32), (0, 0, 90)))
    canvas.paste(sprite, (3, 3), sprite)
    encode(canvas, QUALITY, cache)
    del canvas, sprite
    gc.collect()
    assert alive() is not None
    cache.clear()
    gc.collect()
    assert alive() is None


@settings(max_examples=25, deadline=None)
@given(
    left=st.integers(0, WIDTH - 1),
    top=st.integers(0, HEIGHT - 1),
    width=st.integers(1, WIDTH),
    height=st.integers(1, 200),
)
def test_a_part_drawn_alone_is_that_part_of_the_whole_picture(
    left: int, top: int, width: int, height: int
) -> None:
    _, position, view = next(iter(samples()))
    canvas = board_canvas(position, view)
    box = (left, top, min(left + width, WIDTH), min(top + height, HEIGHT))
    assert canvas.draw(box).tobytes() == canvas.draw().crop(box).tobytes()


def test_threads_drawing_at_once_share_the_cache_and_each_gets_its_own_board() -> None:
    """``render_board`` may run in several threads at once: each board still comes out whole."""
    _tiles.CACHE.clear()
    boards = list(itertools.islice(self_play("short", 5), 0, 120, 3))
    expected = [whole(position, view) for position, view in boards]
    wrong: list[int] = []

    def draw(offset: int) -> None:
        for at in range(len(boards)):
            i = (at + offset) % len(boards)
            if render_board(boards[i][0], view=boards[i][1]) != expected[i]:
                wrong.append(i)

    threads = [threading.Thread(target=draw, args=(n * 7,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


@st.composite
def canvases(draw: st.DrawFn) -> Canvas:
    """A background of any size, with sprites, opaque patches and colours through masks
    pasted anywhere, partly off the picture too."""
    width, height = draw(st.integers(1, 150)), draw(st.integers(1, 80))
    canvas = Canvas(Image.new("RGB", (width, height), draw(st.tuples(*[st.integers(0, 255)] * 3))))
    for _ in range(draw(st.integers(0, 6))):
        w, h = draw(st.integers(1, 60)), draw(st.integers(1, 60))
        x, y = draw(st.integers(-w, width)), draw(st.integers(-h, height))
        colour = draw(st.tuples(*[st.integers(0, 255)] * 3))
        kind = draw(st.sampled_from(["sprite", "patch", "masked colour"]))
        if kind == "sprite":
            sprite = Image.new("RGBA", (w, h), (*colour, draw(st.integers(0, 255))))
            canvas.paste(sprite, (x, y), sprite)
        elif kind == "patch":
            canvas.paste(Image.new("RGB", (w, h), colour), (x, y))
        else:
            mask = Image.linear_gradient("L").resize((w, h))
            canvas.paste(colour, (x, y, x + w, y + h), mask)
    return canvas


@settings(max_examples=60, deadline=None)
@given(canvas=canvases(), again=st.booleans())
def test_any_picture_is_joined_as_libjpeg_encodes_it_whole(canvas: Canvas, again: bool) -> None:
    """Widths that are not three tiles of whole blocks (one tile a row), a last row of blocks
    cut short, boxes reaching out of the picture: still libjpeg's bytes, first time and from
    the cache."""
    cache = TileCache()
    out = io.BytesIO()
    blocks = -(-tile_width(canvas.width) // 16)
    canvas.draw().save(
        out, "JPEG", quality=QUALITY, subsampling="4:2:0", restart_marker_blocks=blocks
    )
    assert encode(canvas, QUALITY, cache) == out.getvalue()
    if again:
        assert encode(canvas, QUALITY, cache) == out.getvalue()
        assert cache.misses == cache.hits
