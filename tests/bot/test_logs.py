"""Log records carry the update and the game they are about; text and JSON lines mask the
token."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.logs import (
    TEXT_FORMAT,
    JsonFormatter,
    LogContext,
    RedactingFormatter,
    current_ids,
    log_context,
    note_game,
)
from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import running_bot

from .gameplay import first_choice, mover, tap_and_wait, wait_for_board

TOKEN = "123456:TOKEN-secret_part-0123456789"


def record(message: str, *args: object, error: BaseException | None = None) -> logging.LogRecord:
    """A record as the logging module makes it, passed through :class:`LogContext`."""
    exc_info = (type(error), error, error.__traceback__) if error is not None else None
    made = logging.LogRecord("bot.test", logging.ERROR, __file__, 1, message, args, exc_info)
    LogContext().filter(made)
    return made


def failure() -> BaseException:
    try:
        raise RuntimeError(f"GET https://api.telegram.org/bot{TOKEN}/getMe failed")
    except RuntimeError as error:
        return error


def test_text_lines_carry_the_ids_after_the_message_and_mask_the_token() -> None:
    formatter = RedactingFormatter(TEXT_FORMAT, TOKEN)
    with log_context(update_id=100007, game_id=42):
        line = formatter.format(record("calling %s", f"bot{TOKEN}", error=failure()))
    first, *traceback = line.splitlines()
    assert first.endswith("bot.test: calling bot<BOT_TOKEN> update=100007 game=42")
    assert traceback[0] == "Traceback (most recent call last):"
    assert "RuntimeError: GET https://api.telegram.org/bot<BOT_TOKEN>/getMe failed" in line
    assert TOKEN not in line
    with log_context(update_id=100008):
        assert formatter.format(record("no game")).endswith("no game update=100008")
    assert formatter.format(record("neither")).endswith("bot.test: neither")


def test_json_lines_parse_and_mask_the_token() -> None:
    formatter = JsonFormatter(TOKEN)
    with log_context(update_id=5, game_id=6):
        line = formatter.format(record('token "%s" \n done', TOKEN, error=failure()))
    assert "\n" not in line and TOKEN not in line
    entry = json.loads(line)
    assert entry["level"] == "ERROR" and entry["logger"] == "bot.test"
    assert entry["message"] == 'token "<BOT_TOKEN>" \n done'
    assert (entry["update_id"], entry["game_id"]) == (5, 6)
    assert "RuntimeError: GET https://api.telegram.org/bot<BOT_TOKEN>/getMe" in entry["exception"]
    assert entry["time"].endswith("+00:00")
    plain = json.loads(formatter.format(record("plain")))
    assert (plain["update_id"], plain["game_id"], plain["exception"]) == (None, None, None)


def test_a_context_block_restores_the_ids_a_game_noted_inside_it() -> None:
    with log_context(update_id=1, game_id=None):
        note_game(9)
        assert record("x").game_id == 9  # type: ignore[attr-defined]
        with log_context(game_id=None):
            note_game(10)
        assert record("x").game_id == 9  # type: ignore[attr-defined]
    after = record("x")
    assert (after.update_id, after.game_id) == (None, None)  # type: ignore[attr-defined]


async def test_records_of_a_tap_carry_its_update_and_its_game(
    fake_telegram: FakeTelegram, database_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.handler.addFilter(LogContext())
    fake = fake_telegram
    async with running_bot(fake, database_path) as harness:
        alice = fake.create_user("Alice", username="alice")
        bob = fake.create_user("Bob", username="bob")
        group = fake.create_group("club", [alice, bob])
        sent = fake.send_text(alice, group, "/play @bob")
        challenge = await fake.wait_for_message(group)
        fake.press(bob, challenge, "✅ Accept")
        board = await wait_for_board(fake, group)
        step = first_choice(board)
        before = len(caplog.records)
        await tap_and_wait(fake, mover(board, [alice, bob]), board, step)
        await harness.settle()
    tap_update = fake.taps[max(fake.taps)].update_id
    ids = [(getattr(r, "update_id", 0), getattr(r, "game_id", 0)) for r in caplog.records]
    assert (tap_update, step.game) in ids[before:]  # aiogram's "Update id=... is handled"
    assert any(u == sent.update_id for u, _ in ids)  # the /play command's records
    assert current_ids() == (None, None)  # the test's own task handled no update
