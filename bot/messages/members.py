"""Who a message is about, as Telegram and the bot know them: the user a command names,
whether someone is a group's member, whether they are one of its admins."""

from __future__ import annotations

from typing import Final

from aiogram import Bot
from aiogram.enums import ChatMemberStatus, MessageEntityType
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
)
from aiogram.filters import CommandObject
from aiogram.types import (
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberRestricted,
    Message,
)
from aiogram.utils.i18n import gettext as _

from bot.model import User
from bot.services import Users
from bot.services.challenges import MemberCheck
from bot.services.errors import NotAnAdmin
from bot.views.texts import echo

ADMINS: Final = frozenset({ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR})


async def named_user(message: Message, command: CommandObject, users: Users) -> User | str | None:
    """The user a command names: the author of the message it replies to, or an @mention or
    username in its arguments. Returns the name as given when nobody the bot knows has it, and
    None when the command names nobody."""
    reply = message.reply_to_message
    if reply is not None and reply.from_user is not None and not reply.from_user.is_bot:
        return await users.get(reply.from_user.id)
    name = next(
        (
            e.extract_from(message.text or "")
            for e in message.entities or []
            if e.type == MessageEntityType.MENTION
        ),
        (command.args or "").strip(),
    )
    if not name:
        return None
    return await users.by_username(name) or name


async def unknown_user(message: Message, name: str) -> None:
    """Tells the chat that the bot knows nobody called ``name``."""
    await message.answer(
        _("I do not know {name} yet: they have not played or written here.").format(
            name=echo(name if name.startswith("@") else "@" + name)
        )
    )


async def subject(
    message: Message, command: CommandObject, users: Users, player: User
) -> User | None:
    """Whom a command such as ``/stats`` is about: the user it names, else its author; None
    (the chat told so) when it names somebody the bot does not know."""
    named = await named_user(message, command, users)
    if isinstance(named, str):
        await unknown_user(message, named)
        return None
    return named or player


def member_check(bot: Bot) -> MemberCheck:
    """Whether a user is a member of a group now, as Telegram's getChatMember says (one who
    left or was banned is not; a restricted one is while still in the group). A user Telegram
    does not know there, a group the bot is no longer in, or one that has become a supergroup
    since, counts as not a member."""

    async def is_member(chat_id: int, user_id: int) -> bool:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except (TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat):
            return False
        if isinstance(member, ChatMemberRestricted):
            return member.is_member
        return not isinstance(member, ChatMemberLeft | ChatMemberBanned)

    return is_member


async def check_admin(message: Message, bot: Bot) -> None:
    """Lets the group's creator and administrators through (an anonymous admin writes as the
    group itself).

    :raises: :exc:`~bot.services.errors.NotAnAdmin` for anyone else.
    """
    if message.sender_chat is not None and message.sender_chat.id == message.chat.id:
        return
    if message.from_user is None:
        raise NotAnAdmin()
    member = await bot.get_chat_member(message.chat.id, message.from_user.id)
    if member.status not in ADMINS:
        raise NotAnAdmin()
