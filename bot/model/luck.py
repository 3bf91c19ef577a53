"""The automatic analysis of rated games: its queue, each player's luck and PR per game, and
the accounts flagged for play far better than their rating, with the repository that keeps
them (:class:`LuckRepository`, implemented by :mod:`bot.storage.luck`).

The queue is a table, not a list in memory, so that work queued when a game ends outlives a
restart: a job is a finished game's id, claimed by one worker at a time with a claim token and
a time; a claim older than the timeout is taken over (its worker died), and a worker whose
claim was taken over finds its token gone and records nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.engine import Side


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """One claimed game of the queue: ``token`` names the claim, ``attempts`` counts the claims
    so far (this one included)."""

    game_id: int
    token: str
    attempts: int


@dataclass(frozen=True, slots=True)
class PlayerLuck:
    """One player's figures over one analysed game (see :mod:`bot.ai.luck`): luck in points
    per unit of the cube, zero-sum (the luck of their own rolls less their opponent's, so the
    two players' add up to 0), PR (500 × mean loss per decision with a real choice, turns and
    cube decisions), the error rate (1000 × the same), the counts behind them, and for the
    luck-adjusted result the game's result and the luck in points, the cube's value counted
    (None for games analysed before they were kept)."""

    game_id: int
    user_id: int
    side: Side
    variant: str
    luck: float
    pr: float
    error_rate: float
    decisions: int
    rolls: int
    finished_at: float
    result: float | None = None
    """Points won (+) or lost (-), the cube's value included."""
    luck_points: float | None = None
    """The luck in points: each roll's times the cube's value when it was rolled."""

    @property
    def adjusted(self) -> float | None:
        """The luck-adjusted result in points: the result less the luck in points."""
        if self.result is None or self.luck_points is None:
            return None
        return self.result - self.luck_points


@dataclass(frozen=True, slots=True)
class PrFlag:
    """An account whose PR over its last ``games`` rated games in ``variant`` (``pr``) is far
    better than its ``rating`` predicts (``expected``): for the operators to look at."""

    user_id: int
    variant: str
    games: int
    pr: float
    expected: float
    rating: float
    created_at: float


class LuckRepository(Protocol):
    """The automatic analysis's queue, its figures and the PR flags."""

    async def enqueue(self, game_id: int, now: float, *, cap: int) -> int:
        """Queues game ``game_id`` (once: queued again, nothing changes); then, beyond ``cap``
        games waiting, drops the oldest unclaimed ones. Returns how many were dropped."""

    async def claim(self, token: str, now: float, *, timeout: float) -> AnalysisJob | None:
        """Claims the oldest job nobody holds (unclaimed, or claimed more than ``timeout``
        seconds ago) for ``token``, atomically: two workers never claim one job at once."""

    async def finish(self, job: AnalysisJob, figures: Sequence[PlayerLuck]) -> bool:
        """Records the game's figures and removes the job, in one transaction, if ``job`` is
        still claimed by its token; False (and nothing written) if the claim was taken over."""

    async def drop(self, job: AnalysisJob) -> bool:
        """Removes the job (a game that cannot be analysed) if ``job`` still holds it."""

    async def backlog(self) -> int:
        """Jobs in the queue, claimed or not."""

    async def of_game(self, game_id: int) -> list[PlayerLuck]:
        """A game's figures (white's first), none before its analysis."""

    async def recent(self, user_id: int, *, limit: int) -> list[PlayerLuck]:
        """The user's figures over their last ``limit`` analysed games, oldest first."""

    async def of_match(self, match_id: int) -> list[PlayerLuck]:
        """The figures of a match's analysed games, in the order they were played (white's
        first in each)."""

    async def flag(self, flag: PrFlag) -> None:
        """Records (or renews) the account's flag in the variant."""

    async def flags(self, user_ids: Sequence[int]) -> list[PrFlag]:
        """The flags of these accounts, newest first."""
