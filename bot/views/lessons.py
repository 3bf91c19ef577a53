"""What ``/learn`` shows: the course's message, each lesson's step (its caption, its buttons,
its picture's options), the practice positions, and the offers of ``/learn``. Pure functions of
the course (:mod:`bot.course`), domain values and ``_``.

Every step's texts are here, by its key: the rule it teaches, its task in one sentence, why a
right answer is right, which rule a wrong one broke (:data:`STEP_TEXTS`); a test walks every
step in every language and fails on one missing. The turn buttons are a game board's
(:func:`bot.views.boards.finish_label`, :func:`~bot.views.boards.step_label`): a whole-turn
button per way to finish when they are few, else the steps the engine offers; the taps so far
ride in them as letters (:func:`bot.services.daily.tap_letter`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import LessonAction, LessonMove, PracticeAction
from bot.course.lessons import COURSE, AskStep, Lesson, PlayStep, Section, Step, learner
from bot.course.tasks import (
    OUTCOMES,
    BestRun,
    CanBearOff,
    DropCost,
    HeadCount,
    MayDouble,
    MoveCount,
    Playable,
    Question,
    Remains,
    ResultOf,
    WhatPlays,
    WhereItGoes,
    WinsMatch,
    YesNo,
)
from bot.engine import BAR, Position, Turn
from bot.i18n import N_
from bot.model import PracticePosition
from bot.services.daily import Tapped
from bot.services.lessons import Overview, Verdict
from bot.services.practice import PracticeOutcome
from bot.views.common import OUTCOME_NAMES, SIDE_MARKS, VARIANT_NAMES, Translate
from bot.views.daily import answer_lines, taps_keyboard, turn_rows
from render import BoardView

LEARN_PREFIX: Final = "learn"
"""The deep-link payload that opens ``/learn`` in the private chat (from a group)."""
PRACTICE_VARIANTS: Final = ("long", "short")
"""The variants of practice positions and training games offered, by the buttons' ``arg``."""


@dataclass(frozen=True, slots=True)
class StepTexts:
    """A step's texts, msgids: the rule it teaches, its task, why a right answer is right,
    which rule a wrong one broke."""

    rule: str
    task: str
    right: str
    wrong: str


SECTION_NAMES: Final = {
    Section.LONG: N_("Long nardy"),
    Section.SHORT: N_("Short nardy"),
    Section.OTHER: N_("The other games"),
}

LESSON_TITLES: Final = {
    "long.moves": N_("Moving checkers"),
    "long.dice": N_("Using the dice in full"),
    "long.head": N_("The head"),
    "long.block": N_("Six points in a row"),
    "long.home": N_("Home and bearing off"),
    "long.results": N_("Oin, mars and koks"),
    "short.basics": N_("Hitting and making points"),
    "short.bar": N_("The bar and entering"),
    "short.blocks": N_("Blocking"),
    "short.home": N_("Bearing off and koks"),
    "short.cube": N_("The cube and matches"),
    "other.games": N_("Abkhaz nardy and the gul-baras"),
}

STEP_TEXTS: Final = {
    "long.moves.one_checker": StepTexts(
        N_(
            "You play ⚪, from your head (24) round to your home (1–6). Each die moves one "
            "checker exactly that many points; one checker may take both dice."
        ),
        N_("Play 5-3 with one checker: 8 points."),
        N_("Right: one checker took both dice, stopping between them on a free point."),
        N_("That moved two checkers. Here one checker had to play both dice."),
    ),
    "long.moves.stop": StepTexts(
        N_(
            "A checker may not stop on a point the opponent holds, not even between its two "
            "dice. Nothing is ever hit in long nardy."
        ),
        N_("Bring the checker on 16 to 8."),
        N_("Right: 16→14→8. The 6 first would stop on 10, ⚫'s point, which is not allowed."),
        N_(
            "The checker on 16 could reach 8: the 2 first (16→14), then the 6. Point 10 is "
            "⚫'s, so the 6 cannot go first."
        ),
    ),
    "long.moves.double": StepTexts(
        N_("A double is played four times: 4-4 gives four moves of 4."),
        N_("Play all four 4s with one checker."),
        N_("Right: four moves of 4 by one checker, each stop free."),
        N_(
            "That used more than one checker. One checker can go all the way: 21→17→13→9→5 "
            "or 17→13→9→5→1."
        ),
    ),
    "long.dice.larger": StepTexts(
        N_(
            "You must play both dice when you can. When only one of them can be played, it "
            "must be the larger one if it fits."
        ),
        N_("6-4: what can you play?"),
        N_("Right: either die fits, but not both, and then the larger is played: 24→18."),
        N_(
            "Either die fits alone, but not both together, and then the rule says: the "
            "larger one. The 4 is lost."
        ),
    ),
    "long.dice.smaller": StepTexts(
        N_("When the larger die cannot be played at all, the smaller one is, if it can be."),
        N_("6-4 again, but now ⚫ holds 18: what can you play?"),
        N_("Right: no checker can move 6, so the 4 is played: 24→20."),
        N_(
            "No checker can move 6 here (18 and 1 are ⚫'s), so only the smaller die is "
            "played: 24→20."
        ),
    ),
    "long.head.one": StepTexts(
        N_(
            "Your checkers start on the head, your point 24. Only one checker may leave the "
            "head per turn."
        ),
        N_("Play 6-5 and take as many checkers off the head as the rules allow."),
        N_("Right: one checker left the head, the most a turn allows."),
        N_("A turn may take one checker off the head, and this one took none."),
    ),
    "long.head.first_six": StepTexts(
        N_(
            "The first turn has an exception: when one checker cannot play a double in full "
            "from the head, a second checker may leave it."
        ),
        N_("Your first turn: 6-6. How many checkers may leave the head?"),
        N_(
            "Right: two. One checker stops at 18, as ⚫'s head on 12 blocks its way, so a "
            "second one leaves the head too."
        ),
        N_(
            "Two: one checker cannot play all four 6s (⚫'s head on 12 blocks it), and that "
            "is when the first turn lets a second one go."
        ),
    ),
    "long.head.first_five": StepTexts(
        N_("The exception is only for a double that one checker cannot play in full."),
        N_("Your first turn: 5-5. How many checkers may leave the head?"),
        N_(
            "Right: one. It plays all four 5s by itself (24→19→14→9→4), so no second checker "
            "leaves."
        ),
        N_(
            "Only one: a checker plays all four 5s alone (24→19→14→9→4), so the exception "
            "does not apply."
        ),
    ),
    "long.head.second": StepTexts(
        N_(
            "The second player's first turn has the same exception, and the first player's "
            "checkers may stand in its way."
        ),
        N_("⚫ has moved a checker to your 18. Your first turn: 2-2. How many may leave the head?"),
        N_(
            "Right: two. One checker would have to stop on 18, ⚫'s, so it cannot play all "
            "four 2s, and a second one may leave."
        ),
        N_(
            "Two: one checker cannot play all four 2s (it would stop on 18, ⚫'s point), so a "
            "second one may leave the head."
        ),
    ),
    "long.block.forbidden": StepTexts(
        N_(
            "You may not build six points in a row unless at least one ⚫ checker is already "
            "past them."
        ),
        N_("You hold 11 to 7. With 6-1, what is the longest row you may make?"),
        N_(
            "Right: five. 13→7→6 would make six in a row with every ⚫ checker still behind "
            "them: not allowed."
        ),
        N_(
            "Five: 13→7→6 would close 11 to 6, six in a row, and no ⚫ checker is past them "
            "yet, so it is not allowed."
        ),
    ),
    "long.block.allowed": StepTexts(
        N_("Once a ⚫ checker is past your row (here on your 4), six in a row is allowed."),
        N_("Close the sixth point: hold 11 to 6 with 6-1."),
        N_("Right: 13→7→6 makes six in a row, allowed as ⚫ has a checker on 4, past them."),
        N_("Six in a row was possible here: 13→7 and 7→6."),
    ),
    "long.home.last_in": StepTexts(
        N_(
            "You bear off only when all 15 checkers are home (1–6). Your last checker "
            "outside is on 8."
        ),
        N_("6-2: can you bear off a checker this turn?"),
        N_("Right: the 6 brings the last checker home (8→2), then the 2 bears off from 2."),
        N_("You can: the 6 brings the last checker home (8→2), and then the 2 bears one off."),
    ),
    "long.home.exact": StepTexts(
        N_(
            "A die bears off a checker from the point of its number: a 6 from 6, a 4 from 4. "
            "Bearing off is never compulsory."
        ),
        N_("6-4: bear off two checkers."),
        N_("Right: 6→off and 4→off."),
        N_("The 4 could bear a checker off from 4 instead of moving inside the home."),
    ),
    "long.home.higher": StepTexts(
        N_("A die higher than your highest checker bears off from your highest point."),
        N_("6-1: bear off two checkers."),
        N_("Right: the 6 bears off from 3, your highest point, and the 1 from 1."),
        N_("The 1 could bear off from 1; the 6 bears off from 3, your highest point."),
    ),
    "long.results.oin": StepTexts(
        N_(
            "The game ends when a side bears off its last checker. Oin: the loser has borne "
            "off at least one checker: 1 point."
        ),
        N_("You bear off your last checker now. ⚫ has borne off 3. What do you win?"),
        N_("Right: an oin, 1 point: ⚫ had borne off checkers."),
        N_("⚫ had borne off checkers, so it is an oin: 1 point."),
    ),
    "long.results.mars": StepTexts(
        N_("Mars: the loser has borne off no checker: 2 points."),
        N_("You bear off your last checker. ⚫ has borne off none. What do you win?"),
        N_("Right: a mars, 2 points."),
        N_("⚫ bore off nothing: a mars, 2 points."),
    ),
    "long.results.koks": StepTexts(
        N_(
            "Under the Shesh Besh rules koks counts: the loser still has a checker on its "
            "head: 3 points. The classic rules (the bot's default) count it as a mars."
        ),
        N_("Shesh Besh: ⚫ still has a checker on its head (your 12). What do you win?"),
        N_("Right: a koks, 3 points (a mars under the classic rules)."),
        N_("⚫ still has a checker on its head: under Shesh Besh that is a koks, 3 points."),
    ),
    "long.results.home_mars": StepTexts(
        N_(
            "Shesh Besh also counts a home mars: the loser has every checker home but none "
            "borne off: 4 points."
        ),
        N_("Shesh Besh: all of ⚫'s checkers are home, none borne off. What do you win?"),
        N_("Right: a home mars, 4 points."),
        N_("All of ⚫'s checkers are home and none is off: under Shesh Besh a home mars, 4."),
    ),
    "short.basics.hit": StepTexts(
        N_(
            "Short nardy: the sides move towards each other. A lone checker (a blot) can be "
            "hit: it goes to the bar."
        ),
        N_("4-2: hit the ⚫ blot on 9."),
        N_("Right: the hit checker goes to the bar and must come back in from there."),
        N_("13→9 hits the lone ⚫ checker on 9."),
    ),
    "short.basics.point": StepTexts(
        N_("Two or more checkers make a point: the opponent cannot stop there."),
        N_("3-1: make your 5-point."),
        N_("Right: 8→5 and 6→5: the point is closed to ⚫."),
        N_("8→5 with the 3 and 6→5 with the 1 make the 5-point."),
    ),
    "short.bar.enter": StepTexts(
        N_(
            "A checker on the bar must enter first, in ⚫'s home (your 19 to 24): a die of d "
            "enters on 25 minus d."
        ),
        N_("5-3: enter and hit the ⚫ blot."),
        N_("Right: the 3 enters on 22 and hits ⚫'s blot there."),
        N_("The 3 enters on 22, where ⚫'s lone checker stands: that hits it."),
    ),
    "short.bar.closed": StepTexts(
        N_("While a checker waits on the bar, no other checker may move."),
        N_("6-4 with a checker on the bar: what can you play?"),
        N_("Right: nothing. 19 and 21 are ⚫'s points, so the checker cannot enter."),
        N_(
            "Nothing: the 6 would enter on 19 and the 4 on 21, both ⚫'s points, and no "
            "other checker may move meanwhile."
        ),
    ),
    "short.blocks.row": StepTexts(
        N_(
            "Points in a row block ⚫'s checkers behind them; six in a row cannot be passed "
            "at all. Short nardy allows all six."
        ),
        N_("3-2: make five points in a row."),
        N_("Right: 13→10 closes 10, and 10 to 6 are five points in a row."),
        N_("13→10 makes the 10-point: with 9, 8, 7 and 6 that is five in a row."),
    ),
    "short.home.bar": StepTexts(
        N_("You bear off only with all 15 checkers home and none on the bar."),
        N_("2-1 with a checker on the bar: can you bear off?"),
        N_("Right: no. The checker on the bar enters far from home first."),
        N_("No: a checker on the bar must enter and come all the way home first."),
    ),
    "short.home.koks": StepTexts(
        N_(
            "Short nardy counts koks: the loser has borne off nothing and still has a checker "
            "on the bar or in the winner's home: 3 points."
        ),
        N_(
            "You bear off your last checker. ⚫ bore off none and has a checker on your 2. "
            "What do you win?"
        ),
        N_("Right: a koks, 3 points."),
        N_("⚫ bore off nothing and still has a checker in your home: a koks, 3 points."),
    ),
    "short.cube.centred": StepTexts(
        N_(
            "The doubling cube: before your roll you may offer to double while the cube is "
            "in the middle or yours."
        ),
        N_("The cube is in the middle. May you double now?"),
        N_(
            "Right: yes. ⚫ then takes (the game counts double and the cube is ⚫'s) or drops "
            "and loses."
        ),
        N_("Yes: the cube is in the middle, so either side may double before its roll."),
    ),
    "short.cube.owned": StepTexts(
        N_("Whoever takes a double owns the cube: only they may double next."),
        N_("⚫ took your double: the cube shows 2 and is ⚫'s. May you double now?"),
        N_("Right: no. Only ⚫, who owns the cube, may double again."),
        N_("No: the cube is ⚫'s, and only its owner may double."),
    ),
    "short.cube.drop": StepTexts(
        N_(
            "Offered a double, you take or drop. A drop loses the game at the cube's value "
            "before the offer."
        ),
        N_("⚫ offers to double from 1. If you drop, how many points do you lose?"),
        N_("Right: 1 point. A take would play on for 2."),
        N_("A drop costs the cube's value before the offer: 1 point (a take plays on for 2)."),
    ),
    "short.cube.match": StepTexts(
        N_(
            "A match is played to a number of points; each game adds its result times the "
            "cube. The first game after a side comes within one point of the match is played "
            "without the cube."
        ),
        N_(
            "Match to 5, score 2:2. The cube shows 2 and is yours. You win now with a mars: "
            "do you win the match?"
        ),
        N_("Right: a mars is 2 points, times the cube's 2 makes 4: 2 + 4 = 6."),
        N_("Yes: a mars (2) times the cube (2) is 4 points, and 2 + 4 reaches 5."),
    ),
    "other.abkhaz": StepTexts(
        N_(
            "Abkhaz nardy is short nardy with one restriction: a checker that hits in your "
            "own home stays alone that turn, and that turn bears nothing off."
        ),
        N_("Abkhaz nardy, 4-1: hit the ⚫ blot on your 4."),
        N_(
            "Right. In short nardy 8→4 and 5→4 could also close the point; in Abkhaz nardy "
            "the hitter stays alone."
        ),
        N_("8→4 or 5→4 hits the blot on 4; no other checker of yours may then join it."),
    ),
    "other.gulbara": StepTexts(
        N_(
            "Gul-bara is long nardy in which the moves you cannot play pass to your "
            "opponent, and a double played in full rolls again."
        ),
        N_("Gul-bara, 6-4: only the 6 can be played. What becomes of the 4?"),
        N_("Right: ⚫ plays your 4 before its own roll. In long nardy it would be lost."),
        N_(
            "In gul-bara a move you cannot play passes to ⚫, who plays it before its own "
            "roll; in long nardy it is lost."
        ),
    ),
    "other.crazy": StepTexts(
        N_("Crazy gul-bara: a double d-d gives two moves of each value from d up to 6."),
        N_("Crazy gul-bara, 4-4: how many moves do you play?"),
        N_("Right: six: 4, 4, 5, 5, 6, 6."),
        N_("Six: 4-4 gives 4, 4, 5, 5, 6 and 6."),
    ),
}

PLAYABLE_NAMES: Final = {
    Playable.BOTH: N_("Both dice"),
    Playable.HIGH: N_("Only the larger die"),
    Playable.LOW: N_("Only the smaller die"),
    Playable.NONE: N_("Nothing: the turn passes"),
}
YES_NO_NAMES: Final = {YesNo.YES: N_("Yes"), YesNo.NO: N_("No")}
REMAINS_NAMES: Final = {Remains.LOST: N_("It is lost"), Remains.OPPONENT: N_("⚫ plays it")}
HEAD_NAMES: Final = {1: N_("One checker"), 2: N_("Two checkers")}


def option_label(question: Question, option: int, _: Translate) -> str:
    """An ask step's option as its button shows it."""
    if isinstance(question, WhatPlays):
        return _(PLAYABLE_NAMES[Playable(option)])
    if isinstance(question, HeadCount):
        return _(HEAD_NAMES[option])
    if isinstance(question, CanBearOff | MayDouble | WinsMatch):
        return _(YES_NO_NAMES[YesNo(option)])
    if isinstance(question, ResultOf):
        return _(OUTCOME_NAMES[OUTCOMES[option]])
    if isinstance(question, BestRun):
        return _("{count} in a row").format(count=option)
    if isinstance(question, DropCost):
        return _("{points} pt.").format(points=option)
    if isinstance(question, WhereItGoes):
        return _(REMAINS_NAMES[Remains(option)])
    if isinstance(question, MoveCount):
        return _("{count} moves").format(count=option)
    raise ValueError(f"no labels for {question!r}")


class Shown(enum.Enum):
    """What a step's message shows: the task, a right answer, or a wrong one."""

    TASK = "task"
    RIGHT = "right"
    WRONG = "wrong"


def lesson_title(lesson: Lesson, _: Translate) -> str:
    return _(LESSON_TITLES[lesson.key])


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
    verdict: Verdict | None = None,
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


def course_text(overview: Overview, _: Translate) -> str:
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


def course_keyboard(overview: Overview, _: Translate) -> InlineKeyboardMarkup:
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
