"""Animated boards: a GIF that decodes to one frame per board, each close to the board drawn
alone, with its duration; frames after the first carry only what changed."""

from __future__ import annotations

import io
import random
from collections import Counter

import pytest
from PIL import Image, ImageChops, ImageStat
from PIL.GifImagePlugin import GifImageFile

from bot.engine import Dice, Game, Position
from render import (
    ANIMATION_FILE_NAME,
    ANIMATION_MIME_TYPE,
    BoardView,
    render_animation,
    render_image,
)
from render.layout import layout, viewer_point
from render.theme import DEFAULT_THEME
from tests.render.checks import colour_near

THEME = DEFAULT_THEME.scaled(0.6)


def _boards(count: int) -> list[tuple[Position, BoardView]]:
    """The first ``count`` boards of a seeded random game of long nardy, white at the bottom,
    each with the roll just played and its steps."""
    rng = random.Random(4)
    game = Game.start("long", rng)
    boards = [(game.position, BoardView(theme=THEME, white_name="Ann", black_name="Bob"))]
    while len(boards) < count:
        if game.needs_roll:
            game = game.roll(rng)
        assert game.dice is not None
        dice, mover = game.dice, game.turn
        turns = game.legal_turns()
        turn = rng.choice(turns) if turns else None
        game = game.play(turn) if turn else game.pass_turn()
        view = BoardView(
            theme=THEME,
            dice=dice,
            last_steps=turn.steps if turn else (),
            last_side=mover,
            dice_label=f"{len(boards)}/{count - 1}",
            white_name="Ann",
            black_name="Bob",
        )
        boards.append((game.position.with_turn(mover), view))
    return boards


def _frames(data: bytes) -> list[tuple[Image.Image, int]]:
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImageFile)
    found = []
    for index in range(image.n_frames):
        image.seek(index)
        found.append((image.convert("RGB"), image.info["duration"]))
    return found


def test_a_sequence_of_boards_decodes_frame_by_frame() -> None:
    boards = _boards(12)
    durations = [1500] + [600] * 10 + [4000]
    data = render_animation(boards, durations)
    assert data[:6] == b"GIF89a"
    assert ANIMATION_FILE_NAME.endswith(".gif") and ANIMATION_MIME_TYPE == "image/gif"
    with Image.open(io.BytesIO(data)) as image:
        assert isinstance(image, GifImageFile) and image.format == "GIF"
        assert image.is_animated and image.info["loop"] == 0
        assert image.size == (layout(THEME).width, layout(THEME).height)
    frames = _frames(data)
    assert [duration for _, duration in frames] == durations
    for (decoded, _), (position, view) in zip(frames, boards, strict=True):
        drawn = render_image(position, view=view)
        # 255 colours, no dithering: close to the board drawn alone, everywhere
        difference = ImageStat.Stat(ImageChops.difference(decoded, drawn)).mean
        assert max(difference) < 4, difference


def test_frames_after_the_first_are_small() -> None:
    boards = _boards(30)
    whole = render_animation(boards, [500] * 30)
    first = render_animation(boards[:1], [500])
    # each later frame holds only its changes: a fraction of a whole board
    assert (len(whole) - len(first)) / 29 < len(first) / 3


def test_one_frame_per_board_even_for_the_same_board_again() -> None:
    position = Position.from_text("long w / 24:15 / 24:15")
    rolls = ((6, 5), (3, 1), (3, 1), (3, 1), (2, 2))
    views = [BoardView(theme=THEME, dice=Dice(a, b)) for a, b in rolls]
    frames = _frames(render_animation([(position, v) for v in views], [100, 200, 300, 400, 500]))
    assert [duration for _, duration in frames] == [100, 200, 300, 400, 500]
    assert frames[2][0].tobytes() == frames[3][0].tobytes() == frames[1][0].tobytes()
    assert frames[4][0].tobytes() != frames[3][0].tobytes()


@pytest.mark.parametrize(
    ("frames", "durations"),
    [([], []), ([(Position.from_text("long w / 24:15 / 24:15"), BoardView())], []), (None, [0])],
)
def test_bad_input(frames: object, durations: list[int]) -> None:
    boards = (
        frames
        if frames is not None
        else [(Position.from_text("long w / 24:15 / 24:15"), BoardView())]
    )
    with pytest.raises(ValueError):
        render_animation(boards, durations)  # type: ignore[arg-type]


def test_the_dice_and_the_moved_checker_show_in_each_frame() -> None:
    boards = _boards(16)
    frames = _frames(render_animation(boards, [500] * 16))
    geo, dots = layout(THEME), 0
    for (decoded, _), (position, view) in zip(frames[1:], boards[1:], strict=True):
        assert view.dice is not None
        # the first die lies in the mover's half (the frame's side to move)
        x, y = geo.dice_xy(len(view.dice.moves), position.turn is view.bottom)[0]
        corner = decoded.getpixel((x, y - THEME.die * 3 // 10))  # between the pips
        assert colour_near(corner, THEME.die_face, 12), corner
        # a checker that arrived carries the orange dot, on a point with a short stack
        arrived = Counter(step.dst for step in view.last_steps)
        arrived.subtract(step.src for step in view.last_steps)
        for dst, net in arrived.items():
            count = position.checkers(position.turn)[dst]
            if dst == 0 or net <= 0 or count > THEME.full_stack:
                continue
            point = viewer_point(position.variant, position.turn, dst, view.bottom)
            centre = geo.checker_xy(point, count - 1, count)
            assert colour_near(decoded.getpixel(centre), THEME.last_to, 12)
            dots += 1
    assert dots > 10
