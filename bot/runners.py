"""How a bot process takes its updates until it stops: by long polling (:func:`poll`) or by
webhook (:func:`serve_webhook`, the webhook set once the bot is ready for its first update),
and what stops it (:func:`stop_on`: the caller's event, or SIGINT/SIGTERM). The composition
(:func:`bot.app.run`) picks one and drains what is under way after it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Iterator
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramBadRequest

from bot.config import Settings
from bot.http_server import Webhook

logger = logging.getLogger(__name__)


class WebhookRefused(Exception):
    """Telegram refused ``setWebhook`` (a 4xx: an address it will not post to, a bad secret).
    Not a network failure: retrying cannot help, the settings must change."""


async def serve_webhook(
    dispatcher: Dispatcher,
    bot: Bot,
    webhook: Webhook,
    settings: Settings,
    stopping: asyncio.Event,
) -> None:
    """Runs the startup hooks, opens the webhook route and sets the webhook, then takes updates
    until ``stopping``; returns once the route refuses new ones and the shutdown hooks ran.

    The webhook is set only now, so that Telegram's first post finds the bot ready: until then
    the route answers 503 (Telegram would try again later). Setting it again is harmless, so
    every worker does at its start; none deletes it when it stops.
    """
    hook_data = {"dispatcher": dispatcher, "bots": [bot], "bot": bot, **dispatcher.workflow_data}
    if not await until(dispatcher.emit_startup(**hook_data), stopping):
        return
    webhook.accepting = True
    secret = settings.webhook_secret
    try:
        setting = bot.set_webhook(
            settings.webhook_url or "",
            secret_token=secret.get_secret_value() if secret is not None else None,
            allowed_updates=dispatcher.resolve_used_update_types(),
            drop_pending_updates=False,
        )
        try:
            if not await until(setting, stopping):
                return
        except TelegramBadRequest as error:
            raise WebhookRefused(error.message) from None
        logger.info("webhook set; taking updates at %s", settings.webhook_path)
        await stopping.wait()
    finally:
        webhook.accepting = False
        logger.info("stopping: taking no more updates; finishing those under way")
        await dispatcher.emit_shutdown(**hook_data)


async def until(work: Awaitable[Any], stopping: asyncio.Event) -> bool:
    """Awaits ``work`` unless ``stopping`` is set first (then cancels it); True if it ran."""
    task = asyncio.ensure_future(work)
    stopper = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if task.cancelled():
        return False
    task.result()
    return True


@contextlib.contextmanager
def stop_on(stop: asyncio.Event | None, stopping: asyncio.Event) -> Iterator[None]:
    """Sets ``stopping`` when ``stop`` is set or, without ``stop``, on SIGINT or SIGTERM, for
    the whole life of the process (aiogram's own signal handling covers only polling)."""
    loop = asyncio.get_running_loop()
    if stop is not None:
        forward = loop.create_task(_forward(stop, stopping), name="stop")
        try:
            yield
        finally:
            forward.cancel()
        return

    def on_signal(received: signal.Signals) -> None:
        logger.info("received %s; stopping", received.name)
        stopping.set()

    installed = []
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(number, on_signal, number)
            installed.append(number)
    try:
        yield
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


async def _forward(source: asyncio.Event, target: asyncio.Event) -> None:
    await source.wait()
    target.set()


async def poll(dispatcher: Dispatcher, bot: Bot, stop: asyncio.Event) -> None:
    started = asyncio.Event()

    async def mark_started() -> None:
        started.set()

    dispatcher.startup.register(mark_started)
    polling = asyncio.create_task(
        dispatcher.start_polling(
            bot,
            handle_signals=False,
            close_bot_session=False,
            allowed_updates=dispatcher.resolve_used_update_types(),
        )
    )
    stopper = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({polling, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if not polling.done():
            if started.is_set():
                await dispatcher.stop_polling()
            else:  # still in the startup hooks, e.g. waiting for Telegram: nothing to shut down
                polling.cancel()
        await asyncio.wait({polling})
        if not polling.cancelled():
            polling.result()
    finally:
        stopper.cancel()
        if not polling.done():  # run() itself was cancelled
            if started.is_set():
                with contextlib.suppress(RuntimeError):
                    await dispatcher.stop_polling()
            polling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await polling
