"""``/learn`` through the real bot and a fake Telegram: every lesson walked in every language
of the bot, each step answered wrong first (the rule it broke, on a picture) and then right (why),
so no step lacks a text or a picture; progress kept and resumed; forged and stale taps refused;
the offer of ``/learn`` at a newcomer's first ``/start``, never again after "no, thanks"."""

from __future__ import annotations

import asyncio
from collections import deque

import pytest

from bot.callbacks import LessonAction, LessonMove
from bot.course.lessons import COURSE, AskStep, PlayStep
from bot.course.tasks import judge
from bot.i18n import DEFAULT_LOCALE, LOCALES, create_i18n
from bot.services.daily import STEP_LETTERS, replay_taps, tap_letter
from bot.views.common import translator
from bot.views.lesson_texts import STEP_TEXTS, option_label
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeUser
from tests.support.harness import BotHarness

JPEG = b"\xff\xd8"


def answer_taps(step: PlayStep) -> tuple[str, str]:
    """The letters of the shortest right answer and of the shortest wrong one, found by
    walking the taps the step's buttons offer (as a player would tap them)."""
    right: str | None = None
    wrong: str | None = None
    queue = deque([""])
    while queue and (right is None or wrong is None):
        taps = queue.popleft()
        tapped = replay_taps(step.game, taps)
        if taps and tapped.input.is_complete:
            if judge(step.game, tapped.input.turn(), step.task):
                right = right if right is not None else taps
            else:
                wrong = wrong if wrong is not None else taps
            continue
        if tapped.finishes:
            queue.extend(taps + tap_letter(i, finish=True) for i in range(len(tapped.finishes)))
        else:
            count = min(len(tapped.input.options), len(STEP_LETTERS))
            queue.extend(taps + tap_letter(i, finish=False) for i in range(count))
    assert right is not None and wrong is not None, step.key
    return right, wrong


def _data(move: LessonMove, lesson: int, step: int, arg: int = 0, taps: str = "") -> str:
    return LessonAction(move=move, lesson=lesson, step=step, arg=arg, taps=taps).pack()


async def _tap(harness: BotHarness, user: FakeUser, message: FakeMessage, data: str) -> None:
    answer = await harness.fake.next_answer_to(harness.fake.tap(user, message, data))
    assert not answer.show_alert, answer.text


async def _play(
    harness: BotHarness, user: FakeUser, message: FakeMessage, lesson: int, step: int, taps: str
) -> None:
    """Taps ``taps`` one letter at a time, each on the button the message shows for it."""
    for end in range(1, len(taps) + 1):
        await _tap(harness, user, message, _data(LessonMove.TAP, lesson, step, taps=taps[:end]))


async def walk_course(harness: BotHarness, user: FakeUser, chat: FakeChat, locale: str) -> int:
    """``user`` takes the whole course from ``/learn``: each step answered wrong, tried again,
    answered right; returns the number of steps walked."""
    fake = harness.fake
    _ = translator(create_i18n(), locale)
    sent = fake.send_text(user, chat, "/learn")
    course = await fake.wait_for_message(chat, after=sent)
    assert _("Learn nardy") in course.content
    await _tap(harness, user, course, _data(LessonMove.OPEN, 0, 0))
    message = await fake.wait_for_message(chat, after=course, where=lambda m: m.photo is not None)
    walked = 0
    for lesson_index, lesson in enumerate(COURSE):
        for step_index, step in enumerate(lesson.steps):
            texts = STEP_TEXTS[step.key]
            task = message.photo
            assert task is not None and task.startswith(JPEG)
            assert _(texts.task) in message.content and _(texts.rule) in message.content
            if isinstance(step, PlayStep):
                right, wrong = answer_taps(step)
                await _play(harness, user, message, lesson_index, step_index, wrong)
            else:
                game, question = step.game, step.question
                answer = question.answer(game)
                wrong_option = next(o for o in question.options(game) if o != answer)
                labels = [b.text for b in message.buttons]
                assert option_label(question, wrong_option, _) in labels
                await _tap(
                    harness,
                    user,
                    message,
                    _data(LessonMove.ANSWER, lesson_index, step_index, wrong_option),
                )
            assert "❌ " + _(texts.wrong) in message.content, (locale, step.key)
            assert message.photo is not None and message.photo.startswith(JPEG)
            await _tap(harness, user, message, _data(LessonMove.RETRY, lesson_index, step_index))
            assert message.photo == task
            if isinstance(step, PlayStep):
                await _play(harness, user, message, lesson_index, step_index, right)
            else:
                await _tap(
                    harness,
                    user,
                    message,
                    _data(LessonMove.ANSWER, lesson_index, step_index, answer),
                )
            assert "✅ " + _(texts.right) in message.content, (locale, step.key)
            assert message.photo is not None and message.photo.startswith(JPEG)
            walked += 1
            if step_index + 1 < len(lesson.steps):
                onward = _data(LessonMove.NEXT, lesson_index, step_index)
            elif lesson_index + 1 < len(COURSE):
                onward = _data(LessonMove.OPEN, lesson_index + 1, 0)
            else:
                train = _data(LessonMove.TRAIN, 0, 0, 0)
                assert any(b.callback_data == train for b in message.buttons)
                break
            await _tap(harness, user, message, onward)
    return walked


@pytest.mark.slow
async def test_every_lesson_walked_in_every_language(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    learners = [
        (fake.create_user(f"L{locale}", language_code=locale), locale) for locale in LOCALES
    ]
    walked = await asyncio.gather(
        *(walk_course(harness, user, fake.private_chat(user), locale) for user, locale in learners)
    )
    steps = sum(len(lesson.steps) for lesson in COURSE)
    assert walked == [steps] * len(LOCALES)
    # the course's message now shows every lesson done
    user, locale = learners[0]
    chat = fake.private_chat(user)
    sent = fake.send_text(user, chat, "/learn")
    course = await fake.wait_for_message(chat, after=sent)
    assert f"{len(COURSE)} of {len(COURSE)}" in course.content


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != DEFAULT_LOCALE])
def test_every_step_has_its_texts_translated(locale: str) -> None:
    _ = translator(create_i18n(), locale)
    for lesson in COURSE:
        for step in lesson.steps:
            texts = STEP_TEXTS[step.key]
            for text in (texts.rule, texts.task, texts.right, texts.wrong):
                assert _(text) != text, (locale, step.key, text)
            if isinstance(step, AskStep):
                for option in step.question.options(step.game):
                    assert option_label(step.question, option, _)


async def test_the_offer_at_a_newcomers_first_start_and_no_thanks(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", language_code="ru")
    chat = fake.private_chat(anna)
    sent = fake.send_text(anna, chat, "/start")
    greeting = await fake.wait_for_message(chat, after=sent)
    _ = translator(create_i18n(), "ru")
    offer = _(
        "New to nardy? /learn teaches the rules in short lessons, a minute or two each, "
        "then a training game with the computer."
    )
    assert greeting.content.startswith("Здравствуйте, Anna!") and offer in greeting.content
    decline = _data(LessonMove.DECLINE, 0, 0)
    learn = _data(LessonMove.COURSE, 0, 0)
    assert {decline, learn} <= {b.callback_data for b in greeting.buttons}
    await harness.settle()
    again = fake.send_text(anna, chat, "/start")
    second = await fake.wait_for_message(chat, after=again)
    await harness.settle()
    assert offer not in second.content and decline not in [b.callback_data for b in second.buttons]
    answer = await fake.next_answer_to(fake.tap(anna, greeting, decline))
    assert answer.text and "/learn" in answer.text and not answer.show_alert
    assert decline not in [b.callback_data for b in greeting.buttons]
    # "no, thanks" again from an old keyboard (a slow client): answered, nothing to change
    again_answer = await fake.next_answer_to(fake.tap(anna, greeting, decline, check=False))
    assert again_answer.text and "/learn" in again_answer.text
    # "🎓 Learn to play" under /start opens the course all the same
    await _tap(harness, anna, greeting, learn)
    course = fake.last_message(chat)
    assert course.message_id > second.message_id and len(course.buttons) > len(COURSE)


async def test_a_lesson_is_resumed_and_forged_taps_change_nothing(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", language_code="en")
    chat = fake.private_chat(anna)
    sent = fake.send_text(anna, chat, "/learn")
    course = await fake.wait_for_message(chat, after=sent)
    head = next(i for i, lesson in enumerate(COURSE) if lesson.key == "long.head")
    await _tap(harness, anna, course, _data(LessonMove.OPEN, head, 0))
    lesson = fake.last_message(chat)
    step = COURSE[head].steps[0]
    assert isinstance(step, PlayStep)
    right, _wrong = answer_taps(step)
    await _play(harness, anna, lesson, head, 0, right)
    assert "✅" in lesson.content
    # taps forged onto the course's text message, or onto a step the message does not show
    edits = course.edit_count
    forged = await fake.next_answer_to(
        fake.tap(anna, course, _data(LessonMove.TAP, head, 0, taps="zz"), check=False)
    )
    assert forged.show_alert and course.edit_count == edits
    bad = await fake.next_answer_to(
        fake.tap(anna, lesson, _data(LessonMove.ANSWER, head, 99, 1), check=False)
    )
    assert bad.show_alert
    # the course again: the lesson resumes at its second step
    sent = fake.send_text(anna, chat, "/learn")
    course = await fake.wait_for_message(chat, after=sent)
    await _tap(harness, anna, course, _data(LessonMove.OPEN, head, 0))
    resumed = fake.last_message(chat)
    assert resumed.message_id > course.message_id
    assert "2/" in resumed.content.splitlines()[0]


async def test_learn_in_a_group_points_to_the_private_chat(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", language_code="en")
    group = fake.create_group("Club", [anna])
    sent = fake.send_text(anna, group, "/learn")
    answer = await fake.wait_for_message(group, after=sent)
    assert "?start=learn" in answer.content
    await harness.settle()
