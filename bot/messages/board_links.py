"""The links on a game's boards: the Watch link of a game between private chats, and the
buttons to the Mini App board (a ``web_app`` one in private chats, its Direct Link elsewhere)."""

from __future__ import annotations

from dataclasses import dataclass

from aiogram import Bot
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.deep_linking import create_start_link

from bot.services import GameSnapshot
from bot.views.board_buttons import board_app_button
from bot.views.boards import watch_payload
from bot.views.common import Translate


@dataclass(frozen=True, slots=True)
class BoardAppLinks:
    """Where the Mini App board is: its ``url`` (``WEBAPP_URL``) and its short ``name`` for
    Direct Links (``WEBAPP_NAME``; None: no board button outside private chats)."""

    url: str
    name: str | None = None


class BoardLinks:
    """The links of the boards that ``bot`` shows, to the Mini App board at ``app`` (None:
    no Mini App)."""

    def __init__(self, bot: Bot, app: BoardAppLinks | None) -> None:
        self._bot = bot
        self._app = app

    async def watch_link(self, snapshot: GameSnapshot) -> str | None:
        """The game's Watch link, for its players' boards while it goes on: a game between
        private chats open to watchers (the bot's username is cached by aiogram)."""
        stored = snapshot.stored
        if not stored.between_private_chats or not stored.watchable or snapshot.game.is_over:
            return None
        return await create_start_link(self._bot, watch_payload(stored.id))

    async def board_button(
        self, snapshot: GameSnapshot, _: Translate
    ) -> InlineKeyboardButton | None:
        """The button to the Mini App board: a ``web_app`` one on a private board, the Direct
        Link elsewhere (None there without the Mini App's short name)."""
        app = self._app
        if app is None:
            return None
        game_id = snapshot.stored.id
        if not snapshot.stored.chat_id and not snapshot.stored.chat_instance:
            return board_app_button(f"{app.url}?game={game_id}", web_app=True, _=_)
        if app.name is None:
            return None
        me = await self._bot.me()
        link = f"https://t.me/{me.username}/{app.name}?startapp=g{game_id}"
        return board_app_button(link, web_app=False, _=_)

    def watch_button(self, snapshot: GameSnapshot, _: Translate) -> InlineKeyboardMarkup | None:
        """A watcher's board's button to the Mini App board (a ``web_app`` one: watchers'
        boards are in private chats), while the game goes on."""
        app = self._app
        if app is None or snapshot.game.is_over:
            return None
        url = f"{app.url}?game={snapshot.stored.id}"
        return InlineKeyboardMarkup(
            inline_keyboard=[[board_app_button(url, web_app=True, _=_, watch=True)]]
        )
