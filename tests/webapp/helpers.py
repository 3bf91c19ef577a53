"""The bot with its Mini App board, for the board's tests: the real bot against the fake
Telegram, its own server on a free port serving the board, dice from a seeded source (so that
a game replays the same and stays short)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from bot.app import build_services
from bot.config import Settings
from bot.services.root import Services
from tests.support.fake_telegram import FakeMessage, FakeTelegram
from tests.support.harness import BotHarness, free_port, running_bot

APP_NAME = "board"


def seeded(seed: int) -> Any:
    """A services factory whose dice come from ``random.Random(seed)``."""

    def factory(settings: Settings) -> AbstractAsyncContextManager[Services]:
        return build_services(settings, dice=random.Random(seed))

    return factory


@asynccontextmanager
async def board_bot(
    fake: FakeTelegram, database: Path, *, seed: int = 1, **settings: Any
) -> AsyncIterator[BotHarness]:
    """The bot polling ``fake`` with the board at ``http://127.0.0.1:<port>/app/``."""
    port = free_port()
    async with running_bot(
        fake,
        database,
        services_factory=seeded(seed),
        webhook_host="127.0.0.1",
        webhook_port=port,
        webapp_url=f"http://127.0.0.1:{port}/app/",
        webapp_name=APP_NAME,
        **settings,
    ) as harness:
        yield harness


def board_button(message: FakeMessage) -> dict[str, Any]:
    """The raw "▶ Play on the board" button of a game's message."""
    for row in (message.reply_markup or {}).get("inline_keyboard", []):
        for button in row:
            if "board" in button["text"]:
                return dict(button)
    raise AssertionError(f"no board button on {message}: {message.reply_markup}")


def game_of(message: FakeMessage) -> int:
    """The game a board button opens: ``?game=<id>`` of a web_app button, or a Direct Link's
    ``startapp=g<id>``."""
    button = board_button(message)
    url = button["web_app"]["url"] if "web_app" in button else button["url"]
    return int(url.rsplit("=", 1)[1].lstrip("g"))
