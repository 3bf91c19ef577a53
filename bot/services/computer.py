"""The computer's thinking, off the event loop: :mod:`bot.ai` in a process pool.

Choosing a turn takes from a few milliseconds (levels 1-4) to a few hundred (level 5 in a
complex position), an analysis seconds: in the bot's process either would stall every other
chat's taps. A :class:`Brain` hands each question to a pool of worker processes (spawned, so
that they share nothing with the event loop's threads) and awaits the answer. Workers start on
the first question and load the nets once each; a pool whose worker died is replaced and the
question asked again (:class:`~.processes.ProcessPool`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot import ai
from bot.ai import daily
from bot.ai.analysis import CubeDecision, CubeReview, Review, judge_cube, review
from bot.ai.luck import RollLuck, luck, luck_and_review
from bot.engine import Game, Turn

from .processes import ProcessPool

WORKERS: Final = 1
"""Worker processes by default: one keeps a small machine's other core for the event loop."""


class Brain:
    """The computer's decisions, hints and analyses, computed in worker processes."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.pool = ProcessPool("computer", workers)

    async def decide(self, game: Game, level: int, seed: int) -> ai.Decision:
        """What the computer at ``level`` does next in ``game`` (see :func:`bot.ai.decide`)."""
        return await self.pool.call(ai.decide, game, level, seed)

    async def hint(self, game: Game) -> ai.Hint:
        """The strongest level's ranking of ``game``'s roll."""
        return await self.pool.call(ai.hint, game)

    async def review(self, played: Sequence[tuple[Game, Turn]], indices: range) -> list[Review]:
        """Analyses the turns ``played[i]`` for ``i`` in ``indices`` (see
        :func:`bot.ai.analysis.review`)."""
        return await self.pool.call(review, list(played), indices)

    async def luck(
        self, played: Sequence[tuple[Game, Turn]], indices: range, ply: int
    ) -> list[RollLuck]:
        """The luck of the rolls ``played[i]`` for ``i`` in ``indices``, valued at ``ply``
        (see :func:`bot.ai.luck.luck`)."""
        return await self.pool.call(luck, list(played), indices, ply)

    async def luck_and_review(
        self, played: Sequence[tuple[Game, Turn]], indices: range, ply: int
    ) -> tuple[list[RollLuck], list[Review]]:
        """The luck of the rolls and the reviews of the turns ``played[i]`` for ``i`` in
        ``indices``, rolls valued at ``ply`` (see :func:`bot.ai.luck.luck_and_review`)."""
        return await self.pool.call(luck_and_review, list(played), indices, ply)

    async def judge_cube(self, decisions: Sequence[CubeDecision]) -> list[CubeReview]:
        """Judges a game's cube decisions (see :func:`bot.ai.analysis.judge_cube`)."""
        return await self.pool.call(judge_cube, list(decisions))

    async def daily_position(
        self, candidates: Sequence[Game], exclude: frozenset[str]
    ) -> daily.Found | None:
        """The first of ``candidates`` that makes a daily position, its key not in ``exclude``
        (see :func:`bot.ai.daily.find`)."""
        return await self.pool.call(daily.find, list(candidates), exclude)

    async def daily_self_play(
        self, variant: str, seed: int, exclude: frozenset[str]
    ) -> daily.Found | None:
        """A daily position from the computer's self-play (see :func:`bot.ai.daily.self_play`)."""
        return await self.pool.call(daily.self_play, variant, seed, exclude)

    def close(self) -> None:
        """Stops the workers (waiting for questions in progress)."""
        self.pool.close()
