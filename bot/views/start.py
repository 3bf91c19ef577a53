"""The buttons under ``/start`` and ``/help``: play the computer or anyone, the daily
position, learning to play, and, at a newcomer's first ``/start``, "no, thanks" to the offer of
``/learn``."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import DailyOpen, LessonAction, LessonMove, PlayAnyone, PlayComputer
from bot.views.common import Translate
from bot.views.lessons import offer_keyboard


def play_keyboard(_: Translate) -> InlineKeyboardMarkup:
    """🤖 Play the computer, 🔎 Play anyone (under /help too)."""
    button = InlineKeyboardButton(
        text="🤖 " + _("Play the computer"), callback_data=PlayComputer().pack()
    )
    anyone = InlineKeyboardButton(text="🔎 " + _("Play anyone"), callback_data=PlayAnyone().pack())
    return InlineKeyboardMarkup(inline_keyboard=[[button, anyone]])


def start_keyboard(_: Translate, *, offer: bool = False) -> InlineKeyboardMarkup:
    """Under /start: play, the daily position, learn to play; ✖ No, thanks with the offer of
    /learn (``offer``)."""
    daily = InlineKeyboardButton(text="🧩 " + _("Daily position"), callback_data=DailyOpen().pack())
    learn = InlineKeyboardButton(
        text="🎓 " + _("Learn to play"), callback_data=LessonAction(move=LessonMove.COURSE).pack()
    )
    rows = [*play_keyboard(_).inline_keyboard, [daily, learn]]
    if offer:
        rows += offer_keyboard(_, learn=False).inline_keyboard
    return InlineKeyboardMarkup(inline_keyboard=rows)


def is_greeting(first_button: str | None) -> bool:
    """Whether a message whose first button has this data is the greeting of /start."""
    return first_button == PlayComputer().pack()
