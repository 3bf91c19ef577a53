"""Middlewares: each update handled once, users remembered, expected refusals as alerts."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, Update, User
from aiogram.utils.callback_answer import CallbackAnswer

from bot.services import GameError, GameService
from bot.texts import explain

logger = logging.getLogger(__name__)

Handler: TypeAlias = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class HandleOnce(BaseMiddleware):
    """Drops an update whose id was handled before: Telegram delivers an update again when the
    bot stopped before confirming it. The id is recorded before handling, so an update that was
    being handled when the process died is not replayed either (its taps can simply be made
    again; nothing half-done is committed)."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        service: GameService | None = data.get("game_service")
        if (
            service is not None
            and isinstance(event, Update)
            and not await service.claim_update(event.update_id)
        ):
            logger.info("update %d was handled already; dropped", event.update_id)
            return None
        return await handler(event, data)


class RememberUsers(BaseMiddleware):
    """Records who sent each update (names for captions, @usernames for challenges), writing
    only when something changed, and hands handlers the stored ``user`` (the ``player``)."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[str | None, str, str | None, bool]] = {}

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        service: GameService | None = data.get("game_service")
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        if service is not None and user is not None and not user.is_bot:
            private = chat is not None and chat.type == "private"
            key = (user.username, user.first_name, user.language_code, private)
            if self._known.get(user.id) != key:
                data["player"] = await service.see_user(
                    user.id,
                    username=user.username,
                    first_name=user.first_name,
                    language_code=user.language_code,
                    private_chat=private,
                )
                self._known[user.id] = key
            else:
                data["player"] = await service.user(user.id)
        return await handler(event, data)


class GameErrorAlerts(BaseMiddleware):
    """Shows an expected refusal (not your turn, a stale button, a self-challenge...): as an
    alert on the pressed button, or as a reply to a command. For callback queries register it
    after ``CallbackAnswerMiddleware``, which then sends the answer."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        try:
            return await handler(event, data)
        except GameError as error:
            if isinstance(event, Message):
                await event.reply(explain(error))
                return None
            answer: CallbackAnswer | None = data.get("callback_answer")
            if answer is None or not isinstance(event, CallbackQuery):
                raise
            answer.text = explain(error)
            answer.show_alert = True
            return None
