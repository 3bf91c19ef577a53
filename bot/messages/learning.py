"""The messages of learning to play that follow games and lessons: the pictures of ``/learn``
(:class:`LessonBoards`), the training game's coach (:class:`Coach`: each of the player's turns
judged, in a message of its own kept in place) and the offer of ``/learn`` after a game lost by
a big margin.

The coach follows games through the change feed (:meth:`Coach.hear`, this worker's changes):
it returns at once, and judges a training game's new turn in a task of its own (one per game,
:class:`~bot.outbox.Latest`: a state that arrives meanwhile is judged next), the computer's
ranking in the worker processes; after a take-back (the history shorter) the coach records the
turn now latest as judged, so only the turn played again is judged next. Its message in the
game's chat shows the player's latest turn judged (the best, an inaccuracy, a mistake, a
blunder), the better turn drawn on the position before it, and ↩ Take back; it is recorded
with the turn it judged (``coach_messages``), so a restart neither judges a turn twice nor
sends a second message.
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from typing import Final

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto
from aiogram.utils.i18n import I18n

from bot.engine import Position
from bot.i18n import locale_of
from bot.messages.kept import KeptMessage
from bot.model import CoachMessage, StoredGame
from bot.outbox import Latest, Outbox
from bot.services.feed import GameSaved, GameStarted, Heard
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
    drawing thread (:class:`~bot.outbox.Drawing`), each once: the latest
    :data:`PICTURES_KEPT` are kept by what they show."""

    def __init__(self, outbox: Outbox) -> None:
        self._drawing = outbox.drawing
        self._pictures: OrderedDict[tuple[Position, BoardView], bytes] = OrderedDict()
        self.drawn = 0
        """How many pictures were drawn (the rest came from the kept ones)."""

    async def picture(self, position: Position, view: BoardView) -> bytes:
        key = (position, view)
        found = self._pictures.get(key)
        if found is None:
            found = await self._drawing.board(position, view)
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
        outbox: Outbox,
        pictures: LessonBoards,
        i18n: I18n,
    ) -> None:
        self._bot = bot
        self._services = services
        self._pace = outbox.pace
        self._pictures = pictures
        self._i18n = i18n
        self._looks: Latest[int, StoredGame | None] = Latest(self._look, name="coach")
        self._over: OrderedDict[int, int] = OrderedDict()  # finished games looked at
        self._seen: OrderedDict[int, int] = OrderedDict()  # training game -> history lines
        self._taken_back: set[int] = set()  # training games with a take-back not looked at

    def hear(self, change: Heard) -> None:
        """The change feed's listener (this worker's changes; returns at once). A training
        game's state is looked at when its history has grown since the last one (not for each
        tap of a turn); a finished game's, once; a new game is read (it may be over already)."""
        if isinstance(change, GameStarted):
            # a new game may be over already (forced turns play themselves): read it
            self._looks.hand(change.game_id, None)
            return
        if not isinstance(change, GameSaved) or change.snapshot is None:
            return
        stored = change.snapshot.stored
        if self._heard(stored):
            self._looks.hand(stored.id, stored)

    def _heard(self, stored: StoredGame) -> bool:
        """Whether ``stored`` is to be looked at; the coach remembers it as seen."""
        if stored.game.is_over:
            if stored.id in self._over:
                return False
            _remember(self._over, stored.id, 0)
        elif not stored.training or self._seen.get(stored.id) == len(stored.history):
            return False
        if stored.training:
            before = self._seen.get(stored.id)
            if before is not None and len(stored.history) < before:
                self._taken_back.add(stored.id)  # recorded before the next look judges
            _remember(self._seen, stored.id, len(stored.history))
        return True

    async def drain(self, timeout: float = 10.0) -> None:
        """Waits for the judging under way (up to ``timeout``)."""
        await self._looks.drain(timeout)

    async def close(self) -> None:
        """Cancels what is still running (after :meth:`drain`)."""
        await self._looks.close()

    async def _look(self, game_id: int, stored: StoredGame | None) -> None:
        if stored is None:  # a new game: looked at when it is a training game or over
            stored = (await self._services.game_service.snapshot(game_id)).stored
            if not self._heard(stored):
                return
        if game_id in self._taken_back:
            self._taken_back.discard(game_id)
            await self._taken_back_to(stored)
        if stored.training:
            await self._judge(stored)
        if stored.game.is_over:
            await self._offer(stored)

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
        await message.show(self._pace)

    async def _close(self, kept: CoachMessage) -> None:
        """Takes ↩ Take back off a finished game's coach message."""
        assert kept.message_id is not None
        await self._pace.wait(kept.chat_id)
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
        await self._pace.wait(user_id)
        with contextlib.suppress(TelegramAPIError):
            await self._bot.send_message(
                user_id, offer_text(True, _), reply_markup=offer_keyboard(_)
            )

    async def message(self, game_id: int) -> CoachMessage | None:
        """The coach's message of game ``game_id``, if it has one."""
        return await self._services.training.coach_message(game_id)

    async def _taken_back_to(self, stored: StoredGame) -> None:
        """After a take-back in ``stored`` (heard as a shorter history): its coach's message is
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
