"""The unexpected: one place that logs a failed update and tells the user, without details."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import ErrorEvent
from aiogram.utils.i18n import I18n

from bot.i18n import N_, reader_locale
from bot.messages.link import TelegramSendUncertain
from bot.metrics import Metrics
from bot.services import Chats, Users

logger = logging.getLogger(__name__)


def create_router() -> Router:
    """Returns a new router with the error handler."""
    router = Router(name=__name__)
    router.errors.register(on_error)
    return router


async def on_error(
    event: ErrorEvent,
    i18n: I18n,
    users: Users | None = None,
    chats: Chats | None = None,
    metrics: Metrics | None = None,
) -> bool:
    """Logs the failure with its update and answers a command with a short apology; a press
    gets its answer from :class:`~bot.handlers.middlewares.CallbackAnswers` anyway (the spinner
    stops).
    Error events run outside the language middleware, so the locale is worked out here (the
    group's, else the sender's).

    A reply that may or may not have reached Telegram (:class:`TelegramSendUncertain`, after an
    outage began) is logged in one line, without an apology: the reply may well be there."""
    update = event.update
    if isinstance(event.exception, TelegramSendUncertain):
        logger.warning(
            "update %d: a reply may not have arrived: %s", update.update_id, event.exception
        )
        return True
    logger.error(
        "update %d failed: %r", update.update_id, event.exception, exc_info=event.exception
    )
    if metrics is not None:
        metrics.update_failed()
    message = update.message
    if message is not None:
        sender = message.from_user
        try:  # the apology is a courtesy: Telegram, or the database, may be what failed
            player = await users.get(sender.id) if users and sender else None
            locale = await reader_locale(
                chat=message.chat,
                user=sender,
                player=player,
                chats=chats,
            )
            await message.answer(
                i18n.gettext(N_("Something went wrong. Please try again."), locale=locale)
            )
        except Exception:
            logger.warning("could not apologise for update %d", update.update_id)
    return True
