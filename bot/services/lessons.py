"""The course of ``/learn``: where each player is in it, each step's answer judged by the
engine, and the offers of ``/learn`` to new players. No Telegram here.

A step is answered as a daily position is tapped (:func:`.daily.replay_taps`): the taps ride in
the buttons as letters, each a step or a whole way to finish the turn the engine offers, so a
turn built by them is always legal; once the taps make a complete turn it is judged at once by
the step's task (:func:`verdict_of`). An ask step's answer is judged by its question
(:mod:`bot.course.tasks`). A right answer moves the player's progress in the lesson on (one row
per player and lesson); a wrong one changes nothing, and the step is tried again. A lesson can
be left at any step and is resumed there.

**Offers.** A player who never finished a game is offered ``/learn`` at their first
``/start``; a player who loses one of their first :data:`FIRST_GAMES` games by a big margin
(:data:`BIG_LOSSES`: no checker borne off) is offered it once more. Each offer is made once
(claimed in the database), and never again once the player says no.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.course.lessons import COURSE, AskStep, Lesson, PlayStep, Step
from bot.course.tasks import judge
from bot.engine import Outcome, Turn, TurnInput
from bot.model import LessonProgress, Store, StoredGame, computer_level

from .daily import Tapped, replay_taps
from .errors import StaleAction

FIRST_GAMES: Final = 5
"""A big loss within a player's first this many finished games brings the second offer."""
BIG_LOSSES: Final = frozenset({Outcome.MARS, Outcome.KOKS, Outcome.HOME_MARS})
"""Results that lose by a big margin: the loser bore off no checker."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """A step's answer judged: ``right`` or not, the turn played (a play step) or the option
    chosen (an ask step), and whether it finished the lesson."""

    right: bool
    turn: Turn | None = None
    choice: int | None = None
    finished: bool = False


@dataclass(frozen=True, slots=True)
class Overview:
    """A player's course: their progress in each lesson begun (by key), and the lesson to
    take next (None: every lesson finished)."""

    progress: dict[str, LessonProgress]
    next: int | None

    def finished(self, lesson: Lesson) -> bool:
        found = self.progress.get(lesson.key)
        return found is not None and found.finished

    @property
    def done(self) -> int:
        """Lessons finished."""
        return sum(self.finished(lesson) for lesson in COURSE)


def lesson_at(index: int) -> Lesson:
    """Lesson number ``index`` of the course.

    :raises: :exc:`StaleAction` for a number that names none (a forged or an old button).
    """
    if not 0 <= index < len(COURSE):
        raise StaleAction()
    return COURSE[index]


def step_at(lesson: int, step: int) -> Step:
    """Step ``step`` of lesson ``lesson``.

    :raises: :exc:`StaleAction` for numbers that name none.
    """
    steps = lesson_at(lesson).steps
    if not 0 <= step < len(steps):
        raise StaleAction()
    return steps[step]


def tapped_step(step: Step, taps: str) -> Tapped:
    """The turn the letters ``taps`` build on a play step's roll (see
    :func:`.daily.replay_taps`).

    :raises: :exc:`StaleAction` for an ask step, or letters that name no step offered then.
    """
    if not isinstance(step, PlayStep):
        raise StaleAction()
    return replay_taps(step.game, taps)


def verdict_of(step: PlayStep, current: TurnInput) -> Verdict | None:
    """The judgement of a play step's turn once the taps have made it complete (None before):
    right when the step's task accepts it."""
    if not current.is_complete:
        return None
    turn = current.turn()
    return Verdict(judge(step.game, turn, step.task), turn=turn)


def choice_verdict(step: AskStep, choice: int) -> Verdict:
    """The judgement of option ``choice`` of an ask step.

    :raises: :exc:`StaleAction` for an option the question does not offer.
    """
    question, game = step.question, step.game
    if choice not in question.options(game):
        raise StaleAction()
    return Verdict(choice == question.answer(game), choice=choice)


def overview_of(progress: list[LessonProgress]) -> Overview:
    """The course as ``progress`` leaves it: the next lesson is the first one not finished."""
    by_key = {p.lesson: p for p in progress}
    upcoming = next(
        (i for i, lesson in enumerate(COURSE) if not _finished(by_key, lesson)),
        None,
    )
    return Overview(by_key, upcoming)


def _finished(progress: dict[str, LessonProgress], lesson: Lesson) -> bool:
    found = progress.get(lesson.key)
    return found is not None and found.finished


class Lessons:
    """The course's progress, its answers judged, and the offers of ``/learn`` (see the
    module docstring)."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def overview(self, user_id: int) -> Overview:
        """Where ``user_id`` is in the course."""
        return overview_of(await self._store.learning.progress(user_id))

    async def resume(self, user_id: int, lesson: int) -> int:
        """The step to show when ``user_id`` opens lesson ``lesson``: where they left it, or
        its first step when they finished it or never began it.

        :raises: :exc:`StaleAction` for a lesson that does not exist.
        """
        found = lesson_at(lesson)
        progress = (await self.overview(user_id)).progress.get(found.key)
        if progress is None or progress.done >= len(found.steps):
            return 0
        return progress.done

    async def tapped(self, lesson: int, step: int, taps: str) -> Tapped:
        """The turn ``taps`` build in step ``step`` of ``lesson`` (worked out on a thread: the
        engine's searches).

        :raises: :exc:`StaleAction` for a step or taps that name none.
        """
        found = step_at(lesson, step)
        return await asyncio.to_thread(tapped_step, found, taps)

    async def answer_turn(self, user_id: int, lesson: int, step: int, tapped: Tapped) -> Verdict:
        """Judges the complete turn ``tapped`` of a play step, and moves ``user_id``'s
        progress on when it is right.

        :raises: :exc:`StaleAction` if the step is not a play step or the turn not complete.
        """
        found = step_at(lesson, step)
        if not isinstance(found, PlayStep):
            raise StaleAction()
        verdict = await asyncio.to_thread(verdict_of, found, tapped.input)
        if verdict is None:
            raise StaleAction()
        return await self._after(user_id, lesson, step, verdict)

    async def answer_question(self, user_id: int, lesson: int, step: int, choice: int) -> Verdict:
        """Judges option ``choice`` of an ask step, and moves ``user_id``'s progress on when
        it is right.

        :raises: :exc:`StaleAction` for a step that is not an ask step, or an option it does
            not offer.
        """
        found = step_at(lesson, step)
        if not isinstance(found, AskStep):
            raise StaleAction()
        verdict = await asyncio.to_thread(choice_verdict, found, choice)
        return await self._after(user_id, lesson, step, verdict)

    async def _after(self, user_id: int, lesson: int, step: int, verdict: Verdict) -> Verdict:
        if not verdict.right:
            return verdict
        found = lesson_at(lesson)
        finished = step + 1 == len(found.steps)
        await self._store.learning.set_progress(
            user_id, LessonProgress(found.key, step + 1, finished), now=self._clock()
        )
        return Verdict(True, verdict.turn, verdict.choice, finished)

    async def offer_at_start(self, user_id: int) -> bool:
        """Whether to offer ``/learn`` to ``user_id`` now, at ``/start``: a player who never
        finished a game, offered once (the offer is recorded)."""
        learner = await self._store.learning.learner(user_id)
        if learner is not None and (learner.offered_at_start or learner.declined):
            return False
        if await self._store.learning.finished_games(user_id):
            return False
        return await self._store.learning.claim_offer(user_id, after_loss=False, now=self._clock())

    async def offer_after_loss(self, stored: StoredGame) -> int | None:
        """The player to offer ``/learn`` after the finished game ``stored``: its loser, a
        person, when it lost by a big margin (:data:`BIG_LOSSES`) within their first
        :data:`FIRST_GAMES` games, offered so once (recorded); None otherwise."""
        result = stored.game.result
        if result is None or result.outcome not in BIG_LOSSES:
            return None
        loser = stored.player(result.winner.other)
        if computer_level(loser) is not None:
            return None
        learner = await self._store.learning.learner(loser)
        if learner is not None and (learner.offered_after_loss or learner.declined):
            return None
        if await self._store.learning.finished_games(loser) > FIRST_GAMES:
            return None
        claimed = await self._store.learning.claim_offer(loser, after_loss=True, now=self._clock())
        return loser if claimed else None

    async def decline(self, user_id: int) -> None:
        """``user_id`` says no to ``/learn``: it is never offered to them again."""
        await self._store.learning.decline(user_id, now=self._clock())
