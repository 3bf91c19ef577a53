"""The bot's HTTP server: /healthz and /metrics in webhook mode and, when asked for, in polling
mode."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from bot.app import build_services
from bot.config import Settings
from bot.services import Services
from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import free_port, make_settings, running_bot

from .test_webhook import scrape


async def get(url: str) -> tuple[int, Any]:
    async with ClientSession() as client, client.get(url) as response:
        return response.status, await response.json()


async def test_healthz_answers_while_the_database_does_and_503_once_it_is_closed(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    kept: list[Services] = []

    @asynccontextmanager
    async def keeping(settings: Settings) -> AsyncIterator[Services]:
        async with build_services(settings) as services:
            kept.append(services)
            yield services

    async with running_bot(
        fake_telegram, database_path, webhook=True, services_factory=keeping
    ) as harness:
        status, body = await get(f"{harness.web_url}/healthz")
        assert (status, body) == (
            200,
            {"status": "ok", "mode": "webhook", "database": "ok", "telegram": "reachable"},
        )
        store = kept[0].store
        await store.database.close()
        status, body = await get(f"{harness.web_url}/healthz")
        assert status == 503 and body["status"] == "unavailable"
        assert body["database"] != "ok"
        metrics = await scrape(harness)  # still served, the database gauges unknown
        games = metrics[("nardy_games_in_progress", ())]
        assert games != games  # NaN
        assert metrics[("nardy_healthy", ())] == 0  # as /healthz: for the alert rules


async def test_a_polling_bot_serves_health_and_metrics_only_when_given_a_port(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    assert make_settings(fake.url, database_path).web_port is None  # the default: no server
    port = free_port()
    async with running_bot(fake, database_path, webhook_port=port, webhook_host="127.0.0.1") as h:
        assert fake.requests_for("getUpdates") and fake.webhook is None
        status, body = await get(f"http://127.0.0.1:{port}/healthz")
        assert status == 200 and body["mode"] == "polling" and body["database"] == "ok"
        hook = f"http://127.0.0.1:{port}/telegram/webhook"
        async with ClientSession() as client, client.post(hook, json={}) as response:
            assert response.status in (404, 405)  # no webhook route in polling mode
        alice = fake.create_user("Alice")
        chat = fake.private_chat(alice)
        fake.flood_next("sendMessage", retry_after=3)
        fake.send_text(alice, chat, "/start")
        await h.settle()
        assert [type(e).__name__ for _, e in h.take_errors()] == ["TelegramRetryAfter"]
        metrics = await scrape(h)
    assert metrics[("nardy_telegram_flood_waits_total", (("method", "sendMessage"),))] == 1
    assert metrics[("nardy_telegram_retry_after_seconds_total", ())] == 3
    assert metrics[("nardy_updates_handled_total", (("kind", "message"),))] == 1
