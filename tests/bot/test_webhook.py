"""Webhook mode end to end: the fake Bot API posts every update to the bot's own server, with
the secret; a request without it changes nothing; a stopping worker finishes what it took."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from prometheus_client.parser import text_string_to_metric_families
from yarl import URL

from bot.app import run
from bot.runners import WebhookRefused
from tests.support.fake_telegram import FakeChat, FakeTelegram, FakeUser
from tests.support.harness import (
    WEBHOOK_SECRET,
    BotHarness,
    fast_link,
    free_port,
    make_settings,
    running_bot,
    webhook_settings,
)

from .gameplay import is_over, mover, play_turn, wait_for_board

ROOT = Path(__file__).resolve().parents[2]


def help_command(fake: FakeTelegram, user: FakeUser, chat: FakeChat) -> dict[str, object]:
    """A /help message from ``user`` as Telegram would post it, not queued in the fake."""
    return fake.forge_update(
        {
            "message": {
                "message_id": 9000 + user.id % 1000,
                "from": user.to_api(),
                "chat": chat.to_api(),
                "date": int(time.time()),
                "text": "/help",
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            }
        }
    )


def handled(database_path: Path, update_id: int) -> bool:
    """Whether the bot recorded ``update_id`` as handled."""
    with sqlite3.connect(database_path, timeout=5) as db:
        row = db.execute(
            "SELECT COUNT(*) FROM handled_updates WHERE update_id = ?", (update_id,)
        ).fetchone()
    return bool(row[0])


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a /metrics page, by (name, labels)."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def scrape(harness: BotHarness) -> Samples:
    """The bot's /metrics, parsed."""
    async with ClientSession() as client, client.get(f"{harness.web_url}/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return samples(await response.text())


async def call_api(fake: FakeTelegram, method: str) -> dict[str, Any]:
    """Calls ``method`` of the fake Bot API over HTTP, as a bot would; returns its result."""
    url = f"{fake.url}/bot{fake.token}/{method}"
    async with ClientSession() as client, client.post(url) as response:
        body = await response.json()
    assert body["ok"], body
    result: dict[str, Any] = body["result"]
    return result


async def test_a_whole_game_by_webhook_with_its_metrics(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    async with running_bot(fake, database_path, webhook=True) as harness:
        [setting] = fake.webhook_settings
        assert setting.url == harness.settings.webhook_url and setting.secret_token == (
            WEBHOOK_SECRET
        )
        assert {"message", "callback_query"} <= setting.allowed_updates
        before = await scrape(harness)
        alice = fake.create_user("Alice", username="alice")
        bob = fake.create_user("Bob", username="bob")
        group = fake.create_group("club", [alice, bob])
        fake.send_text(alice, group, "/play @bob short")
        challenge = await fake.wait_for_message(group)
        fake.press(bob, challenge, "✅ Accept")
        board = await wait_for_board(fake, group)
        during = await scrape(harness)
        waiting = alice if mover(board, [alice, bob]) is bob else bob
        data = board.buttons[0].callback_data
        assert data is not None
        refused = fake.tap(waiting, board, data)
        alert = await fake.next_answer_to(refused)  # the refusal, in the answer to its POST
        assert alert.show_alert and alert.text
        # an onlooker's flood: refused, then throttled (also answered in the POST's answer)
        carol = fake.create_user("Carol", username="carol")
        flood = [fake.tap(carol, board, data) for _ in range(12)]
        texts = [(await fake.next_answer_to(tap)).text for tap in flood]
        assert "Too many taps: wait a moment." in texts
        for _ in range(400):
            if is_over(board):
                break
            await play_turn(fake, board, [alice, bob])
        assert is_over(board), board.caption
        await harness.settle()
        after = await scrape(harness)
    assert not fake.requests_for("getUpdates")  # every update came by webhook
    posted = {post.update_id for post in fake.webhook_posts if post.status == 200}
    assert len(posted) > 20 and not fake.pending_update_ids
    assert len([m for m in fake.messages(group) if m.photo]) == 1
    # every press was answered once, in the answer to its POST: no request of its own
    answers = fake.requests_for("answerCallbackQuery")
    assert set(fake.answers) == set(fake.taps) and len(answers) == len(fake.taps) > 20
    assert all(answer.in_answer and answer.ok for answer in answers)

    def value(metrics: Samples, name: str, **labels: str) -> float:
        return metrics.get((name, tuple(sorted(labels.items()))), 0.0)

    taps = value(after, "nardy_taps_handled_total", outcome="played")
    assert value(before, "nardy_taps_handled_total", outcome="played") == 0
    assert taps >= 10
    assert value(after, "nardy_updates_handled_total", kind="callback_query") >= taps
    assert value(after, "nardy_updates_handled_total", kind="message") >= 1
    assert value(after, "nardy_tap_answer_seconds_count") >= taps
    assert value(after, "nardy_tap_answer_seconds_bucket", le="+Inf") >= taps
    assert 0 < value(after, "nardy_tap_answer_seconds_sum") < 60 * taps
    edits = value(after, "nardy_board_edits_total", result="shown")
    assert edits >= taps / 2 and value(after, "nardy_board_edits_total", result="failed") == 0
    assert value(after, "nardy_board_edit_seconds_count") == edits
    assert value(during, "nardy_games_in_progress") == 1
    assert value(after, "nardy_games_in_progress") == 0
    assert value(after, "nardy_timers_due", kind="move") == 0


async def test_requests_without_the_right_secret_are_refused_and_change_nothing(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    async with running_bot(fake, database_path, webhook=True) as harness:
        alice = fake.create_user("Alice")
        chat = fake.private_chat(alice)
        chat.started = True
        update = help_command(fake, alice, chat)
        mark = fake.mark()
        for secret in (None, "", "wrong-secret", WEBHOOK_SECRET + "x", WEBHOOK_SECRET[:-1]):
            answer = await fake.post_to_webhook(update, secret=secret)
            assert answer.status == 401, secret
        await harness.settle()
        assert fake.requests[mark:] == [] and fake.messages(chat) == []
        assert not handled(database_path, int(str(update["update_id"])))
        # The same request with the secret is handled: the refusals above were the secret's.
        assert (await fake.post_to_webhook(update)).status == 200
        assert (fake.last_message(chat).text or "").startswith("Commands")
        assert handled(database_path, int(str(update["update_id"])))


async def test_a_secret_that_is_not_ascii_is_refused_like_any_wrong_one(
    fake_telegram: FakeTelegram, database_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Python's constant-time comparison raises TypeError on non-ASCII text: it used to be a 500
    # and a traceback in the log, for anyone who can reach the port.
    fake = fake_telegram
    caplog.set_level(logging.WARNING)
    async with running_bot(fake, database_path, webhook=True) as harness:
        alice = fake.create_user("Alice")
        chat = fake.private_chat(alice)
        chat.started = True
        update = help_command(fake, alice, chat)
        mark = fake.mark()
        for secret in ("ключ", WEBHOOK_SECRET + "é", "é" + WEBHOOK_SECRET[1:], "🎲"):
            answer = await fake.post_to_webhook(update, secret=secret)
            assert answer.status == 401, secret
        # the header's raw bytes, not even UTF-8 (aiohttp reads them as surrogates)
        assert fake.webhook is not None
        status = await _post_raw_secret(fake.webhook.url, json.dumps(update), b"\xff\xfe")
        assert status == 401
        await harness.settle()
        assert fake.requests[mark:] == [] and fake.messages(chat) == []
        assert not handled(database_path, int(str(update["update_id"])))
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert [line for line in warned if not line.startswith("inline mode is on")] == []


async def _post_raw_secret(url: str, body: str, secret: bytes) -> int:
    """POSTs ``body`` to ``url`` over a plain socket with ``secret`` as the secret header's
    bytes (an HTTP client would refuse to send them); returns the answer's status."""
    target = URL(url)
    assert target.host is not None and target.port is not None
    reader, writer = await asyncio.open_connection(target.host, target.port)
    try:
        data = body.encode()
        writer.write(
            f"POST {target.raw_path} HTTP/1.1\r\nHost: {target.host}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            "Connection: close\r\n".encode()
            + b"X-Telegram-Bot-Api-Secret-Token: "
            + secret
            + b"\r\n\r\n"
            + data
        )
        await writer.drain()
        status_line = await reader.readline()
        return int(status_line.split()[1])
    finally:
        writer.close()
        await writer.wait_closed()


async def test_the_same_update_posted_twice_at_once_is_applied_once(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    async with running_bot(fake, database_path, webhook=True) as harness:
        alice = fake.create_user("Alice")
        chat = fake.private_chat(alice)
        chat.started = True
        update = help_command(fake, alice, chat)
        answers = await asyncio.gather(*(fake.post_to_webhook(update) for _ in range(2)))
        assert [answer.status for answer in answers] == [200, 200]
        sent = fake.send_text(alice, chat, "/start")  # and one the fake itself posts twice
        await harness.settle()
        assert sent.update_id is not None
        fake.redeliver(sent.update_id)
        await harness.settle()
        assert [(m.text or "").split()[0] for m in fake.messages(chat)] == ["Commands", "Hello,"]
        assert [p.status for p in fake.webhook_posts if p.update_id == sent.update_id] == [
            200,
            200,
        ]


async def test_the_fake_retries_a_delivery_the_bot_did_not_take(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    settings = webhook_settings()
    async with running_bot(fake, database_path, **settings) as harness:
        alice = fake.create_user("Alice")
        chat = fake.private_chat(alice)
        await harness.stop()  # the webhook stays set: posts now find no one
        sent = fake.send_text(alice, chat, "/start")
        await fake.wait_for(
            lambda: len([p for p in fake.webhook_posts if p.update_id == sent.update_id]) >= 2
        )
        assert fake.pending_update_ids == [sent.update_id]
        await harness.start()
        reply = await fake.wait_for_message(chat)
        assert (reply.text or "").startswith("Hello")
        await harness.settle()
        statuses = [p.status for p in fake.webhook_posts if p.update_id == sent.update_id]
        assert statuses[-1] == 200 and None in statuses
        info = await call_api(fake, "getWebhookInfo")
        assert info["url"] == settings["webhook_url"] and info["pending_update_count"] == 0


@pytest.mark.slow
async def test_sigterm_finishes_the_update_in_flight_and_takes_no_new_one(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """A real ``python -m bot`` worker, JSON logs: SIGTERM while a reply waits for Telegram."""
    fake = fake_telegram
    port = free_port()
    settings = webhook_settings(port)
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_URL": fake.url,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'nardy.sqlite3'}",
        "WEBHOOK_URL": settings["webhook_url"],
        "WEBHOOK_SECRET": settings["webhook_secret"],
        "WEBHOOK_HOST": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "DEBUG",
    }
    alice = fake.create_user("Alice", language_code="en")
    chat = fake.private_chat(alice)
    lines: list[str] = []

    async def start() -> tuple[asyncio.subprocess.Process, asyncio.Task[None]]:
        mark = fake.mark()
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env=environment,
            stderr=asyncio.subprocess.PIPE,
        )

        async def read() -> None:
            assert process.stderr is not None
            async for line in process.stderr:
                lines.append(line.decode())
                fake.notify()

        reader = asyncio.create_task(read())
        await fake.wait_for(
            lambda: any(r.ok for r in fake.requests_for("setWebhook", since=mark)),
            timeout=60,
            description="the webhook to be set",
        )
        return process, reader

    process, reader = await start()
    try:
        fake.delay_next("sendMessage", 1.5)  # the reply is under way when SIGTERM comes
        mark = fake.mark()
        first = fake.send_text(alice, chat, "/start")
        await fake.wait_for(lambda: fake.requests_for("sendMessage", since=mark), timeout=30)
        process.send_signal(signal.SIGTERM)
        await fake.wait_for(
            lambda: any("taking no more updates" in line for line in lines), timeout=10
        )
        second = fake.send_text(alice, chat, "/help")  # for the next worker
        await asyncio.wait_for(process.wait(), 30)
        await reader
        assert process.returncode == 0, "".join(lines)
        assert [(m.text or "").split(",")[0] for m in fake.messages(chat)] == ["Hello"]
        assert first.update_id not in fake.pending_update_ids
        assert fake.pending_update_ids == [second.update_id]  # refused, so kept for later
        process, reader = await start()  # the next worker takes it
        reply = await fake.wait_for_message(chat, after=fake.last_message(chat), timeout=30)
        assert (reply.text or "").startswith("Commands")
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 30)
        await reader
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all(
        set(r) == {"time", "level", "logger", "message", "update_id", "game_id", "exception"}
        for r in records
    )
    assert any(r["update_id"] == first.update_id for r in records)
    assert any("received SIGTERM" in r["message"] for r in records)
    logged = "".join(lines)
    assert fake.token not in logged and fake.token.split(":")[1] not in logged
    assert WEBHOOK_SECRET not in logged


async def test_a_refused_webhook_stops_the_bot_with_the_reason(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    fake.fail_next("setWebhook", error_code=400, description="Bad Request: bad webhook: nope")
    settings = make_settings(fake.url, tmp_path / "db.sqlite3", **webhook_settings())
    with pytest.raises(WebhookRefused, match="bad webhook: nope"):
        await asyncio.wait_for(run(settings, stop=asyncio.Event(), link=fast_link()), 30)
    assert fake.webhook is None
