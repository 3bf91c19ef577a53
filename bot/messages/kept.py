"""A message kept in place: one message of the bot's in a chat that shows the latest of
something (a board, the league's standings, an analysis's progress), edited rather than sent
again, or a message sent once (a replay, a picture of a move) that goes through the same
retries.

A :class:`KeptMessage` says what it keeps: where it lives (:attr:`~KeptMessage.chat_id`, and
:attr:`~KeptMessage.message_id` once it is sent), how it is sent afresh and how it is edited,
what is recorded when it is sent, when its group becomes a supergroup and when the chat refuses
the bot, and whether a newer state of it waits. :meth:`KeptMessage.show` does the rest, within
Telegram's limits and answers.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)

from bot.messages.link import Superseded, TelegramSendUncertain, abandon_when
from bot.outbox.pace import Pace

logger = logging.getLogger(__name__)

ATTEMPTS: Final = 5
"""Tries per message before giving up on one state (a later state is tried afresh)."""

GONE_CHATS: Final = ("chat not found", "group chat was deactivated", "bot was kicked")
"""Refusals that mean the chat itself is no longer there for the bot: nothing to retry."""

GONE_MESSAGES: Final = (
    "message to edit not found",
    "message can't be edited",
    "message_id_invalid",
    "message not found",
)
"""Refusals of an edit that mean the message is gone (deleted by someone): it is sent again."""


class KeptMessage:
    """One message kept in place (see the module docstring). A subclass says how it is sent
    (:meth:`send`) and, if it is ever edited, how (:meth:`edit`); the other hooks do nothing
    unless overridden. ``what`` names it in the log."""

    def __init__(self, chat_id: int, message_id: int | None = None, *, what: str) -> None:
        self.chat_id = chat_id
        """The chat it lives in (followed when a group becomes a supergroup)."""
        self.message_id = message_id
        """Its id, None before it is sent (or once it is found gone)."""
        self.what = what

    async def send(self, chat_id: int) -> int:
        """Sends it afresh in ``chat_id``; returns the new message's id. Every subclass says
        how."""
        raise NotImplementedError

    async def edit(self, chat_id: int, message_id: int) -> None:
        """Edits message ``message_id`` in ``chat_id`` to show it. Only called for a message
        that has an id: one sent once (made without an id) never is."""
        raise NotImplementedError(f"{self.what} is never edited")

    async def sent(self, chat_id: int, message_id: int) -> None:
        """Records the message just sent as the one that shows it (here, nothing to record)."""

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (here, for this message alone)."""

    async def forbidden(self, chat_id: int) -> None:
        """The chat refuses messages from the bot (here, nothing to do about it)."""

    def superseded(self) -> bool:
        """Whether a newer state of this message waits to be shown, so that this one need not
        be (here, never)."""
        return False

    async def show(self, limiter: Pace) -> bool:
        """Shows the message: edits :attr:`message_id` in :attr:`chat_id`, or sends a new one
        (:meth:`send`, then :meth:`sent` records it) when there is none or it is gone. Each try
        waits for the ``limiter``; a flood wait is waited out, a group that became a supergroup
        is followed (:meth:`moved`), "not modified" counts as shown, a chat that refuses the bot
        ends it (:meth:`forbidden`), network and server errors are tried again,
        :data:`ATTEMPTS` times in all.

        Returns True when the message shows it (edited, sent, or already so), False when the
        chat refuses the bot or the tries ran out.

        Outages: with the bot's :class:`~bot.messages.link.TelegramLink` an edit, or a send that
        surely did not reach Telegram, waits inside the call for as long as Telegram is
        unreachable (with backoff), so the attempts here are not used up by an outage. Once
        :meth:`superseded` is true (a newer state of the same message waits) such a waiting
        call is abandoned and this returns False: the newer state is shown instead.

        A send that may have reached Telegram (a timeout, a reset, a 500 or 504:
        :class:`~bot.messages.link.TelegramSendUncertain`) is not sent again, so a chat never
        gets the message twice; nothing is recorded and this returns False. If Telegram did
        post it, the message shows this state without the bot knowing its id: for a board, a
        press on its buttons makes it the board again (``bot.handlers.play``), otherwise the
        next state (or the catch-up after a restart) is sent as a new message and the orphan
        keeps an older state whose buttons answer "stale". If Telegram did not post it, the
        board is sent then as usual.

        :raises: :exc:`TelegramBadRequest` for any other refusal.
        """
        with abandon_when(self.superseded):
            for _attempt in range(ATTEMPTS):
                await limiter.wait(self.chat_id)
                try:
                    if self.message_id is None:
                        self.message_id = await self.send(self.chat_id)
                        await self.sent(self.chat_id, self.message_id)
                    else:
                        await self.edit(self.chat_id, self.message_id)
                    return True
                except TelegramRetryAfter as error:
                    await asyncio.sleep(error.retry_after)
                except TelegramMigrateToChat as error:
                    await self.moved(self.chat_id, error.migrate_to_chat_id)
                    self.chat_id = error.migrate_to_chat_id
                except TelegramBadRequest as error:
                    description = error.message.lower()
                    if "message is not modified" in description:
                        return True
                    if any(gone in description for gone in GONE_CHATS):
                        logger.info(
                            "chat %d is gone (%s); %s not shown",
                            self.chat_id,
                            description,
                            self.what,
                        )
                        return False
                    if self.message_id is not None and any(m in description for m in GONE_MESSAGES):
                        self.message_id = None  # deleted by someone: send it again
                        continue
                    raise
                except TelegramForbiddenError:
                    logger.info("chat %d does not accept messages from the bot", self.chat_id)
                    await self.forbidden(self.chat_id)
                    return False
                except Superseded:
                    return False
                except TelegramSendUncertain as error:
                    logger.warning(
                        "%s may be in chat %d or not; not sent again: %s",
                        self.what,
                        self.chat_id,
                        error,
                    )
                    return False
                except (TelegramNetworkError, TelegramServerError) as error:
                    logger.warning("Telegram failed (%s); retrying", error)
                    await asyncio.sleep(1.0)
            logger.error("gave up showing %s in chat %d", self.what, self.chat_id)
            return False


class KeptText(KeptMessage):
    """A text message kept in place: sent with ``text``, edited to it (``silent``: sent
    without a notification)."""

    def __init__(
        self,
        bot: Bot,
        chat_id: int,
        message_id: int | None = None,
        *,
        text: str,
        what: str,
        silent: bool | None = None,
    ) -> None:
        super().__init__(chat_id, message_id, what=what)
        self.bot = bot
        self.text = text
        self._silent = silent

    async def send(self, chat_id: int) -> int:
        message = await self.bot.send_message(chat_id, self.text, disable_notification=self._silent)
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        await self.bot.edit_message_text(self.text, chat_id=chat_id, message_id=message_id)
