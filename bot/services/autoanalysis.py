"""The automatic analysis: every rated game between people is analysed after it ends, for its
luck and PR line, the players' trends, the match's luck and the fair-play flag.

The queue is a table (:class:`~bot.model.LuckRepository`): a game is queued in the transaction
that records its result (:meth:`AutoAnalyses.queue`). A worker takes the oldest job with an
atomic claim, works it and records the figures with the job's removal in one transaction that
checks the claim is still its own; a claim older than :data:`CLAIM_SECONDS` is taken over, so
a game is never lost nor counted twice. The work goes to the :class:`~.computer.Brain`'s
workers one part at a time (:data:`PART` turns), so it never delays play; rolls are valued at
:data:`LUCK_PLY`, turns and cube decisions judged as the on-demand analysis judges them. A
player's luck is zero-sum and kept with the luck-adjusted result (:class:`~bot.model.PlayerLuck`).
Beyond :data:`BACKLOG` games waiting the oldest unclaimed are dropped
(:attr:`AutoAnalyses.dropped`, a metric).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.ai import luck
from bot.ai.analysis import Review
from bot.ai.luck import RollLuck, SideLuck, game_luck, match_luck
from bot.engine import Side
from bot.model import PlayerLuck, PrFlag, Store, StoredGame, User

from . import fairplay
from .analysis import replayed
from .computer import Brain
from .errors import NotAnalysable

logger = logging.getLogger(__name__)

BACKLOG: Final = 2_000
"""Games waiting at most; beyond, the oldest unclaimed are dropped. At 22 games a minute a
worker (long nardy, the slower board) 2,000 is an hour and a half of one worker's work."""
CLAIM_SECONDS: Final = 300.0
"""A claim older than this is taken over: its worker died (a game takes seconds)."""
ATTEMPTS: Final = 3
"""Claims a game gets: one that failed (or killed its worker) this often is dropped."""
PART: Final = 20
"""Turns worked in one call to a worker process (about 0.7 s of long nardy at 0-ply luck)."""
LUCK_PLY: Final = luck.LUCK_PLY
"""The ply the automatic analysis values rolls at: 0 (see the module docstring)."""
FLAGS_LOOK_BACK: Final = 200
"""A group's finished games whose players ``/flags`` looks at."""
TREND_GAMES: Final = 30
"""Analysed games a player's trend shows at most."""


@dataclass(frozen=True, slots=True)
class Analysed:
    """A job this worker claimed: its game id and, when this worker recorded them, the game
    and each side's figures (white's first) and the flags they raised; no figures when the job
    was dropped (not analysable, failed too often, done before) or taken over meanwhile."""

    game_id: int
    stored: StoredGame | None = None
    figures: tuple[PlayerLuck, ...] = ()
    flags: tuple[PrFlag, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchLuck:
    """A match's luck per player (by user id): the sums over its analysed ``games`` (see
    :func:`bot.ai.luck.match_luck`); a player's luck-adjusted result is None when a game's
    was not kept."""

    games: int
    players: dict[int, SideLuck]


def match_figures(figures: list[PlayerLuck]) -> MatchLuck | None:
    """A match's luck per player from its analysed games' figures (both sides of each, as
    :meth:`~bot.model.LuckRepository.of_match` gives them); None without any."""
    by_game: dict[int, list[PlayerLuck]] = {}
    for one in figures:
        by_game.setdefault(one.game_id, []).append(one)
    if not by_game:
        return None
    return MatchLuck(
        len(by_game),
        match_luck(
            ({f.side: _side_luck(f) for f in sides}, {f.side: f.user_id for f in sides})
            for sides in by_game.values()
        ),
    )


def _side_luck(figures: PlayerLuck) -> SideLuck:
    return SideLuck(
        figures.rolls,
        figures.luck,
        figures.decisions,
        figures.pr * figures.decisions / 500.0,
        figures.result,
        figures.luck_points if figures.luck_points is not None else 0.0,
    )


class AutoAnalyses:
    """The automatic analysis's queue and its work (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        brain: Brain,
        *,
        clock: Callable[[], float] = time.time,
        backlog: int = BACKLOG,
        claim_seconds: float = CLAIM_SECONDS,
        flag_games: int = fairplay.FLAG_GAMES,
        flag_decisions: int = fairplay.FLAG_DECISIONS,
    ) -> None:
        self._store = store
        self._brain = brain
        self._clock = clock
        self.backlog = backlog
        self.claim_seconds = claim_seconds
        self._flag_games = flag_games
        self._flag_decisions = flag_decisions
        self._token = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._claims = 0
        self.dropped = 0
        """Games dropped from a full queue by this process (a counter for ``/metrics``)."""
        self.queued = asyncio.Event()
        """Set when this process queued a game: its worker looks at once."""

    async def queue(self, stored: StoredGame, now: float) -> None:
        """Queues finished game ``stored`` (inside the transaction that records its result:
        the caller decides it is rated), dropping the oldest beyond the backlog's cap."""
        dropped = await self._store.luck.enqueue(stored.id, now, cap=self.backlog)
        if dropped:
            self.dropped += dropped
            logger.warning("analysis queue full: dropped the %d oldest game(s)", dropped)
        self.queued.set()

    async def pending(self) -> int:
        """Games in the queue (a gauge)."""
        return await self._store.luck.backlog()

    async def work_one(self) -> Analysed | None:
        """Claims the oldest job and works it (see :class:`Analysed`); None when there was no
        job to claim."""
        self._claims += 1
        job = await self._store.luck.claim(
            f"{self._token}-{self._claims}", self._clock(), timeout=self.claim_seconds
        )
        if job is None:
            return None
        stored = await self._store.games.get(job.game_id)
        if stored is None or not stored.game.is_over or job.attempts > ATTEMPTS:
            await self._store.luck.drop(job)
            logger.warning("analysis of game %d dropped (attempt %d)", job.game_id, job.attempts)
            return Analysed(job.game_id)
        known = await self._store.luck.of_game(stored.id)
        if known:  # recorded by a claim before (queued twice): nothing to do again
            await self._store.luck.drop(job)
            return Analysed(job.game_id)
        try:
            figures = await self._analyse(stored)
        except NotAnalysable:
            await self._store.luck.drop(job)
            return Analysed(job.game_id)
        if not await self._store.luck.finish(job, figures):
            return Analysed(job.game_id)  # taken over by another worker: it records the game
        flags = await self._flag(stored, figures)
        return Analysed(job.game_id, stored, tuple(figures), tuple(flags))

    async def figures(self, game_id: int) -> tuple[PlayerLuck, ...]:
        """A game's figures, white's first (none before its analysis)."""
        return tuple(await self._store.luck.of_game(game_id))

    async def trend(self, user_id: int, limit: int = TREND_GAMES) -> list[PlayerLuck]:
        """The user's figures over their last ``limit`` analysed games, oldest first."""
        return await self._store.luck.recent(user_id, limit=limit)

    async def flags(self, user_ids: list[int]) -> list[PrFlag]:
        """The PR flags of these accounts, newest first."""
        return await self._store.luck.flags(user_ids)

    async def group_flags(self, chat_id: int) -> list[tuple[PrFlag, User]]:
        """The PR flags of the players of the group's last :data:`FLAGS_LOOK_BACK` finished
        games, newest first, each with its account (for ``/flags``)."""
        players: dict[int, User] = {}
        for game in await self._store.stats.recent(chat_id=chat_id, limit=FLAGS_LOOK_BACK):
            players.setdefault(game.white.id, game.white)
            players.setdefault(game.black.id, game.black)
        return [(flag, players[flag.user_id]) for flag in await self.flags(list(players))]

    async def _analyse(self, stored: StoredGame) -> list[PlayerLuck]:
        played, decisions = await asyncio.to_thread(replayed, stored)
        rolls: list[RollLuck] = []
        reviews: list[Review] = []
        for start in range(0, len(played), PART):
            part = range(start, min(start + PART, len(played)))
            found, judged = await self._brain.luck_and_review(played, part, LUCK_PLY)
            rolls += found
            reviews += judged
        cube = await self._brain.judge_cube(decisions) if decisions else []
        sides = game_luck(rolls, reviews, stored.game.result, cube)
        finished = stored.finished_at if stored.finished_at is not None else self._clock()
        return [
            PlayerLuck(
                stored.id,
                stored.player(side),
                side,
                stored.game.variant,
                sides[side].luck,
                sides[side].pr,
                sides[side].error_rate,
                sides[side].decisions,
                sides[side].rolls,
                finished,
                sides[side].result,
                sides[side].luck_points,
            )
            for side in (Side.WHITE, Side.BLACK)
        ]

    async def _flag(self, stored: StoredGame, figures: list[PlayerLuck]) -> list[PrFlag]:
        """Flags the game's players whose PR is now far better than their rating predicts."""
        found = []
        variant = stored.game.variant
        for one in figures:
            recent = await self._store.luck.recent(one.user_id, limit=4 * self._flag_games)
            rating = await self._store.ratings.get(one.user_id, variant)
            flag = fairplay.pr_flag(
                one.user_id,
                variant,
                recent,
                rating,
                self._clock(),
                games=self._flag_games,
                decisions=self._flag_decisions,
            )
            if flag is not None:
                await self._store.luck.flag(flag)
                logger.warning(
                    "user %d flagged: PR %.1f over %d games, expected %.1f at rating %.0f",
                    flag.user_id,
                    flag.pr,
                    flag.games,
                    flag.expected,
                    flag.rating,
                )
                found.append(flag)
        return found
