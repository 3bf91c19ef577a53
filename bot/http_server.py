"""The bot's HTTP server (aiohttp): Telegram's webhook, ``GET /healthz`` and ``GET /metrics``.

It listens on ``WEBHOOK_HOST``:``WEBHOOK_PORT`` when the bot takes updates by webhook, and in
long polling only when ``WEBHOOK_PORT`` is set (then without the webhook route); see
:attr:`bot.config.Settings.web_port`.

* **The webhook** (the path of ``WEBHOOK_URL``) is aiogram's
  :class:`~aiogram.webhook.aiohttp_server.SimpleRequestHandler` behind a secret-token check
  (:class:`_SecretCheckedHandler`). Updates are handled **before the 200 answer**, which
  carries no method; before the bot has started and once it is stopping the route answers 503.
* **/healthz**: 200 when the process is up and the database answers (``store.ping()``), 503
  when it does not; Telegram's reachability is reported but does not fail the check.
* **/metrics**: the bot's :class:`~bot.metrics.Metrics` in Prometheus's text format, the
  database gauges read at each scrape. Internal: the proxy forwards only the webhook path.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Final, Literal

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from bot.metrics import CONTENT_TYPE, Metrics
from bot.model import Store

logger = logging.getLogger(__name__)

CHECK_SECONDS: Final = 5.0
"""How long /healthz and /metrics wait for the database before they call it unavailable."""

CLOSE_SECONDS: Final = 1.0
"""How long closing the server waits for requests still open (the bot has drained by then)."""


class CannotListen(Exception):
    """The server's port cannot be opened (taken, or not this machine's address)."""


class _SecretCheckedHandler(SimpleRequestHandler):
    """aiogram's handler, with a secret header that is not ASCII refused like any wrong one.

    :func:`secrets.compare_digest` raises :exc:`TypeError` on text with non-ASCII characters
    (aiohttp reads a header's bytes as UTF-8, undecodable ones as surrogates), which aiohttp
    turns into a 500 and a traceback in the log, for anyone who can reach the port. The bot's
    secret is ASCII (:attr:`bot.config.Settings.webhook_secret`, Telegram's rule), so such a
    header is wrong before any comparison.
    """

    def verify_secret(self, telegram_secret_token: str, bot: Bot) -> bool:
        return telegram_secret_token.isascii() and super().verify_secret(telegram_secret_token, bot)


class Webhook:
    """The route Telegram posts updates to (see the module docstring).

    :param busy: entered for each request it lets through, from its arrival until its answer,
        so that a stopping bot waits for it (``UpdateTracker.holding``).
    """

    def __init__(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        *,
        path: str,
        secret: str,
        busy: Callable[[], AbstractAsyncContextManager[None]],
    ) -> None:
        self.path = path
        self.accepting = False
        """Whether updates are taken now: set once the bot has started, cleared as it stops."""
        self._busy = busy
        self._handler = _SecretCheckedHandler(
            dispatcher, bot, handle_in_background=False, secret_token=secret
        )

    async def handle(self, request: web.Request) -> web.Response:
        """Handles one update and answers 200, or refuses it (401 wrong secret, 503 not now)."""
        if not self.accepting:
            return web.json_response({"ok": False, "description": "not ready"}, status=503)
        async with self._busy():
            return await self._handler.handle(request)


class WebServer:
    """Serves :class:`Webhook` (when given), ``/healthz`` and ``/metrics`` on ``host:port``.

    :param store: the database /healthz pings and /metrics counts in; None (test services
        without one): neither is checked.
    :param telegram_reachable: reported by /healthz (the link's ``reachable`` event).
    """

    def __init__(
        self,
        *,
        host: str,
        port: int,
        metrics: Metrics,
        store: Store | None,
        mode: Literal["webhook", "polling"],
        webhook: Webhook | None = None,
        telegram_reachable: asyncio.Event | None = None,
    ) -> None:
        self._host = host
        self._port = port
        self._metrics = metrics
        self._store = store
        self._mode = mode
        self._telegram = telegram_reachable
        self.app = web.Application()
        self.app.router.add_get("/healthz", self._healthz)
        self.app.router.add_get("/metrics", self._serve_metrics)
        if webhook is not None:
            self.app.router.add_post(webhook.path, webhook.handle)
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    @property
    def port(self) -> int:
        """The port it listens on (the one chosen when it was asked for port 0)."""
        if self._runner is not None and self._runner.addresses:
            return int(self._runner.addresses[0][1])
        return self._port

    async def start(self) -> None:
        """Opens the port.

        :raises: :exc:`CannotListen` when it cannot.
        """
        self._runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=CLOSE_SECONDS
        )
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self._host, self._port)
        try:
            await self._site.start()
        except OSError as error:
            await self.close()
            raise CannotListen(f"{self._host}:{self._port}: {error.strerror or error}") from None
        logger.info("listening on %s:%d (%s mode)", self._host, self.port, self._mode)

    async def stop_listening(self) -> None:
        """Closes the port: new connections are refused (a proxy tries another worker), while
        the requests under way go on."""
        if self._site is not None:
            await self._site.stop()
            self._site = None

    async def close(self) -> None:
        """Closes the port and every connection, cancelling requests still open after
        :data:`CLOSE_SECONDS`."""
        await self.stop_listening()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        body: dict[str, str] = {"status": "ok", "mode": self._mode, "database": "not checked"}
        if self._telegram is not None:
            body["telegram"] = "reachable" if self._telegram.is_set() else "unreachable"
        if self._store is not None:
            try:
                await asyncio.wait_for(self._store.ping(), CHECK_SECONDS)
            except Exception as error:  # whatever it is, the database does not answer
                logger.warning("health check: the database does not answer (%r)", error)
                body.update(status="unavailable", database=type(error).__name__)
                return web.json_response(body, status=503)
            body["database"] = "ok"
        return web.json_response(body)

    async def _serve_metrics(self, request: web.Request) -> web.Response:
        await self._read_gauges()
        return web.Response(body=self._metrics.render(), headers={"Content-Type": CONTENT_TYPE})

    async def _read_gauges(self) -> None:
        if self._store is None:  # nothing to check, as /healthz
            self._metrics.healthy.set(1)
            return
        store = self._store

        async def counts() -> tuple[int, int, int]:
            now = time.time()
            return (
                await store.games.in_progress(),
                len(await store.games.due(now)),
                len(await store.challenges.expired(now)),
            )

        try:
            games, moves, challenges = await asyncio.wait_for(counts(), CHECK_SECONDS)
        except Exception as error:  # the other metrics are still worth serving
            logger.warning("metrics: the database does not answer (%r)", error)
            self._metrics.set_gauges(games=math.nan, moves_due=math.nan, challenges_due=math.nan)
            return
        self._metrics.set_gauges(games=games, moves_due=moves, challenges_due=challenges)
