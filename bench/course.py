"""The course of /learn at Telegram's pace: how long a scripted newcomer takes through the bot.

    python bench/course.py [--locale ru] [--wrong] [--runs 3]

The real bot (in this process, as the tests run it: ``tests/support/harness.py``) against the
fake Bot API server, with Telegram's pace for a private chat (one message a second, a burst of
three: the bot's ``PRIVATE_MESSAGES_PER_SECOND``). A newcomer sends ``/learn`` and takes every
lesson in order: each step answered right at once (with ``--wrong``: answered wrong first, then
🔁 Try again and right), then ▶ Next, tapping as soon as the bot has answered the last tap
(no reading time: what is measured is the bot and Telegram's pace, the floor of a person's
time). Prints the course's steps, the taps, the messages sent and edited, and the seconds from
``/learn`` to the last step's verdict (median of the runs, and each run).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.callbacks import LessonAction, LessonMove
from bot.course.lessons import COURSE, STEPS, PlayStep
from tests.bot.test_learn import answer_taps
from tests.support.fake_telegram import FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot

EDITS = ("editMessageMedia", "editMessageCaption")


def _data(move: LessonMove, lesson: int, step: int, arg: int = 0, taps: str = "") -> str:
    return LessonAction(move=move, lesson=lesson, step=step, arg=arg, taps=taps).pack()


async def _tap(fake: FakeTelegram, user: FakeUser, message: FakeMessage, data: str) -> None:
    answer = await fake.next_answer_to(fake.tap(user, message, data), timeout=60)
    assert not answer.show_alert, answer.text


async def _answer(
    fake: FakeTelegram, user: FakeUser, message: FakeMessage, lesson: int, step: int, right: bool
) -> int:
    """Answers step ``step`` right (or wrong); returns the taps it took."""
    found = COURSE[lesson].steps[step]
    if isinstance(found, PlayStep):
        taps = answer_taps(found)[0 if right else 1]
        for end in range(1, len(taps) + 1):
            await _tap(fake, user, message, _data(LessonMove.TAP, lesson, step, taps=taps[:end]))
        return len(taps)
    game, question = found.game, found.question
    answer = question.answer(game)
    option = answer if right else next(o for o in question.options(game) if o != answer)
    await _tap(fake, user, message, _data(LessonMove.ANSWER, lesson, step, option))
    return 1


async def newcomer(harness: BotHarness, locale: str, wrong: bool) -> tuple[float, int]:
    """One newcomer through the whole course; returns the seconds and the taps."""
    fake = harness.fake
    user = fake.create_user("Newcomer", language_code=locale)
    chat = fake.private_chat(user)
    began = time.monotonic()
    sent = fake.send_text(user, chat, "/learn")
    course = await fake.wait_for_message(chat, after=sent, timeout=60)
    await _tap(fake, user, course, _data(LessonMove.OPEN, 0, 0))
    message = await fake.wait_for_message(
        chat, after=course, where=lambda m: m.photo is not None, timeout=60
    )
    taps = 1
    for lesson_index, lesson in enumerate(COURSE):
        for step_index in range(len(lesson.steps)):
            if wrong:
                taps += await _answer(fake, user, message, lesson_index, step_index, False)
                await _tap(fake, user, message, _data(LessonMove.RETRY, lesson_index, step_index))
                taps += 1
            taps += await _answer(fake, user, message, lesson_index, step_index, True)
            if step_index + 1 < len(lesson.steps):
                onward = _data(LessonMove.NEXT, lesson_index, step_index)
            elif lesson_index + 1 < len(COURSE):
                onward = _data(LessonMove.OPEN, lesson_index + 1, 0)
            else:
                break
            await _tap(fake, user, message, onward)
            taps += 1
    return time.monotonic() - began, taps


async def run(locale: str, wrong: bool) -> tuple[float, int, int, int]:
    async with FakeTelegram() as fake:
        with tempfile.TemporaryDirectory() as directory:
            async with running_bot(
                fake,
                Path(directory) / "course.sqlite3",
                private_messages_per_second=1,
                messages_per_second=30,
                group_messages_per_minute=20,
                log_level="WARNING",
            ) as harness:
                seconds, taps = await newcomer(harness, locale, wrong)
                edits = sum(len(fake.requests_for(m)) for m in EDITS)
                sends = len(fake.requests_for("sendPhoto")) + len(fake.requests_for("sendMessage"))
    return seconds, taps, edits, sends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locale", default="ru")
    parser.add_argument("--wrong", action="store_true", help="a wrong answer first, each step")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results = [asyncio.run(run(args.locale, args.wrong)) for _ in range(args.runs)]
    seconds = [r[0] for r in results]
    _, taps, edits, sends = results[0]
    print(f"course: {len(COURSE)} lessons, {STEPS} steps; locale {args.locale}")
    print(f"a wrong answer first at each step: {args.wrong}")
    print(f"taps {taps}, messages sent {sends}, edited {edits}")
    print(
        f"seconds from /learn to the last verdict: median {statistics.median(seconds):.1f} "
        f"(runs {', '.join(f'{s:.1f}' for s in seconds)})"
    )


if __name__ == "__main__":
    main()
