"""The daily position: ``/daily [short]``, its deep links (``d<id>``, from a group's post), the
🧩 buttons, the turn buttons of an answer, and a group's morning post (``/daily on
Europe/Moscow [short]``, ``/daily off``; admins only).

A private chat gets the position with the ordinary turn buttons (the taps so far ride in the
buttons, :class:`~bot.callbacks.DailyAction`); ✅ Confirm answers, once, and the message turns
into the answer, with a link that opens the position again for the verdict and the best move
once the day is over (nothing is told before: :mod:`bot.services.daily`). A group gets a post
with a button that opens the position in the private chat (answers there edit the post,
:mod:`bot.messages.daily`).
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import DailyAction, DailyOpen
from bot.i18n import current_locale
from bot.messages.daily import DailyPublisher
from bot.messages.members import check_admin
from bot.model import DailyPosition, User
from bot.numbers import parse_number
from bot.outbox import Outbox
from bot.services.daily import DAILY_VARIANTS, DEFAULT_TIME_ZONE, DailyPositions
from bot.services.errors import (
    AlreadyAnswered,
    DailyOver,
    ForeignButton,
    NoDailyPosition,
    StaleAction,
)
from bot.views.common import VARIANT_NAMES
from bot.views.daily import (
    DAILY_PREFIX,
    daily_payload,
    other_variants_keyboard,
    outcome_caption,
    puzzle_caption,
    puzzle_keyboard,
)
from bot.views.texts import VARIANT_WORDS
from render import FILE_NAME


def create_router() -> Router:
    """Returns a new router with the daily position's commands and buttons."""
    router = Router(name=__name__)
    router.message.register(
        on_daily_link,
        CommandStart(deep_link=True, magic=F.args.regexp(rf"^{DAILY_PREFIX}[0-9]+$")),
    )
    router.message.register(on_daily, Command("daily"))
    router.callback_query.register(on_daily_open, DailyOpen.filter())
    router.callback_query.register(on_daily_action, DailyAction.filter())
    return router


def _variant(words: list[str]) -> str:
    """The variant a command's words name (long nardy when none does)."""
    named = next((VARIANT_WORDS[w] for w in words if w in VARIANT_WORDS), DAILY_VARIANTS[0])
    if named not in DAILY_VARIANTS:
        raise NoDailyPosition()
    return named


async def on_daily(
    message: Message,
    command: CommandObject,
    bot: Bot,
    daily: DailyPositions,
    daily_publisher: DailyPublisher,
    outbox: Outbox,
    player: User,
    i18n: I18n,
) -> None:
    """``/daily [short]``: today's position, to answer here (a private chat) or posted for
    the group. In a group, admins only: ``/daily on [time zone] [short]`` posts it each morning
    at 09:00 there, ``/daily off`` stops."""
    words = (command.args or "").split()
    lowered = [w.lower() for w in words]
    if message.chat.type == ChatType.PRIVATE:
        if lowered and lowered[0] in ("on", "off"):
            await message.answer(_("Morning posts are for groups: send /daily on in a group."))
            return
        position = await daily.position(_variant(lowered))
        await _show(message.chat.id, position, bot, daily, daily_publisher, outbox, player, i18n)
        return
    if lowered and lowered[0] == "off":
        await check_admin(message, bot)
        if await daily.unsubscribe(message.chat.id):
            await message.answer(_("No more morning posts of the daily position here."))
        else:
            await message.answer(_("The daily position is not posted here. /daily on starts it."))
        return
    if lowered and lowered[0] == "on":
        await check_admin(message, bot)
        rest = words[1:]
        zone = next((w for w in rest if w.lower() not in VARIANT_WORDS), DEFAULT_TIME_ZONE)
        variant = _variant([w.lower() for w in rest])
        group = await daily.subscribe(
            message.chat.id, zone=zone, variant=variant, locale=current_locale()
        )
        await message.answer(
            _(
                "🧩 The daily position of {variant} will be posted here every morning at 09:00 "
                "({zone}). /daily off stops it."
            ).format(variant=_(VARIANT_NAMES[variant]), zone=group.time_zone)
        )
        return
    position = await daily.position(_variant(lowered))
    with outbox.on_demand.spend(player.id, message.chat.id):
        await daily_publisher.post_now(message.chat.id, position, current_locale())


async def on_daily_link(
    message: Message,
    command: CommandObject,
    bot: Bot,
    daily: DailyPositions,
    daily_publisher: DailyPublisher,
    outbox: Outbox,
    player: User,
    i18n: I18n,
) -> None:
    """``/start d<id>`` (a group post's 🧩 Answer): that position, to answer here."""
    position_id = parse_number((command.args or "").removeprefix(DAILY_PREFIX))
    if position_id is None:
        raise NoDailyPosition()
    position = await daily.position_by_id(position_id)
    await _show(message.chat.id, position, bot, daily, daily_publisher, outbox, player, i18n)


async def on_daily_open(
    callback: CallbackQuery,
    callback_data: DailyOpen,
    bot: Bot,
    daily: DailyPositions,
    daily_publisher: DailyPublisher,
    outbox: Outbox,
    player: User,
    i18n: I18n,
) -> None:
    """🧩 Daily position (under /start, after an answer): today's position of the variant, in
    this chat when it is a private one, posted for the group otherwise."""
    if not isinstance(callback.message, Message) or not 0 <= callback_data.variant < len(
        DAILY_VARIANTS
    ):
        raise StaleAction()
    position = await daily.position(DAILY_VARIANTS[callback_data.variant])
    chat = callback.message.chat
    if chat.type == ChatType.PRIVATE:
        await _show(chat.id, position, bot, daily, daily_publisher, outbox, player, i18n)
        return
    with outbox.on_demand.spend(player.id, chat.id):
        await daily_publisher.post_now(chat.id, position, current_locale())


async def _show(
    chat_id: int,
    position: DailyPosition,
    bot: Bot,
    daily: DailyPositions,
    daily_publisher: DailyPublisher,
    outbox: Outbox,
    player: User,
    i18n: I18n,
) -> None:
    """Sends ``position`` in the private chat: with the turn buttons, or, once answered, the
    answer (and once its day is over, the best move and the verdict)."""
    with outbox.on_demand.spend(player.id, chat_id):
        locale = i18n.current_locale
        picture = await daily_publisher.picture(position, locale)
        outcome = await daily.outcome(position, player)
        if outcome is not None:
            caption = outcome_caption(outcome, daily.today(), _)
            keyboard = await _after_answer(bot, position, outcome.revealed)
        else:
            tapped = await daily.tapped(position, "")
            caption = puzzle_caption(position, tapped, _)
            keyboard = puzzle_keyboard(position, "", tapped, _)
        await outbox.on_demand.pace.wait(chat_id)
        await bot.send_photo(
            chat_id, BufferedInputFile(picture, FILE_NAME), caption=caption, reply_markup=keyboard
        )


def _is_puzzle_of(message: Message, position_id: int) -> bool:
    """Whether ``message`` is a puzzle of daily position ``position_id``, the one kind of
    message its turn buttons may edit. A press brings the message's first button only
    (``bot.outbox.session.read_json``), which on a puzzle is one of its own."""
    markup = message.reply_markup
    if markup is None or not markup.inline_keyboard or not markup.inline_keyboard[0]:
        return False
    data = markup.inline_keyboard[0][0].callback_data or ""
    prefix = DailyAction.__prefix__ + DailyAction.__separator__
    return data.startswith(f"{prefix}{position_id}{DailyAction.__separator__}")


async def _after_answer(bot: Bot, position: DailyPosition, revealed: bool) -> InlineKeyboardMarkup:
    """The buttons under an answer: the other variants' positions, and until the day is over
    the link that opens this one again (to see the best move then)."""
    link = None if revealed else await create_start_link(bot, daily_payload(position.id))
    return other_variants_keyboard(position, _, answer_link=link)


async def on_daily_action(
    callback: CallbackQuery,
    callback_data: DailyAction,
    bot: Bot,
    daily: DailyPositions,
    daily_publisher: DailyPublisher,
    outbox: Outbox,
    player: User,
) -> None:
    """A turn button of a daily position: the answer built so far is shown in the caption;
    ✅ Confirm answers (once) and shows the verdict. A tap forged onto another message, a stale
    one, or a second answer gets an alert and changes nothing."""
    message = callback.message
    if not isinstance(message, Message):
        raise StaleAction()
    if message.chat.id != player.id or not _is_puzzle_of(message, callback_data.position):
        raise ForeignButton()  # forged onto another message: it stays as it is
    position = await daily.position_by_id(callback_data.position)
    known = await daily.outcome(position, player)
    if known is not None:
        raise AlreadyAnswered() if known.answer is not None else DailyOver()
    tapped = await daily.tapped(position, callback_data.taps)
    if callback_data.confirm:
        if not tapped.input.is_complete or not callback_data.taps:
            raise StaleAction()
        outcome = await daily.answer(position, player, tapped.input.turn())
        daily_publisher.refresh(position.id)
        await outbox.pace.wait(message.chat.id)
        await message.edit_caption(
            caption=outcome_caption(outcome, daily.today(), _),
            reply_markup=await _after_answer(bot, position, outcome.revealed),
        )
        return
    await outbox.pace.wait(message.chat.id)
    await message.edit_caption(
        caption=puzzle_caption(position, tapped, _),
        reply_markup=puzzle_keyboard(position, callback_data.taps, tapped, _),
    )
