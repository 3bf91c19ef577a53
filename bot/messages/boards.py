"""Keeps every board message in step with its game, within Telegram's limits. The publisher
(:class:`BoardPublisher`) hears of each change from the change feed and notes the newest
snapshot of a game: a tap is answered without waiting for the picture. One worker per game
(:class:`~bot.outbox.Latest`) draws and sends it, edits coalesced, at :mod:`bot.outbox.pace`'s
pace. The watchers' boards have a worker of their own per game, behind the players' boards, in
the pace's spare slots. With several workers a game's boards are shown by the holder of its
board lease (the watchers' by the holder of theirs), and :meth:`BoardPublisher.sweep` shows what
a worker that died saved but did not show. A board in a chat is a :mod:`.chat_boards` message,
with :mod:`.board_links`' links; an inline game's is :mod:`.inline`'s. The whole account is in
docs/decisions.md.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
from collections.abc import Callable
from typing import Final

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import (
    InlineKeyboardMarkup,
)
from aiogram.utils.i18n import I18n

from bot import logs
from bot.engine import Side
from bot.i18n import DEFAULT_LOCALE, locale_of
from bot.messages.board_links import BoardAppLinks, BoardLinks
from bot.messages.chat_boards import Face, PlayerBoard, WatcherBoard
from bot.messages.inline import InlineBoards
from bot.metrics import Metrics
from bot.model import BoardMessage
from bot.outbox import Latest, Outbox
from bot.services import GameSnapshot
from bot.services.coordination import POLL_SECONDS
from bot.services.feed import Change, GameSaved, GameStarted, Heard, WatcherAdded
from bot.services.root import Services
from bot.views.board_buttons import analysis_keyboard, keyboard
from bot.views.boards import board_position, board_view, caption
from bot.views.common import translator

logger = logging.getLogger(__name__)


CATCH_UP_AT_ONCE: Final = 4
"""Games whose boards :meth:`BoardPublisher.catch_up` brings up to date at the same time."""


SWEEP_AT_ONCE: Final = 8
"""Games behind their boards that one :meth:`BoardPublisher.sweep` takes on."""

BOARD_PLAY_SECONDS: Final = 5.0
"""While both players of a game play it on the Mini App board, its chat boards are edited at
most once this many seconds (the newest state then), and at once when it ends: the players see
each move on their boards, and the chats' pace is left to the games played there."""

CHAT_PLAY_SECONDS: Final = 30.0
"""A game whose turn was tapped in a chat within this many seconds is being played there too:
its chat boards are edited at once, whatever boards are open."""


class BoardPublisher:
    """Sends and edits board messages for games (see the module docstring)."""

    def __init__(
        self,
        bot: Bot,
        services: Services,
        i18n: I18n,
        outbox: Outbox,
        *,
        metrics: Metrics | None = None,
        storage_chats: tuple[int, ...] = (),
        board_app: BoardAppLinks | None = None,
        on_the_board: Callable[[int], bool] = lambda game_id: False,
    ) -> None:
        """``services``: the games it shows, the records of their messages, the users and
        watchers it writes to, the groups' languages. ``outbox``: the pace of the players'
        boards (the watchers' take its spare share) and the drawing thread. ``storage_chats``:
        where inline games' pictures are uploaded (see :mod:`bot.messages.inline`); none gives
        them text boards. ``board_app``: where the Mini App board is, for the players' boards'
        button to it. ``on_the_board``: whether both players of a game have its Mini App
        board open (here: see :data:`BOARD_PLAY_SECONDS`)."""
        self._bot = bot
        self._services = services
        self._games = services.games
        self._boards = services.board_messages
        self._users = services.users
        self._watchers = services.watchers
        self._chats = services.chats
        self._coordination = services.coordination
        self._i18n = i18n
        self._limiter = outbox.pace
        self._watchers_pace = outbox.spare
        self._drawing = outbox.drawing
        self._metrics = metrics
        self._shows: Latest[int, GameSnapshot] = Latest(
            self._show_newest,
            name="board",
            newer=lambda new, old: new.stored.version > old.stored.version,
            context=lambda game_id: logs.context(update_id=None, game_id=game_id),  # no tap's
        )
        self._watched: dict[int, GameSnapshot] = {}  # game id -> the newest state for watchers
        self._watching: dict[int, asyncio.Task[None]] = {}  # game id -> its watchers' worker
        self._links = BoardLinks(bot, board_app)
        self._reading: set[asyncio.Task[None]] = set()
        self._moving_on: set[asyncio.Task[None]] = set()
        self._catching_up: asyncio.Task[None] | None = None
        self._swept: dict[int, int] = {}  # game id -> the version a sweep last published
        # game id -> the deadline of the move its players' boards last showed, as started when
        # the first of them showed it: a move's taps keep its deadline, the next move's is later
        self._clocks: dict[int, float] = {}
        self._on_the_board = on_the_board
        self._shown_at: dict[int, float] = {}  # game id -> when its boards were last shown
        self._tapped_at: dict[int, float] = {}  # game id -> when a turn was last tapped in a chat
        self._inline = InlineBoards(
            bot,
            i18n,
            limiter=self._limiter,
            draw=self._drawing.board,
            storage_chats=storage_chats,
            superseded=self._superseded,
        )

    @property
    def inline(self) -> InlineBoards:
        """The inline games' boards (the automatic analysis edits their result's caption)."""
        return self._inline

    async def close(self) -> None:
        """Stops showing: catching up, and the boards still behind (the next start catches
        them up), after :meth:`drain`."""
        if self._catching_up is not None:
            self._catching_up.cancel()
        for watchers in self._watching.values():
            watchers.cancel()
        await self._shows.close()

    def hear(self, change: Heard) -> None:
        """The change feed's listener (this worker's changes: another worker shows its own):
        a game's new state and a new game are shown on its boards, the finished match game a
        new one follows loses its ▶ Next game, a new watcher's board is shown."""
        if not isinstance(change, Change) or change.remote:
            return
        if isinstance(change, WatcherAdded) and change.snapshot is not None:
            self.show_watchers(change.snapshot)
        elif isinstance(change, GameSaved | GameStarted):
            if change.snapshot is not None:
                self.publish(change.snapshot)
            else:
                self._read_and_publish(change.game_id)
            if isinstance(change, GameStarted) and change.follows is not None:
                self.moved_on(change.follows)

    def _read_and_publish(self, game_id: int) -> None:
        async def read() -> None:
            try:
                self.publish(await self._games.snapshot(game_id))
            except Exception:
                logger.exception("could not read game %d to show it", game_id)

        task = asyncio.create_task(
            read(),
            name=f"board-read-{game_id}",
            context=logs.context(update_id=None, game_id=game_id),
        )
        self._reading.add(task)
        task.add_done_callback(self._reading.discard)

    def publish(self, snapshot: GameSnapshot) -> None:
        """Schedules ``snapshot`` to be shown on every board of its game (newest wins)."""
        if snapshot.stored.input:  # a turn tapped step by step: on a chat board's buttons
            self._tapped_at[snapshot.stored.id] = time.monotonic()
        self._shows.hand(snapshot.stored.id, snapshot)

    def show_watchers(self, snapshot: GameSnapshot) -> None:
        """Schedules ``snapshot`` to be shown on the boards of its game's watchers only (a new
        watcher's board; the players' boards have it already). Newest wins, as for
        :meth:`publish`; a state already being shown is looked at again, for a board that the
        round under way did not know of."""
        game_id = snapshot.stored.id
        waiting = self._watched.get(game_id)
        if waiting is None or waiting.stored.version <= snapshot.stored.version:
            self._watched[game_id] = snapshot
        if game_id not in self._watching:
            task = asyncio.create_task(
                self._watch(game_id),
                name=f"watchers-{game_id}",
                context=logs.context(update_id=None, game_id=game_id),  # not the watch update's
            )
            self._watching[game_id] = task

    def moved_on(self, game_id: int) -> None:
        """Schedules the boards in chats of ``game_id``, a finished match game whose next game
        has started (from whichever board, or by itself in a tournament), to keep only their
        📊 and 🎞 buttons: a ▶ Next game left on another player's board would only be refused.
        Their pictures and captions stay; an edit still waiting for the game's last state goes
        first. Inline boards go on to the next game themselves."""
        task = asyncio.create_task(
            self._move_on(game_id),
            name=f"moved-on-{game_id}",
            context=logs.context(update_id=None, game_id=game_id),
        )
        self._moving_on.add(task)
        task.add_done_callback(self._moving_on.discard)

    async def _move_on(self, game_id: int) -> None:
        try:
            showing = self._shows.worker(game_id)
            if showing is not None:
                await asyncio.wait([showing])
            snapshot = await self._games.snapshot(game_id)
            for board in await self._boards.boards(game_id):
                if board.watcher or board.inline_message_id or board.message_id is None:
                    continue
                _ = translator(self._i18n, await self._locale(snapshot, board))
                await self._limiter.wait(board.chat_id)
                try:
                    await self._bot.edit_message_reply_markup(
                        chat_id=board.chat_id,
                        message_id=board.message_id,
                        reply_markup=analysis_keyboard(game_id, _),
                    )
                except TelegramAPIError as error:  # deleted, not modified, blocked: as it is
                    logger.info("game %d's buttons in %d: %s", game_id, board.chat_id, error)
        except Exception:
            logger.exception("could not take game %d's Next game button away", game_id)

    async def drain(self, timeout: float = 10.0) -> None:
        """Waits until every scheduled board is sent, the watchers' too (or ``timeout`` runs
        out), and the versions the boards show are written."""
        deadline = time.monotonic() + timeout

        def left() -> float:
            return max(0.0, deadline - time.monotonic())

        while (len(self._shows) or self._watching or self._moving_on or self._reading) and left():
            if self._reading:  # a new game being read: shown next
                await asyncio.wait(self._reading, timeout=left())
            await self._shows.drain(left())
            others = [*self._watching.values(), *self._moving_on]
            if others:
                await asyncio.wait(others, timeout=left())
        await self._boards.flush()  # the versions they show, written

    async def _show_newest(self, game_id: int, snapshot: GameSnapshot) -> None:
        """The boards' worker's round (:class:`~bot.outbox.Latest`): ``snapshot``, the newest
        state waiting, shown on the game's boards (with the other workers, see
        :meth:`_show_shared`)."""
        now = time.monotonic()
        if self._played_on_the_board(game_id, snapshot, now):
            # both play on the board: the chat's boards follow at their own pace, the newest
            # state when they do (a result goes at once: the wait ends when one is handed over)
            wait = self._shown_at.get(game_id, -math.inf) + BOARD_PLAY_SECONDS - now
            if wait > 0:
                await self._shows.until_newer(game_id, wait, lambda s: s.game.is_over)
        self._shown_at[game_id] = time.monotonic()
        if len(self._shown_at) > 10_000:  # forget the games no longer shown often
            horizon = time.monotonic() - CHAT_PLAY_SECONDS
            self._shown_at = {g: t for g, t in self._shown_at.items() if t > horizon}
            self._tapped_at = {g: t for g, t in self._tapped_at.items() if t > horizon}
        if self._coordination.shared:
            await self._show_shared(snapshot)
        else:
            await self._show(snapshot)

    def _played_on_the_board(self, game_id: int, snapshot: GameSnapshot, now: float) -> bool:
        """Whether both players play ``snapshot``'s game on the Mini App board alone: their
        boards open (here), no turn of it tapped in a chat of late, and it goes on."""
        return (
            not snapshot.game.is_over
            and now - self._tapped_at.get(game_id, -math.inf) > CHAT_PLAY_SECONDS
            and self._on_the_board(game_id)
        )

    async def _show_shared(self, snapshot: GameSnapshot) -> int:
        """Sees to it that the boards of ``snapshot``'s game show its version or a newer one,
        with the other workers (see the module docstring); returns the version shown.

        The lease's holder shows the state in hand first (a newer one saved meanwhile by
        another worker is seen at once after it), then each newer one until none is left. A
        worker that finds the lease taken looks at the boards every :data:`POLL_SECONDS`
        until they show its version, and takes the lease over when it is free again: a change
        saved after the holder's last look is then shown by its own worker."""
        game_id, version = snapshot.stored.id, snapshot.stored.version
        lease = f"board {game_id}"
        latest: GameSnapshot | None = snapshot
        while True:
            async with self._coordination.leased(lease) as held:
                if held:
                    shown = -1
                    while latest is not None and latest.stored.version > shown:
                        await self._show(latest)
                        shown = latest.stored.version
                        newest = await self._games.version(game_id)
                        latest = None
                        if newest is not None and newest > shown:
                            latest = await self._games.snapshot(game_id)
                    return shown
            boards = await self._boards.boards(game_id)
            if all((b.shown_version or -1) >= version for b in boards if not b.watcher):
                return version  # the holder showed it (or a newer one); watchers: not waited for
            await asyncio.sleep(POLL_SECONDS)
            latest = await self._games.snapshot(game_id)

    async def sweep(self) -> None:
        """Shows the boards that a worker saved a change for and then died without showing:
        games behind their boards whose lease nobody holds (called now and then by the timers,
        with several workers only)."""
        behind = await self._boards.behind()
        # a board that cannot be shown (a chat gone, a bot blocked) is tried once per state
        self._swept = {
            game_id: self._swept[game_id] for game_id in behind if game_id in self._swept
        }
        for game_id in behind[:SWEEP_AT_ONCE]:
            showing = self._shows.worker(game_id) is not None
            if showing or not await self._coordination.claim(f"board {game_id}"):
                continue
            await self._coordination.release(f"board {game_id}")
            try:
                snapshot = await self._games.snapshot(game_id)
                if self._swept.get(game_id) == snapshot.stored.version:
                    continue
                self._swept[game_id] = snapshot.stored.version
                self.publish(snapshot)
            except Exception:
                logger.exception("could not sweep game %d", game_id)

    async def catch_up(self) -> None:
        """Startup hook: starts showing the latest state on every board known to be behind it
        (the bot stopped between saving a change and showing it), a few games at a time in the
        background, so that many such boards neither delay the first taps nor pile up pictures
        waiting for Telegram's pace."""
        if self._catching_up is None:
            self._catching_up = asyncio.create_task(self._catch_up(), name="boards-catch-up")

    async def _catch_up(self) -> None:
        waiting: set[asyncio.Task[None]] = set()
        for game_id in await self._boards.behind():
            while len(waiting) >= CATCH_UP_AT_ONCE:
                _, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            try:
                self.publish(await self._games.snapshot(game_id))
            except Exception:
                logger.exception("could not catch up game %d", game_id)
                continue
            worker = self._shows.worker(game_id)
            if worker is not None:
                waiting.add(worker)

    async def _show(self, snapshot: GameSnapshot) -> None:
        """Shows ``snapshot`` on each players' board of its game that does not show it yet
        (a board already current is left alone: a refused or repeated tap costs no edit), then
        hands it to the game's watchers' worker, without waiting for it. A board drawn when its
        turn in Telegram's pace comes shows the newest state waiting by then (see
        :meth:`_show_board`), and the boards after it that one.

        The first board to show a move starts the move's clock
        (:meth:`.BoardMessages.start_clock`: later, when it was held back by Telegram's pace,
        and then :attr:`on_clock` hears of it); the boards of the taps within the move do not,
        so tapping never buys time."""
        game_id = snapshot.stored.id
        if snapshot.game.is_over:
            self._clocks.pop(game_id, None)
        newest = snapshot
        watched = False
        for board in await self._boards.boards(game_id):
            if board.watcher:
                watched = True
                continue
            if board.shown_version is not None and board.shown_version >= newest.stored.version:
                continue
            started = time.perf_counter()
            if board.inline_message_id:
                drawn = newest if await self._inline.show(newest, board) else None
            else:
                drawn = await self._show_board(newest, board)
            if self._metrics is not None:
                self._metrics.board_shown(time.perf_counter() - started, shown=drawn is not None)
            if drawn is None:
                continue
            newest = drawn
            stored = drawn.stored
            if drawn.game.is_over:
                self._clocks.pop(game_id, None)
            elif stored.deadline is not None and stored.deadline > self._clocks.get(
                game_id, -math.inf
            ):
                # a move's first board: its clock starts now (before the board is recorded
                # as shown, so that a look at the deadlines in between finds it started)
                clock = await self._boards.start_clock(stored)
                self._clocks[game_id] = stored.deadline if clock is None else clock
            await self._boards.set_board_shown(board, stored.version)
        if watched:
            self.show_watchers(newest)

    async def _watch(self, game_id: int) -> None:
        """The watchers' worker of game ``game_id`` (see the module docstring): rounds of
        :meth:`_show_watchers` while a newer state is handed over, under the game's watchers'
        lease (renewed in the background: a round may take long when many watch)."""
        lease = f"watchers {game_id}"
        try:
            while True:
                async with self._coordination.leased(lease) as held:
                    if not held:
                        self._watched.pop(game_id, None)  # the holder shows the newest state
                        return
                    while (snapshot := self._watched.pop(game_id, None)) is not None:
                        try:
                            await self._show_watchers(snapshot)
                        except Exception:
                            logger.exception(
                                "could not show game %d version %d to its watchers",
                                game_id,
                                snapshot.stored.version,
                            )
                if game_id in self._watched:
                    continue  # handed over while the lease was being let go
                if not self._coordination.shared:
                    return
                # a change that another worker showed its players while this one held the lease
                latest = await self._games.snapshot(game_id)
                boards = await self._boards.boards(game_id)
                if all(
                    (b.shown_version or -1) >= latest.stored.version for b in boards if b.watcher
                ):
                    return
                self._watched.setdefault(game_id, latest)
        finally:
            self._watching.pop(game_id, None)

    async def _show_watchers(self, snapshot: GameSnapshot) -> None:
        """One round: ``snapshot`` on each watcher's board of its game that is behind it, one
        after another at the watchers' pace. A newer state handed over meanwhile takes over for
        the boards left; it stays handed over, so the next round brings the boards before up
        to it."""
        game_id = snapshot.stored.id
        faces: dict[str, Face] = {}
        for board in await self._boards.boards(game_id):
            if not board.watcher:
                continue
            newer = self._watched.get(game_id)
            if newer is not None and newer.stored.version > snapshot.stored.version:
                snapshot, faces = newer, {}
            version = snapshot.stored.version
            if board.shown_version is not None and board.shown_version >= version:
                continue
            try:
                if await self._show_watcher_board(snapshot, board, faces):
                    await self._boards.set_board_shown(board, version)
            except Exception:  # one watcher's chat refusing it is no reason to stop the others
                logger.exception("could not show game %d to watcher %d", game_id, board.chat_id)

    async def _show_watcher_board(
        self, snapshot: GameSnapshot, board: BoardMessage, faces: dict[str, Face]
    ) -> bool:
        """Shows ``snapshot`` on a watcher's ``board``: white's side at the bottom, no buttons,
        in the watcher's language; drawn once per language (``faces``), uploaded once, then
        sent by the photo's file id. A watcher who blocked the bot watches no more."""
        watcher = await self._users.get(board.chat_id)
        locale = locale_of(watcher) if watcher is not None else DEFAULT_LOCALE
        face = faces.get(locale)
        if face is None:
            _ = translator(self._i18n, locale)
            picture = await self._drawing.board(
                board_position(snapshot), board_view(snapshot, Side.WHITE, _)
            )
            face = faces[locale] = Face(
                caption(snapshot, _, watcher=True), picture, self._links.watch_button(snapshot, _)
            )

        watched = WatcherBoard(
            self._bot,
            self._services,
            board,
            face,
            superseded=functools.partial(_newer_waits, self._watched, snapshot),
        )
        return await watched.show(self._watchers_pace)

    def _superseded(self, snapshot: GameSnapshot) -> bool:
        """Whether a newer state of the game waits to be shown (an older one need not be)."""
        newer = self._shows.waiting(snapshot.stored.id)
        return newer is not None and newer.stored.version > snapshot.stored.version

    async def _locale(self, snapshot: GameSnapshot, board: BoardMessage) -> str:
        """A group's board: the group's language, else the challenge's; a private board: its
        reader's."""
        chat_id = snapshot.stored.chat_id
        if chat_id:
            return await self._chats.locale(chat_id) or snapshot.stored.locale
        return locale_of(snapshot.user(board.viewer))

    async def _show_board(self, snapshot: GameSnapshot, board: BoardMessage) -> GameSnapshot | None:
        """Shows ``snapshot`` (or a newer state of its game, see below) on a players' board
        in a chat; returns the state shown, None when it was not.

        Its caption, buttons and picture are made only when Telegram's pace lets the edit go:
        the newest state waiting by then is drawn (a state replaced while its board waited for
        its turn costs no picture, and the edit shows the latest), once, whatever the tries."""
        _ = translator(self._i18n, await self._locale(snapshot, board))
        game_id = snapshot.stored.id
        made: list[tuple[GameSnapshot, Face, InlineKeyboardMarkup]] = []

        async def make() -> tuple[GameSnapshot, Face, InlineKeyboardMarkup]:
            current = snapshot
            newer = self._shows.waiting(game_id)
            if newer is not None and newer.stored.version > current.stored.version:
                current = newer
            if made and made[-1][0] is current:
                return made[-1]
            text = caption(current, _, watch_link=await self._links.watch_link(current))
            viewer = None if current.stored.chat_id else board.viewer
            markup = keyboard(current, viewer, _, board=await self._links.board_button(current, _))
            picture = await self._drawing.board(
                board_position(current), board_view(current, board.viewer, _)
            )
            made.append((current, Face(text, picture), markup))
            return made[-1]

        shown = PlayerBoard(
            self._bot,
            self._services,
            board,
            make,
            # a newer state waits than the one drawn: an outage need not delay the board for it
            superseded=lambda: self._superseded(made[-1][0] if made else snapshot),
        )
        if not await shown.show(self._limiter):
            return None
        return made[-1][0] if made else snapshot


def _newer_waits(waiting: dict[int, GameSnapshot], snapshot: GameSnapshot) -> bool:
    """Whether ``waiting`` (states to show, by game) holds a newer state of ``snapshot``'s
    game than it."""
    newer = waiting.get(snapshot.stored.id)
    return newer is not None and newer.stored.version > snapshot.stored.version
