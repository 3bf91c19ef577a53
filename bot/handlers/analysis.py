"""📊 Analysis of a finished game: the button under its board, ``/analyse 12`` (``/analyze``)."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import Analyse
from bot.messages.analysis import send_analysis
from bot.model import User
from bot.numbers import parse_number
from bot.outbox import Outbox
from bot.services import Analyses
from bot.services.errors import GameNotFound, StaleAction
from bot.views.common import translator


def create_router() -> Router:
    """Returns a new router with the analysis button and command."""
    router = Router(name=__name__)
    router.callback_query.register(on_analysis_button, Analyse.filter())
    router.message.register(on_analyse, Command("analyse", "analyze"))
    return router


async def on_analyse(
    message: Message,
    command: CommandObject,
    analyses: Analyses,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """``/analyse 12``: game #12's analysis, on the same terms as its button."""
    args = (command.args or "").strip().lstrip("#")
    if not args:
        await message.answer(_("Send the game's number: /analyse 12. /history lists the latest."))
        return
    game_id = parse_number(args)
    if game_id is None:
        raise GameNotFound()
    await send_analysis(
        bot,
        analyses,
        outbox,
        game_id,
        user_id=player.id,
        chat_id=message.chat.id,
        _=translator(i18n, i18n.current_locale),
    )


async def on_analysis_button(
    callback: CallbackQuery,
    callback_data: Analyse,
    callback_answer: CallbackAnswer,
    analyses: Analyses,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """📊 Analysis under a finished game's board: the analysis in the chat where it was
    tapped; the tap is answered as soon as the analysis is under way."""
    if not isinstance(callback.message, Message):
        raise StaleAction()  # a message too old to read: no chat to send the analysis to

    async def answer() -> None:
        callback_answer.disable()
        await callback.answer()

    await send_analysis(
        bot,
        analyses,
        outbox,
        callback_data.game,
        user_id=player.id,
        chat_id=callback.message.chat.id,
        _=translator(i18n, i18n.current_locale),
        on_start=answer,
    )
