"""Sends a game's analysis to a chat: a progress note edited as the analysis goes, then the
summary in the note's place, the game's per-turn equity and luck graph, and each person's
worst moves as pictures (with buttons to play on
from the board before each), paced as messages on demand (:class:`~.pace.OnDemand`: behind
the boards, within the asker's allowance) and drawn on the boards' drawing thread.

The note is sent on the first progress report and edited at most once per report (a part of
the analysis), never within :data:`MIN_EDIT_SECONDS` of its last change; a report is not waited
for (the note is shown on a task of its own, and a report that comes while it is being shown is
skipped), so Telegram's pace never slows the analysis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Final

from aiogram import Bot
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup

from bot.messages.kept import KeptMessage, KeptText
from bot.outbox import Outbox
from bot.outbox.pace import Pace
from bot.services.analysis import Analyses
from bot.views.analysis import (
    progress_text,
    summary_text,
    worst_caption,
    worst_keyboard,
    worst_moves,
    worst_position,
    worst_view,
)
from bot.views.common import Translate
from bot.views.luck import game_panels, graph_caption
from render import FILE_NAME
from render.charts import CHART_FILE_NAME, render_chart

logger = logging.getLogger(__name__)

MIN_EDIT_SECONDS: Final = 1.0
"""The least time between two changes of a progress note."""


class ProgressNote(KeptText):
    """The "📊 Analysing game #12… 20/85 turns" message of one request (see the module
    docstring), a text kept in place, its group followed into a supergroup. ``on_start`` runs
    once, before the note is first sent or the results are (a tap's answer, so that its spinner
    stops while the analysis runs)."""

    def __init__(
        self,
        bot: Bot,
        chat_id: int,
        game_id: int,
        _: Translate,
        limiter: Pace,
        *,
        on_start: Callable[[], Awaitable[None]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(bot, chat_id, text="", what=f"the analysis of game {game_id}")
        self._game_id = game_id
        self._ = _
        self._limiter = limiter
        self._on_start = on_start
        self._clock = clock
        self._changed_at = -math.inf
        self._showing: asyncio.Task[None] | None = None

    async def started(self) -> None:
        """Runs ``on_start`` unless it has run."""
        on_start, self._on_start = self._on_start, None
        if on_start is not None:
            await on_start()

    async def update(self, done: int, total: int) -> None:
        """The analysis's progress report: returns at once, the note is sent or edited on a
        task of its own (or not at all: too soon after the last change, or the last report)."""
        if self._showing is not None and not self._showing.done():
            return
        if self.message_id is not None and (
            done >= total or self._clock() - self._changed_at < MIN_EDIT_SECONDS
        ):
            return
        text = progress_text(self._game_id, done, total, self._)
        self._showing = asyncio.create_task(self._show(text), name=f"analysis-note-{done}")

    async def finish(self, text: str) -> None:
        """Puts ``text`` in the note's place (sends it if there is no note)."""
        await self.started()
        if self._showing is not None:
            with contextlib.suppress(Exception):  # logged by the task's own handler
                await self._showing
        await self._show(text)

    async def _show(self, text: str) -> None:
        await self.started()
        self.text = text
        try:
            await self.show(self._limiter)
        except Exception:
            logger.exception("could not show the analysis of game %d", self._game_id)
        self._changed_at = self._clock()


async def send_analysis(
    bot: Bot,
    analyses: Analyses,
    outbox: Outbox,
    game_id: int,
    *,
    user_id: int,
    chat_id: int,
    _: Translate,
    on_start: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Analyses game ``game_id`` for ``user_id`` asking in ``chat_id`` (see
    :meth:`Analyses.analyse`, whose refusals it raises before sending anything) and sends the
    results there: the progress note, the summary, the worst moves. One request of the
    user's and the group's allowance of messages on demand, paced behind the boards
    (:class:`~.pace.OnDemand`).

    :raises: :exc:`~bot.services.errors.TooSoon` beyond the allowance, before anything else.
    """
    pace = outbox.on_demand.pace
    note = ProgressNote(bot, chat_id, game_id, _, pace, on_start=on_start)
    with outbox.on_demand.spend(user_id, chat_id):
        analysis = await analyses.analyse(
            game_id, user_id=user_id, chat_id=chat_id, progress=note.update
        )
    await note.finish(summary_text(analysis, _))
    if analysis.rolls:
        panels = game_panels(analysis.rolls, analysis.white, analysis.black, _)
        graph = await asyncio.to_thread(render_chart, panels)
        await _Graph(bot, note, graph, graph_caption(game_id, _), game_id).show(pace)
    for review in worst_moves(analysis):
        picture = await outbox.drawing.board(
            worst_position(review), worst_view(analysis, review, _)
        )
        caption = worst_caption(analysis, review, _)
        markup = worst_keyboard(analysis, review, _)
        await _WorstMove(bot, note, picture, caption, markup, game_id).show(pace)


class _Graph(KeptMessage):
    """The game's per-turn equity and luck graph: sent once, never edited, in the note's
    chat."""

    def __init__(
        self, bot: Bot, note: ProgressNote, picture: bytes, caption: str, game_id: int
    ) -> None:
        super().__init__(note.chat_id, what=f"game {game_id}'s graph")
        self._bot = bot
        self._note = note
        self._picture = picture
        self._caption = caption

    async def send(self, chat_id: int) -> int:
        photo = BufferedInputFile(self._picture, CHART_FILE_NAME)
        sent = await self._bot.send_photo(chat_id, photo, caption=self._caption)
        return sent.message_id

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        self._note.chat_id = new_chat_id


class _WorstMove(KeptMessage):
    """The picture of one of the worst moves, with its buttons: sent once, never edited, in
    the note's chat (which it follows into a supergroup, for the pictures after it too)."""

    def __init__(
        self,
        bot: Bot,
        note: ProgressNote,
        picture: bytes,
        caption: str,
        markup: InlineKeyboardMarkup,
        game_id: int,
    ) -> None:
        super().__init__(note.chat_id, what=f"a move of game {game_id}'s analysis")
        self._bot = bot
        self._note = note
        self._picture = picture
        self._caption = caption
        self._markup = markup

    async def send(self, chat_id: int) -> int:
        photo = BufferedInputFile(self._picture, FILE_NAME)
        sent = await self._bot.send_photo(
            chat_id, photo, caption=self._caption, reply_markup=self._markup
        )
        return sent.message_id

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        self._note.chat_id = new_chat_id
