"""What a training game's coach message shows: the player's latest turn judged, the better
turn on the picture, ↩ Take back. Pure functions of a verdict and ``_``."""

from __future__ import annotations

from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import TakeBack
from bot.engine import Position
from bot.i18n import N_
from bot.model import StoredGame
from bot.services.training import Grade, Verdict
from bot.views.common import Translate
from render import BoardView

GRADE_TEXTS: Final = {
    Grade.BEST: N_("Your {turn}: the best move!"),
    Grade.INACCURACY: N_("Your {turn}: a small inaccuracy (−{loss:.2f})."),
    Grade.MISTAKE: N_("Your {turn}: a mistake (−{loss:.2f})."),
    Grade.BLUNDER: N_("Your {turn}: a blunder (−{loss:.2f})."),
}
GRADE_MARKS: Final = {
    Grade.BEST: "✅",
    Grade.INACCURACY: "🟡",
    Grade.MISTAKE: "🟠",
    Grade.BLUNDER: "🔴",
}


def coach_caption(verdict: Verdict, over: bool, _: Translate) -> str:
    """The verdict in a line, the better turn, and what to do about it."""
    played = html.quote(str(verdict.played))
    grade = verdict.grade
    lines = [
        "🎓 " + html.bold(_("Training game")) + f" · 🎲 {verdict.before.dice}",
        GRADE_MARKS[grade] + " " + _(GRADE_TEXTS[grade]).format(turn=played, loss=verdict.loss),
    ]
    if grade is not Grade.BEST:
        lines.append(
            "💡 "
            + _("Better: {turn}, shown on the picture.").format(turn=html.quote(str(verdict.best)))
        )
        if not over:
            lines.append(_("↩ Take back to play this roll again."))
    if over:
        lines.append("🏁 " + _("The game is over."))
    return "\n".join(lines)


def coach_keyboard(stored: StoredGame, verdict: Verdict, _: Translate) -> InlineKeyboardMarkup:
    """↩ Take back, while the game goes on."""
    if stored.game.is_over:
        return InlineKeyboardMarkup(inline_keyboard=[])
    data = TakeBack(game=stored.id, line=verdict.line).pack()
    button = InlineKeyboardButton(text="↩ " + _("Take back"), callback_data=data)
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def coach_board(verdict: Verdict, _: Translate) -> tuple[Position, BoardView]:
    """The picture: the position the better turn reaches (the turn played when it was the
    best), its steps drawn on it, the roll spent."""
    side = verdict.side
    shown = verdict.best if verdict.grade is not Grade.BEST else verdict.played
    before = verdict.before
    return shown.position.with_turn(side), BoardView(
        bottom=side,
        dice=before.dice,
        dice_used=tuple(p.die for p in shown.played),
        last_steps=shown.steps,
        last_side=side,
        pip_label=_("pips"),
    )


def taken_back_caption(verdict_dice: str, _: Translate) -> str:
    """The coach's message once the turn is taken back."""
    return (
        "🎓 "
        + html.bold(_("Training game"))
        + "\n↩ "
        + _(
            "Taken back: play your {dice} again. 💡 Hint on the board shows the best moves."
        ).format(dice=verdict_dice)
    )
