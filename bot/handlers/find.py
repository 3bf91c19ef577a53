"""Play anyone now: ``/find`` (and 🔎 Play anyone under /start and a finished game) shows the
terms picker, at the player's last choice; 🔎 Find puts them in the pool, in private (everyone's
pool) or in a group (that group's members, playing there), and their wait is one message edited
in place until they are paired, take the computer's offer or cancel. The messages are sent and
edited by :mod:`bot.messages.pool`, the rules are :class:`~bot.services.lobby.Lobby`'s."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import Final

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import KICKED, ChatMemberUpdatedFilter, Command, CommandObject
from aiogram.types import CallbackQuery, ChatMemberUpdated, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import FindAction, FindOption, PlayAnyone
from bot.i18n import current_locale
from bot.messages.pool import WaitMessage, show_paired
from bot.model import Terms, User
from bot.outbox import Outbox
from bot.services import Chats, Lobby, Users
from bot.services.errors import ForeignButton, NotSeeking, NotYourFind, StaleAction
from bot.services.pool import OFFER_AFTER, PRIVATE, Pool
from bot.views.common import player_name
from bot.views.pool import (
    LISTS,
    cancelled_text,
    choices_keyboard,
    computer_chosen_text,
    picked,
    picker_keyboard,
    picker_text,
    settled,
    waiting_keyboard,
    waiting_text,
)
from bot.views.words import play_words, terms_of

logger = logging.getLogger(__name__)


def create_router() -> Router:
    """Returns a new router with the handlers of ``/find``."""
    router = Router(name=__name__)
    router.message.register(on_find, Command("find"))
    router.callback_query.register(on_play_anyone, PlayAnyone.filter())
    router.callback_query.register(on_find_button, FindAction.filter())
    router.my_chat_member.register(
        on_blocked,
        ChatMemberUpdatedFilter(member_status_changed=KICKED),
        F.chat.type == ChatType.PRIVATE,
    )
    return router


async def on_blocked(event: ChatMemberUpdated, users: Users, pool: Pool) -> None:
    """A user blocked the bot (Telegram's ``my_chat_member`` of their private chat, status
    kicked): noted, and they leave the private pool at once, so that nobody is paired with a
    player the bot cannot tell (a group's pool keeps them: they play there)."""
    await users.mark_blocked(event.from_user.id)
    if await pool.leave_private(event.from_user.id):
        logger.info("user %d left the pool: they blocked the bot", event.from_user.id)


async def _choice(pool: Pool, player: User, args: str | None) -> tuple[Terms, int]:
    """The terms the picker starts at: those written after ``/find`` (``/find short 5``, the
    words of ``/play``), else the player's last choice, else the defaults."""
    if args and args.strip():
        return settled(terms_of(play_words(args)), OFFER_AFTER)
    last = await pool.last_choice(player.id)
    if last is None:
        return settled(Terms(), OFFER_AFTER)
    return settled(last.terms, last.offer_after)


async def on_find(message: Message, command: CommandObject, pool: Pool, player: User) -> None:
    """``/find``: the terms picker, in this chat."""
    terms, offer_after = await _choice(pool, player, command.args)
    await message.answer(
        picker_text(terms, offer_after, _),
        reply_markup=picker_keyboard(terms, offer_after, player.id, _),
    )


async def on_play_anyone(callback: CallbackQuery, pool: Pool, outbox: Outbox, player: User) -> None:
    """🔎 Play anyone under /start, /help or a finished game: the picker, in that chat, within
    the presser's allowance of messages on demand (a second tap in a hurry sends nothing)."""
    if not isinstance(callback.message, Message):
        raise StaleAction()
    message = callback.message
    with outbox.on_demand.spend(player.id, message.chat.id):
        terms, offer_after = await _choice(pool, player, None)
        await message.answer(
            picker_text(terms, offer_after, _),
            reply_markup=picker_keyboard(terms, offer_after, player.id, _),
        )


WAIT_OPTIONS: Final = frozenset({FindOption.CANCEL, FindOption.COMPUTER})
"""The buttons of a wait."""
ENDED_OPTIONS: Final = frozenset({FindOption.AGAIN, FindOption.PLAY_COMPUTER})
"""The buttons of a wait that ended with nobody found; the others are the picker's."""


def _kind(option: FindOption) -> int:
    """Which ``/find`` message a button belongs on: 0 the picker, 1 a wait, 2 an ended wait."""
    return 1 if option in WAIT_OPTIONS else 2 if option in ENDED_OPTIONS else 0


def _check_owner(message: Message, data: FindAction, player: User) -> None:
    """Refuses a tap on someone else's picker or wait, and one forged onto another message:
    a press brings the message's first button (``bot.outbox.session.read_json``), which on a
    picker or a wait (ended or not) is one of theirs, names its player and tells the kind of
    message, whose buttons alone count there.

    :raises: :exc:`ForeignButton`, :exc:`NotYourFind`.
    """
    markup = message.reply_markup
    first = None
    if markup is not None and markup.inline_keyboard and markup.inline_keyboard[0]:
        with contextlib.suppress(TypeError, ValueError):
            first = FindAction.unpack(markup.inline_keyboard[0][0].callback_data or "")
    if first is None or first.user != data.user or _kind(first.option) != _kind(data.option):
        raise ForeignButton()  # forged onto another message: it stays as it is
    if data.user != player.id:
        raise NotYourFind()


async def on_find_button(
    callback: CallbackQuery,
    callback_data: FindAction,
    lobby: Lobby,
    pool: Pool,
    users: Users,
    chats: Chats,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """A picker's option (the message shows the next choice), 🔎 Find, on the wait ✖ Cancel
    and 🤖 the computer's offer, and on a wait that ended with nobody found 🔎 Look again and
    🤖 the computer."""
    message = callback.message
    if not isinstance(message, Message):
        raise StaleAction()
    option = callback_data.option
    _check_owner(message, callback_data, player)
    group = message.chat.type != ChatType.PRIVATE

    def wait(text: str, markup: InlineKeyboardMarkup | None = None) -> WaitMessage:
        return WaitMessage(
            bot,
            message.chat.id,
            message.message_id,
            text=text,
            markup=markup,
            user_id=player.id,
            pool=pool,
            users=users,
        )

    if option in (FindOption.FIND, FindOption.AGAIN):
        terms, offer_after = picked(callback_data)
        name = player_name(player, _) if group else None
        # the wait shows once the player may enter, before they do: a pairing made at once,
        # or by the next to enter, edits it after this; a refused tap edits nothing
        looking = wait(
            waiting_text(terms, offer_after, _, name=name),
            waiting_keyboard(terms, offer_after, player.id, _),
        )
        found = await lobby.find(
            player,
            message.chat.id if group else PRIVATE,
            terms,
            locale=current_locale(),
            offer_after=offer_after,
            message_id=message.message_id,
            dice_client=callback.id,
            entering=lambda: looking.show(outbox.pace),
        )
        if found is not None:
            await show_paired(found, bot, outbox.pace, i18n, pool=pool, users=users, chats=chats)
        return
    if option is FindOption.PLAY_COMPUTER:
        terms, _offer = picked(callback_data)
        snapshot = await lobby.play_computer(
            player,
            message.chat.id if group else PRIVATE,
            terms,
            locale=current_locale(),
            dice_client=callback.id,
        )
        level = snapshot.black.computer_level or 0  # the computer plays black
        played = replace(terms, stake=0)  # never a stake against the computer
        await wait(computer_chosen_text(level, played, _)).show(outbox.pace)
        return
    if option in (FindOption.CANCEL, FindOption.COMPUTER):
        seeker = await pool.seeker(player.id)
        if seeker is None or seeker.message_id != message.message_id:
            raise NotSeeking()  # someone else's wait, or one that ended
        if option is FindOption.CANCEL:
            await lobby.cancel_seeking(player.id)
            terms, offer_after = settled(seeker.terms, seeker.offer_after)
            await wait(
                cancelled_text(_) + "\n\n" + picker_text(terms, offer_after, _),
                picker_keyboard(terms, offer_after, player.id, _),
            ).show(outbox.pace)
            return
        left, snapshot = await lobby.play_offered_computer(
            player, locale=current_locale(), dice_client=callback.id
        )
        level = snapshot.black.computer_level or 0  # the computer plays black
        await wait(computer_chosen_text(level, left.terms, _)).show(outbox.pace)
        return
    terms, offer_after = picked(callback_data)
    if option in LISTS:  # the option's list of choices, one tap from the terms shown
        markup = choices_keyboard(callback_data, _)
    else:  # PICK: a choice picked, or ↩ Back
        markup = picker_keyboard(terms, offer_after, player.id, _)
    await wait(picker_text(terms, offer_after, _), markup).show(outbox.pace)
