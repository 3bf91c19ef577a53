"""``/privacy`` (what the bot keeps about a user, why, how long, how to delete it) and
``/forget`` (deleting it, after a confirmation tap, in a private chat only)."""

from __future__ import annotations

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import gettext as _

from bot.callbacks import Forget
from bot.model import User
from bot.services.privacy import PrivacyService, StillPlaying
from bot.views.privacy import (
    FORGET_ASK,
    FORGET_BUTTON,
    FORGET_CANCEL,
    FORGET_DONE,
    FORGET_KEPT,
    FORGET_PRIVATE,
    privacy_notice,
    still_playing,
)


def create_router() -> Router:
    """Returns a new router with the handlers of this module."""
    router = Router(name=__name__)
    router.message.register(on_privacy, Command("privacy"))
    router.message.register(on_forget, Command("forget"))
    router.callback_query.register(on_forget_answer, Forget.filter())
    return router


async def on_privacy(message: Message) -> None:
    """The privacy notice, in the reader's language."""
    await message.answer(privacy_notice(_))


async def on_forget(message: Message, player: User, privacy: PrivacyService) -> None:
    """Asks for a confirmation (or says at once why it cannot be done now)."""
    if message.chat.type != ChatType.PRIVATE:
        await message.reply(_(FORGET_PRIVATE))
        return
    holding = await privacy.holding(player.id)
    if holding:
        await message.answer(still_playing(holding, _))
        return
    buttons = [
        InlineKeyboardButton(text=_(FORGET_BUTTON), callback_data=Forget(confirm=True).pack()),
        InlineKeyboardButton(text=_(FORGET_CANCEL), callback_data=Forget(confirm=False).pack()),
    ]
    await message.answer(
        _(FORGET_ASK), reply_markup=InlineKeyboardMarkup(inline_keyboard=[buttons])
    )


async def on_forget_answer(
    query: CallbackQuery,
    callback_data: Forget,
    privacy: PrivacyService,
    callback_answer: CallbackAnswer,
) -> None:
    """Deletes the tapper's data (the tap on the question in their private chat), or not."""
    message = query.message
    if not isinstance(message, Message) or message.chat.type != ChatType.PRIVATE:
        callback_answer.text, callback_answer.show_alert = _(FORGET_PRIVATE), True
        return
    if not callback_data.confirm:
        await message.edit_text(_(FORGET_KEPT))
        return
    try:
        await privacy.forget(query.from_user.id)
    except StillPlaying as playing:  # a game began since the question
        callback_answer.text = still_playing(playing.holding, _)
        callback_answer.show_alert = True
        return
    await message.edit_text(_(FORGET_DONE))
