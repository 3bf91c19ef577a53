"""The messages of learning to play that follow games and lessons: the pictures of ``/learn``
(:class:`LessonBoards`), the training game's coach (:class:`Coach`: each of the player's turns
judged, in a message of its own kept in place) and the offer of ``/learn`` after a game lost by
a big margin.

The coach follows games through :attr:`BoardPublisher.on_change
<bot.messages.boards.BoardPublisher.on_change>`: it is told every state the boards are
shown, returns at once, and judges a training game's new turn in a task of its own (one per
game; a state that arrives meanwhile is judged next), the computer's ranking in the worker
processes. Its message in the game's chat shows the player's latest turn judged (the best, an
inaccuracy, a mistake, a blunder), the better turn drawn on the position before it, and ↩ Take
back; it is recorded with the turn it judged (``coach_messages``), so a restart neither
judges a turn twice nor sends a second message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from typing import Final

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto
from aiogram.utils.i18n import I18n

from bot.engine import Position
from bot.i18n import locale_of
from bot.messages.boards import BoardPublisher
from bot.messages.kept import KeptMessage
from bot.model import CoachMessage, StoredGame
from bot.services import GameSnapshot
from bot.services.root import Services
from bot.services.training import Verdict, judged_key, player_side
from bot.views.common import translator
from bot.views.lessons import offer_keyboard, offer_text
from bot.views.training import coach_board, coach_caption, coach_keyboard
from render import FILE_NAME, BoardView

logger = logging.getLogger(__name__)

PICTURES_KEPT: Final = 512
"""Pictures of lessons and practice positions kept drawn: the course's steps and their right
answers in a few languages."""
OVER_KEPT: Final = 4096
"""Games the coach remembers having looked at: finished ones (for the offer after a big
loss), and training games with the length of the history it saw."""


class LessonBoards:
    """The pictures of ``/learn`` (steps, answers, practice positions), drawn on the boards'
    drawing thread (:meth:`BoardPublisher.draw`), each once: the latest
    :data:`PICTURES_KEPT` are kept by what they show."""

    def __init__(self, boards: BoardPublisher) -> None:
        self._boards = boards
        self._pictures: OrderedDict[tuple[Position, BoardView], bytes] = OrderedDict()
        self.drawn = 0
        """How many pictures were drawn (the rest came from the kept ones)."""

    async def picture(self, position: Position, view: BoardView) -> bytes:
        key = (position, view)
        found = self._pictures.get(key)
        if found is None:
            found = await self._boards.draw(position, view)
            self.drawn += 1
            self._pictures[key] = found
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        else:
            self._pictures.move_to_end(key)
        return found


class Coach:
    """Judges training games' turns and keeps their coach's messages; offers ``/learn`` after
    a big loss (see the module docstring)."""

    def __init__(
        self,
        bot: Bot,
        services: Services,
        boards: BoardPublisher,
        pictures: LessonBoards,
        i18n: I18n,
    ) -> None:
        self._bot = bot
        self._services = services
        self._boards = boards
        self._pictures = pictures
        self._i18n = i18n
        self._pending: dict[int, StoredGame] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._over: OrderedDict[int, int] = OrderedDict()  # finished games looked at
        self._seen: OrderedDict[int, int] = OrderedDict()  # training game -> history lines

    def on_change(self, snapshot: GameSnapshot) -> None:
        """A state of a game the boards show (called by the publisher: returns at once). A
        training game's state is looked at when its history has grown since the last one (not
        for each tap of a turn); a finished game's, once."""
        stored = snapshot.stored
        if stored.game.is_over:
            if stored.id in self._over:
                return
            _remember(self._over, stored.id, 0)
        elif not stored.training or self._seen.get(stored.id) == len(stored.history):
            return
        if stored.training:
            _remember(self._seen, stored.id, len(stored.history))
        self._pending[stored.id] = stored
        if stored.id not in self._workers:
            self._workers[stored.id] = asyncio.create_task(
                self._work(stored.id), name=f"coach-{stored.id}"
            )

    async def drain(self, timeout: float = 10.0) -> None:
        """Waits for the judging under way (up to ``timeout``)."""
        deadline = time.monotonic() + timeout
        while self._workers and time.monotonic() < deadline:
            await asyncio.wait(
                list(self._workers.values()), timeout=max(0.0, deadline - time.monotonic())
            )

    async def close(self) -> None:
        """Cancels what is still running (after :meth:`drain`)."""
        workers = list(self._workers.values())
        for task in workers:
            task.cancel()
        for task in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _work(self, game_id: int) -> None:
        try:
            while game_id in self._pending:
                stored = self._pending.pop(game_id)
                try:
                    if stored.training:
                        await self._judge(stored)
                    if stored.game.is_over:
                        await self._offer(stored)
                except Exception:
                    logger.exception("the coach failed on game %d", game_id)
        finally:
            self._workers.pop(game_id, None)

    async def _judge(self, stored: StoredGame) -> None:
        training = self._services.training
        side = player_side(stored)
        latest = await training.latest(stored)
        if side is None or latest is None:
            logger.debug(
                "coach: game %d, nothing new to judge (no turn of the player's)", stored.id
            )
            return
        kept = await training.coach_message(stored.id)
        key = judged_key(latest)
        if kept is not None and kept.judged == key:
            logger.debug("coach: game %d, nothing new to judge (%s was)", stored.id, key)
            if stored.game.is_over and kept.message_id is not None:
                await self._close(kept)
            return
        verdict = await training.judge(latest)
        player = await self._services.users.get(stored.player(side))
        locale = locale_of(player) if player is not None else stored.locale
        chat_id = stored.chat_id or stored.player(side)
        message = CoachPost(
            self,
            kept if kept is not None else CoachMessage(stored.id, chat_id, None),
            stored,
            verdict,
            locale,
        )
        await message.show(self._boards.limiter)

    async def _close(self, kept: CoachMessage) -> None:
        """Takes ↩ Take back off a finished game's coach message."""
        assert kept.message_id is not None
        await self._boards.limiter.wait(kept.chat_id)
        with contextlib.suppress(TelegramAPIError):
            await self._bot.edit_message_reply_markup(
                chat_id=kept.chat_id,
                message_id=kept.message_id,
                reply_markup=InlineKeyboardMarkup(inline_keyboard=[]),
            )

    async def _offer(self, stored: StoredGame) -> None:
        """Offers ``/learn`` to the loser of ``stored`` after a big loss in their first games
        (once: :meth:`~bot.services.lessons.Lessons.offer_after_loss`)."""
        user_id = await self._services.lessons.offer_after_loss(stored)
        if user_id is None:
            return
        user = await self._services.users.get(user_id)
        if user is None or not user.private_chat or user.blocked:
            return
        _ = translator(self._i18n, locale_of(user))
        await self._boards.limiter.wait(user_id)
        with contextlib.suppress(TelegramAPIError):
            await self._bot.send_message(
                user_id, offer_text(True, _), reply_markup=offer_keyboard(_)
            )

    async def message(self, game_id: int) -> CoachMessage | None:
        """The coach's message of game ``game_id``, if it has one."""
        return await self._services.training.coach_message(game_id)

    async def taken_back(self, stored: StoredGame) -> None:
        """Before the state after a take-back in ``stored`` is shown: its coach's message is
        recorded as judging the player's turn that is now the latest (that one was judged
        before), so the turn played again is judged, and not the one before it."""
        training = self._services.training
        kept = await training.coach_message(stored.id)
        if kept is None:
            return
        latest = await training.latest(stored)
        judged = judged_key(latest) if latest is not None else ""
        await training.set_coach_message(
            CoachMessage(kept.game_id, kept.chat_id, kept.message_id, judged)
        )


def _remember(kept: OrderedDict[int, int], game_id: int, value: int) -> None:
    """Keeps ``value`` for ``game_id``, the latest :data:`OVER_KEPT` games only."""
    kept[game_id] = value
    kept.move_to_end(game_id)
    while len(kept) > OVER_KEPT:
        kept.popitem(last=False)


class CoachPost(KeptMessage):
    """A training game's coach message showing ``verdict``: the picture of the better turn,
    the verdict's caption, ↩ Take back; recorded with the turn it judged when shown."""

    def __init__(
        self,
        coach: Coach,
        kept: CoachMessage,
        stored: StoredGame,
        verdict: Verdict,
        locale: str,
    ) -> None:
        super().__init__(kept.chat_id, kept.message_id, what=f"coach of game {stored.id}")
        self._coach = coach
        self._kept = kept
        self._stored = stored
        self._verdict = verdict
        self._locale = locale

    async def _content(self) -> tuple[bytes, str, InlineKeyboardMarkup]:
        _ = translator(self._coach._i18n, self._locale)
        position, view = coach_board(self._verdict, _)
        picture = await self._coach._pictures.picture(position, view)
        caption = coach_caption(self._verdict, self._stored.game.is_over, _)
        keyboard = coach_keyboard(self._stored, self._verdict, _)
        return picture, caption, keyboard

    async def send(self, chat_id: int) -> int:
        picture, caption, keyboard = await self._content()
        message = await self._coach._bot.send_photo(
            chat_id, BufferedInputFile(picture, FILE_NAME), caption=caption, reply_markup=keyboard
        )
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        picture, caption, keyboard = await self._content()
        await self._coach._bot.edit_message_media(
            media=InputMediaPhoto(media=BufferedInputFile(picture, FILE_NAME), caption=caption),
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=keyboard,
        )
        await self._record(chat_id, message_id)

    async def sent(self, chat_id: int, message_id: int) -> None:
        await self._record(chat_id, message_id)

    async def _record(self, chat_id: int, message_id: int) -> None:
        await self._coach._services.training.set_coach_message(
            CoachMessage(self._stored.id, chat_id, message_id, self._verdict.key)
        )
