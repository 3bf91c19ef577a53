"""``/language``: in a private chat a user's own language, in a group the group's (set by its
admins only).

The choice is stored (:attr:`bot.model.User.locale`, :meth:`bot.services.chats.Chats.set_locale`)
and confirmed in the new language. Telegram keeps a command menu per chat
(``BotCommandScopeChat``), so the chooser's private chat, or the group, gets its menu in the
chosen language too, whatever language the Telegram app itself is in.
"""

from __future__ import annotations

import logging
from typing import Final

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    BotCommandScopeChat,
    BotCommandScopeChatAdministrators,
    CallbackQuery,
    InlineKeyboardMarkup,
    Message,
)
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.callbacks import Language, PickLanguage
from bot.i18n import LANGUAGE_NAMES, LOCALES, N_
from bot.messages.league import LeaguePublisher
from bot.messages.members import ADMINS, check_admin
from bot.model import User
from bot.services import Chats, Users
from bot.services.errors import ForeignButton, NotAnAdmin, StaleAction
from bot.services.moderation import Moderation
from bot.views.commands import Scope, command_menu
from bot.views.common import translator
from bot.views.texts import echo

logger = logging.getLogger(__name__)

LANGUAGE_WORDS: Final = {
    **{locale: locale for locale in LOCALES},
    **{name.lower(): locale for locale, name in LANGUAGE_NAMES.items()},
}
"""What ``/language <word>`` understands: a catalog's code (``ka``) or its own name."""


def create_router() -> Router:
    """Returns a new router with ``/language`` and its buttons."""
    router = Router(name=__name__)
    router.message.register(on_language, Command("language"))
    router.callback_query.register(on_pick_language, PickLanguage.filter())
    return router


def language_keyboard(current: str) -> InlineKeyboardMarkup:
    """One button per catalog, each named in its own language, the one in use ticked."""
    builder = InlineKeyboardBuilder()
    for language in Language:
        name = LANGUAGE_NAMES[language.locale]
        builder.button(
            text=f"✅ {name}" if language.locale == current else name,
            callback_data=PickLanguage(language=language),
        )
    builder.adjust(2)
    return builder.as_markup()


async def on_language(
    message: Message,
    command: CommandObject,
    bot: Bot,
    i18n: I18n,
    chats: Chats,
    users: Users,
    player: User | None = None,
    league_publisher: LeaguePublisher | None = None,
    moderation: Moderation | None = None,
) -> None:
    """``/language``: the buttons; ``/language ka`` (a code or a language's own name) chooses
    at once. In a group only its admins may use it (``player`` is None for an anonymous one);
    an unknown word is answered with the buttons and changes nothing."""
    group = message.chat.type != ChatType.PRIVATE
    if group:
        await check_admin(message, bot)
    current = i18n.current_locale
    word = (command.args or "").strip().lower()
    if word:
        locale = LANGUAGE_WORDS.get(word)
        if locale is None:
            await message.answer(
                _("I do not know the language “{word}”. Choose one:").format(word=echo(word)),
                reply_markup=language_keyboard(current),
            )
            return
        text = await _choose(
            bot, i18n, users, chats, league_publisher, message, player, locale, moderation
        )
        await message.answer(text)
        return
    if not group:
        text = _("🌐 Your language: {language}. Choose another:")
    elif await chats.locale(message.chat.id) is not None:
        text = _("🌐 This group's language: {language}. Admins can choose another:")
    else:
        text = _(
            "🌐 This group has no language of its own: each challenge is shown in its "
            "challenger's. Admins can choose one for the group's messages and boards:"
        )
    await message.answer(
        text.format(language=LANGUAGE_NAMES[current]), reply_markup=language_keyboard(current)
    )


async def on_pick_language(
    callback: CallbackQuery,
    callback_data: PickLanguage,
    bot: Bot,
    i18n: I18n,
    chats: Chats,
    users: Users,
    player: User,
    league_publisher: LeaguePublisher | None = None,
    moderation: Moderation | None = None,
) -> None:
    """A language button: stores the choice (a group's only from one of its admins) and
    turns the message into the confirmation, in the language chosen."""
    message = callback.message
    if not isinstance(message, Message) or not _is_picker(message):
        raise ForeignButton()  # forged onto another of the bot's messages: it stays as it is
    if message.chat.type != ChatType.PRIVATE:
        member = await bot.get_chat_member(message.chat.id, callback.from_user.id)
        if member.status not in ADMINS:
            raise NotAnAdmin()
    text = await _choose(
        bot,
        i18n,
        users,
        chats,
        league_publisher,
        message,
        player,
        callback_data.language.locale,
        moderation,
    )
    await message.edit_text(text, reply_markup=None)


def _is_picker(message: Message) -> bool:
    """Whether ``message`` shows the language buttons (:func:`language_keyboard`): the one
    kind of message a language button may turn into its confirmation. A press brings the
    message's first button, which is a language on the picker and nothing else."""
    markup = message.reply_markup  # its first button only (bot.outbox.session.read_json)
    prefix = PickLanguage.__prefix__ + PickLanguage.__separator__
    return markup is not None and any(
        (button.callback_data or "").startswith(prefix)
        for row in markup.inline_keyboard
        for button in row
    )


async def _choose(
    bot: Bot,
    i18n: I18n,
    users: Users,
    chats: Chats,
    league_publisher: LeaguePublisher | None,
    message: Message,
    player: User | None,
    locale: str,
    moderation: Moderation | None = None,
) -> str:
    """Stores ``locale`` for the message's group or for ``player`` (in a private chat), sets
    that chat's command menu in it (an operator's with the operators' commands), and returns
    the confirmation, in it."""
    chat_id = message.chat.id
    said = translator(i18n, locale)
    if message.chat.type == ChatType.PRIVATE:
        if player is None:
            raise StaleAction()
        await users.set_locale(player.id, locale)
        text = said(N_("✅ Your language is now {language}."))
    else:
        await chats.set_locale(chat_id, locale)
        if league_publisher is not None:
            league_publisher.refresh(chat_id)  # the pinned standings follow, if there are any
        text = said(
            N_(
                "✅ This group's language is now {language}: its messages, challenges and "
                "boards use it."
            )
        )
    menus: list[tuple[BotCommandScopeChat | BotCommandScopeChatAdministrators, Scope]]
    menus = [(BotCommandScopeChat(chat_id=chat_id), Scope.PRIVATE)]
    if message.chat.type != ChatType.PRIVATE:  # the group's menu, and its admins'
        menus = [
            (BotCommandScopeChat(chat_id=chat_id), Scope.GROUP),
            (BotCommandScopeChatAdministrators(chat_id=chat_id), Scope.ADMINS),
        ]
    try:
        operator = (
            moderation is not None
            and player is not None
            and (message.chat.type == ChatType.PRIVATE and moderation.is_owner(player.id))
        )
        for telegram_scope, scope in menus:
            await bot.set_my_commands(
                command_menu(i18n, locale, scope, operator=operator), scope=telegram_scope
            )
    except TelegramAPIError as error:  # the menu is a convenience; the choice is made
        logger.warning("could not set the command menu of chat %d: %s", chat_id, error)
    return text.format(language=LANGUAGE_NAMES[locale])
