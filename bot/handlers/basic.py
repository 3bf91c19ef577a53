"""Greeting and help: ``/start`` (with or without a deep-link payload) and ``/help``."""

from __future__ import annotations

from aiogram import Router, html
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.model import User
from bot.services.lessons import Lessons
from bot.views.commands import COMMANDS
from bot.views.lessons import offer_text
from bot.views.start import play_keyboard, start_keyboard


def create_router() -> Router:
    """Returns a new router with the handlers of this module.

    A router can belong to only one dispatcher, and a process may build several (a restart in the
    tests), so each dispatcher gets fresh routers instead of sharing a module-level one.
    """
    router = Router(name=__name__)
    router.message.register(on_start_with_payload, CommandStart(deep_link=True))
    router.message.register(on_start, CommandStart())
    router.message.register(on_help, Command("help"))
    return router


async def on_start_with_payload(
    message: Message, command: CommandObject, lessons: Lessons, player: User
) -> None:
    """Greets a user who came by a link whose payload no other handler claimed (invitations,
    ``c<id>``, are handled in :mod:`bot.handlers.lobby`, watch links, ``w<id>``, in
    :mod:`bot.handlers.watch`)."""
    await on_start(message, lessons, player)


async def on_start(message: Message, lessons: Lessons, player: User) -> None:
    """Greets the user and points to /play, /rules and /help; a newcomer's first ``/start``
    in private also offers ``/learn``, in the same message (once:
    :meth:`Lessons.offer_at_start`)."""
    name = message.from_user.first_name if message.from_user else ""
    text = _(
        "Hello, {name}! I am a bot for playing nardy with friends or with me.\n"
        "Send /play to start a game, /rules to read the rules and /help for all commands."
    ).format(name=html.quote(name))
    offer = message.chat.type == ChatType.PRIVATE and await lessons.offer_at_start(player.id)
    if offer:
        text += "\n\n" + offer_text(False, _)
    await message.answer(text, reply_markup=start_keyboard(_, offer=offer))


async def on_help(message: Message) -> None:
    """Lists the commands in the user's language."""
    lines = [html.bold(_("Commands"))]
    lines += [f"/{command} — {html.quote(_(description))}" for command, description in COMMANDS]
    await message.answer("\n".join(lines), reply_markup=play_keyboard(_))
