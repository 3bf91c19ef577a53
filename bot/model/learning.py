"""Learning to play: each player's place in the course, the practice positions with their
answers and streaks, the offers of ``/learn``, the coach's messages of training games; with
the repository protocol storage implements.

A practice position is kept like a daily position (:class:`~.daily.DailyPosition`): the game
ready to play, and every legal turn ranked by the strongest level when it was found, so any
answer is judged without the computer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.engine import Game

from .daily import RankedPosition, RankedTurn


@dataclass(frozen=True, slots=True)
class LessonProgress:
    """Where a player is in one lesson: ``done`` steps done (the next to do), and whether
    they finished it (once finished it stays so, and may be taken again)."""

    lesson: str
    """The lesson's key (:mod:`bot.course.lessons`)."""
    done: int
    finished: bool


@dataclass(frozen=True, slots=True)
class Learner:
    """What the bot keeps of a player learning: the offers of ``/learn`` made (at the first
    ``/start``, after a game lost by a big margin), whether they said no to it (never offered
    again), and their practice streak (right answers in a row) with the best one."""

    user_id: int
    offered_at_start: bool = False
    offered_after_loss: bool = False
    declined: bool = False
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True, slots=True)
class PracticePosition(RankedPosition):
    """A position to practise on: a roll whose best turn beats the next best by a blunder's
    margin (found as the daily position is), with every legal turn ranked, best first."""

    id: int
    variant: str
    key: str
    """The checkers, side to move and roll (``bot.ai.daily.key``): none is kept twice."""
    game: Game
    ranking: tuple[RankedTurn, ...]


@dataclass(frozen=True, slots=True)
class PracticeAnswer:
    """One player's answer to one practice position."""

    position_id: int
    user_id: int
    turn: str
    loss: float
    correct: bool
    answered_at: float


@dataclass(frozen=True, slots=True)
class CoachMessage:
    """The coach's message of a training game, in its player's private chat (``message_id``
    None until sent), and the player's turn it judged last: its history line's number and text
    (``"12 w 6-5 24/18 18/13"``; empty for none, or after a take-back)."""

    game_id: int
    chat_id: int
    message_id: int | None
    judged: str = ""


class LearningRepository(Protocol):
    """The course's progress, the practice positions and answers, the offers, the coach's
    messages."""

    async def progress(self, user_id: int) -> list[LessonProgress]:
        """The player's progress in each lesson they began."""
        ...

    async def set_progress(self, user_id: int, progress: LessonProgress, *, now: float) -> None:
        """Records ``progress`` (a lesson finished stays finished)."""
        ...

    async def learner(self, user_id: int) -> Learner | None: ...

    async def claim_offer(self, user_id: int, *, after_loss: bool, now: float) -> bool:
        """Records that ``/learn`` is offered to ``user_id`` (at the first ``/start``, or
        ``after_loss``), unless it was offered so before or they declined: True for the one
        call that is to offer it."""
        ...

    async def decline(self, user_id: int, *, now: float) -> None:
        """Records that the player said no to ``/learn``: it is never offered again."""
        ...

    async def set_streak(self, user_id: int, streak: int, best: int, *, now: float) -> None: ...

    async def finished_games(self, user_id: int) -> int:
        """How many finished games the player has played (with anyone)."""
        ...

    async def add_practice(
        self, *, variant: str, key: str, game: Game, ranking: tuple[RankedTurn, ...], now: float
    ) -> PracticePosition | None:
        """Keeps a practice position; None when one with ``key`` is kept already."""
        ...

    async def import_daily(self, variant: str, before_day: str, *, now: float) -> int:
        """Keeps ``variant``'s daily positions of the days before ``before_day`` as practice
        positions (those not kept yet); returns how many."""
        ...

    async def practice(self, position_id: int) -> PracticePosition | None: ...

    async def practice_keys(self, variant: str) -> frozenset[str]:
        """The keys of ``variant``'s practice positions."""
        ...

    async def next_practice(self, user_id: int, variant: str) -> PracticePosition | None:
        """The easiest of ``variant``'s practice positions the player has not answered: the
        one the most players answered right (a share, with one right and one wrong answer
        counted for each to start from, so a position nobody answered stands at a half),
        the oldest first among equals."""
        ...

    async def add_practice_answer(self, answer: PracticeAnswer) -> bool:
        """Records ``answer``; False (nothing changed) if the player had answered already."""
        ...

    async def practice_answer(self, position_id: int, user_id: int) -> PracticeAnswer | None: ...

    async def practice_tally(self, position_id: int) -> tuple[int, int]:
        """How many answered the position, and how many of them right."""
        ...

    async def coach_message(self, game_id: int) -> CoachMessage | None: ...

    async def set_coach_message(self, message: CoachMessage) -> None: ...
