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
from bot.services.training import Grade, TurnVerdict
from bot.views.common import Translate
from bot.views.numbers import decimal
from render import BoardView

GRADE_TEXTS: Final = {
    Grade.BEST: N_("Your {turn}: the best move!"),
    # TRANSLATORS: {loss} is a decimal number such as −0.12 (equity, in points)
    Grade.INACCURACY: N_("Your {turn}: a small inaccuracy ({loss})."),
    # TRANSLATORS: {loss} is a decimal number such as −0.12 (equity, in points)
    Grade.MISTAKE: N_("Your {turn}: a mistake ({loss})."),
    # TRANSLATORS: {loss} is a decimal number such as −0.12 (equity, in points)
    Grade.BLUNDER: N_("Your {turn}: a blunder ({loss})."),
}
GRADE_MARKS: Final = {
    Grade.BEST: "✅",
    Grade.INACCURACY: "🟡",
    Grade.MISTAKE: "🟠",
    Grade.BLUNDER: "🔴",
}


def coach_caption(verdict: TurnVerdict, over: bool, _: Translate) -> str:
    """The verdict in a line, the better turn, and what to do about it."""
    played = html.quote(str(verdict.played))
    grade = verdict.grade
    lines = [
        "🎓 " + html.bold(_("Training game")) + f" · 🎲 {verdict.before.dice}",
        GRADE_MARKS[grade]
        + " "
        + _(GRADE_TEXTS[grade]).format(turn=played, loss=decimal(-verdict.loss, _)),
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


def coach_keyboard(stored: StoredGame, verdict: TurnVerdict, _: Translate) -> InlineKeyboardMarkup:
    """↩ Take back, while the game goes on."""
    if stored.game.is_over:
        return InlineKeyboardMarkup(inline_keyboard=[])
    data = TakeBack(game=stored.id, line=verdict.line).pack()
    button = InlineKeyboardButton(text="↩ " + _("Take back"), callback_data=data)
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def coach_board(verdict: TurnVerdict, _: Translate) -> tuple[Position, BoardView]:
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
