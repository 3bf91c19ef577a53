"""What the daily position's messages show: the puzzle's caption and turn buttons, the answer's
verdict, a group's post, and ``/top daily``. Pure functions of domain values and a locale."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import DailyAction, DailyOpen
from bot.model import DailyPosition, DailyTally, Streak, User
from bot.services.daily import (
    DAILY_VARIANTS,
    STEP_LETTERS,
    AnswerVerdict,
    Tapped,
    alive,
    best_shown,
    tap_letter,
)
from bot.views.board_buttons import STEPS_PER_ROW, finish_label, step_label
from bot.views.common import SIDE_MARKS, VARIANT_NAMES, Translate, clock, player_name
from bot.views.numbers import count, decimal
from render import BoardView

DAILY_PREFIX = "d"
"""Deep-link payloads ``d<position id>`` open a daily position in the private chat."""


def daily_payload(position_id: int) -> str:
    return f"{DAILY_PREFIX}{position_id}"


def _title(position: DailyPosition, _: Translate) -> str:
    return "🧩 " + html.bold(
        _("Daily position · {variant} · {day}").format(
            variant=_(VARIANT_NAMES[position.variant]), day=position.day
        )
    )


def _task(position: DailyPosition, _: Translate) -> str:
    game = position.game
    return _(
        "🎲 {dice} — {mark} to move. Find the best move: it beats the next best by a "
        "blunder's margin."
    ).format(dice=game.dice, mark=SIDE_MARKS[game.turn])


def day_end(position: DailyPosition) -> float:
    """When the position's day ends: the next midnight, UTC (Unix time)."""
    start = dt.datetime.fromisoformat(position.day).replace(tzinfo=dt.UTC)
    return (start + dt.timedelta(days=1)).timestamp()


def _hidden(position: DailyPosition, _: Translate) -> str:
    return "🔒 " + _("The best move is shown to all when the day ends ({time}).").format(
        time=clock(day_end(position), "day")
    )


def puzzle_caption(position: DailyPosition, tapped: Tapped, _: Translate) -> str:
    """The caption of a private puzzle: what to find, and the steps tapped so far."""
    lines = [_title(position, _), _task(position, _), _hidden(position, _)]
    played = tapped.input.played
    if played:
        steps = " ".join(str(p.step) for p in played)
        lines.append(_("Your move so far: {steps}").format(steps=html.quote(steps)))
        if tapped.input.is_complete:
            lines.append(_("✅ Confirm to answer: one answer each."))
    return "\n".join(lines)


def puzzle_keyboard(
    position: DailyPosition, taps: str, tapped: Tapped, _: Translate
) -> InlineKeyboardMarkup:
    """The turn buttons, as a game's board draws them (:func:`bot.views.board_buttons.keyboard`):
    one button per way to finish when they are few, else the steps offered; ↩ Undo, ✅
    Confirm. Each button carries the taps it leads to."""

    def data(next_taps: str, confirm: bool = False) -> str:
        return DailyAction(position=position.id, taps=next_taps, confirm=confirm).pack()

    return taps_keyboard(tapped, taps, data, _)


def taps_keyboard(
    tapped: Tapped, taps: str, data: Callable[[str, bool], str], _: Translate
) -> InlineKeyboardMarkup:
    """The turn buttons of a position answered once (:func:`turn_rows`), ↩ Undo and ✅
    Confirm; ``data(taps, confirm)`` is a button's data."""
    rows = turn_rows(tapped, taps, lambda following: data(following, False))
    controls = []
    if taps:
        controls.append(_button("↩ " + _("Undo"), data(taps[:-1], False)))
    if tapped.input.is_complete and taps:
        controls.append(_button("✅ " + _("Confirm"), data(taps, True)))
    if controls:
        rows.append(controls)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def turn_rows(
    tapped: Tapped, taps: str, data: Callable[[str], str]
) -> list[list[InlineKeyboardButton]]:
    """The turn buttons of a position being answered tap by tap, the taps riding in the
    buttons (:func:`bot.services.daily.tap_letter`): one per way to finish when they are few,
    else the steps offered (none once the turn is complete); ``data(taps)`` is the data of a
    button that leads to ``taps``."""
    current = tapped.input
    if tapped.finishes:
        labels = [finish_label(steps) for steps in tapped.finishes]
        per_row = 3 if max(map(len, labels)) <= 9 else 2
        buttons = [
            _button(label, data(taps + tap_letter(i, finish=True)))
            for i, label in enumerate(labels)
        ]
    elif current.is_complete:
        return []
    else:
        per_row = STEPS_PER_ROW
        steps = [(o.src, o.dst) for o in current.options]
        buttons = [
            _button(
                step_label(option, steps.count((option.src, option.dst)) > 1),
                data(taps + tap_letter(i, finish=False)),
            )
            for i, option in enumerate(current.options[: len(STEP_LETTERS)])
        ]
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


def board_view(position: DailyPosition, _: Translate) -> BoardView:
    """The picture's options: the side to move at the bottom, its roll."""
    game = position.game
    moves = game.moves
    return BoardView(
        bottom=game.turn,
        dice=game.dice,
        moves=moves.values if moves is not None else (),
        pip_label=_("pips"),
    )


def answer_lines(best: str, turn: str, correct: bool, loss: float, _: Translate) -> list[str]:
    """A judged answer to a position: the best turn, then the answer, the best or what it gave
    away."""
    lines = ["🏆 " + _("Best: {turn}").format(turn=html.quote(best))]
    if correct:
        lines.append("✅ " + _("Your {turn}: the best move!").format(turn=html.quote(turn)))
    else:
        lines.append(
            "❌ "
            # TRANSLATORS: {loss} is a decimal number such as 0.12 (equity, in points)
            + _("Your {turn} loses {loss} points against the best.").format(
                turn=html.quote(turn), loss=decimal(loss, _)
            )
        )
    return lines


def tally_line(tally: DailyTally, _: Translate, *, revealed: bool = True) -> str:
    """How everyone answered: the share of right answers once the day is over, before that
    only how many answered (the share would tell a second account whether a move is right)."""
    if not tally.answers:
        return "👥 " + _("No answers yet.")
    if not revealed:
        return "👥 " + _("{answers} answered so far.").format(answers=tally.answers)
    return "👥 " + _("{answers} answered, {percent}% found the best move.").format(
        answers=tally.answers, percent=tally.percent
    )


def outcome_caption(outcome: AnswerVerdict, today: str, _: Translate) -> str:
    """After answering: the answer, how many answered and the streak as it stood when the day
    began; once the day is over, the best move, the answer's verdict and how everyone did."""
    position, answer = outcome.position, outcome.answer
    lines = [_title(position, _), _task(position, _)]
    if not outcome.revealed:
        assert answer is not None
        lines.append(
            "📝 "
            + _(
                "Your answer: {turn}. Your verdict and the best move are shown when the day "
                "ends ({time})."
            ).format(turn=html.quote(answer.turn), time=clock(day_end(position), "day"))
        )
    elif answer is not None:
        lines += answer_lines(outcome.best.turn, answer.turn, answer.correct, answer.loss, _)
    else:
        lines.append("🏆 " + _("Best: {turn}").format(turn=html.quote(outcome.best.turn)))
    lines.append(tally_line(outcome.tally, _, revealed=outcome.revealed))
    if answer is not None:
        current, best = alive(outcome.streak, today), best_shown(outcome.streak, today)
        lines.append(
            "🔥 "
            + _(
                "Streak: {days} day in a row (best {best}).",
                "Streak: {days} days in a row (best {best}).",
                current,
            ).format(days=count(current, _), best=count(best, _))
        )
        if not outcome.counted:
            lines.append(_("Streaks count for players who have played a rated game."))
    return "\n".join(lines)


def other_variants_keyboard(
    position: DailyPosition, _: Translate, *, answer_link: str | None = None
) -> InlineKeyboardMarkup:
    """After an answer: a button for each other variant's position of the day, and with
    ``answer_link`` (the position's deep link), one that opens it again once the day is
    over, to see the best move."""
    buttons = [
        _button(
            "🧩 " + _(VARIANT_NAMES[variant]),
            DailyOpen(variant=DAILY_VARIANTS.index(variant)).pack(),
        )
        for variant in DAILY_VARIANTS
        if variant != position.variant
    ]
    rows = [buttons]
    if answer_link is not None:
        text = "🔓 " + _("The best move, when the day is over")
        rows.append([InlineKeyboardButton(text=text, url=answer_link)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def group_caption(
    position: DailyPosition, tally: DailyTally, _: Translate, *, revealed: bool = False
) -> str:
    """A group's post of the position: the task and how many have answered so far; once the
    day is over, the best move and how everyone did."""
    lines = [_title(position, _), _task(position, _)]
    if revealed:
        lines.append("🏆 " + _("Best: {turn}").format(turn=html.quote(position.best.turn)))
    else:
        lines += [
            _("Answer in a private chat with me: the button below. One answer each."),
            _hidden(position, _),
        ]
    lines.append(tally_line(tally, _, revealed=revealed))
    return "\n".join(lines)


def group_keyboard(link: str, _: Translate) -> InlineKeyboardMarkup:
    """A group post's one button: the position in the private chat, by deep link."""
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="🧩 " + _("Answer"), url=link)]]
    )


def streaks_text(streaks: Sequence[tuple[User, Streak]], _: Translate) -> str:
    """``/top daily``: the longest streaks alive."""
    if not streaks:
        return _("No streaks yet: answer /daily right to start one.")
    lines = [html.bold("🔥 " + _("Daily position streaks"))]
    for place, (user, streak) in enumerate(streaks, start=1):
        lines.append(
            _(
                "{place}. {name}: {days} day (best {best})",
                "{place}. {name}: {days} days (best {best})",
                streak.current,
            ).format(
                place=place,
                name=player_name(user, _),
                days=count(streak.current, _),
                best=count(streak.best, _),
            )
        )
    return "\n".join(lines)


def _button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)
