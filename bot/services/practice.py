"""Practice positions: rolls with one clearly best turn, served one after another by how
hard players find them, answered once each, with a streak of right answers. No Telegram here.

**The positions** are those the daily position is chosen from, judged the same way
(:mod:`bot.ai.daily`: the best turn beats the next best by a blunder's margin, every legal turn
ranked by the strongest level): the daily positions of the days before today, then, when a
player has answered every one of a variant, a new one found among the daily position's
candidates (the positions of the latest finished games) or, on a bot without such games yet,
in the computer's self-play. Finding one runs in the :class:`~.computer.Brain`'s worker
processes, never on the event loop.

**Difficulty** is measured by the answers: a position's ease is the share of its answers
that found the best turn (counting one right and one wrong answer to start from, so a position
nobody answered stands at a half); each player gets the easiest position they have not
answered, so a newcomer starts where most players succeed and moves on to what fewer find.

**Answers** are judged by the stored ranking, as the daily position's are (right: the best
turn, or one within :data:`~.daily.BEST_LOSS` of it); one answer per player and position. A
right answer lengthens the player's streak, a wrong one ends it; the best streak is kept.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.ai import daily as ai_daily
from bot.engine import Turn
from bot.model import PracticeAnswer, PracticePosition, Store, User

from .computer import Brain
from .daily import VARIANTS, DailyService, Tapped, judged, ranking_of, replay_taps
from .errors import AlreadyAnswered, NoDailyPosition, StaleAction

logger = logging.getLogger(__name__)

SELF_PLAY_SEED: Final = 1_000_000
"""Self-play seeds for practice start here (the daily position's are days' ordinals, far
below), one more for each position kept."""


@dataclass(frozen=True, slots=True)
class PracticeOutcome:
    """What a player sees after answering a practice position: their answer, how everyone
    answered (answers, right ones), their streak and best streak."""

    position: PracticePosition
    answer: PracticeAnswer
    answers: int
    right: int
    streak: int
    best_streak: int

    @property
    def percent(self) -> int:
        """Right answers in whole per cent of all."""
        return round(100 * self.right / self.answers) if self.answers else 0


class Practice:
    """Practice positions: served, answered, with streaks (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        brain: Brain,
        daily: DailyService,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._brain = brain
        self._daily = daily
        self._clock = clock

    async def next(self, user_id: int, variant: str) -> PracticePosition:
        """The easiest position of ``variant`` that ``user_id`` has not answered (the daily
        positions of the days before today are kept as practice positions first); a new one
        found when they answered them all.

        :raises: :exc:`NoDailyPosition` for a variant without practice positions, or when the
            computer finds none (unexpected).
        """
        if variant not in VARIANTS:
            raise NoDailyPosition()
        learning = self._store.learning
        await learning.import_daily(variant, self._daily.today(), now=self._clock())
        found = await learning.next_practice(user_id, variant)
        if found is not None:
            return found
        if await self._find(variant) is None:
            raise NoDailyPosition()
        found = await learning.next_practice(user_id, variant)
        if found is None:
            raise NoDailyPosition()
        return found

    async def _find(self, variant: str) -> PracticePosition | None:
        """A new practice position of ``variant``, found by the computer and kept."""
        learning = self._store.learning
        exclude = await learning.practice_keys(variant)
        candidates = await self._daily.candidates(variant)
        found = await self._brain.daily_position(candidates, exclude) if candidates else None
        if found is None:
            found = await self._brain.daily_self_play(
                variant, SELF_PLAY_SEED + len(exclude), exclude
            )
        if found is None:
            return None
        logger.info("practice position of %s: %s", variant, ai_daily.key(found.game))
        return await learning.add_practice(
            variant=variant,
            key=ai_daily.key(found.game),
            game=found.game,
            ranking=ranking_of(found),
            now=self._clock(),
        )

    async def position(self, position_id: int) -> PracticePosition:
        """:raises: :exc:`NoDailyPosition` if there is none by that id."""
        found = await self._store.learning.practice(position_id)
        if found is None:
            raise NoDailyPosition()
        return found

    async def tapped(self, position: PracticePosition, taps: str) -> Tapped:
        """The answer ``taps`` build on ``position`` (worked out on a thread).

        :raises: :exc:`StaleAction` for taps that build none.
        """
        return await asyncio.to_thread(replay_taps, position.game, taps)

    async def outcome(self, position: PracticePosition, user: User) -> PracticeOutcome | None:
        """What ``user`` answered to ``position``, with how everyone did; None before they
        answered."""
        answer = await self._store.learning.practice_answer(position.id, user.id)
        if answer is None:
            return None
        return await self._outcome(position, answer)

    async def _outcome(self, position: PracticePosition, answer: PracticeAnswer) -> PracticeOutcome:
        answers, right = await self._store.learning.practice_tally(position.id)
        learner = await self._store.learning.learner(answer.user_id)
        streak = learner.streak if learner is not None else 0
        best = learner.best_streak if learner is not None else 0
        return PracticeOutcome(position, answer, answers, right, streak, best)

    async def answer(self, position: PracticePosition, user: User, turn: Turn) -> PracticeOutcome:
        """Records ``user``'s answer ``turn`` (a legal complete turn of the position) and
        their streak.

        :raises: :exc:`AlreadyAnswered` if they had answered it (nothing changes);
            :exc:`StaleAction` for a turn that is not one of the position's.
        """
        ranked = position.ranked(turn.position.to_text())
        if ranked is None:  # the input offers legal turns only: a stale ranking, say
            raise StaleAction()
        loss, correct = judged(position.best, ranked)
        answer = PracticeAnswer(position.id, user.id, str(turn), loss, correct, self._clock())
        learning = self._store.learning
        async with self._store.transaction(durable=True):
            await self._store.lock_players(user.id)
            if not await learning.add_practice_answer(answer):
                raise AlreadyAnswered()
            learner = await learning.learner(user.id)
            streak = (learner.streak if learner is not None else 0) + 1 if correct else 0
            best = max(streak, learner.best_streak if learner is not None else 0)
            await learning.set_streak(user.id, streak, best, now=self._clock())
        return await self._outcome(position, answer)
