"""Positions and replays: ``/position`` (the board of the game here and its ID) and 🎞 Replay
under a finished board (the whole game as an animation, sent by :mod:`bot.messages.replays`).
``/from``, ``/play from`` and "play from here" under the worst moves of an analysis are the
lobby's."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import Replay
from bot.engine import Side
from bot.messages.replays import send_replay
from bot.model import User
from bot.numbers import parse_number
from bot.outbox import Outbox
from bot.services import GameService, Replays
from bot.services.errors import GameNotFound, StaleAction
from bot.views.common import translator
from bot.views.replays import position_caption, position_view
from render import FILE_NAME


def create_router() -> Router:
    """Returns a new router with the position and replay handlers."""
    router = Router(name=__name__)
    router.message.register(on_position, Command("position"))
    router.callback_query.register(on_replay, Replay.filter())
    return router


async def on_position(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    replays: Replays,
    outbox: Outbox,
    player: User,
) -> None:
    """``/position``: the board of the game here (the asker's, else the latest one shown in
    this chat) and its position ID; ``/position 12``: game #12's, for its players anywhere and
    for anyone in a chat that shows it."""
    args = (command.args or "").strip().lstrip("#")
    game_id = parse_number(args)
    if args and game_id is None:
        raise GameNotFound()
    stored = await replays.current(game_id, user_id=player.id, chat_id=message.chat.id)
    snapshot = await game_service.snapshot_of(stored)
    white, black = snapshot.white, snapshot.black
    viewer = stored.side_of(player.id) or Side.WHITE
    # a picture on demand: within the asker's and the group's allowance, behind the boards
    with outbox.on_demand.spend(player.id, message.chat.id):
        picture = await outbox.drawing.board(
            stored.game.position, position_view(stored, white, black, viewer, _)
        )
        await outbox.on_demand.pace.wait(message.chat.id)
        await message.answer_photo(
            BufferedInputFile(picture, FILE_NAME),
            caption=position_caption(stored, white, black, _),
        )


async def on_replay(
    callback: CallbackQuery,
    callback_data: Replay,
    callback_answer: CallbackAnswer,
    replays: Replays,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """🎞 Replay: the finished game as an animation in the chat where it was tapped (for its
    players anywhere, anyone in the group it was played in). Refused (an alert, nothing sent)
    for a game not over, not there, not the presser's to see, or beyond the presser's or the
    group's allowance (:class:`~bot.outbox.pace.OnDemand`)."""
    if not isinstance(callback.message, Message):
        raise StaleAction()  # a message too old to read: no chat to send the replay to
    chat_id = callback.message.chat.id
    with outbox.on_demand.spend(player.id, chat_id):
        stored = await replays.finished_game(callback_data.game, user_id=player.id, chat_id=chat_id)
    callback_answer.disable()
    await callback.answer("🎞 " + _("The replay is on its way."))
    locale = i18n.current_locale
    await send_replay(bot, replays, outbox, stored, chat_id, locale, translator(i18n, locale))
