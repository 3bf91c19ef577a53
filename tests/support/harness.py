"""Runs the real bot (``bot.app.run``) against :class:`FakeTelegram` for end-to-end tests.

The bot uses aiogram's real HTTP client, long polling and a real SQLite file; only Telegram is
fake. A test acts as users through :attr:`BotHarness.fake` and waits with :meth:`BotHarness.settle`
(every queued update handled) or the fake's ``wait_for_*`` helpers, never with sleeps::

    async def test_help(bot_harness: BotHarness) -> None:
        fake = bot_harness.fake
        alice = fake.create_user("Alice", language_code="ru")
        chat = fake.private_chat(alice)
        fake.send_text(alice, chat, "/help")
        await bot_harness.settle()
        assert "Команды" in fake.last_message(chat).text

An exception that escapes a handler fails the test at teardown (see :meth:`check_errors`).

``running_bot(..., webhook=True)`` runs the bot in webhook mode instead: it listens on
127.0.0.1 and the fake posts every update to it (with the secret :data:`WEBHOOK_SECRET`); the
same helpers work in both modes.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import traceback
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, Final

from aiogram.types import TelegramObject

from bot.app import ServicesFactory, build_services, run
from bot.config import Settings
from bot.handlers.middlewares import Handler
from bot.messages.boards import BoardPublisher
from bot.outbox.link import Backoff, TelegramLink
from bot.update_tracker import UpdateTracker

from .fake_telegram import DEFAULT_TIMEOUT, DEFAULT_TOKEN, FakeTelegram

TEST_TOKEN: Final = DEFAULT_TOKEN
FAST_BACKOFF: Final = Backoff(base=0.05, cap=0.5)
"""Retries in tests: outages last seconds there, and the bot should be back within half a one."""
WEBHOOK_SECRET: Final = "test-webhook-SECRET_0123456789"
WEBHOOK_PATH: Final = "/telegram/webhook"
START_TIMEOUT: Final = 30.0
"""Seconds a bot may take to start (migrations, worker processes): long only on a busy
machine, and a wait that ends as soon as it polls."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (for a bot's own server, whose
    address must be known before it starts: it is the webhook's)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def webhook_settings(port: int | None = None) -> dict[str, Any]:
    """Settings for a bot in webhook mode on 127.0.0.1 (a free port unless ``port``)."""
    port = port or free_port()
    return {
        "webhook_url": f"http://127.0.0.1:{port}{WEBHOOK_PATH}",
        "webhook_secret": WEBHOOK_SECRET,
        "webhook_host": "127.0.0.1",
        "webhook_port": port,
    }


def fast_link() -> TelegramLink:
    """A link to Telegram that retries on :data:`FAST_BACKOFF`, at start-up and in outages."""
    return TelegramLink(startup=FAST_BACKOFF, outage=FAST_BACKOFF)


def make_settings(
    api_url: str, database_path: Path, *, token: str = TEST_TOKEN, **overrides: Any
) -> Settings:
    """Returns settings for a test bot: fake API, SQLite file at ``database_path``, a minute per
    move (no move runs out under a test, even on a slow machine, unless it asks for a short
    clock: ``move_seconds=1``).

    ``.env`` and the environment are ignored for every key given here (all of them by default).
    """
    values: dict[str, Any] = {
        "bot_token": token,
        "telegram_api_url": api_url,
        "database_url": f"sqlite:///{database_path}",
        "move_seconds": 60,
        "log_level": "DEBUG",
        # Telegram's pace would make every test wait seconds per edit; its own tests use it.
        "group_messages_per_minute": 60_000,
        "private_messages_per_second": 1_000,
        "messages_per_second": 1_000,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


class _Tracker(UpdateTracker):
    """The bot's update tracker, remembering the running instance's board publisher (workflow
    data of every update) for :meth:`BotHarness.idle`."""

    publisher: BoardPublisher | None = None

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self.publisher = data.get("publisher", self.publisher)
        return await super().__call__(handler, event, data)


class BotHarness:
    """One bot process at a time against one fake server and one database file.

    :meth:`restart` stops the bot and starts a new instance (new Bot, Dispatcher, HTTP session and
    services) against the same server and database, as a redeploy would. Each instance gets a
    new :attr:`link` from ``link_factory`` (default :func:`fast_link`).
    """

    def __init__(
        self,
        fake: FakeTelegram,
        settings: Settings,
        *,
        services_factory: ServicesFactory | None = None,
        link_factory: Callable[[], TelegramLink] = fast_link,
    ) -> None:
        self.fake = fake
        self.settings = settings
        self.services_factory: ServicesFactory = services_factory or build_services
        self.errors: list[tuple[int, BaseException]] = []
        """(update id, exception) for every exception that escaped the handlers."""
        self.starts = 0
        self._finished: Counter[int] = Counter()
        self._tracker = _Tracker()
        self._tracker.observers.append(self._on_update_finished)
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._link_factory = link_factory
        self.link = link_factory()
        """The link to Telegram of the running (or last) instance: its outages, its state."""

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def in_flight(self) -> int:
        """Updates being handled right now."""
        return self._tracker.in_flight

    @property
    def web_url(self) -> str:
        """The base address of the bot's own HTTP server (when it has one)."""
        port = self.settings.web_port
        assert port, "this bot has no HTTP server (set webhook_port, or a webhook)"
        return f"http://127.0.0.1:{port}"

    async def start(self, timeout: float = START_TIMEOUT, *, wait: bool = True) -> None:
        """Starts a bot instance and returns once it polls or has set its webhook (its startup
        hooks have run), or at once without ``wait`` (a bot started while the server is not
        listening)."""
        assert not self.running, "the bot is already running"
        mark = self.fake.mark()
        self._stop = asyncio.Event()
        self.link = self._link_factory()
        self._task = asyncio.create_task(
            run(
                self.settings,
                stop=self._stop,
                services_factory=self.services_factory,
                tracker=self._tracker,
                link=self.link,
            ),
            name=f"bot-{self.starts}",
        )
        self.starts += 1
        if not wait:
            return

        webhook = bool(self.settings.webhook_url)

        def started() -> bool:
            self._raise_if_crashed()
            if webhook:
                return any(r.ok for r in self.fake.requests_for("setWebhook", since=mark))
            return bool(self.fake.requests_for("getUpdates", since=mark))

        await self.fake.wait_for(started, timeout, description="the bot to take updates")

    async def stop(self, *, settle: bool = True, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Stops the bot; with ``settle`` first waits until every queued update is handled."""
        if not self.running:
            return
        if settle:
            await self.settle(timeout)
        assert self._stop is not None and self._task is not None
        self._stop.set()
        await asyncio.wait_for(self._task, timeout + 10)

    async def restart(self, *, settle: bool = True, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Stops this bot instance and starts a new one against the same server and database.

        With ``settle=False`` the bot stops with updates possibly unconfirmed, which the next
        instance then receives again, as after a crash.
        """
        await self.stop(settle=settle, timeout=timeout)
        await self.start(max(timeout, START_TIMEOUT))

    async def settle(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Waits until the bot has fetched, confirmed and finished handling every queued update.

        Work a handler leaves running in the background (timers) is not waited for: use the
        fake's ``wait_for_*`` helpers for that.
        """
        await self.fake.wait_for(self._settled, timeout, description="the bot to settle")

    async def idle(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Waits until every queued update is handled (:meth:`settle`) and every board those
        updates scheduled is sent or edited: nothing the bot was asked to do is still going."""
        await self.settle(timeout)
        if self._tracker.publisher is not None:
            await self._tracker.publisher.drain(timeout)
        await self.settle(timeout)

    def take_errors(self) -> list[tuple[int, BaseException]]:
        """Returns and forgets the exceptions that escaped handlers (for tests expecting them)."""
        errors, self.errors = self.errors, []
        return errors

    def check_errors(self) -> None:
        """Raises :exc:`AssertionError` describing every exception that escaped a handler, or
        if the bot answered a callback query twice (which the bot itself cannot see: it drops
        the "query is too old" answer, see ``bot.outbox.link``)."""
        assert not self.fake.double_answers, f"queries answered twice: {self.fake.double_answers}"
        if self.errors:
            details = "\n".join(
                f"update {update_id}:\n" + "".join(traceback.format_exception(error))
                for update_id, error in self.errors
            )
            raise AssertionError(f"{len(self.errors)} handler error(s):\n{details}")

    def _settled(self) -> bool:
        self._raise_if_crashed()
        if self.fake.pending_update_ids or self._tracker.in_flight:
            return False
        return all(self._finished[u] >= n for u, n in self.fake.confirmations.items())

    def _raise_if_crashed(self) -> None:
        if self._task is not None and self._task.done() and not self._task.cancelled():
            error = self._task.exception()
            if error is not None:
                raise AssertionError(f"the bot crashed: {error!r}") from error
            if self._stop is not None and not self._stop.is_set():
                raise AssertionError("the bot stopped on its own")

    def _on_update_finished(self, update_id: int, error: BaseException | None) -> None:
        self._finished[update_id] += 1
        if error is not None and not isinstance(error, asyncio.CancelledError):
            self.errors.append((update_id, error))
        self.fake.notify()


@asynccontextmanager
async def running_bot(
    fake: FakeTelegram,
    database_path: Path,
    *,
    services_factory: ServicesFactory | None = None,
    wait: bool = True,
    webhook: bool = False,
    **settings: Any,
) -> AsyncIterator[BotHarness]:
    """Runs the bot against ``fake`` for the ``with`` block; fails on escaped handler errors.

    ``settings`` override :func:`make_settings` (e.g. ``move_seconds=3``). Without ``wait`` the
    block begins before the bot takes updates (see :meth:`BotHarness.start`). With ``webhook``
    the bot takes them by webhook (:func:`webhook_settings`).
    """
    if webhook:
        settings = {**webhook_settings(), **settings}
    harness = BotHarness(
        fake,
        make_settings(fake.url, database_path, token=fake.token, **settings),
        services_factory=services_factory,
    )
    await harness.start(wait=wait)
    try:
        yield harness
    finally:
        await harness.stop(settle=False)
    harness.check_errors()


@asynccontextmanager
async def fake_telegram_server(**options: Any) -> AsyncIterator[FakeTelegram]:
    """Serves a :class:`FakeTelegram` (``options`` go to its constructor) on 127.0.0.1."""
    async with FakeTelegram(**options) as fake:
        yield fake


class LogLines(logging.Handler):
    """The messages logged while it is installed (see :func:`watch_logs`), for wait_for."""

    def __init__(self, fake: FakeTelegram) -> None:
        super().__init__(logging.DEBUG)
        self.fake = fake
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        self.fake.notify()  # wakes wait_for: log lines are events too

    def count(self, text: str) -> int:
        """How many lines contain ``text``."""
        return sum(text in line for line in self.lines)


@contextmanager
def watch_logs(fake: FakeTelegram, name: str = "bot") -> Iterator[LogLines]:
    """Collects what logger ``name`` (and its children) logs, waking ``fake.wait_for`` on each."""
    watcher = LogLines(fake)
    logger = logging.getLogger(name)
    previous = logger.level
    logger.addHandler(watcher)
    logger.setLevel(logging.DEBUG)
    try:
        yield watcher
    finally:
        logger.removeHandler(watcher)
        logger.setLevel(previous)
