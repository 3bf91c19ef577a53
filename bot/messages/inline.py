"""Boards kept in inline messages: the inline board kind of :class:`.boards.BoardPublisher`.

An inline game is played in the invitation a user posted through the bot, in a chat the bot
may not be in: the bot can only edit that message, by its ``inline_message_id``, and Telegram
refuses an uploaded file in such an edit. So, with a storage chat (``STORAGE_CHAT_ID``), each
state's picture is uploaded there once, shown in the inline message by its ``file_id``
(``editMessageMedia``) and the upload deleted again; without one, the board is text
(:func:`bot.views.inline.text_board`, ``editMessageText``). Either way every game can be played.

Edits are paced per chat like a group's: :func:`pace_key` turns the ``chat_instance`` the Join
tap carried into a key of the publisher's pace. Uploads take the storage chat's own pace, and
both the overall one. Coalescing, the board lease and the versions shown are the publisher's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Final

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import BufferedInputFile, InputMediaPhoto
from aiogram.utils.i18n import I18n

from bot.engine import Position, Side
from bot.model import BoardMessage
from bot.outbox.link import Superseded, abandon_when
from bot.services import GameSnapshot
from bot.views.boards import board_position, board_view, caption
from bot.views.common import translator
from bot.views.inline import board_keyboard, text_board
from render import FILE_NAME, BoardView

if TYPE_CHECKING:
    from bot.outbox.pace import Pace

logger = logging.getLogger(__name__)

ATTEMPTS: Final = 5
"""Tries per state of an inline board (a later state is tried afresh)."""

PACE_KEYS_BELOW: Final = -(2**62)
"""Inline chats' pace keys lie below this (and above -2**63, so a BIGINT holds them): Telegram's
chat ids never come near, and a negative key is paced as a group."""

GONE: Final = ("message_id_invalid", "message to edit not found", "inline message identifier")
"""Refusals that mean the inline message is no longer there (deleted by a user)."""

Draw = Callable[[Position, BoardView], Awaitable[bytes]]


class StorageRefused(Exception):
    """The storage chat refused a picture (a wrong ``STORAGE_CHAT_ID``, the bot not allowed to
    post there): the state is not shown; the next one is tried afresh."""


def pace_key(chat_instance: str | None, inline_message_id: str) -> int:
    """The pace key of an inline message's chat: a stable number made of its
    ``chat_instance`` (of the message itself before a tap has named the chat).

    >>> pace_key("-123", "x") == pace_key("-123", "y") < PACE_KEYS_BELOW
    True
    """
    name = (chat_instance or inline_message_id).encode()
    number = int.from_bytes(hashlib.blake2b(name, digest_size=8).digest(), "big")
    return PACE_KEYS_BELOW - number % 2**61


class InlineBoards:
    """Shows game states in inline messages (see the module docstring)."""

    def __init__(
        self,
        bot: Bot,
        i18n: I18n,
        *,
        limiter: Pace,
        draw: Draw,
        storage_chats: tuple[int, ...],
        superseded: Callable[[GameSnapshot], bool],
    ) -> None:
        self._bot = bot
        self._i18n = i18n
        self._limiter = limiter
        self._draw = draw
        self.storage_chats = storage_chats
        """Where pictures are uploaded, in turn; none: boards are text."""
        self._turns = itertools.cycle(storage_chats)
        self._superseded = superseded

    async def show(self, snapshot: GameSnapshot, board: BoardMessage) -> bool:
        """Edits ``board``'s inline message to show ``snapshot``; True once it does (or already
        did), False when the message is gone, the storage chat refuses the bot, the tries ran
        out or a newer state is waiting meanwhile."""
        inline_message_id = board.inline_message_id
        assert inline_message_id is not None, "not an inline board"
        _ = translator(self._i18n, snapshot.stored.locale)
        markup = board_keyboard(snapshot, _)
        key = pace_key(snapshot.stored.chat_instance, inline_message_id)
        if not self.storage_chats:
            text = text_board(snapshot, _)

            async def edit_text() -> None:
                await self._limiter.wait(key)
                await self._bot.edit_message_text(
                    text=text, inline_message_id=inline_message_id, reply_markup=markup
                )

            return await self._keep_trying(snapshot, edit_text)

        picture = await self._draw(board_position(snapshot), board_view(snapshot, Side.WHITE, _))
        shown = caption(snapshot, _)
        storage_chat_id = next(self._turns)
        upload: tuple[str, int] | None = None  # its file id, its message in the storage chat

        async def edit_media() -> None:
            nonlocal upload
            if upload is None:  # once per state, even when the edit is tried again
                upload = await self._upload(storage_chat_id, picture)
            await self._limiter.wait(key)
            await self._bot.edit_message_media(
                media=InputMediaPhoto(media=upload[0], caption=shown),
                inline_message_id=inline_message_id,
                reply_markup=markup,
            )

        try:
            return await self._keep_trying(snapshot, edit_media)
        finally:
            if upload is not None:  # shown (the message keeps its own copy), or given up
                await self._forget(storage_chat_id, upload[1])

    async def show_caption(self, snapshot: GameSnapshot, board: BoardMessage) -> bool:
        """Edits ``board``'s inline message to ``snapshot``'s caption, its picture left as it
        is (a text board: its text, the caption with the checkers): the automatic analysis's
        luck line on a finished game, one edit paced as the board's own. True once it shows it
        (or already did), as :meth:`show`."""
        inline_message_id = board.inline_message_id
        assert inline_message_id is not None, "not an inline board"
        _ = translator(self._i18n, snapshot.stored.locale)
        markup = board_keyboard(snapshot, _)
        key = pace_key(snapshot.stored.chat_instance, inline_message_id)
        text = text_board(snapshot, _) if not self.storage_chats else caption(snapshot, _)

        async def edit() -> None:
            await self._limiter.wait(key)
            if not self.storage_chats:
                await self._bot.edit_message_text(
                    text=text, inline_message_id=inline_message_id, reply_markup=markup
                )
            else:
                await self._bot.edit_message_caption(
                    caption=text, inline_message_id=inline_message_id, reply_markup=markup
                )

        return await self._keep_trying(snapshot, edit)

    async def _keep_trying(
        self, snapshot: GameSnapshot, edit: Callable[[], Awaitable[None]]
    ) -> bool:
        """Tries ``edit`` until it gets through (see :meth:`show`): a flood wait is waited out,
        "not modified" counts as shown, network and server failures are tried again,
        :data:`ATTEMPTS` times in all; a newer state waiting abandons it.

        :raises: :exc:`TelegramBadRequest` for any other refusal.
        """
        game_id = snapshot.stored.id
        with abandon_when(lambda: self._superseded(snapshot)):
            for _attempt in range(ATTEMPTS):
                try:
                    await edit()
                    return True
                except TelegramRetryAfter as error:
                    await asyncio.sleep(error.retry_after)
                except TelegramBadRequest as error:
                    description = error.message.lower()
                    if "message is not modified" in description:
                        return True
                    if any(gone in description for gone in GONE):
                        logger.info("the inline board of game %d is gone", game_id)
                        return False
                    raise
                except (Superseded, StorageRefused):
                    return False
                except (TelegramNetworkError, TelegramServerError) as error:
                    logger.warning("Telegram failed (%s); retrying", error)
                    await asyncio.sleep(1.0)
        logger.error("gave up showing the inline board of game %d", game_id)
        return False

    async def _upload(self, chat_id: int, picture: bytes) -> tuple[str, int]:
        """Uploads ``picture`` to the storage chat; returns its file id and the message that
        holds it. A send that may or may not have arrived is simply made again (a network
        error to :meth:`_keep_trying`): a second copy in the storage chat is harmless.

        :raises: :exc:`StorageRefused` when the storage chat refuses the bot (logged: the
            operator's to fix).
        """
        await self._limiter.wait(chat_id)
        try:
            message = await self._bot.send_photo(
                chat_id, BufferedInputFile(picture, FILE_NAME), disable_notification=True
            )
        except (TelegramBadRequest, TelegramForbiddenError) as error:
            logger.error("STORAGE_CHAT_ID %d refuses board pictures: %s", chat_id, error.message)
            raise StorageRefused() from error
        assert message.photo, "a photo message without a photo"
        return message.photo[-1].file_id, message.message_id

    async def _forget(self, chat_id: int, message_id: int) -> None:
        """Deletes an upload once the inline message shows it (it keeps its own copy), so that
        the storage chat does not grow with every move of every game."""
        with contextlib.suppress(TelegramAPIError):
            await self._bot.delete_message(chat_id, message_id)
