"""The automatic analysis's messages: a player's trend chart (``/stats``, :func:`send_trend`)
and the luck line on a finished game's result.

The luck line: once the automatic analysis has the game's figures, each players' board of the
game (the kept message that shows the final position and the result) gets its caption edited
once, to the same caption with the luck and PR line (:func:`bot.views.luck.luck_line`, which
the caption shows whenever the figures are known; the last game of a finished match shows the
match's luck too). No new message: a board that is gone (deleted, or never sent) is left so,
and the line shows the next time the board is shown (a catch-up, a sweep). An inline game's
board, the inline message, is edited the same way through the inline boards' own pace
(:meth:`bot.messages.inline.InlineBoards.show_caption`: its caption, or its text where boards
are text), unless that message has moved on: a match's next game is played in it, so the
line goes there only while no later game can come (a single game, or a finished match's last
game). Watchers' boards are left alone: the players' boards are the result message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from aiogram import Bot
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup
from aiogram.utils.i18n import I18n

from bot.i18n import locale_of
from bot.messages.inline import InlineBoards
from bot.messages.kept import KeptMessage
from bot.model import BoardMessage, PlayerLuck, User
from bot.outbox.pace import Pace
from bot.services import GameSnapshot
from bot.services.root import Services
from bot.views.board_buttons import keyboard
from bot.views.boards import caption
from bot.views.common import Translate, translator
from bot.views.luck import charted, trend_caption, trend_panels
from bot.views.numbers import axis_number
from render.charts import CHART_FILE_NAME, render_chart

logger = logging.getLogger(__name__)


class _Gone(Exception):
    """The board's message is gone: the line waits for the board's next showing."""


class ResultCaption(KeptMessage):
    """A finished board's caption, edited in place (with its buttons, which an edit of the
    caption alone would drop); never sent afresh."""

    def __init__(
        self, bot: Bot, board: BoardMessage, text: str, markup: InlineKeyboardMarkup
    ) -> None:
        super().__init__(board.chat_id, board.message_id, what=f"game {board.game_id}'s luck")
        self._bot = bot
        self._text = text
        self._markup = markup

    async def send(self, chat_id: int) -> int:
        raise _Gone()

    async def edit(self, chat_id: int, message_id: int) -> None:
        await self._bot.edit_message_caption(
            chat_id=chat_id, message_id=message_id, caption=self._text, reply_markup=self._markup
        )


async def show_luck_line(
    bot: Bot,
    services: Services,
    i18n: I18n,
    limiter: Pace,
    snapshot: GameSnapshot,
    inline: InlineBoards | None = None,
) -> int:
    """Edits each players' board of finished ``snapshot`` (which has its figures) to show
    the luck line, an inline game's board through ``inline``; returns how many boards show
    it."""
    stored = snapshot.stored
    shown = 0
    for board in await services.board_messages.boards(stored.id):
        if board.watcher:
            continue
        if board.inline_message_id is not None:
            if inline is not None and await _still_shows(services, snapshot, board):
                try:
                    shown += await inline.show_caption(snapshot, board)
                except Exception:
                    logger.exception("could not show game %d's luck inline", stored.id)
            continue
        if board.message_id is None:
            continue
        if stored.chat_id:
            locale = await services.chats.locale(stored.chat_id) or stored.locale
        else:
            locale = locale_of(snapshot.user(board.viewer))
        _ = translator(i18n, locale)
        viewer = None if stored.chat_id else board.viewer
        edit = ResultCaption(bot, board, caption(snapshot, _), keyboard(snapshot, viewer, _))
        try:
            shown += await edit.show(limiter)
        except _Gone:
            logger.info("game %d's board in chat %d is gone", stored.id, board.chat_id)
        except Exception:
            logger.exception("could not show game %d's luck in chat %d", stored.id, board.chat_id)
    return shown


async def _still_shows(services: Services, snapshot: GameSnapshot, board: BoardMessage) -> bool:
    """Whether the inline message still shows the game and will: no later game of its match
    is played in it, and none can come (see the module docstring)."""
    assert board.inline_message_id is not None
    match = snapshot.match
    if match is not None and not match.match.is_over:
        return False  # its next game may be shown there at any moment
    latest = await services.board_messages.latest_inline(board.inline_message_id)
    return latest == snapshot.stored.id


async def send_trend(
    bot: Bot, chat_id: int, user: User, figures: Sequence[PlayerLuck], _: Translate
) -> None:
    """Sends ``user``'s PR and luck trend over ``figures`` (their last analysed games, oldest
    first) as a chart, drawn on a thread: the variants with enough games for a line
    (:func:`~bot.views.luck.charted`); nothing when none has."""
    shown = charted(figures)
    if not shown:
        return
    panels = trend_panels(shown, _)
    picture = await asyncio.to_thread(render_chart, panels, number=axis_number(_))
    await bot.send_photo(
        chat_id,
        BufferedInputFile(picture, CHART_FILE_NAME),
        caption=trend_caption(user, shown, _),
    )
