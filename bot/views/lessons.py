"""What ``/learn`` shows: the course's message, each lesson's step (its caption, its buttons,
its picture's options), the practice positions, and the offers of ``/learn``. Pure functions of
the course (:mod:`bot.course`), domain values and ``_``; the course's words are
:mod:`.lesson_texts`'. The turn buttons are a game board's
(:func:`bot.views.board_buttons.finish_label`, :func:`~bot.views.board_buttons.step_label`): a
whole-turn button per way to finish when they are few, else the steps the engine offers; the
taps so far ride in them as letters (:func:`bot.services.daily.tap_letter`).
"""

from __future__ import annotations

import enum
from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import LessonAction, LessonMove, PracticeAction
from bot.course.lessons import COURSE, AskStep, PlayStep, Step, learner
from bot.engine import BAR, Position, Turn
from bot.model import PracticePosition
from bot.services.daily import Tapped
from bot.services.lessons import CourseOverview, StepVerdict
from bot.services.practice import PracticeOutcome
from bot.views.common import SIDE_MARKS, VARIANT_NAMES, Translate
from bot.views.daily import answer_lines, taps_keyboard, turn_rows
from bot.views.lesson_texts import SECTION_NAMES, STEP_TEXTS, lesson_title, option_label
from render import BoardView

LEARN_PREFIX: Final = "learn"
"""The deep-link payload that opens ``/learn`` in the private chat (from a group)."""
PRACTICE_VARIANTS: Final = ("long", "short")
"""The variants of practice positions and training games offered, by the buttons' ``arg``."""


class Shown(enum.Enum):
    """What a step's message shows: the task, a right answer, or a wrong one."""

    TASK = "task"
    RIGHT = "right"
    WRONG = "wrong"


def _header(index: int, step: int, _: Translate) -> str:
    lesson = COURSE[index]
    return (
        "🎓 "
        + html.bold(f"{_(SECTION_NAMES[lesson.section])} · {lesson_title(lesson, _)}")
        + f" · {step + 1}/{len(lesson.steps)}"
    )


def step_caption(
    index: int,
    step: int,
    shown: Shown,
    _: Translate,
    *,
    tapped: Tapped | None = None,
    verdict: StepVerdict | None = None,
) -> str:
    """A step's caption: the lesson and the step's number, the rule, the task, then the turn
    tapped so far, or the verdict (why it is right; which rule a wrong answer broke)."""
    found = COURSE[index].steps[step]
    texts = STEP_TEXTS[found.key]
    lines = [_header(index, step, _), _(texts.rule), "🎯 " + html.bold(_(texts.task))]
    played = tapped.input.played if tapped is not None else ()
    if shown is Shown.TASK and played:
        steps = " ".join(str(p.step) for p in played)
        lines.append(_("Your move so far: {steps}").format(steps=html.quote(steps)))
    if verdict is not None and verdict.turn is not None:
        lines.append(_("Your move: {turn}").format(turn=html.quote(str(verdict.turn))))
    if shown is Shown.RIGHT:
        lines.append("✅ " + _(texts.right))
        if verdict is not None and verdict.finished:
            lines.append("🏁 " + _("Lesson done!"))
    elif shown is Shown.WRONG:
        lines.append("❌ " + _(texts.wrong) + " " + _("Try again."))
    return "\n".join(lines)


def _lesson_data(move: LessonMove, index: int, step: int, arg: int = 0, taps: str = "") -> str:
    return LessonAction(move=move, lesson=index, step=step, arg=arg, taps=taps).pack()


def _button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


def course_button(_: Translate) -> InlineKeyboardButton:
    return _button("📚 " + _("Lessons"), _lesson_data(LessonMove.COURSE, 0, 0))


def task_keyboard(
    index: int, step: int, _: Translate, *, tapped: Tapped | None = None, taps: str = ""
) -> InlineKeyboardMarkup:
    """The buttons of a step's task: the turn buttons (a play step) with ↩ Undo, or the
    question's options (an ask step); 📚 Lessons."""
    found = COURSE[index].steps[step]
    if isinstance(found, PlayStep):
        assert tapped is not None
        rows = turn_rows(tapped, taps, lambda t: _lesson_data(LessonMove.TAP, index, step, taps=t))
        controls = [course_button(_)]
        if taps:
            controls.insert(
                0,
                _button(
                    "↩ " + _("Undo"), _lesson_data(LessonMove.TAP, index, step, taps=taps[:-1])
                ),
            )
        return InlineKeyboardMarkup(inline_keyboard=[*rows, controls])
    question, game = found.question, found.game
    options = [
        _button(
            option_label(question, option, _), _lesson_data(LessonMove.ANSWER, index, step, option)
        )
        for option in question.options(game)
    ]
    per_row = 2 if len(options) % 2 == 0 else 3
    rows = [options[i : i + per_row] for i in range(0, len(options), per_row)]
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [course_button(_)]])


def answered_keyboard(index: int, step: int, right: bool, _: Translate) -> InlineKeyboardMarkup:
    """After an answer: ▶ Next (the next step, or the next lesson, or at the course's end the
    training games), or 🔁 Try again; 📚 Lessons."""
    lesson = COURSE[index]
    if not right:
        again = _button("🔁 " + _("Try again"), _lesson_data(LessonMove.RETRY, index, step))
        return InlineKeyboardMarkup(inline_keyboard=[[again, course_button(_)]])
    if step + 1 < len(lesson.steps):
        onward = _button("▶ " + _("Next"), _lesson_data(LessonMove.NEXT, index, step))
        return InlineKeyboardMarkup(inline_keyboard=[[onward, course_button(_)]])
    if index + 1 < len(COURSE):
        title = lesson_title(COURSE[index + 1], _)
        onward = _button(
            "▶ " + _("Next lesson: {title}").format(title=title),
            _lesson_data(LessonMove.OPEN, index + 1, 0),
        )
        return InlineKeyboardMarkup(inline_keyboard=[[onward], [course_button(_)]])
    return InlineKeyboardMarkup(inline_keyboard=[*training_rows(_), [course_button(_)]])


def training_rows(_: Translate) -> list[list[InlineKeyboardButton]]:
    """🎓 a training game, in long or short nardy."""
    return [
        [
            _button(
                "🎓 " + _("Training game: {variant}").format(variant=_(VARIANT_NAMES[variant])),
                _lesson_data(LessonMove.TRAIN, 0, 0, arg),
            )
            for arg, variant in enumerate(PRACTICE_VARIANTS)
        ]
    ]


def practice_rows(_: Translate) -> list[list[InlineKeyboardButton]]:
    """🧩 practice positions, of long or short nardy."""
    return [
        [
            _button(
                "🧩 " + _("Practice: {variant}").format(variant=_(VARIANT_NAMES[variant])),
                _lesson_data(LessonMove.PRACTICE, 0, 0, arg),
            )
            for arg, variant in enumerate(PRACTICE_VARIANTS)
        ]
    ]


def course_text(overview: CourseOverview, _: Translate) -> str:
    """The course's message: what it is, each lesson by section (✅ done, ▶ the next), and
    what comes after it."""
    lines = [
        "🎓 " + html.bold(_("Learn nardy")),
        _(
            "Short lessons, a minute or two each: a position, a task in one sentence, your "
            "answer on the buttons, judged by the rules themselves."
        ),
        _("{done} of {total} lessons done.").format(done=overview.done, total=len(COURSE)),
    ]
    section = None
    for index, lesson in enumerate(COURSE):
        if lesson.section is not section:
            section = lesson.section
            lines.append("\n" + html.bold(_(SECTION_NAMES[section])))
        mark = "✅" if overview.finished(lesson) else ("▶" if index == overview.next else "▫")
        lines.append(f"{mark} {index + 1}. {lesson_title(lesson, _)}")
    lines.append(
        "\n"
        + _(
            "Then: 🧩 practice positions (find the best move, a streak of right answers) and "
            "🎓 a training game, where the computer judges each of your turns."
        )
    )
    return "\n".join(lines)


def course_keyboard(overview: CourseOverview, _: Translate) -> InlineKeyboardMarkup:
    """The course's buttons: ▶ the next lesson, one per lesson, practice, training games."""
    rows: list[list[InlineKeyboardButton]] = []
    if overview.next is not None:
        title = lesson_title(COURSE[overview.next], _)
        start = _("Start: {title}") if not overview.done else _("Continue: {title}")
        rows.append(
            [
                _button(
                    "▶ " + start.format(title=title),
                    _lesson_data(LessonMove.OPEN, overview.next, 0),
                )
            ]
        )
    lessons = [
        _button(
            ("✅ " if overview.finished(lesson) else "")
            + f"{index + 1}. {lesson_title(lesson, _)}",
            _lesson_data(LessonMove.OPEN, index, 0),
        )
        for index, lesson in enumerate(COURSE)
    ]
    rows += [lessons[i : i + 2] for i in range(0, len(lessons), 2)]
    return InlineKeyboardMarkup(inline_keyboard=[*rows, *practice_rows(_), *training_rows(_)])


def step_board(
    step: Step, shown: Shown, _: Translate, *, turn: Turn | None = None
) -> tuple[Position, BoardView]:
    """The picture of a step: its position with the roll (or the cube), or the position a
    turn reached with its steps drawn; the rule's points tinted on a wrong answer, and on an
    ask step's right one (the bar drawn as picked)."""
    game, side = step.game, learner(step)
    marked = shown is Shown.WRONG or (shown is Shown.RIGHT and isinstance(step, AskStep))
    cube, moves = game.cube, game.moves
    position = game.position if turn is None else turn.position.with_turn(side)
    return position, BoardView(
        bottom=side,
        dice=game.dice,
        dice_used=tuple(p.die for p in turn.played) if turn is not None else (),
        moves=moves.values if moves is not None else (),
        last_steps=turn.steps if turn is not None else (),
        last_side=side if turn is not None else None,
        destinations=tuple(p for p in step.marks if p != BAR) if marked else (),
        selected=BAR if marked and BAR in step.marks else None,
        cube=cube.value if cube is not None else None,
        cube_owner=cube.owner if cube is not None else None,
        cube_offered=bool(cube and cube.offered),
        pip_label=_("pips"),
    )


# --- practice ----------------------------------------------------------------------------------


def practice_caption(
    position: PracticePosition,
    _: Translate,
    *,
    tapped: Tapped | None = None,
    outcome: PracticeOutcome | None = None,
) -> str:
    """A practice position: what to find, the steps tapped so far, or the verdict with how
    everyone did and the streak."""
    game = position.game
    lines = [
        "🧩 "
        + html.bold(_("Practice · {variant}").format(variant=_(VARIANT_NAMES[position.variant]))),
        _(
            "🎲 {dice} — {mark} to move. Find the best move: it beats the next best by a "
            "blunder's margin."
        ).format(dice=game.dice, mark=SIDE_MARKS[game.turn]),
    ]
    if outcome is None:
        played = tapped.input.played if tapped is not None else ()
        if played:
            steps = " ".join(str(p.step) for p in played)
            lines.append(_("Your move so far: {steps}").format(steps=html.quote(steps)))
            if tapped is not None and tapped.input.is_complete:
                lines.append(_("✅ Confirm to answer: one answer each."))
        return "\n".join(lines)
    answer = outcome.answer
    lines += answer_lines(position.best.turn, answer.turn, answer.correct, answer.loss, _)
    lines.append(
        "👥 "
        + _("{answers} answered, {percent}% found the best move.").format(
            answers=outcome.answers, percent=outcome.percent
        )
    )
    lines.append(
        "🔥 "
        + _("Practice streak: {streak} right in a row (best {best}).").format(
            streak=outcome.streak, best=outcome.best_streak
        )
    )
    return "\n".join(lines)


def practice_keyboard(
    position: PracticePosition, taps: str, tapped: Tapped, _: Translate
) -> InlineKeyboardMarkup:
    """The turn buttons of a practice position, ↩ Undo and ✅ Confirm."""

    def data(next_taps: str, confirm: bool) -> str:
        return PracticeAction(position=position.id, taps=next_taps, confirm=confirm).pack()

    return taps_keyboard(tapped, taps, data, _)


def practiced_keyboard(position: PracticePosition, _: Translate) -> InlineKeyboardMarkup:
    """After a practice answer: ▶ the next position of the variant, 📚 Lessons."""
    arg = PRACTICE_VARIANTS.index(position.variant)
    onward = _button("▶ " + _("Next position"), _lesson_data(LessonMove.PRACTICE, 0, 0, arg))
    return InlineKeyboardMarkup(inline_keyboard=[[onward, course_button(_)]])


def practice_board(position: PracticePosition, _: Translate) -> tuple[Position, BoardView]:
    """The picture of a practice position: the side to move at the bottom, its roll."""
    game = position.game
    moves = game.moves
    return game.position, BoardView(
        bottom=game.turn,
        dice=game.dice,
        moves=moves.values if moves is not None else (),
        pip_label=_("pips"),
    )


# --- offers -----------------------------------------------------------------------------------


def offer_text(after_loss: bool, _: Translate) -> str:
    """The offer of ``/learn``: to a newcomer at their first ``/start``, or after a big loss
    in their first games."""
    if after_loss:
        return "🎓 " + _(
            "That one was lost by a wide margin. /learn has short lessons on the rules and a "
            "training game in which the computer judges each of your turns."
        )
    return "🎓 " + _(
        "New to nardy? /learn teaches the rules in short lessons, a minute or two each, then "
        "a training game with the computer."
    )


def offer_keyboard(
    _: Translate, *, learn: bool = True, decline: bool = True
) -> InlineKeyboardMarkup:
    """🎓 Learn (unless the message has its own: ``learn``), ✖ No, thanks (until it is
    tapped: ``decline``)."""
    buttons = []
    if learn:
        buttons.append(_button("🎓 " + _("Learn"), _lesson_data(LessonMove.COURSE, 0, 0)))
    if decline:
        buttons.append(_button("✖ " + _("No, thanks"), _lesson_data(LessonMove.DECLINE, 0, 0)))
    return InlineKeyboardMarkup(inline_keyboard=[buttons])
