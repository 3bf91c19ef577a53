"""Greeting and help: ``/start`` (with or without a deep-link payload) and ``/help``."""

from __future__ import annotations

from typing import Final

from aiogram import Router, html
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import PlayComputer
from bot.i18n import N_

COMMANDS: Final[tuple[tuple[str, str], ...]] = (
    ("start", N_("Start the bot")),
    ("help", N_("List of commands")),
    ("rules", N_("Rules: /rules short, abkhaz, gulbara, crazy_gulbara")),
    ("play", N_("Start a new game (/play bot: with the computer)")),
    ("resign", N_("Resign the current game")),
    ("games", N_("Your games in progress, with links to their boards")),
    ("unwatch", N_("Stop watching games (/unwatch 12: game #12 only)")),
    ("quick", N_("Quick mode: the tap that completes your turn confirms it (/quick off)")),
    ("score", N_("Score of the current game")),
    ("stats", N_("Your statistics (/stats @user: someone else's)")),
    ("top", N_("Best players (/top rating: by rating)")),
    ("history", N_("Latest games, with their moves as files")),
    ("moves", N_("The moves of a game as a file: /moves 12")),
    ("analyse", N_("📊 Analysis of a finished game: /analyse 12")),
    ("verify", N_("How to check a game's dice: /verify 12")),
    ("dice", N_("Your dice statistics (/dice @user: someone else's)")),
    ("position", N_("The position ID of the game here, with its board")),
    ("from", N_("Play on from a position: /from <ID>, or /from 12 30 (game #12 after move 30)")),
    ("chips", N_("Your chips and their latest changes")),
    ("league", N_("The group's league: pinned standings (/league off ends it)")),
    ("flags", N_("Chip transfers held back in the group (admins)")),
    ("language", N_("Choose your language (in a group: the group's, for admins)")),
)
"""The bot's command menu, in order: (command, English description as msgid).

``bot.app`` registers it with setMyCommands in every language and ``/help`` prints it.
"""


def command_menu(i18n: I18n, locale: str) -> list[BotCommand]:
    """Returns the command menu with descriptions in ``locale``."""
    return [
        BotCommand(command=command, description=i18n.gettext(description, locale=locale))
        for command, description in COMMANDS
    ]


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


async def on_start_with_payload(message: Message, command: CommandObject) -> None:
    """Greets a user who came by a link whose payload no other handler claimed (invitations,
    ``c<id>``, are handled in :mod:`bot.handlers.lobby`, watch links, ``w<id>``, in
    :mod:`bot.handlers.watch`)."""
    await on_start(message)


async def on_start(message: Message) -> None:
    """Greets the user and points to /play, /rules and /help."""
    name = message.from_user.first_name if message.from_user else ""
    await message.answer(
        _(
            "Hello, {name}! I am a bot for playing nardy with friends or with me.\n"
            "Send /play to start a game, /rules to read the rules and /help for all commands."
        ).format(name=html.quote(name)),
        reply_markup=_computer_button(),
    )


async def on_help(message: Message) -> None:
    """Lists the commands in the user's language."""
    lines = [html.bold(_("Commands"))]
    lines += [f"/{command} — {html.quote(_(description))}" for command, description in COMMANDS]
    await message.answer("\n".join(lines), reply_markup=_computer_button())


def _computer_button() -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(
        text="🤖 " + _("Play the computer"), callback_data=PlayComputer().pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[button]])
