"""The computer's thinking, off the event loop: :mod:`bot.ai` in a process pool.

Choosing a turn takes from a few milliseconds (levels 1-4) to a few hundred (level 5 in a
complex position), an analysis seconds: in the bot's process either would stall every other
chat's taps. A :class:`Brain` hands each question to a pool of worker processes (spawned, so
that they share nothing with the event loop's threads) and awaits the answer. Workers start on
the first question and load the nets once each.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Final

from bot import ai
from bot.ai import daily
from bot.ai.analysis import CubeDecision, CubeReview, Review, judge_cube, review
from bot.ai.luck import RollLuck, luck, luck_and_review
from bot.engine import Game, Turn

WORKERS: Final = 1
"""Worker processes by default: one keeps a small machine's other core for the event loop."""


class Brain:
    """The computer's decisions, hints and analyses, computed in worker processes."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self._workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def decide(self, game: Game, level: int, seed: int) -> ai.Decision:
        """What the computer at ``level`` does next in ``game`` (see :func:`bot.ai.decide`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), ai.decide, game, level, seed)

    async def hint(self, game: Game) -> ai.Hint:
        """The strongest level's ranking of ``game``'s roll."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), ai.hint, game)

    async def review(self, played: Sequence[tuple[Game, Turn]], indices: range) -> list[Review]:
        """Analyses the turns ``played[i]`` for ``i`` in ``indices`` (see
        :func:`bot.ai.analysis.review`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), review, list(played), indices)

    async def luck(
        self, played: Sequence[tuple[Game, Turn]], indices: range, ply: int
    ) -> list[RollLuck]:
        """The luck of the rolls ``played[i]`` for ``i`` in ``indices``, valued at ``ply``
        (see :func:`bot.ai.luck.luck`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), luck, list(played), indices, ply)

    async def luck_and_review(
        self, played: Sequence[tuple[Game, Turn]], indices: range, ply: int
    ) -> tuple[list[RollLuck], list[Review]]:
        """The luck of the rolls and the reviews of the turns ``played[i]`` for ``i`` in
        ``indices``, rolls valued at ``ply`` (see :func:`bot.ai.luck.luck_and_review`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor(), luck_and_review, list(played), indices, ply
        )

    async def judge_cube(self, decisions: Sequence[CubeDecision]) -> list[CubeReview]:
        """Judges a game's cube decisions (see :func:`bot.ai.analysis.judge_cube`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), judge_cube, list(decisions))

    async def daily_position(
        self, candidates: Sequence[Game], exclude: frozenset[str]
    ) -> daily.Found | None:
        """The first of ``candidates`` that makes a daily position, its key not in ``exclude``
        (see :func:`bot.ai.daily.find`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), daily.find, list(candidates), exclude)

    async def daily_self_play(
        self, variant: str, seed: int, exclude: frozenset[str]
    ) -> daily.Found | None:
        """A daily position from the computer's self-play (see :func:`bot.ai.daily.self_play`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), daily.self_play, variant, seed, exclude)

    def close(self) -> None:
        """Stops the workers (waiting for questions in progress)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
