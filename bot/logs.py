"""Log records that say which update and which game they are about, as text or JSON, with the
token masked.

Two context variables carry the ids: the update tracker (``bot.app``) sets the update id when
an update enters the dispatcher, and :func:`note_game` sets the game id where a game is acted
on (the game service reads it, a board is sent). aiogram handles each update in a task of its
own, and a task starts with a copy of its creator's context, so what one update sets is seen by
every record of that update (aiogram's own "Update id=… is handled" line included) and by no
other update. :class:`LogContext`, a :class:`logging.Filter` on the handler, copies them onto
each record as ``update_id`` and ``game_id``.

Standard library only: the services note games too, and they must not learn of Telegram.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Final

TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MASK: Final = "<BOT_TOKEN>"

_update_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("update_id", default=None)
_game_id: contextvars.ContextVar[int | None] = contextvars.ContextVar("game_id", default=None)

_UNSET: Final[Any] = object()


def note_update(update_id: int | None) -> None:
    """Records that the current task handles ``update_id`` (and no game yet)."""
    _update_id.set(update_id)
    _game_id.set(None)


def note_game(game_id: int | None) -> None:
    """Records that the current task acts on game ``game_id`` from now on."""
    _game_id.set(game_id)


@contextlib.contextmanager
def log_context(*, update_id: int | None = _UNSET, game_id: int | None = _UNSET) -> Iterator[None]:
    """Inside the block records carry these ids (None: none); afterwards the previous ones,
    whatever :func:`note_game` set inside. For long-lived tasks (the timers, a board's worker)
    that act on one game after another."""
    tokens = []
    if update_id is not _UNSET:
        tokens.append((_update_id, _update_id.set(update_id)))
    if game_id is not _UNSET:
        tokens.append((_game_id, _game_id.set(game_id)))
    try:
        yield
    finally:
        for variable, token in reversed(tokens):
            variable.reset(token)


def context(*, update_id: int | None, game_id: int | None) -> contextvars.Context:
    """A copy of the current context with these ids, for a task that works apart from the
    update that starts it (``asyncio.create_task(..., context=...)``)."""
    copy = contextvars.copy_context()
    copy.run(_update_id.set, update_id)
    copy.run(_game_id.set, game_id)
    return copy


def current_ids() -> tuple[int | None, int | None]:
    """The (update id, game id) records get now."""
    return _update_id.get(), _game_id.get()


class LogContext(logging.Filter):
    """Puts ``update_id`` and ``game_id`` (None when unknown) on every record it sees.

    A record logged from another thread (the drawing thread) has that thread's context, so
    usually neither."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.update_id, record.game_id = current_ids()
        return True


class RedactingFormatter(logging.Formatter):
    """Formats records with every occurrence of a secret (the bot token) masked, tracebacks
    too, and the record's ids after the message: ``… update=100001 game=7`` (each only when
    known; :class:`LogContext` must be on the handler)."""

    def __init__(self, fmt: str, secret: str) -> None:
        super().__init__(fmt)
        self._secret = secret

    def formatMessage(self, record: logging.LogRecord) -> str:  # logging's name
        text = super().formatMessage(record)
        for key in ("update", "game"):
            value = getattr(record, f"{key}_id", None)
            if value is not None:
                text += f" {key}={value}"
        return text

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))

    def redact(self, text: str) -> str:
        """``text`` with the secret masked."""
        return text.replace(self._secret, MASK) if self._secret else text


class JsonFormatter(RedactingFormatter):
    """One JSON object per record, on one line: ``time`` (UTC, ISO 8601), ``level``,
    ``logger``, ``message``, ``update_id``, ``game_id`` and ``exception`` (the traceback, or
    null). Each text is masked before it is encoded, so an escape cannot hide the token."""

    def __init__(self, secret: str) -> None:
        super().__init__("%(message)s", secret)

    def format(self, record: logging.LogRecord) -> str:
        exception = None
        if record.exc_info:
            exception = self.formatException(record.exc_info)
        elif record.exc_text:
            exception = record.exc_text
        if record.stack_info:
            stack = self.formatStack(record.stack_info)
            exception = f"{exception}\n{stack}" if exception else stack
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": self.redact(record.getMessage()),
            "update_id": getattr(record, "update_id", None),
            "game_id": getattr(record, "game_id", None),
            "exception": self.redact(exception) if exception is not None else None,
        }
        return json.dumps(entry, ensure_ascii=False)
