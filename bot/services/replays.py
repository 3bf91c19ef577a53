"""Games shown again: the board after each move of a finished game (to replay it, or to play
on from one), the position of a game in progress (``/position``), and the replays Telegram
keeps. No Telegram here.

Moves are numbered as a replay shows them: move 0 is the start, move ``k`` the board after the
``k``-th turn played (cube actions, resignations and timeouts are not turns), with the side to
move next. Who may look: a game's players anywhere, anyone else only where it is played (the
group of a finished game; for a game in progress, any chat that shows its board), as for its
analysis and its moves file.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from bot.engine import Game, GameOverError, Position, RecordError, Side, Turn, TurnRecord
from bot.model import Store, StoredGame, User

from .analysis import replay
from .errors import (
    GameNotFound,
    GameStillPlayed,
    NoGameHere,
    NoSuchMove,
    NotAPlayer,
    PositionDeadlocked,
    PositionOver,
)
from .export import starting_game
from .locks import KeyedLocks


@dataclass(frozen=True, slots=True)
class ReplayedTurn:
    """One turn of a finished game, as a replay shows it."""

    before: Game
    """The game ready to play it: its roll (a strike, a cascade) or the remainder handed over."""
    turn: Turn
    after: Position
    """The board after it, with the side to move next."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """A finished game rebuilt from its history: its players, its start and every move."""

    stored: StoredGame
    white: User
    black: User
    start: Position
    moves: tuple[ReplayedTurn, ...]

    def user(self, side: Side) -> User:
        return self.white if side is Side.WHITE else self.black

    def position_after(self, count: int) -> Position:
        """The board after ``count`` moves (0: the start).

        :raises: :exc:`NoSuchMove` for a count outside 0..the number of moves.
        """
        if not 0 <= count <= len(self.moves):
            raise NoSuchMove(game=self.stored.id, moves=len(self.moves))
        return self.start if count == 0 else self.moves[count - 1].after


def rebuilt(stored: StoredGame) -> tuple[Position, tuple[ReplayedTurn, ...]]:
    """The start of a finished game and each of its moves; CPU work, for a thread.

    :raises: :exc:`~.errors.NotAnalysable` if the history does not replay.
    """
    played = replay(stored)
    if not played:
        return starting_game(stored.game, stored.start).position, ()
    moves = []
    for index, (before, turn) in enumerate(played):
        # the next turn's game has the board this one left; the last one is played out
        after = played[index + 1][0] if index + 1 < len(played) else before.play(turn)
        moves.append(ReplayedTurn(before, turn, after.position))
    return played[0][0].position, tuple(moves)


def moves_in(stored: StoredGame) -> int:
    """How many moves ``stored`` had: its history's turns (not its cube actions, nor how it
    ended); what :func:`rebuilt` gives one each."""
    count = 0
    for line in stored.history:
        with contextlib.suppress(RecordError):
            TurnRecord.from_text(line)
            count += 1
    return count


def playable(position: Position) -> Position:
    """``position`` if a game can go on from it.

    :raises: :exc:`PositionOver` where a side has borne off every checker;
        :exc:`PositionDeadlocked` where neither side can ever move.
    """
    try:
        set_up = Game.setup(position)
    except GameOverError:
        raise PositionOver() from None
    if set_up.is_deadlocked:
        raise PositionDeadlocked()
    return position


class Replays:
    """Finished games move by move, positions to play on from, and replays' file ids."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._locks: KeyedLocks[tuple[int, str]] = KeyedLocks()

    async def finished_game(self, game_id: int, *, user_id: int, chat_id: int) -> StoredGame:
        """Finished game ``game_id``, for ``user_id`` asking in ``chat_id``.

        :raises: :exc:`GameNotFound`, :exc:`NotAPlayer`; :exc:`GameStillPlayed` for a game in
            progress.
        """
        stored = await self._get(game_id)
        in_its_group = stored.chat_id != 0 and stored.chat_id == chat_id
        if stored.side_of(user_id) is None and not in_its_group:
            raise NotAPlayer()
        if not stored.game.is_over:
            raise GameStillPlayed(game=game_id)
        return stored

    async def replayed(self, stored: StoredGame) -> Replayed:
        """``stored`` rebuilt move by move (on a thread), with its players.

        :raises: :exc:`~.errors.NotAnalysable` if its history does not replay.
        """
        start, moves = await asyncio.to_thread(rebuilt, stored)
        return Replayed(
            stored,
            await self._user(stored.white_id),
            await self._user(stored.black_id),
            start,
            moves,
        )

    async def finished(self, game_id: int, *, user_id: int, chat_id: int) -> Replayed:
        """Finished game ``game_id`` rebuilt move by move, for ``user_id`` asking in
        ``chat_id``.

        :raises: as :meth:`finished_game` and :meth:`replayed`.
        """
        stored = await self.finished_game(game_id, user_id=user_id, chat_id=chat_id)
        return await self.replayed(stored)

    async def players(self, stored: StoredGame) -> tuple[User, User]:
        """White and black of ``stored``."""
        return await self._user(stored.white_id), await self._user(stored.black_id)

    async def position_after(
        self, game_id: int, count: int | None, *, user_id: int, chat_id: int
    ) -> tuple[Replayed, Position]:
        """The board of finished game ``game_id`` after ``count`` moves (None: the end), to play
        on from, with the game.

        :raises: as :meth:`finished`; :exc:`NoSuchMove`; :exc:`PositionOver` for a board where
            the game was over (the end of a game played out); :exc:`PositionDeadlocked` for
            one where neither side can ever move.
        """
        found = await self.finished(game_id, user_id=user_id, chat_id=chat_id)
        return found, playable(found.position_after(len(found.moves) if count is None else count))

    async def current(self, game_id: int | None, *, user_id: int, chat_id: int) -> StoredGame:
        """The game whose position ``user_id`` asks for in ``chat_id``: game ``game_id``, or
        (None) their own game in progress there, else the latest game in progress shown
        there.

        :raises: :exc:`NoGameHere` when none is in progress there; :exc:`GameNotFound`;
            :exc:`NotAPlayer` for someone else's game not shown in this chat.
        """
        if game_id is None:
            found = await self._store.games.active_for(user_id, chat_id)
            found = found or await self._store.games.active_in(chat_id)
            if not found:
                raise NoGameHere()
            return found[0]
        stored = await self._get(game_id)
        if stored.side_of(user_id) is None:
            shown = {board.chat_id for board in await self._store.games.boards(game_id)}
            if chat_id not in shown:
                raise NotAPlayer()
        return stored

    async def file_id(self, game_id: int, locale: str) -> str | None:
        """Telegram's id of the game's replay in ``locale``, once one was sent."""
        return await self._store.games.replay_file(game_id, locale)

    async def remember(self, game_id: int, locale: str, file_id: str | None) -> None:
        """Keeps Telegram's id of the replay just sent (None: forgets one Telegram refused)."""
        await self._store.games.set_replay_file(game_id, locale, file_id)

    @contextlib.asynccontextmanager
    async def making(self, game_id: int, locale: str) -> AsyncIterator[None]:
        """Held while the replay of ``game_id`` in ``locale`` is made and sent, so that a second
        tap meanwhile waits and then sends the file the first one made (in this process)."""
        async with self._locks.hold((game_id, locale)):
            yield

    async def _get(self, game_id: int) -> StoredGame:
        stored = await self._store.games.get(game_id)
        if stored is None:
            raise GameNotFound()
        return stored

    async def _user(self, user_id: int) -> User:
        user = await self._store.users.get(user_id)
        return user if user is not None else User(user_id, None, "?", None)
