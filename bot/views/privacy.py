"""The privacy notice (``/privacy``, the Mini App's 🔒 Privacy) and the words of ``/forget``.

The notice says what :mod:`bot.storage.privacy` and the schema keep, why, for how long, and
how to delete it; a change to what the bot keeps changes it too.
"""

from __future__ import annotations

from typing import Final

from aiogram import html

from bot.i18n import N_
from bot.model import Holding
from bot.views.common import Translate

TITLE: Final = N_("🔒 Privacy: what this bot keeps about you")

SECTIONS: Final = (
    (
        N_("Your account"),
        N_(
            "Your Telegram id, first name, @username and app language, whether you have a "
            "private chat with the bot or have blocked it, and your settings (language, quick "
            "mode). Used to name you on boards, to find you when someone challenges you by "
            "@username, to write to you and to speak your language."
        ),
    ),
    (
        N_("Your games"),
        N_(
            "The players, every roll and move, when the game began and ended, the result, the "
            "chat, the stake, and the dice seeds (shown when the game ends, so that anyone can "
            "check the dice). From them: scores, ratings, chips, leagues, tournaments, and the "
            "automatic analysis of rated games (luck, errors) with the flags it raises for the "
            "groups' admins. "
            "Used to play, and to show history, replays, statistics and standings to you and "
            "your opponents."
        ),
    ),
    (
        N_("Also"),
        N_(
            "Challenges and invitations you made or received, and the messages that show them; "
            "your answers to the daily position and your streaks; while you look for an "
            "opponent, your search, and the terms you chose last. The bot keeps none of your "
            "messages, contacts or phone number."
        ),
    ),
    (
        N_("Learning"),
        N_(
            "Where you are in the lessons of /learn, your answers to practice positions and "
            "your streak, whether the bot has offered you /learn, and the coach's message of "
            "each training game."
        ),
    ),
    (
        N_("Moderation"),
        N_(
            "If the bot's operators ban you, the ban keeps your Telegram id until they lift it. "
            "A message they send to every user keeps the id of the last user it reached until "
            "it is sent to all."
        ),
    ),
    (
        N_("How long"),
        N_(
            "Until you delete it. Your games are also your opponents' records: after /forget "
            'they stay, with "deleted player" in your place. The operator\'s logs may name '
            "your Telegram id, and their backups hold a copy until they are replaced."
        ),
    ),
    (
        N_("How to delete it"),
        N_(
            "Send /forget: it deletes your account, challenges, answers, ratings and settings, "
            'and puts "deleted player" in your place in games. It cannot be undone, and it is '
            "refused while you are playing a game, a match or a tournament. Messages already "
            "sent stay in their chats: delete them in Telegram. If you cannot use the bot, ask "
            "its operator."
        ),
    ),
)
"""The notice, section by section: (heading, text)."""

FORGET_ASK: Final = N_(
    'Delete everything this bot keeps about you? Your games stay for your opponents, with "deleted '
    'player" in your place. This cannot be undone.'
)
FORGET_BUTTON: Final = N_("🗑 Delete my data")
FORGET_CANCEL: Final = N_("Cancel")
FORGET_DONE: Final = N_(
    "Done: this bot keeps nothing about you any more. If you write to it again, it starts afresh."
)
FORGET_KEPT: Final = N_("Nothing was deleted.")
FORGET_PRIVATE: Final = N_("Send /forget to me in a private chat.")


def privacy_notice(_: Translate) -> str:
    """The notice as a message (HTML)."""
    parts = [html.bold(html.quote(_(TITLE)))]
    parts += [f"{html.bold(html.quote(_(head)))}\n{html.quote(_(text))}" for head, text in SECTIONS]
    return "\n\n".join(parts)


def privacy_page(_: Translate) -> str:
    """The notice as plain text (the Mini App shows it as it is, paragraph by paragraph)."""
    return "\n\n".join([_(TITLE), *(f"{_(head)}\n{_(text)}" for head, text in SECTIONS)])


def still_playing(holding: Holding, _: Translate) -> str:
    """Why ``/forget`` is refused now: the games, or else the tournaments, that hold the user."""
    if holding.games:
        return _(
            "You are playing now (game {games}): finish it or /resign first, then send "
            "/forget again."
        ).format(games=", ".join(f"#{game}" for game in holding.games))
    return _(
        "You are entered in a tournament that has not ended ({tournaments}): leave it or wait "
        "for its end, then send /forget again."
    ).format(tournaments=", ".join(f"#{number}" for number in holding.tournaments))
