"""Analyses of finished games: each turn and each cube decision judged by the computer, each
side's summary, its luck, PR and luck-adjusted result.

:meth:`Analyses.analyse` rebuilds a finished game's turns and cube decisions from its history
(from the start the moves file writes, :func:`.export.starting_game`; the cube's actions, as
:func:`.flow.acted` writes them, are played between the turns; resignations and timeouts move
no checker and are skipped), then has the :class:`~.computer.Brain`'s worker processes review
the turns :data:`PART` at a time, with the luck of their rolls, and judge the cube decisions
(:func:`bot.ai.analysis.judge_cube`) in one more call. Between parts it reports
``progress(done, total)`` to every caller waiting for it, and a question for the computer in
another game waits at most one part in the pool's queue.

One analysis per game at a time: a request for a game being analysed joins that analysis (a
second request from the same chat is refused, :exc:`AlreadyAnalysing`). A finished game never
changes, so results are kept, for the :data:`CACHED` games asked about last.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Final, TypeAlias

from bot.ai.analysis import (
    CubeDecision,
    CubeRecord,
    CubeReview,
    Review,
    Summary,
    summarise,
)
from bot.ai.analysis import replayed as _replayed
from bot.ai.cubeful import CubeAction
from bot.ai.luck import RollLuck, SideLuck, game_luck
from bot.engine import Game, NardyError, RecordError, Side, Turn, TurnRecord
from bot.model import Store, StoredGame, User

from .computer import Brain
from .errors import AlreadyAnalysing, GameNotFound, GameNotOver, NotAnalysable, NotAPlayer
from .export import starting_game

logger = logging.getLogger(__name__)

PART: Final = 20
"""Turns reviewed in one go in a worker process (about half a second of long nardy)."""
CACHED: Final = 32
"""Finished games whose analyses are kept."""
GRAPH_PLY: Final = 0
"""The ply the analysis values rolls at, for the per-turn graph and each side's luck and
luck-adjusted result: the automatic analysis's (see :mod:`.autoanalysis` for why 0-ply), so
that both show the same figures."""
AT_ONCE: Final = 2
"""Analyses whose parts are in the pool at the same time; more wait their turn (so that the
computer's moves in running games wait behind at most this many parts)."""

Progress: TypeAlias = Callable[[int, int], Awaitable[None]]
"""``progress(done, total)``: turns reviewed so far, of all the game's turns."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """A finished game's analysis: the game, its players, how many turns it had, and each
    side's summary."""

    stored: StoredGame
    white: User
    black: User
    turns: int
    """Turns in the game's record (the summaries count those that had a choice)."""
    summaries: Mapping[Side, Summary]
    rolls: tuple[RollLuck, ...] = ()
    """The luck of every roll, for the per-turn graph."""
    cube: tuple[CubeReview, ...] = ()
    """The game's cube decisions, judged (none without a cube)."""
    figures: Mapping[Side, SideLuck] | None = None
    """Each side's luck (zero-sum), PR (turns and cube decisions) and luck-adjusted result,
    as the automatic analysis counts them."""

    def user(self, side: Side) -> User:
        return self.white if side is Side.WHITE else self.black


class _Run:
    """An analysis under way: its task, who waits for it, and how far it has got."""

    def __init__(self) -> None:
        self.task: asyncio.Task[Analysis] | None = None
        self.listeners: list[Progress] = []
        self.chats: set[int] = set()
        self.done = 0
        self.total = 0

    async def report(self) -> None:
        for listener in list(self.listeners):
            await _tell(listener, self.done, self.total)


class Analyses:
    """Analyses of finished games, off the event loop (see the module docstring)."""

    def __init__(self, store: Store, brain: Brain) -> None:
        self._store = store
        self._brain = brain
        self._runs: dict[int, _Run] = {}
        self._done: OrderedDict[int, Analysis] = OrderedDict()
        self._slots = asyncio.Semaphore(AT_ONCE)

    def running(self, game_id: int) -> bool:
        """True while game ``game_id`` is being analysed."""
        return game_id in self._runs

    async def analyse(
        self, game_id: int, *, user_id: int, chat_id: int, progress: Progress | None = None
    ) -> Analysis:
        """The analysis of finished game ``game_id`` for ``user_id`` asking in ``chat_id`` (a
        player anywhere, anyone else in the group where it was played): at once when it is
        known, else when it is done, with ``progress`` called as it goes (not for a known one).

        :raises: :exc:`GameNotFound`, :exc:`NotAPlayer`, :exc:`GameNotOver`;
            :exc:`AlreadyAnalysing` while the same chat waits for it already;
            :exc:`NotAnalysable` if the history does not replay.
        """
        known = self._known(game_id)
        if known is not None:
            _check_access(known.stored, user_id, chat_id)
            return known
        stored = await self._store.games.get(game_id)
        if stored is None:
            raise GameNotFound()
        _check_access(stored, user_id, chat_id)
        if not stored.game.is_over:
            raise GameNotOver()
        known = self._known(game_id)  # it may have been finished while the game was read
        if known is not None:
            return known
        run = self._runs.get(game_id)
        if run is None:
            run = self._runs[game_id] = _Run()
            run.task = asyncio.create_task(self._analyse(stored, run), name=f"analysis-{game_id}")
            run.task.add_done_callback(_retrieve)
        elif chat_id in run.chats:
            raise AlreadyAnalysing()
        assert run.task is not None
        run.chats.add(chat_id)
        if progress is not None:
            run.listeners.append(progress)
            if run.total:  # joined on the way: how far it is
                await _tell(progress, run.done, run.total)
        try:
            # shielded: a caller that goes away leaves the analysis to the others
            return await asyncio.shield(run.task)
        finally:
            run.chats.discard(chat_id)
            if progress is not None:
                run.listeners.remove(progress)

    async def close(self) -> None:
        """Stops the analyses under way (before the brain's workers stop)."""
        tasks = [run.task for run in self._runs.values() if run.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    def _known(self, game_id: int) -> Analysis | None:
        known = self._done.get(game_id)
        if known is not None:
            self._done.move_to_end(game_id)
        return known

    async def _analyse(self, stored: StoredGame, run: _Run) -> Analysis:
        try:
            played, decisions = await asyncio.to_thread(replayed, stored)
            run.total = len(played)
            if played:
                await run.report()
            reviews: list[Review] = []
            rolls: list[RollLuck] = []
            async with self._slots:
                for start in range(0, len(played), PART):
                    part = range(start, min(start + PART, len(played)))
                    reviews += await self._brain.review(played, part)
                    rolls += await self._brain.luck(played, part, GRAPH_PLY)
                    run.done = part.stop
                    await run.report()
                cube = await self._brain.judge_cube(decisions) if decisions else []
            analysis = Analysis(
                stored,
                await self._user(stored.white_id),
                await self._user(stored.black_id),
                len(played),
                summarise(reviews, cube),
                tuple(rolls),
                tuple(cube),
                game_luck(rolls, reviews, stored.game.result, cube),
            )
            self._done[stored.id] = analysis
            while len(self._done) > CACHED:
                self._done.popitem(last=False)
            return analysis
        finally:
            self._runs.pop(stored.id, None)

    async def _user(self, user_id: int) -> User:
        user = await self._store.users.get(user_id)
        return user if user is not None else User(user_id, None, "?", None)


CUBE_WORDS: Final = {"double": CubeAction.DOUBLE, "take": CubeAction.TAKE, "drop": CubeAction.DROP}
"""The cube's actions in a history line (``w double 2``, ``b take``, ``b drop``: see
:func:`.flow.acted`)."""


def cube_record(line: str) -> CubeRecord | None:
    """The cube action a history line records, None for any other line."""
    side, _, rest = line.partition(" ")
    action = CUBE_WORDS.get(rest.split(" ", 1)[0])
    if action is None or side not in {s.value for s in Side}:
        return None
    return CubeRecord(Side(side), action)


def replayed(stored: StoredGame) -> tuple[list[tuple[Game, Turn]], list[CubeDecision]]:
    """Each turn of a stored game as (the game ready to play it, the turn played), the cube's
    actions played between them, and the game's cube decisions (see
    :func:`bot.ai.analysis.replayed`).

    :raises: :exc:`NotAnalysable` if the history does not replay from the game's start.
    """
    entries: list[TurnRecord | CubeRecord] = []
    for line in stored.history:
        cube = cube_record(line)
        if cube is not None:
            entries.append(cube)
            continue
        with contextlib.suppress(RecordError):  # a resignation, a timeout
            entries.append(TurnRecord.from_text(line))
    start = starting_game(stored.game, stored.start)
    first = next((e for e in entries if _mover(e)), None)
    if first is not None and start.opening is None and first.side is not start.turn:
        start = replace(start, position=start.position.with_turn(first.side))
    try:
        return _replayed(start, entries)
    except (NardyError, StopIteration) as error:
        logger.warning("game %d does not replay: %s", stored.id, error)
        raise NotAnalysable() from None


def _mover(entry: TurnRecord | CubeRecord) -> bool:
    """Whether ``entry`` is made by the side to move: a turn or a double."""
    return isinstance(entry, TurnRecord) or entry.action is CubeAction.DOUBLE


def replay(stored: StoredGame) -> list[tuple[Game, Turn]]:
    """Each turn of a stored game as (the game ready to play it, the turn played), the cube
    as it stood (see :func:`replayed`).

    :raises: :exc:`NotAnalysable` if the history does not replay from the game's start.
    """
    return replayed(stored)[0]


def _check_access(stored: StoredGame, user_id: int, chat_id: int) -> None:
    """A player may see a game's analysis anywhere, anyone else in the group it was played in."""
    in_its_group = stored.chat_id != 0 and stored.chat_id == chat_id
    if stored.side_of(user_id) is None and not in_its_group:
        raise NotAPlayer()


async def _tell(progress: Progress, done: int, total: int) -> None:
    """Reports progress; a report that fails is logged and does not stop the analysis."""
    try:
        await progress(done, total)
    except Exception:
        logger.exception("a progress report failed")


def _retrieve(task: asyncio.Task[Analysis]) -> None:
    """Reads a failed analysis's error, which its callers (if any are left) have been given."""
    if not task.cancelled():
        task.exception()
