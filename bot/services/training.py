"""Training games: a game against the computer in which each of the player's turns is judged
(:class:`TurnVerdict`), the better turn shown, and the turn can be taken back to try again. Not
rated, no chips, hints free (as every game with the computer). No Telegram here.

**Judging.** After each player's turn that had a choice, the strongest level ranks the roll
(:meth:`~.computer.Brain.hint`, in the workers); the loss is graded by the analysis's thresholds
(:mod:`bot.ai.analysis`): the best (under :data:`~.daily.BEST_LOSS`), an inaccuracy (under
:data:`~bot.ai.analysis.ERROR`), a mistake (under :data:`~bot.ai.analysis.BLUNDER`), a blunder.

**Taking back** (:func:`.takeback.taken_back`, saved by :meth:`~.games.Games.take_back`) puts
the game back as it was before the player's latest judged turn, the computer's answer undone
too: the history and the dice's log are cut at that turn, so the same dice come again and stay
provably fair (:data:`~bot.model.TRAINING_VARIANTS` play one roll a turn).
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.analysis import BLUNDER, ERROR
from bot.engine import Game, Side, Turn
from bot.model import CoachMessage, Store, StoredGame

from .computer import Brain
from .daily import BEST_LOSS
from .takeback import PlayedTurn, latest_choice


class Grade(enum.Enum):
    """How a turn compares with the best, by the analysis's thresholds."""

    BEST = "best"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def grade(loss: float) -> Grade:
    """The grade of a turn that gives away ``loss`` against the best.

    >>> [grade(x).value for x in (0.0, 0.05, 0.1, 0.3)]
    ['best', 'inaccuracy', 'mistake', 'blunder']
    """
    if loss < BEST_LOSS:
        return Grade.BEST
    if loss < ERROR:
        return Grade.INACCURACY
    if loss < BLUNDER:
        return Grade.MISTAKE
    return Grade.BLUNDER


@dataclass(frozen=True, slots=True)
class TurnVerdict:
    """A player's turn judged: its history line, the game before it, the turn played, the
    best turn for the roll, what it gave away and its grade."""

    line: int
    before: Game
    played: Turn
    best: Turn
    loss: float
    key: str
    """The judged turn's history line with its number (:func:`judged_key`): what the coach's
    message records."""

    @property
    def grade(self) -> Grade:
        return grade(self.loss)

    @property
    def side(self) -> Side:
        return self.before.turn


def player_side(stored: StoredGame) -> Side | None:
    """The side the person plays in a training game against the computer (None in any other
    game)."""
    if not stored.training:
        return None
    sides = [side for side in Side if stored.level(side) is None]
    return sides[0] if len(sides) == 1 else None


def judged_key(turn: PlayedTurn) -> str:
    """What the coach's message records of the turn it judged: the turn's history line with
    its number (a turn taken back and played again is judged again)."""
    return f"{turn.line} {turn.record.to_text()}"


class Training:
    """Judges the turns of training games and keeps their coach's messages (see the module
    docstring)."""

    def __init__(self, store: Store, brain: Brain, *, clock: Callable[[], float] = time.time):
        self._store = store
        self._brain = brain
        self._clock = clock

    async def latest(self, stored: StoredGame) -> PlayedTurn | None:
        """The player's latest chosen turn in training game ``stored`` (replayed on a thread);
        None in any other game, or before their first."""
        side = player_side(stored)
        if side is None:
            return None
        return await asyncio.to_thread(latest_choice, stored, side)

    async def judge(self, turn: PlayedTurn) -> TurnVerdict:
        """How ``turn`` compares with the best turn for its roll, as the strongest level ranks
        it (in the worker processes)."""
        hint = await self._brain.hint(turn.before)
        best = hint.best
        loss = hint.loss(turn.turn)
        key = judged_key(turn)
        if best is None or loss is None:  # a turn of the roll: never, but judge it the best
            return TurnVerdict(turn.line, turn.before, turn.turn, turn.turn, 0.0, key)
        return TurnVerdict(turn.line, turn.before, turn.turn, best, loss, key)

    async def coach_message(self, game_id: int) -> CoachMessage | None:
        return await self._store.learning.coach_message(game_id)

    async def set_coach_message(self, message: CoachMessage) -> None:
        await self._store.learning.set_coach_message(message)
