"""What no other handler understood: presses of old bot versions' buttons and forged data,
and commands the bot does not know."""

from __future__ import annotations

from aiogram import Bot, F, Router, html
from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import gettext as _


def create_router() -> Router:
    """Returns a new router that answers every remaining callback query with an alert, and
    every remaining command addressed to this bot with a pointer to /help."""
    router = Router(name=__name__)
    router.callback_query.register(on_unknown_button)
    router.message.register(on_unknown_command, F.text.startswith("/"))
    return router


async def on_unknown_button(callback: CallbackQuery, callback_answer: CallbackAnswer) -> None:
    """Explains that the button is not valid; changes nothing."""
    callback_answer.text = _("This button is no longer valid.")
    callback_answer.show_alert = True


async def on_unknown_command(message: Message, bot: Bot) -> None:
    """Says that a command is unknown, where it was surely meant for this bot: in private, and
    in a group only as ``/command@thisbot`` (a bare ``/command`` there, or one addressed to
    another bot, may be another bot's, and gets no answer)."""
    entity = next(iter(message.entities or ()), None)
    if message.text is None or entity is None or entity.type != "bot_command" or entity.offset:
        return  # a slash in plain text, not a command
    name, _at, mention = message.text.split(maxsplit=1)[0][1:].partition("@")
    me = await bot.me()
    if mention:
        addressed = mention.lower() == (me.username or "").lower()
    else:
        addressed = message.chat.type == ChatType.PRIVATE
    if not name or not addressed:
        return
    await message.reply(
        _("I do not know the command /{command}. Send /help for the list of commands.").format(
            command=html.quote(name)
        )
    )
