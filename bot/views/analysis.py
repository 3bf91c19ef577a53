"""What an analysis shows: the progress note, each player's summary (with their PR, luck and
luck-adjusted result, and their cube decisions and cube errors where a cube was used), and the
worst moves as pictures of the board before them with captions. Pure functions of the analysis
and ``_`` (the reader's gettext)."""

from __future__ import annotations

from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.ai.analysis import BLUNDER, ERROR, CubeReview, Review
from bot.ai.cubeful import CubeAction
from bot.callbacks import PlayFrom
from bot.engine import Position, Side
from bot.i18n import N_
from bot.services.analysis import Analysis
from bot.views.board_buttons import finish_label
from bot.views.common import SIDE_MARKS, Translate, mention, player_name
from bot.views.numbers import count, decimal
from render import BoardView

SIDES = (Side.WHITE, Side.BLACK)
CUBE_ACTIONS: Final = {
    CubeAction.NO_DOUBLE: N_("no double"),
    CubeAction.DOUBLE: N_("double"),
    CubeAction.TAKE: N_("take"),
    CubeAction.DROP: N_("drop"),
}


def progress_text(game_id: int, done: int, total: int, _: Translate) -> str:
    """``📊 Analysing game #12… 20/85 turns``."""
    text = _(
        "Analysing game #{game}… {done}/{total} turn",
        "Analysing game #{game}… {done}/{total} turns",
        total,
    )
    return "📊 " + text.format(game=game_id, done=count(done, _), total=count(total, _))


def worst_moves(analysis: Analysis) -> list[Review]:
    """The moves to show as pictures: each person's worst (up to three, worst first), white's
    first; none of the computer's."""
    return [
        review
        for side in SIDES
        if analysis.stored.level(side) is None
        for review in analysis.summaries[side].worst
    ]


def side_pr(analysis: Analysis, side: Side) -> float:
    """``side``'s PR in the game: the automatic analysis's figure when there is one (the one the
    result board shows), else this review's, over its moves and cube decisions with a
    choice."""
    if analysis.figures is not None:
        return analysis.figures[side].pr
    summary = analysis.summaries[side]
    lost = summary.error_rate * summary.turns / 1000 + sum(
        c.loss for c in analysis.cube if c.side is side and c.counted
    )
    decisions = summary.turns + summary.cube_decisions
    return 500 * lost / decisions if decisions else 0.0


def summary_text(analysis: Analysis, _: Translate) -> str:
    """Each player's PR and moves (with a choice, errors, blunders); their luck and the
    luck-adjusted result; cube decisions and errors where a cube was used; what PR (and luck)
    is, once; how many worst moves follow."""
    lines = ["📊 " + html.bold(_("Analysis of game #{game}").format(game=analysis.stored.id))]
    for side in SIDES:
        summary = analysis.summaries[side]
        moves = _("{moves}: {errors}, {blunders}").format(
            moves=_("{n} move with a choice", "{n} moves with a choice", summary.turns).format(
                n=count(summary.turns, _)
            ),
            errors=_("{n} error", "{n} errors", summary.errors).format(n=count(summary.errors, _)),
            blunders=_("{n} blunder", "{n} blunders", summary.blunders).format(
                n=count(summary.blunders, _)
            ),
        )
        pr = decimal(side_pr(analysis, side), _, digits=1)
        lines.append(f"{SIDE_MARKS[side]} {player_name(analysis.user(side), _)}: PR {pr} · {moves}")
    lines.extend(_luck_lines(analysis, _))
    lines.extend(_cube_lines(analysis, _))
    lines.append(
        # TRANSLATORS: {error} and {blunder} are decimal numbers such as 0.08 (points)
        _(
            "PR (performance rating): the equity lost per decision with a choice (cube "
            "decisions included), in 500ths of a point: lower is better, 0 plays as the "
            "computer does. An error loses at least {error} points, a blunder at least "
            "{blunder}."
        ).format(error=decimal(ERROR, _), blunder=decimal(BLUNDER, _))
    )
    if analysis.figures is not None:
        lines.append(
            _(
                "Luck: how much more the dice gave one side than the other, in points; the "
                "luck-adjusted result is the result less that luck."
            )
        )
    shown = len(worst_moves(analysis))
    if shown:
        lines.append(
            _("{n} worst move follows.", "{n} worst moves follow.", shown).format(n=count(shown, _))
        )
    else:
        lines.append(_("No errors to show."))
    return "\n".join(lines)


def _luck_lines(analysis: Analysis, _: Translate) -> list[str]:
    """``🍀 ⚪ @anna: luck +0.42, luck-adjusted result +0.58``, a line a side."""
    figures = analysis.figures
    if figures is None:
        return []
    lines = []
    for side in SIDES:
        one = figures[side]
        adjusted = one.adjusted
        text = _("luck {luck}").format(luck=decimal(one.luck, _, sign=True))
        if adjusted is not None:
            text += ", " + _("luck-adjusted result {points}").format(
                points=decimal(adjusted, _, sign=True)
            )
        lines.append(f"🍀 {SIDE_MARKS[side]} {player_name(analysis.user(side), _)}: {text}")
    return lines


def _cube_lines(analysis: Analysis, _: Translate) -> list[str]:
    """Where a cube was used: each side's cube decisions with a choice and errors, then each
    cube error (the worst three a side)."""
    if not analysis.cube:
        return []
    lines = []
    for side in SIDES:
        summary = analysis.summaries[side]
        decisions = _("{n} cube decision", "{n} cube decisions", summary.cube_decisions)
        errors = _("{n} cube error", "{n} cube errors", len(summary.cube_errors))
        lines.append(
            f"⏫ {SIDE_MARKS[side]} {player_name(analysis.user(side), _)}: "
            + decisions.format(n=count(summary.cube_decisions, _))
            + ", "
            + errors.format(n=count(len(summary.cube_errors), _))
        )
    lines.extend(
        cube_error_line(analysis, error, _)
        for side in SIDES
        for error in analysis.summaries[side].cube_errors
    )
    return lines


def cube_error_line(analysis: Analysis, error: CubeReview, _: Translate) -> str:
    """``⏫ ⚪ @anna before move 12: double, better no double, equity lost 0.275``."""
    return f"⏫ {SIDE_MARKS[error.side]} {player_name(analysis.user(error.side), _)} " + _(
        "before move {number}: {played}, better {best}, equity lost {loss}"
    ).format(
        number=error.index + 1,
        played=_(CUBE_ACTIONS[error.action]),
        best=_(CUBE_ACTIONS[error.best]),
        loss=decimal(error.loss, _, digits=3),
    )


PLAYED_MARK: Final = "🟧"
"""Before the turn played in a worst move's caption: its arrows' colour on the picture."""
BETTER_MARK: Final = "🟦"
"""Before the better turn: its arrows' colour."""


def worst_caption(analysis: Analysis, review: Review, _: Translate) -> str:
    """A worst move's caption: whose and which move, the roll, what was played and the better
    move (in the buttons' notation, each marked with its arrows' colour on the picture) and
    the equity it lost."""
    before, side = review.before, review.side
    head = _("Game #{game} · move {number} of {turns}").format(
        game=analysis.stored.id, number=review.index + 1, turns=analysis.turns
    )
    if before.remainder:
        roll = "↪ " + _("remainder {moves}").format(moves=" ".join(map(str, before.remainder)))
    else:
        roll = f"🎲 {before.dice}" + (f" ✂{before.struck}" if before.struck is not None else "")
    kind = _("blunder") if review.loss >= BLUNDER else _("error")
    return "\n".join(
        [
            f"📊 {head}",
            f"{SIDE_MARKS[side]} {player_name(analysis.user(side), _)} · {roll}",
            PLAYED_MARK
            + " "
            + _("Played: {steps}").format(steps=finish_label(review.played.played)),
            BETTER_MARK + " " + _("Better: {steps}").format(steps=finish_label(review.best.played)),
            # TRANSLATORS: {loss} is a decimal number such as 0.123 (equity, in points)
            _("Equity lost: {loss} points ({kind})").format(
                loss=decimal(review.loss, _, digits=3), kind=kind
            ),
        ]
    )


def worst_position(review: Review) -> Position:
    """The position to draw for a worst move: the board before it."""
    return review.before.position


def worst_view(analysis: Analysis, review: Review, _: Translate) -> BoardView:
    """The picture's options for a worst move: the mover's side at the bottom, the roll it
    played (the remainder it was handed), the names, the turn played and the better one as
    arrows (orange and blue, as the caption marks them). No cube: the analysis is
    cubeless."""
    before = review.before
    moves = before.moves
    label = None
    if before.remainder:
        label = _("Remainder from {name}").format(name=mention(analysis.user(before.turn.other), _))
    elif before.chain:
        label = _("Rolls again")
    return BoardView(
        bottom=review.side,
        dice=None if before.remainder else before.dice,
        moves=moves.values if moves is not None else (),
        struck=before.struck,
        dice_label=label,
        white_name=mention(analysis.white, _),
        black_name=mention(analysis.black, _),
        pip_label=_("pips"),
        arrows=(review.played.steps, review.best.steps),
    )


def worst_keyboard(analysis: Analysis, review: Review, _: Translate) -> InlineKeyboardMarkup:
    """Under a worst move: play on from the board before it (its mover's side is the
    presser's), against the computer or as a challenge anyone here may accept."""
    game_id = analysis.stored.id

    def button(text: str, computer: bool) -> InlineKeyboardButton:
        data = PlayFrom(game=game_id, moves=review.index, computer=computer).pack()
        return InlineKeyboardButton(text=text, callback_data=data)

    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                button("🤖 " + _("Practise from here"), True),
                button("⚔ " + _("Play from here"), False),
            ]
        ]
    )
