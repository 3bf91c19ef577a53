"""Learning to play: ``/learn`` (and its deep link from a group), the course's message, each
lesson's steps answered on the buttons, practice positions, a training game started, its ↩
Take back, and "no, thanks" to the offer of ``/learn``.

Lessons are given in the private chat: the course's message lists them; a lesson is one photo
message edited in place from step to step (the picture when it changes, the caption as the
turn is tapped), its taps riding in the buttons (:class:`~bot.callbacks.LessonAction`) and
judged by the engine once they make a turn (:mod:`bot.services.lessons`). A practice position
is answered as a daily position is, once, with ✅ Confirm.
"""

from __future__ import annotations

from typing import Final

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandStart
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.i18n import gettext as _

from bot.callbacks import LessonAction, LessonMove, PracticeAction, TakeBack
from bot.course.lessons import PlayStep
from bot.i18n import current_locale
from bot.messages.challenges import post_challenge
from bot.messages.learning import Coach, LessonBoards
from bot.model import PracticePosition, Terms, User
from bot.outbox import Outbox
from bot.services import Challenges, GameService, Users
from bot.services.challenges import DEFAULT_LEVEL
from bot.services.errors import AlreadyAnswered, ForeignButton, StaleAction
from bot.services.lessons import Lessons, Verdict, step_at
from bot.services.practice import Practice
from bot.views.lessons import (
    LEARN_PREFIX,
    PRACTICE_VARIANTS,
    Shown,
    answered_keyboard,
    course_keyboard,
    course_text,
    offer_keyboard,
    practice_board,
    practice_caption,
    practice_keyboard,
    practiced_keyboard,
    step_board,
    step_caption,
    task_keyboard,
)
from bot.views.start import is_greeting, start_keyboard
from bot.views.training import taken_back_caption
from render import FILE_NAME


def create_router() -> Router:
    """Returns a new router with the handlers of ``/learn``."""
    router = Router(name=__name__)
    router.message.register(
        on_learn_link, CommandStart(deep_link=True, magic=F.args == LEARN_PREFIX)
    )
    router.message.register(on_learn, Command("learn"))
    router.callback_query.register(on_lesson_button, LessonAction.filter())
    router.callback_query.register(on_practice_button, PracticeAction.filter())
    router.callback_query.register(on_take_back, TakeBack.filter())
    return router


async def on_learn(message: Message, bot: Bot, lessons: Lessons, player: User) -> None:
    """``/learn``: the course's message in a private chat; in a group, a link to it."""
    if message.chat.type != ChatType.PRIVATE:
        link = await create_start_link(bot, LEARN_PREFIX)
        await message.answer(
            _("Lessons are given in a private chat with me: {link}").format(link=link)
        )
        return
    overview = await lessons.overview(player.id)
    await message.answer(course_text(overview, _), reply_markup=course_keyboard(overview, _))


async def on_learn_link(message: Message, bot: Bot, lessons: Lessons, player: User) -> None:
    """``/start learn`` (the link ``/learn`` gives in a group): the course's message."""
    await on_learn(message, bot, lessons, player)


SENDING: Final = frozenset(
    {LessonMove.COURSE, LessonMove.TRAIN, LessonMove.PRACTICE, LessonMove.DECLINE}
)
"""The buttons that send a new message rather than edit the one tapped (the course's
message, a training game's challenge, a practice position), and "no, thanks", which takes only
its own buttons off: offered under /start too."""


def _private_message(callback: CallbackQuery, player: User) -> Message:
    """The message of a tap in the player's private chat with the bot.

    :raises: :exc:`ForeignButton` elsewhere (lessons are given in private).
    """
    message = callback.message
    if not isinstance(message, Message) or message.chat.id != player.id:
        raise ForeignButton()
    return message


def _own_message(callback: CallbackQuery, player: User, prefix: str) -> Message:
    """The message of a tap that edits it: one of the bot's in the player's private chat
    whose buttons are of this kind (``prefix``).

    :raises: :exc:`ForeignButton` for a tap forged onto another message (it stays as it is).
    """
    message = _private_message(callback, player)
    markup = message.reply_markup
    rows = markup.inline_keyboard if markup is not None else []
    first = rows[0][0].callback_data if rows and rows[0] else None
    if not first or not first.startswith(prefix + ":"):
        raise ForeignButton()
    return message


async def on_lesson_button(
    callback: CallbackQuery,
    callback_data: LessonAction,
    bot: Bot,
    lessons: Lessons,
    practice: Practice,
    challenges: Challenges,
    users: Users,
    outbox: Outbox,
    lesson_boards: LessonBoards,
    player: User,
    callback_answer: CallbackAnswer,
) -> None:
    """A button of ``/learn``: a lesson opened, a step's taps and answers, the course, a
    practice position, a training game, no thanks (the offer's buttons go, the others stay:
    it may be under the greeting of ``/start``)."""
    move = callback_data.move
    if move in SENDING:  # a new message in the player's private chat: from any of the bot's
        message = _private_message(callback, player)
    else:  # the tapped message is edited: one of /learn's own
        message = _own_message(callback, player, LessonAction.__prefix__)
    lesson, step = callback_data.lesson, callback_data.step
    if move is LessonMove.COURSE:
        overview = await lessons.overview(player.id)
        await outbox.pace.wait(message.chat.id)
        await message.answer(course_text(overview, _), reply_markup=course_keyboard(overview, _))
    elif move is LessonMove.DECLINE:
        await lessons.decline(player.id)
        callback_answer.text = _(
            "Fine: I will not offer it again. /learn is there whenever you like."
        )
        await outbox.pace.wait(message.chat.id)
        await _edit(message, None, None, _declined(message))
    elif move is LessonMove.TRAIN:
        variant = _variant(callback_data.arg)
        challenge = await challenges.against_computer(
            chat_id=message.chat.id,
            challenger=player,
            level=DEFAULT_LEVEL,
            locale=current_locale(),
            terms=Terms(variant=variant, training=True),
        )
        await post_challenge(message, challenge, player, users, challenges, outbox)
    elif move is LessonMove.PRACTICE:
        position = await practice.next(player.id, _variant(callback_data.arg))
        await _send_practice(message, position, practice, outbox, lesson_boards)
    elif move is LessonMove.OPEN:
        first = await lessons.resume(player.id, lesson)
        await _show_task(message, lesson, first, lessons, outbox, lesson_boards)
    elif move in (LessonMove.NEXT, LessonMove.RETRY):
        shown = step + 1 if move is LessonMove.NEXT else step
        step_at(lesson, shown)  # a step that exists
        await _show_task(message, lesson, shown, lessons, outbox, lesson_boards)
    elif move is LessonMove.TAP:
        await _tap(message, player, callback_data, lessons, outbox, lesson_boards)
    elif move is LessonMove.ANSWER:
        verdict = await lessons.answer_question(player.id, lesson, step, callback_data.arg)
        await _show_verdict(message, lesson, step, verdict, outbox, lesson_boards)
    else:
        raise StaleAction()


def _declined(message: Message) -> InlineKeyboardMarkup:
    """The buttons of an offer's message once it is declined: the greeting's own (a tap
    brings a message's first button only, which tells the greeting of /start), or 🎓 Learn."""
    markup = message.reply_markup
    rows = markup.inline_keyboard if markup is not None else []
    first = rows[0][0].callback_data if rows and rows[0] else None
    return start_keyboard(_) if is_greeting(first) else offer_keyboard(_, decline=False)


def _variant(arg: int) -> str:
    if not 0 <= arg < len(PRACTICE_VARIANTS):
        raise StaleAction()
    return PRACTICE_VARIANTS[arg]


async def _tap(
    message: Message,
    player: User,
    data: LessonAction,
    lessons: Lessons,
    outbox: Outbox,
    pictures: LessonBoards,
) -> None:
    """A turn button of a play step: the taps so far in the caption, or, once they make a
    turn, the verdict."""
    lesson, step = data.lesson, data.step
    tapped = await lessons.tapped(lesson, step, data.taps)
    if tapped.input.is_complete and data.taps:
        verdict = await lessons.answer_turn(player.id, lesson, step, tapped)
        await _show_verdict(message, lesson, step, verdict, outbox, pictures)
        return
    await outbox.pace.wait(message.chat.id)
    await _edit(
        message,
        None,
        step_caption(lesson, step, Shown.TASK, _, tapped=tapped),
        task_keyboard(lesson, step, _, tapped=tapped, taps=data.taps),
    )


async def _show_task(
    message: Message,
    lesson: int,
    step: int,
    lessons: Lessons,
    outbox: Outbox,
    pictures: LessonBoards,
) -> None:
    """Shows a step's task: on the lesson's message (edited), or in a new one from the
    course's message."""
    found = step_at(lesson, step)
    tapped = await lessons.tapped(lesson, step, "") if isinstance(found, PlayStep) else None
    picture = await pictures.picture(*step_board(found, Shown.TASK, _))
    caption = step_caption(lesson, step, Shown.TASK, _, tapped=tapped)
    keyboard = task_keyboard(lesson, step, _, tapped=tapped)
    await outbox.pace.wait(message.chat.id)
    if message.photo:
        await _edit(message, picture, caption, keyboard)
    else:
        await message.answer_photo(
            BufferedInputFile(picture, FILE_NAME), caption=caption, reply_markup=keyboard
        )


async def _show_verdict(
    message: Message,
    lesson: int,
    step: int,
    verdict: Verdict,
    outbox: Outbox,
    pictures: LessonBoards,
) -> None:
    """Shows an answer judged: the position it reached (a turn) with the rule's points
    tinted when it is wrong, why, and ▶ Next or 🔁 Try again."""
    found = step_at(lesson, step)
    shown = Shown.RIGHT if verdict.right else Shown.WRONG
    picture = await pictures.picture(*step_board(found, shown, _, turn=verdict.turn))
    caption = step_caption(lesson, step, shown, _, verdict=verdict)
    await outbox.pace.wait(message.chat.id)
    await _edit(message, picture, caption, answered_keyboard(lesson, step, verdict.right, _))


async def _edit(
    message: Message,
    picture: bytes | None,
    caption: str | None,
    keyboard: InlineKeyboardMarkup | None,
) -> None:
    """Edits a message: a photo's picture too when ``picture`` is given, its caption when
    ``caption`` is, else its buttons alone; an edit that changes nothing (a button tapped
    twice) is no error."""
    try:
        if caption is None:
            await message.edit_reply_markup(reply_markup=keyboard)
        elif picture is None:
            await message.edit_caption(caption=caption, reply_markup=keyboard)
        else:
            media = InputMediaPhoto(media=BufferedInputFile(picture, FILE_NAME), caption=caption)
            await message.edit_media(media, reply_markup=keyboard)
    except TelegramBadRequest as error:
        if "message is not modified" not in error.message.lower():
            raise


async def _send_practice(
    message: Message,
    position: PracticePosition,
    practice: Practice,
    outbox: Outbox,
    pictures: LessonBoards,
) -> None:
    tapped = await practice.tapped(position, "")
    picture = await pictures.picture(*practice_board(position, _))
    await outbox.pace.wait(message.chat.id)
    await message.answer_photo(
        BufferedInputFile(picture, FILE_NAME),
        caption=practice_caption(position, _, tapped=tapped),
        reply_markup=practice_keyboard(position, "", tapped, _),
    )


async def on_practice_button(
    callback: CallbackQuery,
    callback_data: PracticeAction,
    practice: Practice,
    outbox: Outbox,
    player: User,
) -> None:
    """A turn button of a practice position: the answer built so far in the caption; ✅
    Confirm answers, once, and shows the verdict, how everyone did and the streak."""
    message = _own_message(callback, player, PracticeAction.__prefix__)
    position = await practice.position(callback_data.position)
    if await practice.outcome(position, player) is not None:
        raise AlreadyAnswered()
    tapped = await practice.tapped(position, callback_data.taps)
    if callback_data.confirm:
        if not tapped.input.is_complete or not callback_data.taps:
            raise StaleAction()
        outcome = await practice.answer(position, player, tapped.input.turn())
        await outbox.pace.wait(message.chat.id)
        await _edit(
            message,
            None,
            practice_caption(position, _, outcome=outcome),
            practiced_keyboard(position, _),
        )
        return
    await outbox.pace.wait(message.chat.id)
    await _edit(
        message,
        None,
        practice_caption(position, _, tapped=tapped),
        practice_keyboard(position, callback_data.taps, tapped, _),
    )


async def on_take_back(
    callback: CallbackQuery,
    callback_data: TakeBack,
    game_service: GameService,
    outbox: Outbox,
    coach: Coach,
    player: User,
) -> None:
    """↩ Take back on a training game's coach message: the player's latest turn (and the
    computer's answer) undone, the same roll to play again; the board shows it, the coach's
    message says so."""
    message = callback.message
    kept = await coach.message(callback_data.game)
    if (
        not isinstance(message, Message)
        or kept is None
        or (kept.chat_id, kept.message_id) != (message.chat.id, message.message_id)
    ):
        raise ForeignButton()
    snapshot = await game_service.take_back(callback_data.game, player.id, callback_data.line)
    await outbox.pace.wait(message.chat.id)
    dice = str(snapshot.game.dice) if snapshot.game.dice is not None else ""
    await _edit(message, None, taken_back_caption(dice, _), None)
