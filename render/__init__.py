"""Board images for the nardy bot: :func:`render_board` draws a position as JPEG bytes,
:func:`render_animation` a sequence of boards as an animated GIF (a game's replay), and
:func:`render_bracket` and :func:`render_table` a tournament's bracket or standings as PNG
(inputs in :mod:`render.tournament_inputs`).

Render draws what it is given and decides no rule. It depends only on Pillow and
:mod:`bot.engine`, and Pillow is imported only when a board is drawn: :mod:`render.layout` and
:mod:`render.theme` load without it.

>>> from bot.engine import Position
>>> from render import FILE_NAME, BoardView, render_board
>>> data = render_board(Position.from_text("long w / 24:15 / 24:15"), view=BoardView())
>>> data[:2] == b"\\xff\\xd8", FILE_NAME
(True, 'board.jpg')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .theme import DEFAULT_THEME, Theme

if TYPE_CHECKING:
    from .animation import ANIMATION_FILE_NAME, ANIMATION_MIME_TYPE, render_animation
    from .board import (
        FILE_NAME,
        IMAGE_FORMAT,
        MIME_TYPE,
        BoardView,
        render_board,
        render_image,
    )
    from .tournament import (
        TOURNAMENT_FILE_NAME,
        TOURNAMENT_MIME_TYPE,
        render_bracket,
        render_table,
    )

__all__ = [
    "ANIMATION_FILE_NAME",
    "ANIMATION_MIME_TYPE",
    "DEFAULT_THEME",
    "FILE_NAME",
    "IMAGE_FORMAT",
    "MIME_TYPE",
    "TOURNAMENT_FILE_NAME",
    "TOURNAMENT_MIME_TYPE",
    "BoardView",
    "Theme",
    "render_animation",
    "render_board",
    "render_bracket",
    "render_image",
    "render_table",
]

_FROM_BOARD = frozenset(
    {"FILE_NAME", "IMAGE_FORMAT", "MIME_TYPE", "BoardView", "render_board", "render_image"}
)
_FROM_ANIMATION = frozenset({"ANIMATION_FILE_NAME", "ANIMATION_MIME_TYPE", "render_animation"})
_FROM_TOURNAMENT = frozenset(
    {"TOURNAMENT_FILE_NAME", "TOURNAMENT_MIME_TYPE", "render_bracket", "render_table"}
)


def __getattr__(name: str) -> Any:
    if name in _FROM_BOARD:
        from . import board

        return getattr(board, name)
    if name in _FROM_ANIMATION:
        from . import animation

        return getattr(animation, name)
    if name in _FROM_TOURNAMENT:
        from . import tournament

        return getattr(tournament, name)
    raise AttributeError(f"module 'render' has no attribute {name!r}")
