"""The course as content: every step is a well-formed exercise (a play step has a legal right
answer and a legal wrong one, an ask step one right option and a wrong one), its texts and
pictures exist, and the tasks mean what their names say on hand-made positions."""

from __future__ import annotations

import pytest

from bot.course.lessons import COURSE, STEPS, AskStep, PlayStep, Step, learner, lesson_index
from bot.course.tasks import (
    BearsOff,
    Hits,
    Leaves,
    Makes,
    OneChecker,
    Reaches,
    Run,
    Wins,
    accepted,
    right_options,
)
from bot.engine import Dice, Game, Position, Side
from bot.i18n import create_i18n
from bot.views.common import translator
from bot.views.lesson_texts import LESSON_TITLES, STEP_TEXTS, option_label
from bot.views.lessons import Shown, step_board
from render import render_board
from tests.support.catalogs import untranslated

ENGLISH = translator(create_i18n(), "en")
EVERY_STEP = [(lesson.key, step) for lesson in COURSE for step in lesson.steps]


@pytest.mark.parametrize(("lesson", "step"), EVERY_STEP, ids=[s.key for _, s in EVERY_STEP])
def test_every_step_has_a_right_and_a_wrong_answer(lesson: str, step: Step) -> None:
    assert learner(step) is Side.WHITE  # the learner is white, drawn at the bottom
    if isinstance(step, PlayStep):
        legal = step.game.legal_turns()
        right = accepted(step.game, step.task)
        assert right, "nothing right to play"
        assert len(right) < len(legal), "nothing wrong to play"
    else:
        assert isinstance(step, AskStep)
        options = step.question.options(step.game)
        assert len(right_options(step.game, step.question)) == 1
        assert len(options) >= 2 and len(set(options)) == len(options)
        for option in options:
            assert option_label(step.question, option, ENGLISH)


@pytest.mark.parametrize(("lesson", "step"), EVERY_STEP, ids=[s.key for _, s in EVERY_STEP])
def test_every_step_has_its_texts_and_pictures(lesson: str, step: Step) -> None:
    assert lesson in LESSON_TITLES
    texts = STEP_TEXTS[step.key]
    assert all((texts.rule, texts.task, texts.right, texts.wrong))
    answers = accepted(step.game, step.task)[:1] if isinstance(step, PlayStep) else [None]
    for shown in Shown:
        for turn in answers:
            position, view = step_board(step, shown, untranslated, turn=turn)
            assert render_board(position, view=view)[:2] == b"\xff\xd8"


def test_the_course_is_what_the_texts_name() -> None:
    assert set(LESSON_TITLES) == {lesson.key for lesson in COURSE}
    keys = [step.key for lesson in COURSE for step in lesson.steps]
    assert len(keys) == len(set(keys)) == STEPS
    assert set(STEP_TEXTS) == set(keys)
    assert lesson_index("long.head") == 2 and lesson_index("nothing") is None


def _turns(text: str, dice: tuple[int, int]) -> dict[str, Position]:
    game = Game.setup(Position.from_text(text)).with_dice(Dice(*dice))
    return {str(t): t.position for t in game.legal_turns()}


def test_tasks_read_the_turns_result() -> None:
    start = Position.from_text("long w / 24:11 19:2 13:2 / 24:11 20:2 18:2")
    turns = _turns(start.to_text(), (5, 3))
    assert OneChecker().accepts(start, turns["13/10 10/5"])
    assert not OneChecker().accepts(start, turns["24/19 13/10"])
    assert Leaves(24).accepts(start, turns["24/19 13/10"])
    assert not Leaves(24, 2).accepts(start, turns["24/19 13/10"])
    assert Reaches(5).accepts(start, turns["13/10 10/5"])
    assert not Reaches(19, 2).accepts(start, turns["24/19 13/10"])
    short = Position.from_text("short w / 24:2 13:5 8:3 6:5 / 24:2 16:1 13:4 8:3 6:5")
    hits = _turns(short.to_text(), (4, 2))
    assert Hits().accepts(short, hits["13/9* 9/7"]) and not Hits().accepts(short, hits["8/4 6/4"])
    assert Makes(4).accepts(short, hits["8/4 6/4"]) and not Makes(4).accepts(short, hits["6/2 6/4"])
    home = Position.from_text("long w / 3:3 2:4 1:3 off:5 / 24:3 22:4 10:4 8:4")
    off = _turns(home.to_text(), (6, 1))
    assert BearsOff(2).accepts(home, off["3/off 1/off"])
    assert BearsOff(1).accepts(home, off["3/off 3/2"]) and not BearsOff(2).accepts(
        home, off["3/off 3/2"]
    )
    last = Position.from_text("long w / 2:1 off:14 / 3:5 2:5 1:2 off:3")
    assert all(Wins().accepts(last, p) for p in _turns(last.to_text(), (3, 1)).values())
    row = Position.from_text("long w / 24:8 13:2 11:1 10:1 9:1 8:1 7:1 / 24:14 16:1")
    six = _turns(row.to_text(), (6, 1))
    assert Run(6).accepts(row, six["13/7 7/6"]) and not Run(6).accepts(row, six["24/18 7/6"])
