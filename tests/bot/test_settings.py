"""The settings: a one-line error naming the key (never the value) for each wrong one, and what
the settings of webhook mode, the HTTP server and the log format choose."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import load_settings
from tests.support.harness import make_settings

ROOT = Path(__file__).resolve().parents[2]
KEYS = (
    "BOT_TOKEN",
    "TELEGRAM_API_URL",
    "DATABASE_URL",
    "MOVE_SECONDS",
    "STORAGE_CHAT_ID",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "WEBHOOK_URL",
    "WEBHOOK_SECRET",
    "WEBHOOK_HOST",
    "WEBHOOK_PORT",
)


# "zqv" stands for a secret or a value: no error may repeat it (nor the token).
@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"BOT_TOKEN": "not-a-token-zqv"}, "BOT_TOKEN: does not look like a token"),
        ({"MOVE_SECONDS": "0"}, "MOVE_SECONDS: Input should be greater than or equal to 1"),
        ({"MOVE_SECONDS": "soon"}, "MOVE_SECONDS: Input should be a valid integer"),
        ({"DATABASE_URL": "mysql://u:zqv@db/n"}, "DATABASE_URL: unknown database scheme"),
        ({"DATABASE_URL": "postgresql://"}, "DATABASE_URL: no server in the postgresql:// URL"),
        ({"TELEGRAM_API_URL": "localhost:8081"}, "TELEGRAM_API_URL: must be an http"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL: must be one of"),
        ({"STORAGE_CHAT_ID": "-100123,0"}, "STORAGE_CHAT_ID: must be chat ids"),
        (
            {"WEBHOOK_URL": "https://bot.example.com/hook"},
            "WEBHOOK_SECRET: is required when WEBHOOK_URL is set",
        ),
        (
            {"WEBHOOK_URL": "https://bot.example.com/hook", "WEBHOOK_SECRET": "no zqv here"},
            "WEBHOOK_SECRET: must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -",
        ),
        (
            {"WEBHOOK_URL": "https://bot.example.com/hook", "WEBHOOK_SECRET": "zqv" * 90},
            "WEBHOOK_SECRET: must be 1 to 256 characters",
        ),
        (
            {"WEBHOOK_URL": "http://bot.example.com/zqv", "WEBHOOK_SECRET": "zqv"},
            "WEBHOOK_URL: must be https:// (http:// only with a TELEGRAM_API_URL server)",
        ),
        ({"WEBHOOK_URL": "bot.example.com/zqv"}, "WEBHOOK_URL: must be an https:// address"),
        ({"WEBHOOK_PORT": "70000"}, "WEBHOOK_PORT: Input should be less than or equal to 65535"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT: Input should be 'text' or 'json'"),
    ],
)
def test_malformed_settings_are_explained_without_their_values(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    variables: dict[str, str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("BOT_TOKEN", "123456:tokenvalue")
    for key, value in variables.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit) as exited:
        load_settings()
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith(f"config error: {message}") and error.count("\n") == 1
    assert "zqv" not in error and "tokenvalue" not in error


def test_web_settings_choose_the_mode_and_the_port(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    (tmp_path / ".env").write_text(example, encoding="utf-8")
    polling = load_settings()  # .env.example: polling, no server, text logs
    assert polling.webhook_url is None and polling.web_port is None
    assert polling.log_format == "text"
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.com/telegram/hook")
    monkeypatch.setenv("WEBHOOK_SECRET", "s3cret_-OK")
    webhook = load_settings()
    assert webhook.web_port == 8080 and webhook.webhook_host == "0.0.0.0"
    assert webhook.webhook_path == "/telegram/hook"
    assert "s3cret" not in repr(webhook) and "s3cret" not in str(webhook.model_dump())
    local = make_settings(
        "http://127.0.0.1:1",
        tmp_path / "x.sqlite3",
        webhook_url="http://127.0.0.1:2/",
        webhook_secret="x",
        log_format="JSON",
        webhook_port="",
    )
    assert local.web_port == 8080 and local.webhook_path == "/" and local.log_format == "json"
