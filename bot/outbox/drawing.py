"""Where the Telegram wing's pictures are drawn: never on the event loop. A board (render and
encode, a few milliseconds, holding the GIL most of it) on a thread of its own, so that one
keeps the loop free and the sprite caches are built once; a replay (a quarter of a second to a
second) on another, so that no board waits behind one; other pictures (a tournament's table,
a chart) on a third."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from bot.engine import VARIANTS, Position, starting_position
from render import BoardView, render_animation, render_board

T = TypeVar("T")


class Drawing:
    """The drawing threads (see the module docstring)."""

    def __init__(self) -> None:
        self._boards = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        self._replays = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay")
        self._pictures = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")

    async def board(self, position: Position, view: BoardView) -> bytes:
        """A board, drawn and encoded."""
        return await self._on(self._boards, functools.partial(render_board, position, view=view))

    async def replay(
        self, frames: Sequence[tuple[Position, BoardView]], durations: Sequence[int]
    ) -> bytes:
        """A game's replay: an animation (a GIF)."""
        return await self._on(self._replays, functools.partial(render_animation, frames, durations))

    async def picture(self, draw: Callable[[], T]) -> T:
        """Any other picture: ``draw()`` on the pictures' thread."""
        return await self._on(self._pictures, draw)

    async def warm_up(self) -> None:
        """Draws one board of each variant, so that the first real board does not wait for
        the sprite caches (about 0.3 s)."""
        for variant in VARIANTS:
            await self.board(starting_position(variant), BoardView())

    def close(self) -> None:
        """Stops the threads (what waits is cancelled)."""
        for pool in (self._boards, self._replays, self._pictures):
            pool.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    async def _on(pool: ThreadPoolExecutor, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(pool, work)
