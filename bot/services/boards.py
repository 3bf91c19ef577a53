"""The board messages' bookkeeping: which messages show which game (its players', its group's,
its watchers', an inline message), which version each one shows, the boards that fell behind,
and whether a tapped button is on one of them. The publisher (:mod:`bot.messages.boards`) keeps
the messages; this service keeps their records. No Telegram here.

A board's clock starts when it is first shown (:meth:`BoardMessages.start_clock`): a move's
time is the player's from when they can see it, not from when it was saved.

Which version a board shows is written late, in one process (SQLite): the latest version of
each board is kept, and those of every board are written together a moment later
(:data:`SHOWN_DELAY_SECONDS`), behind the games' saves, in one transaction; the records read
meanwhile carry the versions kept (:meth:`BoardMessages.boards`). Lost to a crash, a version
costs one edit that changes nothing after the restart. With several workers each is written at
once: the others read it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Final

from bot.model import Board, Store, StoredGame

from .errors import ForeignButton
from .feed import ChangeFeed, ClockStarted

logger = logging.getLogger(__name__)

CLOCK_SLACK_SECONDS: Final = 1.0
"""A board shown this much or more after its move's clock started restarts the clock
(:meth:`BoardMessages.start_clock`); a board shown sooner costs no write, and its player at
most this much of the move's time."""

SHOWN_DELAY_SECONDS: Final = 0.2
"""How long the versions boards show wait to be written together (one process only)."""

BOARDS_REMEMBERED: Final = 10_000
"""How many boards :class:`BoardMessages` remembers as having a message (then it starts
afresh): enough for every game being played at once; one it forgot costs a read on its next
tap."""


class BoardMessages:
    """The records of the messages that show games (game ids and domain values in and out)."""

    def __init__(
        self, store: Store, feed: ChangeFeed, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._store = store
        self._feed = feed
        self._clock = clock
        # (game, chat, message id or inline message id) of players' boards. A player's board
        # keeps its row, and its message id, once recorded, is only replaced by another one
        # when the bot sends it again, the old one being gone: a message remembered here has
        # been the game's own board, which spares each tap a read (see check_board).
        self._boards_seen: set[tuple[int, int, int | str]] = set()
        # (game, chat) -> the version the board shows, not written yet (see the docstring)
        self._shown: dict[tuple[int, int], int] = {}
        self._writing: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()

    async def boards(self, game_id: int) -> list[Board]:
        """The messages that show the game: its players' (or its group's) and its watchers'."""
        boards = await self._store.games.boards(game_id)
        self._remember_boards(boards)
        if self._shown:
            boards = [self._with_shown(board) for board in boards]
        return boards

    async def latest_inline(self, inline_message_id: str) -> int | None:
        """The latest game played in that inline message: a match's next game is played in
        its last one's message."""
        return await self._store.games.shown_inline(inline_message_id)

    def _with_shown(self, board: Board) -> Board:
        kept = self._shown.get((board.game_id, board.chat_id))
        if kept is None or (board.shown_version is not None and board.shown_version >= kept):
            return board
        return replace(board, shown_version=kept)

    async def set_board_message(self, game_id: int, chat_id: int, message_id: int) -> None:
        """Records the message that now shows the game in ``chat_id``."""
        await self._store.games.set_board_message(game_id, chat_id, message_id)

    async def check_board(
        self,
        game_id: int,
        chat_id: int,
        message_id: int | None,
        *,
        inline_message_id: str | None = None,
        photo: bool = False,
    ) -> None:
        """Makes sure a tap on a button of game ``game_id`` came from one of its players'
        boards: message ``message_id`` in ``chat_id``, or the inline message. A ``photo`` in a
        chat where the game's board has no message yet, and that shows no other game, is that
        board: its sending got no answer (see :meth:`bot.messages.kept.KeptMessage.show`) but
        it arrived after all, and it is recorded, to be edited from now on instead of sent a
        second time.
        A board seen before costs no read.

        :raises: :exc:`ForeignButton` for any other message: forged data, or the buttons of one
            game tapped on the board of another.
        """
        tapped = inline_message_id if inline_message_id is not None else message_id
        if tapped is None:
            raise ForeignButton()
        if (game_id, chat_id, tapped) in self._boards_seen:
            return
        boards = [b for b in await self.boards(game_id) if b.chat_id == chat_id and not b.watcher]
        if any(tapped in (board.message_id, board.inline_message_id) for board in boards):
            return
        if message_id is not None and boards:
            board = boards[0]  # one a chat
            shows = await self._store.games.shown_by(chat_id, message_id)
            adopted = shows is None and board.message_id is None and photo
            if adopted:
                await self.set_board_message(game_id, chat_id, message_id)
            if adopted or shows == game_id:  # or recorded by its sender since the read
                self._remember_boards([replace(board, message_id=message_id)])
                return
        raise ForeignButton()

    def _remember_boards(self, boards: Iterable[Board]) -> None:
        if len(self._boards_seen) > BOARDS_REMEMBERED:
            self._boards_seen.clear()
        for board in boards:
            shown_by = board.inline_message_id or board.message_id
            if shown_by is not None and not board.watcher:
                self._boards_seen.add((board.game_id, board.chat_id, shown_by))

    async def start_clock(self, stored: StoredGame) -> float | None:
        """Starts the clock of the move that ``stored`` waits for, when the first of its
        players' boards to show that move has just been shown (the publisher knows which):
        its deadline becomes a whole move's time from now, if that is
        :data:`CLOCK_SLACK_SECONDS` or more later than it was (the board waited for
        Telegram's pace) and the game is still at that version. Returns the move's deadline
        now (``stored``'s when it did not move); a deadline moved is told to the change feed
        (:class:`~.feed.ClockStarted`). The caption keeps the deadline it was drawn with, so a
        player has more time than it says, never less. Not for the computer's turns, whose
        pause is no player's time."""
        if stored.deadline is None or stored.computer_to_act:
            return stored.deadline
        until = self._clock() + stored.move_seconds
        if until - stored.deadline < CLOCK_SLACK_SECONDS:
            return stored.deadline
        if not await self._store.games.start_clock(stored.id, stored.version, until):
            return stored.deadline  # the game moved on meanwhile: its new move has its clock
        self._feed.announce(ClockStarted(stored.id, stored.version, deadline=until))
        return until

    async def set_board_shown(self, board: Board, version: int) -> None:
        """Records that ``board`` (its message) now shows ``version`` of its game: at once with
        several workers, else a moment later with the others (see the module docstring)."""
        if self._store.shared:
            await self._store.games.set_board_shown(board.game_id, board.chat_id, version)
            return
        key = (board.game_id, board.chat_id)
        self._shown[key] = max(version, self._shown.get(key, version))
        if self._writing is None:
            self._writing = asyncio.create_task(self._write_shown(), name="boards-shown")

    async def _write_shown(self) -> None:
        try:
            # a moment's wait, cut short when the bot stops (never the writing itself)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), SHOWN_DELAY_SECONDS)
            await self.flush()
        except Exception:
            logger.exception("could not record the versions boards show")
        finally:
            self._writing = None

    async def flush(self) -> None:
        """Writes the versions boards show that wait to be written (before the database
        closes, or when they must be read from it)."""
        while self._shown:
            shown, self._shown = self._shown, {}
            try:
                await self._store.games.set_boards_shown(
                    [(game, chat, version) for (game, chat), version in shown.items()]
                )
            except BaseException:
                for key, version in shown.items():  # kept for the next try
                    self._shown[key] = max(version, self._shown.get(key, version))
                raise

    async def close(self) -> None:
        """Writes what waits: the writer stops waiting and writes (it is not cancelled, which
        could stop it in the middle of a transaction), then whatever came after it."""
        self._closing.set()
        if self._writing is not None:
            await self._writing
        await self.flush()

    async def behind(self, within: float = 24 * 3600) -> list[int]:
        """The ids of games with a board not known to show their latest version (the bot
        stopped between saving a change and showing it): unfinished ones, and ones finished
        ``within`` seconds."""
        await self.flush()
        return await self._store.games.behind(self._clock() - within)
