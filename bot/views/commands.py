"""The bot's commands, grouped by what a person wants (play anyone, play a friend, play the
computer, their games, learn, scores, group admins' commands), each with its description and
where it works: the command menus Telegram shows (one for private chats, one for groups, one
for groups' admins: ``setMyCommands`` scopes) and ``/help``, in the reader's language."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final, NamedTuple

from aiogram import html
from aiogram.types import BotCommand
from aiogram.utils.i18n import I18n

from bot.i18n import N_
from bot.views.common import Translate


class Scope(enum.Enum):
    """Where a command's menu is shown: private chats, groups, groups' admins."""

    PRIVATE = "private"
    GROUP = "group"
    ADMINS = "admins"


class HelpSection(enum.Enum):
    """What a person wants, in the order ``/help`` answers it; the value is its heading."""

    ANYONE = N_("🔎 Play anyone now")
    FRIEND = N_("⚔ Play a friend")
    COMPUTER = N_("🤖 Play the computer")
    GAMES = N_("🎲 Your games")
    LEARN = N_("📚 Learn")
    SCORES = N_("📊 Scores")
    ADMINS = N_("🛡 For the group's admins")
    SETTINGS = N_("⚙ Settings")


class Command(NamedTuple):
    """A command: its name, its description (a msgid), its section, where its menus list it.
    ``usage``: how ``/help`` writes it when that differs from ``/name`` (``/play bot``)."""

    name: str
    description: str
    section: HelpSection
    scopes: frozenset[Scope]
    usage: str = ""


_P, _G, _A = Scope.PRIVATE, Scope.GROUP, Scope.ADMINS
EVERYWHERE: Final = frozenset({_P, _G, _A})
PRIVATE: Final = frozenset({_P})
GROUPS: Final = frozenset({_G, _A})
ADMINS: Final = frozenset({_A})

COMMANDS: Final[tuple[Command, ...]] = (
    Command(
        "find", N_("Play anyone now: the bot finds you an opponent"), HelpSection.ANYONE, EVERYWHERE
    ),
    Command(
        "play",
        N_("Start a new game (/play bot: with the computer)"),
        HelpSection.FRIEND,
        EVERYWHERE,
    ),
    Command(
        "from",
        N_("Play on from a position: /from <ID>, or /from 12 30 (game #12 after move 30)"),
        HelpSection.FRIEND,
        EVERYWHERE,
    ),
    Command(
        "play",
        N_("A game with the computer, levels 1 (a beginner) to 5: /play bot level 1"),
        HelpSection.COMPUTER,
        frozenset(),
        usage="/play bot",
    ),
    Command(
        "games",
        N_("Your games in progress, with links to their boards"),
        HelpSection.GAMES,
        PRIVATE,
    ),
    Command("resign", N_("Resign the current game"), HelpSection.GAMES, EVERYWHERE),
    Command(
        "position",
        N_("The position ID of the game here, with its board"),
        HelpSection.GAMES,
        EVERYWHERE,
    ),
    Command(
        "unwatch",
        N_("Stop watching games (/unwatch 12: game #12 only)"),
        HelpSection.GAMES,
        PRIVATE,
    ),
    Command(
        "rules",
        N_("Rules: /rules short, abkhaz, gulbara, crazy_gulbara"),
        HelpSection.LEARN,
        EVERYWHERE,
    ),
    Command(
        "learn",
        N_("🎓 Learn to play: short lessons, practice, a training game"),
        HelpSection.LEARN,
        EVERYWHERE,
    ),
    Command(
        "daily",
        N_("🧩 The daily position: find the best move (/top daily: streaks)"),
        HelpSection.LEARN,
        EVERYWHERE,
    ),
    Command(
        "analyse", N_("📊 Analysis of a finished game: /analyse 12"), HelpSection.LEARN, PRIVATE
    ),
    Command(
        "score",
        N_("Your score: against your opponent now, else your latest opponents (/score @user)"),
        HelpSection.SCORES,
        EVERYWHERE,
    ),
    Command(
        "stats",
        N_("Your statistics (/stats @user: someone else's)"),
        HelpSection.SCORES,
        EVERYWHERE,
    ),
    Command("top", N_("Best players (/top rating: by rating)"), HelpSection.SCORES, GROUPS),
    Command(
        "history", N_("Latest games, with their moves as files"), HelpSection.SCORES, EVERYWHERE
    ),
    Command("moves", N_("The moves of a game as a file: /moves 12"), HelpSection.SCORES, PRIVATE),
    Command("chips", N_("Your chips and their latest changes"), HelpSection.SCORES, PRIVATE),
    Command(
        "dice",
        N_("Your dice statistics (/dice @user: someone else's)"),
        HelpSection.SCORES,
        PRIVATE,
    ),
    Command("verify", N_("How to check a game's dice: /verify 12"), HelpSection.SCORES, PRIVATE),
    Command(
        "tournament",
        N_("A tournament in this group: knock-out, round robin or Swiss"),
        HelpSection.ADMINS,
        GROUPS,
    ),
    Command(
        "league",
        N_("The group's league: pinned standings (/league off ends it)"),
        HelpSection.ADMINS,
        ADMINS,
    ),
    Command(
        "flags", N_("Chip transfers held back in the group (admins)"), HelpSection.ADMINS, ADMINS
    ),
    Command(
        "quick",
        N_("Quick mode: the tap that completes your turn confirms it (/quick off)"),
        HelpSection.SETTINGS,
        PRIVATE,
    ),
    Command(
        "language",
        N_("Choose your language (in a group: the group's, for admins)"),
        HelpSection.SETTINGS,
        frozenset({_P, _A}),
    ),
    Command(
        "privacy",
        N_("What the bot keeps about you, and how to delete it"),
        HelpSection.SETTINGS,
        EVERYWHERE,
    ),
    Command(
        "forget", N_("Delete everything the bot keeps about you"), HelpSection.SETTINGS, PRIVATE
    ),
    Command("help", N_("List of commands"), HelpSection.SETTINGS, EVERYWHERE),
    Command("start", N_("Start the bot"), HelpSection.SETTINGS, PRIVATE),
)
"""Every command, by section, in the order ``/help`` lists them. A command with no scopes is a
way to use another one (``/play bot``), shown by ``/help`` only."""

FIRST_STEP: Final = N_(
    "New here? Send /find to play anyone now, /play bot to play the computer, or "
    "/play @friend to challenge a friend."
)
"""The first line of ``/help``: the first thing to type."""

MENU_ORDER: Final = (
    "find",
    "play",
    "daily",
    "learn",
    "games",
    "resign",
    "score",
    "stats",
    "top",
    "tournament",
    "rules",
    "history",
    "analyse",
    "position",
    "from",
    "moves",
    "chips",
    "dice",
    "verify",
    "unwatch",
    "quick",
    "league",
    "flags",
    "language",
    "privacy",
    "forget",
    "help",
    "start",
)
"""The menus' order: what most people want first."""


OPERATOR_COMMANDS: Final[tuple[tuple[str, str], ...]] = (
    ("ops", N_("🛠 The bot at a glance: users, games, failures, queues")),
    ("ban", N_("🛠 Ban a user: /ban @user, /ban 12345, or in reply to them")),
    ("unban", N_("🛠 Lift a ban: /unban @user or /unban 12345")),
    ("broadcast", N_("🛠 A message to every user, once you confirm it: /broadcast text")),
)
"""What an operator's menu adds (each operator's private chat gets its menu with these at
its end; their ``/flags`` there lists every chat's held transfers)."""


def commands_for(scope: Scope) -> list[Command]:
    """The commands of ``scope``'s menu, in :data:`MENU_ORDER`."""
    found = {c.name: c for c in COMMANDS if scope in c.scopes}
    return [found[name] for name in MENU_ORDER if name in found]


def command_menu(
    i18n: I18n, locale: str, scope: Scope = Scope.PRIVATE, *, operator: bool = False
) -> list[BotCommand]:
    """The command menu of ``scope`` with descriptions in ``locale`` (an ``operator``'s, with
    :data:`OPERATOR_COMMANDS` at its end)."""
    listed = [(c.name, c.description) for c in commands_for(scope)]
    listed += OPERATOR_COMMANDS if operator else ()
    return [
        BotCommand(command=name, description=i18n.gettext(description, locale=locale))
        for name, description in listed
    ]


def help_text(_: Translate, *, group: bool) -> str:
    """``/help``: the first thing to type, then the commands of a private chat (``group``:
    of a group, and its admins'), under the headings of what a person wants."""
    scopes = {Scope.GROUP, Scope.ADMINS} if group else {Scope.PRIVATE}
    lines = [html.bold(_("Commands")), _(FIRST_STEP)]
    for section in HelpSection:
        shown = [
            c for c in COMMANDS if c.section is section and (not c.scopes or scopes & c.scopes)
        ]
        if shown:
            lines += ["", html.bold(_(section.value)), *_lines(shown, _)]
    return "\n".join(lines)


def _lines(commands: Iterable[Command], _: Translate) -> list[str]:
    return [f"{c.usage or '/' + c.name} — {html.quote(_(c.description))}" for c in commands]
