"""The board page's words, from the bot's own catalogs: sent to the page in its reader's
language when it connects, so that no text is written twice (once here, once in JavaScript)
and every language the bot has is the page's too."""

from __future__ import annotations

from bot.views.common import Translate
from bot.views.privacy import privacy_page


def page_texts(_: Translate) -> dict[str, str]:
    """Every text the page shows, by the key the page knows it by."""
    return {
        "confirm": "✅ " + _("Confirm"),
        "undo": "↩ " + _("Undo"),
        "roll": "🎲 " + _("Roll"),
        "double": "⏫ " + _("Double ×{value}"),
        "take": "✅ " + _("Take ×{value}"),
        "drop": "🏳 " + _("Drop"),
        "strike": "✂ " + _("Strike {value}"),
        "hint": "💡 " + _("Hint"),
        "resign": "🏳 " + _("Resign"),
        "resign_ask": _("Resign this game?"),
        "next": "▶ " + _("Next game"),
        "rematch": "🔁 " + _("Rematch"),
        "pips": _("pips"),
        "last": _("Last: {moves}"),
        "last_turns": _("Last turns: {moves}"),
        "your_move": _("Your move"),
        "to_move": _("{name} to move"),
        "watching": _("You are watching this game."),
        "reconnecting": _("Connection lost, reconnecting…"),
        "privacy": "🔒 " + _("Privacy"),
        "privacy_text": privacy_page(_),
    }


def refusal_texts(_: Translate) -> dict[str, str]:
    """Why a connection is refused, by reason: before the page has its texts."""
    return {
        "forged": _("Open the board from the game's message in Telegram."),
        "expired": _("This board was opened too long ago: open it again from the game's message."),
        "closed": _("You cannot open the board of this game."),
        "busy": _("You have too many boards open: close one, then open this one again."),
    }
