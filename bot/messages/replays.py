"""Sends a finished game's replay: a GIF sent with sendAnimation, which Telegram shows playing
and looping in every client (it keeps it as an MP4). It is drawn once per game and language, on
the outbox's replay thread; Telegram's file id of it is kept, so a second tap (anyone's, in
any chat) sends the same file again without drawing, and a tap while it is being made waits for
it.
"""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import BufferedInputFile, InputFile

from bot.messages.kept import KeptMessage
from bot.model import StoredGame
from bot.outbox import Outbox
from bot.services.replays import Replays, moves_in
from bot.views.common import Translate
from bot.views.replays import THEME, replay_caption, replay_durations, replay_frames
from render.layout import layout

logger = logging.getLogger(__name__)


async def send_replay(
    bot: Bot,
    replays: Replays,
    outbox: Outbox,
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
                await _send(bot, outbox, chat_id, known, caption, stored.id)
                return
            except TelegramBadRequest as error:  # a file id of another bot, or forgotten
                logger.warning("the replay of game %d was refused (%s)", stored.id, error)
                await replays.remember(stored.id, locale, None)
        replayed = await replays.replayed(stored)
        frames = replay_frames(replayed, _)
        durations = replay_durations(len(frames))
        data = await outbox.drawing.replay(frames, durations)
        upload = BufferedInputFile(data, f"nardy-game-{stored.id}.gif")
        file_id = await _send(bot, outbox, chat_id, upload, caption, stored.id, durations)
        if file_id is not None:
            await replays.remember(stored.id, locale, file_id)


async def _send(
    bot: Bot,
    outbox: Outbox,
    chat_id: int,
    animation: InputFile | str,
    caption: str,
    game_id: int,
    durations: list[int] | None = None,
) -> str | None:
    """Sends the animation (an upload or a file id) in its turn; returns the file id Telegram
    keeps it by, None when it could not be sent."""
    replay = _Replay(bot, chat_id, animation, caption, game_id, durations)
    await replay.show(outbox.on_demand.pace)
    return replay.file_id


class _Replay(KeptMessage):
    """A replay's message: sent once and never edited; a group that became a supergroup is
    followed for this message alone."""

    def __init__(
        self,
        bot: Bot,
        chat_id: int,
        animation: InputFile | str,
        caption: str,
        game_id: int,
        durations: list[int] | None,
    ) -> None:
        super().__init__(chat_id, what=f"the replay of game {game_id}")
        self._bot = bot
        self._animation = animation
        self._caption = caption
        self._durations = durations
        self.file_id: str | None = None
        """The file id Telegram keeps the sent animation by."""

    async def send(self, chat_id: int) -> int:
        geo = layout(THEME)
        durations = self._durations
        message = await self._bot.send_animation(
            chat_id,
            self._animation,
            caption=self._caption,
            width=geo.width,
            height=geo.height,
            duration=round(sum(durations) / 1000) if durations else None,
        )
        media = message.animation or message.document
        if media is not None and self.file_id is None:
            self.file_id = media.file_id
        return message.message_id
