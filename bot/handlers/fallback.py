"""Presses that no handler understands: old bot versions' buttons, forged data."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import gettext as _

from bot.views.texts import STALE_BUTTON_TEXT


def create_router() -> Router:
    """Returns a new router that answers every remaining callback query with an alert."""
    router = Router(name=__name__)
    router.callback_query.register(on_unknown_button)
    return router


async def on_unknown_button(callback: CallbackQuery, callback_answer: CallbackAnswer) -> None:
    """Explains that the button is not valid; changes nothing."""
    callback_answer.text = _(STALE_BUTTON_TEXT)
    callback_answer.show_alert = True
