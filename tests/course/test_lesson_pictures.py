"""Golden pictures of two lessons' answers, the ones the README shows: a wrong answer with the
rule's points tinted (six in a row in long nardy), and a right one with its steps drawn
(entering from the bar with a hit in short nardy). Regenerate after an intended change of the
look: ``NARDY_REGEN_GOLDEN=1 python -m pytest tests/course/test_lesson_pictures.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.course.lessons import COURSE, Step
from bot.course.tasks import accepted
from bot.views.lessons import Shown, step_board
from render import render_image
from tests.render.golden import assert_like_golden

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "learn"


def _step(key: str) -> Step:
    return next(step for lesson in COURSE for step in lesson.steps if step.key == key)


@pytest.mark.parametrize(
    ("name", "key", "shown"),
    [
        ("long-block-wrong", "long.block.forbidden", Shown.WRONG),
        ("short-bar-right", "short.bar.enter", Shown.RIGHT),
    ],
)
def test_lesson_picture(name: str, key: str, shown: Shown, tmp_path: Path) -> None:
    step = _step(key)
    turn = None
    if shown is Shown.RIGHT and hasattr(step, "task"):
        turn = accepted(step.game, step.task)[0]  # type: ignore[attr-defined]
    position, view = step_board(step, shown, str, turn=turn)
    image = render_image(position, view=view)
    assert_like_golden(
        image,
        GOLDEN / f"{name}.jpg",
        tmp_path,
        save=lambda to: image.save(to, "JPEG", quality=90, subsampling=0),
    )
