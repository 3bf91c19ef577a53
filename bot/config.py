"""Typed settings of the bot, read from the environment and from ``.env``.

This is the only module that reads the environment. Every key is listed, with a harmless value,
in ``.env.example``.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Annotated, Final, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

SQLITE_PREFIX: Final = "sqlite:///"
POSTGRES_PREFIXES: Final = ("postgresql://", "postgres://")
LOG_LEVELS: Final = frozenset({"CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"})
WEBHOOK_SECRET_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{1,256}")
"""What Telegram accepts as a webhook's ``secret_token``."""
DEFAULT_WEBHOOK_PORT: Final = 8080
WEBAPP_NAME_SHAPE: Final = re.compile(r"[A-Za-z0-9_]{3,30}")
"""What @BotFather accepts as a Mini App's short name (the last part of its Direct Link)."""


def parse_sqlite_url(url: str) -> Path:
    """Returns the file path named by a ``sqlite:///`` URL.

    ``sqlite:///nardy.sqlite3`` is relative to the working directory and
    ``sqlite:////var/lib/nardy/nardy.sqlite3`` is absolute (four slashes), as in SQLAlchemy.

    >>> parse_sqlite_url("sqlite:///nardy.sqlite3")
    PosixPath('nardy.sqlite3')
    >>> parse_sqlite_url("sqlite:////srv/nardy.sqlite3")
    PosixPath('/srv/nardy.sqlite3')

    :raises: :exc:`ValueError` for any other scheme, an empty path or a query string.
    """
    example = (
        "sqlite:///nardy.sqlite3 (relative), sqlite:////abs/path/nardy.sqlite3 (absolute) "
        "or postgresql://user:password@host/database"
    )
    if not url.startswith(SQLITE_PREFIX):
        scheme = url.split(":", 1)[0] if ":" in url else url
        raise ValueError(f"unknown database scheme {scheme!r}; use {example}")
    path = url.removeprefix(SQLITE_PREFIX)
    if not path or path.endswith("/") or "?" in path:
        raise ValueError(f"no database file in {url!r}; use {example}")
    return Path(path)


class DatabaseSettings(BaseSettings):
    """The database's setting alone: what an operator's command (``python -m bot backup``,
    ``forget``: :mod:`bot.maintenance`) needs, without the bot's token.

    Values come from keyword arguments, then the environment, then ``.env`` in the working
    directory; names are case-insensitive (``DATABASE_URL`` sets ``database_url``).
    """

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        frozen=True,
    )

    database_url: str = "sqlite:///nardy.sqlite3"
    """An SQLite file as a URL (see :func:`parse_sqlite_url`), the default; or a PostgreSQL
    server, ``postgresql://user:password@host:5432/database``, which several workers can share.
    Holds a password: never logged."""

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str) -> str:
        value = value.strip()
        if value.startswith(POSTGRES_PREFIXES):
            if not value.split("://", 1)[1].strip("/"):
                raise ValueError("no server in the postgresql:// URL: postgresql://user:pw@host/db")
            return value
        parse_sqlite_url(value)
        return value

    @property
    def uses_postgres(self) -> bool:
        """True when :attr:`database_url` names a PostgreSQL server."""
        return self.database_url.startswith(POSTGRES_PREFIXES)

    @property
    def database_path(self) -> Path:
        """The SQLite file named by :attr:`database_url` (not for PostgreSQL)."""
        return parse_sqlite_url(self.database_url)

    @property
    def database(self) -> Path | str:
        """What :func:`bot.storage.open_database` opens: the SQLite file, or the PostgreSQL
        URL."""
        return self.database_url if self.uses_postgres else self.database_path


class Settings(DatabaseSettings):
    """Settings of one bot process (the database's among them).

    Values come from keyword arguments, then the environment, then ``.env`` in the working
    directory; names are case-insensitive (``BOT_TOKEN`` sets ``bot_token``).
    """

    bot_token: SecretStr
    """Token from @BotFather, ``123456:ABC...``. Never logged or printed."""

    telegram_api_url: str | None = None
    """Base URL of a self-hosted (or test) Bot API server, e.g. ``http://127.0.0.1:8081``."""

    move_seconds: int = Field(default=90, ge=1, le=3600)
    """Time a player has for one move; who lets it run out loses the game."""

    computer_workers: int = Field(default=1, ge=1, le=64)
    """Processes that think for the computer player (its turns, hints, analyses)."""

    computer_pause_seconds: float = Field(default=1.5, ge=0, le=30)
    """How long the computer waits before it answers, so that its opponent sees each change."""

    log_level: str = "INFO"
    """One of DEBUG, INFO, WARNING, ERROR, CRITICAL."""

    log_format: Literal["text", "json"] = "text"
    """``text``: one readable line per record; ``json``: one JSON object per line, for a log
    collector. Both carry the update and game ids and mask the token."""

    webhook_url: str | None = None
    """The public HTTPS address Telegram posts updates to (its path is the path the bot
    serves); empty: long polling."""

    webhook_secret: SecretStr | None = Field(default=None, validate_default=True)
    """Telegram sends it in ``X-Telegram-Bot-Api-Secret-Token`` with every update; a request
    without it is refused. Required with :attr:`webhook_url`. Never logged or printed."""

    webhook_host: str = "0.0.0.0"
    """The address the bot's HTTP server listens on (all of them by default, as a container
    needs; 127.0.0.1 behind a proxy on the same machine)."""

    webhook_port: int | None = Field(default=None, ge=0, le=65535)
    """The port of the bot's HTTP server. Empty: :data:`DEFAULT_WEBHOOK_PORT` with a webhook
    or a Mini App board (:attr:`webapp_url`), no server at all with long polling; set with long
    polling, the server there answers ``/healthz`` and ``/metrics`` (and the board, if any)."""

    webapp_url: str | None = None
    """The public HTTPS address of the Mini App board (the bot's own server, under
    :data:`bot.webapp.BASE_PATH`, e.g. ``https://bot.example.com/app/``); empty: no board,
    buttons only. Set, the server also runs in long polling (on :attr:`web_port`)."""

    webapp_name: str | None = None
    """The Mini App's short name given to @BotFather's ``/newapp``: groups get the board as a
    Direct Link ``t.me/<bot>/<name>?startapp=g<game>`` (a ``web_app`` button works only in
    private chats). Empty: the board only in private chats."""

    webapp_max_age_seconds: int = Field(default=86_400, ge=60, le=7 * 86_400)
    """How old a Mini App's init data may be when the board is opened with it (Telegram signs
    it when the app opens; a board kept open reconnects with the same data)."""

    group_messages_per_minute: float = Field(default=20, gt=0)
    """Messages and edits the bot sends to one group per minute (Telegram allows about 20)."""

    private_messages_per_second: float = Field(default=1, gt=0)
    """Messages and edits to one private chat per second (Telegram allows about 1)."""

    messages_per_second: float = Field(default=30, gt=0)
    """Messages and edits to all chats together per second (Telegram allows about 30)."""

    storage_chat_id: Annotated[tuple[int, ...], NoDecode] = ()
    """Chats where the bot uploads the picture of each inline game's board once (private
    channels or groups, with the bot allowed to post): an inline message cannot take an
    uploaded file, only one Telegram already has. Each upload is deleted once the board shows
    it. Several, comma-separated, share the uploads (each chat takes about 20 a minute). None:
    inline games get text boards."""

    owner_ids: Annotated[tuple[int, ...], NoDecode] = ()
    """The Telegram user ids of the bot's operators, comma-separated: they may ban and unban
    users, broadcast to every user, read the figures (``/ops``) and decide on held chip
    transfers (``/flags`` in private). Empty: nobody."""

    @field_validator("bot_token")
    @classmethod
    def _check_token(cls, value: SecretStr) -> SecretStr:
        # Same shape aiogram checks, but checked here so the error is one line and never shows
        # the value.
        bot_id, sep, secret = value.get_secret_value().strip().partition(":")
        if not sep or not bot_id.isdigit() or not secret or any(c.isspace() for c in secret):
            raise ValueError("does not look like a token from @BotFather (digits:secret)")
        return SecretStr(f"{bot_id}:{secret}")

    @field_validator("telegram_api_url")
    @classmethod
    def _check_api_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")) or "{" in value or "}" in value:
            raise ValueError("must be an http:// or https:// base URL, e.g. http://127.0.0.1:8081")
        return value

    @field_validator("webhook_url")
    @classmethod
    def _check_webhook_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
            raise ValueError("must be an https:// address, e.g. https://bot.example.com/telegram")
        if parts.scheme == "http" and not info.data.get("telegram_api_url"):
            # Only a self-hosted Bot API server (its --local mode) posts to plain http.
            raise ValueError("must be https:// (http:// only with a TELEGRAM_API_URL server)")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _check_webapp_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
            raise ValueError("must be an https:// address, e.g. https://bot.example.com/app/")
        return value if value.endswith("/") else value + "/"

    @field_validator("webapp_name")
    @classmethod
    def _check_webapp_name(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if not WEBAPP_NAME_SHAPE.fullmatch(value):
            raise ValueError("must be the Mini App's short name: 3-30 of A-Z, a-z, 0-9 and _")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _check_webhook_secret(
        cls, value: SecretStr | None, info: ValidationInfo
    ) -> SecretStr | None:
        if value is not None and not value.get_secret_value():
            value = None
        if value is None:
            if info.data.get("webhook_url"):
                raise ValueError("is required when WEBHOOK_URL is set")
            return None
        if not WEBHOOK_SECRET_SHAPE.fullmatch(value.get_secret_value()):
            raise ValueError(
                "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)"
            )
        return value

    @field_validator("webhook_port", mode="before")
    @classmethod
    def _empty_port(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_log_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("storage_chat_id", mode="before")
    @classmethod
    def _check_storage_chats(cls, value: object) -> object:
        if isinstance(value, int):
            value = (value,)
        elif isinstance(value, str):  # STORAGE_CHAT_ID=-1001234567890,-1009876543210 (or empty)
            value = tuple(part.strip() for part in value.split(",") if part.strip())
        if isinstance(value, tuple | list) and any(v in (0, "0") for v in value):
            raise ValueError("must be chat ids, e.g. -1001234567890 for a channel")
        return value

    @field_validator("owner_ids", mode="before")
    @classmethod
    def _check_owners(cls, value: object) -> object:
        if isinstance(value, int):
            value = (value,)
        elif isinstance(value, str):  # OWNER_IDS=12345,67890 (or empty)
            value = tuple(part.strip() for part in value.split(",") if part.strip())
        if isinstance(value, tuple | list) and not all(
            isinstance(v, int) and v > 0 or isinstance(v, str) and v.isdigit() and int(v) > 0
            for v in value
        ):
            raise ValueError("must be Telegram user ids (positive numbers), e.g. 12345,67890")
        return value

    @field_validator("log_level")
    @classmethod
    def _check_log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(sorted(LOG_LEVELS))}")
        return level

    @property
    def webhook_path(self) -> str:
        """The path of :attr:`webhook_url`, where the bot's server takes updates ("/" if none)."""
        return urlsplit(self.webhook_url or "").path or "/"

    @property
    def web_port(self) -> int | None:
        """The port the bot's HTTP server listens on, or None for no server (see
        :attr:`webhook_port`)."""
        if self.webhook_port is not None:
            return self.webhook_port
        return DEFAULT_WEBHOOK_PORT if self.webhook_url or self.webapp_url else None

    @property
    def log_level_number(self) -> int:
        """:attr:`log_level` as a :mod:`logging` level number."""
        return logging.getLevelNamesMapping()[self.log_level]


def describe_error(error: ValidationError) -> str:
    """Returns a one-line explanation of invalid settings, naming keys but never their values."""
    problems = []
    for item in error.errors(include_input=False, include_url=False):
        key = "_".join(str(part) for part in item["loc"]).upper() or "settings"
        if item["type"] == "missing":
            problems.append(f"{key} is required (set it in the environment or .env)")
        else:
            message = item["msg"].removeprefix("Value error, ")
            problems.append(f"{key}: {message}")
    return "; ".join(problems)
