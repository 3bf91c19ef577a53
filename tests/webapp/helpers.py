"""The bot with its Mini App board, for the board's tests: the real bot against the fake
Telegram, its own server on a free port serving the board, dice from a seeded source (so that
a game replays the same and stays short)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bot.app import build_services
from bot.config import Settings
from bot.services.root import Services
from tests.bot.gameplay import wait_for_board
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, free_port, running_bot
from tests.support.webapp import BoardClient, sign_init_data

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


async def start_group_game(
    harness: BotHarness, terms: str = ""
) -> tuple[FakeUser, FakeUser, FakeChat, FakeMessage]:
    """Alice challenges Bob in a group on ``terms`` and Bob accepts: both, the group and the
    game's board there."""
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob])
    fake.send_text(alice, group, f"/play @bob {terms}".strip())
    await harness.settle()
    challenge = fake.last_message(group)
    fake.press(bob, challenge, challenge.buttons[0].text)
    return alice, bob, group, await wait_for_board(fake, group)


async def open_clients(
    harness: BotHarness, session: aiohttp.ClientSession, users: list[FakeUser], game: int
) -> list[BoardClient]:
    """Each of ``users`` opens the game's board (a socket, no browser)."""
    url = f"{harness.web_url}/app/ws"
    return [
        await BoardClient.open(session, url, sign_init_data(harness.fake.token, user), game)
        for user in users
    ]


def actor(clients: list[BoardClient]) -> BoardClient | None:
    """The players' board whose reader acts now (None when nobody does: over)."""
    for client in clients:
        state = client.state
        if state["you"] is not None and state["you"] == state["to_act"] and not state["over"]:
            return client
    return None


async def act_once(
    clients: list[BoardClient], choose: Callable[[list[Any]], Any] | None = None
) -> tuple[dict[str, Any], list[list[int]] | str]:
    """The reader who acts does what the state offers, the simplest way: plays a turn (the
    first complete path, or ``choose``'s), strikes the lowest die, takes a double, rolls; then
    every board is waited for until it shows a newer version. Returns the state acted on and
    the turn's steps or the action."""
    mover = actor(clients)
    assert mover is not None, "nobody to act"
    state = mover.state
    version = state["version"]
    done: list[list[int]] | str
    if state["tree"] is not None:
        done = await mover.play(choose)
    else:
        strikes = [a for a in state["actions"] if a.startswith("strike:")]
        done = strikes[-1] if strikes else "take" if "take" in state["actions"] else "roll"
        answer = await mover.act(done)
        assert answer["type"] == "done", (done, answer, state)
    for client in clients:
        await client.wait_version(version)
    return state, done
