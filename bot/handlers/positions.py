"""Positions and replays: ``/position`` (the board of the game here and its ID), 🎞 Replay under
a finished board (the whole game as an animation), and "play from here" under the worst moves
of an analysis (``/from`` and ``/play from`` are the lobby's).

A replay is a GIF sent with sendAnimation: Telegram shows it playing and looping in every
client (it keeps it as an MP4). It is drawn once per game and language, on the publisher's
replay thread; Telegram's file id of it is kept, so a second tap (anyone's, in any chat) sends
the same file again without drawing, and a tap while it is being made waits for it.
"""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, InputFile, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import PlayFrom, Replay
from bot.engine import Side
from bot.handlers.lobby import play_computer, post_open_challenge
from bot.messages.boards import BoardPublisher, show_in_place
from bot.model import StoredGame, User
from bot.numbers import parse_number
from bot.services import Challenges, GameService, Replays, Terms, Users
from bot.services.challenges import DEFAULT_LEVEL
from bot.services.errors import GameNotFound, StaleAction
from bot.services.replays import moves_in
from bot.views.common import Translate, translator
from bot.views.replays import (
    THEME,
    position_caption,
    position_view,
    replay_caption,
    replay_durations,
    replay_frames,
)
from render import FILE_NAME
from render.layout import layout

logger = logging.getLogger(__name__)


def create_router() -> Router:
    """Returns a new router with the position and replay handlers."""
    router = Router(name=__name__)
    router.message.register(on_position, Command("position"))
    router.callback_query.register(on_replay, Replay.filter())
    router.callback_query.register(on_play_from, PlayFrom.filter())
    return router


async def on_position(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    replays: Replays,
    publisher: BoardPublisher,
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
    with publisher.on_demand.spend(player.id, message.chat.id):
        picture = await publisher.draw(
            stored.game.position, position_view(stored, white, black, viewer, _)
        )
        await publisher.on_demand.pace.wait(message.chat.id)
        await message.answer_photo(
            BufferedInputFile(picture, FILE_NAME),
            caption=position_caption(stored, white, black, _),
        )


async def on_replay(
    callback: CallbackQuery,
    callback_data: Replay,
    callback_answer: CallbackAnswer,
    replays: Replays,
    publisher: BoardPublisher,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """🎞 Replay: the finished game as an animation in the chat where it was tapped (for its
    players anywhere, anyone in the group it was played in). Refused (an alert, nothing sent)
    for a game not over, not there, not the presser's to see, or beyond the presser's or the
    group's allowance (:class:`~bot.messages.pace.OnDemand`)."""
    if not isinstance(callback.message, Message):
        raise StaleAction()  # a message too old to read: no chat to send the replay to
    chat_id = callback.message.chat.id
    with publisher.on_demand.spend(player.id, chat_id):
        stored = await replays.finished_game(callback_data.game, user_id=player.id, chat_id=chat_id)
    callback_answer.disable()
    await callback.answer("🎞 " + _("The replay is on its way."))
    locale = i18n.current_locale
    await send_replay(bot, replays, publisher, stored, chat_id, locale, translator(i18n, locale))


async def send_replay(
    bot: Bot,
    replays: Replays,
    publisher: BoardPublisher,
    stored: StoredGame,
    chat_id: int,
    locale: str,
    _: Translate,
) -> None:
    """Sends the replay of finished game ``stored`` to ``chat_id`` in ``locale``: by the file
    id Telegram gave it before, else drawn now and uploaded (and its file id kept). Paced as
    a message on demand, behind the boards'."""
    async with replays.making(stored.id, locale):
        white, black = await replays.players(stored)
        caption = replay_caption(stored, white, black, moves_in(stored), _)
        known = await replays.file_id(stored.id, locale)
        if known is not None:
            try:
                await _send(bot, publisher, chat_id, known, caption, stored.id)
                return
            except TelegramBadRequest as error:  # a file id of another bot, or forgotten
                logger.warning("the replay of game %d was refused (%s)", stored.id, error)
                await replays.remember(stored.id, locale, None)
        replayed = await replays.replayed(stored)
        frames = replay_frames(replayed, _)
        durations = replay_durations(len(frames))
        data = await publisher.draw_replay(frames, durations)
        upload = BufferedInputFile(data, f"nardy-game-{stored.id}.gif")
        file_id = await _send(bot, publisher, chat_id, upload, caption, stored.id, durations)
        if file_id is not None:
            await replays.remember(stored.id, locale, file_id)


async def _send(
    bot: Bot,
    publisher: BoardPublisher,
    chat_id: int,
    animation: InputFile | str,
    caption: str,
    game_id: int,
    durations: list[int] | None = None,
) -> str | None:
    """Sends the animation (an upload or a file id) in its turn; returns the file id Telegram
    keeps it by, None when it could not be sent."""
    geo = layout(THEME)
    found: list[str] = []

    async def send(chat_id: int) -> int:
        message = await bot.send_animation(
            chat_id,
            animation,
            caption=caption,
            width=geo.width,
            height=geo.height,
            duration=round(sum(durations) / 1000) if durations else None,
        )
        media = message.animation or message.document
        if media is not None:
            found.append(media.file_id)
        return message.message_id

    async def nothing(chat_id: int, message_id: int) -> None:
        """A replay is sent once and never edited."""

    async def moved(old_chat_id: int, new_chat_id: int) -> None:
        """A group that became a supergroup: followed for this message alone."""

    await show_in_place(
        chat_id,
        None,
        send=send,
        edit=nothing,
        limiter=publisher.on_demand.pace,
        on_sent=nothing,
        on_moved=moved,
        what=f"the replay of game {game_id}",
    )
    return found[0] if found else None


async def on_play_from(
    callback: CallbackQuery,
    callback_data: PlayFrom,
    replays: Replays,
    challenges: Challenges,
    users: Users,
    publisher: BoardPublisher,
    player: User,
    bot: Bot,
) -> None:
    """▶ under a worst move of an analysis: a game from the board before that move, the
    presser playing its side to move, against the computer or as a challenge anyone here may
    accept (in a private chat, with a link to forward). Within the presser's and the group's
    allowance of messages on demand (:class:`~bot.messages.pace.OnDemand`)."""
    if not isinstance(callback.message, Message):
        raise StaleAction()
    message = callback.message
    with publisher.on_demand.spend(player.id, message.chat.id):
        _game, start = await replays.position_after(
            callback_data.game, callback_data.moves, user_id=player.id, chat_id=message.chat.id
        )
        terms = Terms(start=start)
        if callback_data.computer:
            await play_computer(message, player, challenges, users, DEFAULT_LEVEL, terms, publisher)
        else:
            await post_open_challenge(message, player, challenges, users, publisher, bot, terms)
