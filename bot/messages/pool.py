"""The messages of ``/find``: a seeker's wait, one message edited in place (the picker it was
made from, "Looking for an opponent… ⏳", the computer's offer, the pairing, or the end of a wait
nobody answered), never a new one for each step; and what the timers do with the pool: the
pairs made among those already waiting, the computer's offer to those who waited long enough,
and the waits that ran out (:data:`~bot.services.pool.MAX_WAIT`).

A seeker whose chat refuses the bot (they blocked it: Telegram's 403) leaves the pool: nobody
would be told of a pairing, and their opponent would wait for a player who never comes.
"""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.i18n import I18n

from bot.i18n import LOCALES, locale_of
from bot.messages.kept import KeptMessage
from bot.model import Seeker
from bot.outbox.pace import Pace
from bot.services import Chats, Users
from bot.services.lobby import Found, Lobby
from bot.services.pool import PRIVATE, Pool, computer_level_for
from bot.views.common import player_name, translator
from bot.views.pool import (
    expired_keyboard,
    expired_text,
    paired_in_group_text,
    paired_text,
    waiting_keyboard,
    waiting_text,
)

logger = logging.getLogger(__name__)


class WaitMessage(KeptMessage):
    """A seeker's wait message, edited to ``text`` and ``markup``; sent afresh only if it is
    gone. A chat that refuses the bot takes ``user_id`` out of the pool."""

    def __init__(
        self,
        bot: Bot,
        chat_id: int,
        message_id: int | None,
        *,
        text: str,
        markup: InlineKeyboardMarkup | None,
        user_id: int,
        pool: Pool,
        users: Users,
    ) -> None:
        super().__init__(chat_id, message_id, what=f"the wait of user {user_id}")
        self._bot = bot
        self._text = text
        self._markup = markup
        self._user_id = user_id
        self._pool = pool
        self._users = users

    async def send(self, chat_id: int) -> int:
        message = await self._bot.send_message(chat_id, self._text, reply_markup=self._markup)
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        await self._bot.edit_message_text(
            self._text, chat_id=chat_id, message_id=message_id, reply_markup=self._markup
        )

    async def forbidden(self, chat_id: int) -> None:
        if await self._pool.leave(self._user_id):
            logger.info("user %d left the pool: chat %d refuses the bot", self._user_id, chat_id)
        if chat_id == self._user_id:
            await self._users.mark_blocked(self._user_id)


def wait_chat(seeker: Seeker) -> int:
    """The chat of a seeker's wait message: their private chat, or the group of its pool."""
    return seeker.user_id if seeker.scope == PRIVATE else seeker.scope


async def _locale(seeker: Seeker, users: Users, chats: Chats) -> str:
    """What the seeker's message is written in: the group's language when its admins chose
    one, else the seeker's."""
    if seeker.scope != PRIVATE:
        chosen = await chats.locale(seeker.scope)
        if chosen in LOCALES:
            return chosen
    user = await users.get(seeker.user_id)
    return locale_of(user) if user is not None else "en"


async def show_paired(
    found: Found,
    bot: Bot,
    limiter: Pace,
    i18n: I18n,
    *,
    pool: Pool,
    users: Users,
    chats: Chats,
) -> None:
    """Edits both seekers' wait messages to say who plays whom: in private each is told of
    their opponent (a person, with their rating); in a group, the group is (one message is
    enough when both waits are the same)."""
    pairing = found.pairing
    white, black = found.snapshot.white, found.snapshot.black
    shown: set[tuple[int, int]] = set()
    for seeker, opponent, rating in (
        (pairing.waiting, black, pairing.entering.rating),
        (pairing.entering, white, pairing.waiting.rating),
    ):
        chat_id = wait_chat(seeker)
        if seeker.message_id is None or (chat_id, seeker.message_id) in shown:
            continue
        shown.add((chat_id, seeker.message_id))
        _ = translator(i18n, await _locale(seeker, users, chats))
        if seeker.scope == PRIVATE:
            text = paired_text(player_name(opponent, _), rating, pairing.terms, _)
        else:
            text = paired_in_group_text(
                player_name(white, _), player_name(black, _), pairing.terms, _
            )
        await WaitMessage(
            bot,
            chat_id,
            seeker.message_id,
            text=text,
            markup=None,
            user_id=seeker.user_id,
            pool=pool,
            users=users,
        ).show(limiter)


async def offer_computer(
    seeker: Seeker,
    bot: Bot,
    limiter: Pace,
    i18n: I18n,
    *,
    pool: Pool,
    users: Users,
    chats: Chats,
) -> bool:
    """Edits the wait message of ``seeker`` (due: see :meth:`Pool.sweep`) to offer the
    computer at the level of their rating, as the computer; they stay in the pool. False when
    the chat refused the bot (they left the pool) or the message could not be shown."""
    if seeker.message_id is None:
        return False
    _ = translator(i18n, await _locale(seeker, users, chats))
    level = computer_level_for(seeker.rating)
    user = await users.get(seeker.user_id)
    name = player_name(user, _) if user is not None and seeker.scope != PRIVATE else None
    return await WaitMessage(
        bot,
        wait_chat(seeker),
        seeker.message_id,
        text=waiting_text(seeker.terms, seeker.offer_after, _, name=name, level=level),
        markup=waiting_keyboard(seeker.terms, seeker.offer_after, seeker.user_id, _, level=level),
        user_id=seeker.user_id,
        pool=pool,
        users=users,
    ).show(limiter)


async def pair_waiting(
    lobby: Lobby,
    bot: Bot,
    limiter: Pace,
    i18n: I18n,
    *,
    pool: Pool,
    users: Users,
    chats: Chats,
) -> list[Found]:
    """The timers' pairing of seekers already waiting (:meth:`Lobby.pair_waiting`): each
    game started, both waits are edited to say who plays whom (:func:`show_paired`). Returns
    the pairings, whose boards the caller publishes."""

    async def locale(seeker: Seeker) -> str:
        return await _locale(seeker, users, chats)

    found = await lobby.pair_waiting(locale)
    for each in found:
        await show_paired(each, bot, limiter, i18n, pool=pool, users=users, chats=chats)
    return found


async def tell_expired(
    seeker: Seeker,
    bot: Bot,
    limiter: Pace,
    i18n: I18n,
    *,
    pool: Pool,
    users: Users,
    chats: Chats,
) -> bool:
    """Edits the wait message of ``seeker``, out of the pool after
    :data:`~bot.services.pool.MAX_WAIT` (:meth:`Pool.expire`), to say that nobody came, with
    🔎 Look again and 🤖 the computer at the level of their rating; nothing else is sent.
    False when there is no message or it could not be shown."""
    if seeker.message_id is None:
        return False
    _ = translator(i18n, await _locale(seeker, users, chats))
    user = await users.get(seeker.user_id)
    name = player_name(user, _) if user is not None and seeker.scope != PRIVATE else None
    level = computer_level_for(seeker.rating)
    return await WaitMessage(
        bot,
        wait_chat(seeker),
        seeker.message_id,
        text=expired_text(seeker.terms, _, name=name),
        markup=expired_keyboard(seeker.terms, seeker.offer_after, seeker.user_id, level, _),
        user_id=seeker.user_id,
        pool=pool,
        users=users,
    ).show(limiter)
