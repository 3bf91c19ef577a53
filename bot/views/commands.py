"""The bot's command menu: each command with its description, in the reader's language."""

from __future__ import annotations

from typing import Final

from aiogram.types import BotCommand
from aiogram.utils.i18n import I18n

from bot.i18n import N_

COMMANDS: Final[tuple[tuple[str, str], ...]] = (
    ("start", N_("Start the bot")),
    ("help", N_("List of commands")),
    ("rules", N_("Rules: /rules short, abkhaz, gulbara, crazy_gulbara")),
    ("learn", N_("🎓 Learn to play: short lessons, practice, a training game")),
    ("play", N_("Start a new game (/play bot: with the computer)")),
    ("find", N_("Play anyone now: the bot finds you an opponent")),
    ("resign", N_("Resign the current game")),
    ("games", N_("Your games in progress, with links to their boards")),
    ("unwatch", N_("Stop watching games (/unwatch 12: game #12 only)")),
    ("quick", N_("Quick mode: the tap that completes your turn confirms it (/quick off)")),
    ("score", N_("Score of the current game")),
    ("stats", N_("Your statistics (/stats @user: someone else's)")),
    ("top", N_("Best players (/top rating: by rating)")),
    ("daily", N_("🧩 The daily position: find the best move (/top daily: streaks)")),
    ("history", N_("Latest games, with their moves as files")),
    ("moves", N_("The moves of a game as a file: /moves 12")),
    ("analyse", N_("📊 Analysis of a finished game: /analyse 12")),
    ("verify", N_("How to check a game's dice: /verify 12")),
    ("dice", N_("Your dice statistics (/dice @user: someone else's)")),
    ("position", N_("The position ID of the game here, with its board")),
    ("from", N_("Play on from a position: /from <ID>, or /from 12 30 (game #12 after move 30)")),
    ("chips", N_("Your chips and their latest changes")),
    ("league", N_("The group's league: pinned standings (/league off ends it)")),
    ("tournament", N_("A tournament in this group: knock-out, round robin or Swiss")),
    ("flags", N_("Chip transfers held back in the group (admins)")),
    ("language", N_("Choose your language (in a group: the group's, for admins)")),
    ("privacy", N_("What the bot keeps about you, and how to delete it")),
    ("forget", N_("Delete everything the bot keeps about you")),
)
"""The bot's command menu, in order: (command, English description as msgid).

``bot.app`` registers it with setMyCommands in every language and ``/help`` prints it.
"""


OPERATOR_COMMANDS: Final[tuple[tuple[str, str], ...]] = (
    ("ops", N_("🛠 The bot at a glance: users, games, failures, queues")),
    ("ban", N_("🛠 Ban a user: /ban @user, /ban 12345, or in reply to them")),
    ("unban", N_("🛠 Lift a ban: /unban @user or /unban 12345")),
    ("broadcast", N_("🛠 A message to every user, once you confirm it: /broadcast text")),
)
"""What an operator's menu adds (each operator's chat gets the menu with these at its end;
their ``/flags`` there lists every chat's held transfers)."""


def command_menu(i18n: I18n, locale: str, *, operator: bool = False) -> list[BotCommand]:
    """Returns the command menu with descriptions in ``locale`` (an ``operator``'s, with
    :data:`OPERATOR_COMMANDS`)."""
    listed = COMMANDS + (OPERATOR_COMMANDS if operator else ())
    return [
        BotCommand(command=command, description=i18n.gettext(description, locale=locale))
        for command, description in listed
    ]
