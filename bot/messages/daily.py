"""The daily position in groups: the morning post, and the post kept up to date as answers come.

:meth:`DailyPublisher.post_due` (called by the timers) sends the morning posts that are due,
each claimed first by :meth:`~bot.services.daily.DailyService.due_posts`, so that with several
workers and across restarts a group gets each morning's post once. A post is the board (a
picture) with the task and how everyone has answered so far, and one button that opens the
position in the private chat with the bot, where it is answered with the turn buttons.

:meth:`DailyPublisher.reveal` (called by the timers) edits the posts of the positions whose day
has ended to show their best move, once. :meth:`DailyPublisher.refresh` (called after each
answer) only notes the position and returns at once; one task per position then waits
:data:`SETTLE_SECONDS`, so that answers close together make one edit, and edits the caption of
every group post of it (:class:`GroupPost`, within each group's pace).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Final

from aiogram import Bot
from aiogram.types import BufferedInputFile
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.i18n import I18n

from bot.messages.kept import KeptMessage
from bot.model import DailyPosition
from bot.outbox import Latest, Outbox
from bot.services.daily import DailyService
from bot.views.common import translator
from bot.views.daily import board_view, daily_payload, group_caption, group_keyboard
from render import FILE_NAME

logger = logging.getLogger(__name__)

SETTLE_SECONDS: Final = 1.0
"""How long a refresh waits for more answers before the posts are edited."""
PICTURES_KEPT: Final = 8
"""Boards of daily positions kept drawn (a day has one per variant)."""


class DailyPublisher:
    """Sends and edits the daily position's group posts (see the module docstring)."""

    def __init__(
        self,
        bot: Bot,
        daily: DailyService,
        outbox: Outbox,
        i18n: I18n,
        *,
        settle_seconds: float = SETTLE_SECONDS,
    ) -> None:
        self._bot = bot
        self._daily = daily
        self._outbox = outbox
        self._i18n = i18n
        self._pictures: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        # each position's edits, settled: a burst of answers costs one round of edits
        self._edits: Latest[int, None] = Latest(self._edit, name="daily", settle=settle_seconds)

    async def picture(self, position: DailyPosition, locale: str) -> bytes:
        """The position's board in ``locale``, drawn on the drawing thread once."""
        key = (position.id, locale)
        found = self._pictures.get(key)
        if found is None:
            _ = translator(self._i18n, locale)
            found = await self._outbox.drawing.board(
                position.game.position, board_view(position, _)
            )
            self._pictures[key] = found
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        return found

    async def post_due(self) -> int:
        """Sends the morning posts that are due now; returns how many were sent."""
        sent = 0
        for group, position in await self._daily.due_posts():
            post = GroupPost(self, group.chat_id, None, position, group.locale)
            try:
                if await post.show(self._outbox.pace):
                    sent += 1
            except Exception:
                logger.exception("could not post the daily position in chat %d", group.chat_id)
        return sent

    async def reveal(self) -> int:
        """Edits the group posts of the positions whose day has ended to show the best move
        (by one worker, once; a worker that dies first leaves it to the next look); returns
        how many positions' posts it edited."""
        revealed = 0
        for position_id in await self._daily.to_reveal():
            async with self._daily.revealing(position_id) as held:
                if not held:
                    continue  # another worker edits them now
                try:
                    await self._edit(position_id, None)
                except Exception:
                    logger.exception("could not reveal daily position %d", position_id)
                    continue
                await self._daily.mark_revealed(position_id)
                revealed += 1
        return revealed

    async def post_now(self, chat_id: int, position: DailyPosition, locale: str) -> None:
        """Posts ``position`` in group ``chat_id`` now (an admin's ``/daily`` there), kept up
        to date like a morning post."""
        await self._daily.claim_post_now(chat_id, position.id, locale)
        await GroupPost(self, chat_id, None, position, locale).show(self._outbox.pace)

    def refresh(self, position_id: int) -> None:
        """Schedules an edit of the position's group posts (after an answer)."""
        self._edits.hand(position_id, None)

    async def drain(self, timeout: float = 10.0) -> None:
        """Makes every scheduled edit now, without settling (or until ``timeout``)."""
        await self._edits.drain(timeout)

    async def close(self) -> None:
        """Cancels the edits still running (after :meth:`drain`)."""
        await self._edits.close()

    async def _edit(self, position_id: int, _nothing: None) -> None:
        position = await self._daily.position_by_id(position_id)
        for chat_id, message_id, locale in await self._daily.posts(position_id):
            if (
                message_id is None
            ):  # claimed but never sent (a worker died): posted once, never again
                continue
            await GroupPost(self, chat_id, message_id, position, locale).show(self._outbox.pace)


class GroupPost(KeptMessage):
    """A group's post of a daily position: sent as the board with its caption and the button
    to answer, edited to the latest count of answers, recorded as the group's post when sent,
    followed into a supergroup."""

    def __init__(
        self,
        publisher: DailyPublisher,
        chat_id: int,
        message_id: int | None,
        position: DailyPosition,
        locale: str,
    ) -> None:
        super().__init__(chat_id, message_id, what=f"daily position {position.id}")
        self._publisher = publisher
        self._position = position
        self._locale = locale

    async def _content(self) -> tuple[str, str]:
        daily = self._publisher._daily
        _ = translator(self._publisher._i18n, self._locale)
        tally = await daily.tally(self._position.id)
        link = await create_start_link(self._publisher._bot, daily_payload(self._position.id))
        revealed = daily.is_over(self._position)
        return group_caption(self._position, tally, _, revealed=revealed), link

    async def send(self, chat_id: int) -> int:
        caption, link = await self._content()
        _ = translator(self._publisher._i18n, self._locale)
        picture = await self._publisher.picture(self._position, self._locale)
        message = await self._publisher._bot.send_photo(
            chat_id,
            BufferedInputFile(picture, FILE_NAME),
            caption=caption,
            reply_markup=group_keyboard(link, _),
        )
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        caption, link = await self._content()
        _ = translator(self._publisher._i18n, self._locale)
        await self._publisher._bot.edit_message_caption(
            chat_id=chat_id,
            message_id=message_id,
            caption=caption,
            reply_markup=group_keyboard(link, _),
        )

    async def sent(self, chat_id: int, message_id: int) -> None:
        await self._publisher._daily.posted(chat_id, self._position.id, message_id)

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        await self._publisher._daily.move_chat(old_chat_id, new_chat_id)
