"""The HTTP session to the Bot API (:class:`TelegramSession`, aiogram's, made to tell a
502/503 answer, which Telegram did not take, from other server errors; to send an upload held
in memory as one body; to read a pressed message's keyboard as its first button only:
:func:`read_json`), and ``editMessageMedia`` with its answer left unread
(:class:`EditMediaUnread`). What a failure means is :mod:`.link`'s."""

from __future__ import annotations

import contextlib
import json
import secrets
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, cast

from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import ClientDecodeError, TelegramAPIError, TelegramServerError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from aiohttp import FormData
from aiohttp.payload import BytesPayload, Payload

from .link import TelegramGatewayError

if TYPE_CHECKING:
    from aiogram import Bot


class EditMediaUnread(TelegramMethod[bool | dict[str, Any]]):
    """``editMessageMedia`` whose answer (the edited message) is left as the JSON Telegram sent
    instead of being read into aiogram's types: for a caller that does not look at it, like the
    board publisher, for which reading a board message (its photo sizes, its buttons) cost
    about 0.1 ms an edit."""

    __returning__ = bool | dict[str, Any]
    __api_method__ = "editMessageMedia"

    chat_id: int
    message_id: int
    media: InputMediaPhoto
    reply_markup: InlineKeyboardMarkup | None = None


def read_json(content: str | bytes) -> Any:
    """``json.loads`` for what Telegram sends, polled or posted to the webhook, less the
    keyboard of each pressed message (``callback_query.message.reply_markup``) but its first
    button: aiogram would build a model of every button of the board the player tapped (0.14
    ms of the 0.33 a tap's update took to read, on a slow machine), and the press's own data
    says what was pressed. The first button says what kind of message was pressed (a language
    picker's is a language: :func:`bot.handlers.language.on_pick_language` checks it)."""
    data = json.loads(content)
    if isinstance(data, dict):
        updates = data.get("result") if "ok" in data else [data]
        if isinstance(updates, list):
            for update in updates:
                query = update.get("callback_query") if isinstance(update, dict) else None
                message = query.get("message") if isinstance(query, dict) else None
                if isinstance(message, dict):
                    _first_button_only(message)
    return data


def _first_button_only(message: dict[str, Any]) -> None:
    markup = message.pop("reply_markup", None)
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    first = rows[0] if isinstance(rows, list) and rows else None
    if isinstance(first, list) and first:
        message["reply_markup"] = {"inline_keyboard": [first[:1]]}


class TelegramSession(AiohttpSession):
    """aiogram's HTTP session, telling a 502/503 answer (Telegram did not take the request) from
    other server errors (it may have): :class:`TelegramGatewayError`. Proxies answer those with
    an HTML page at times, which is not JSON; the status code decides then too. An upload of
    files held in memory (every board) is sent as one body (:meth:`build_form_data`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("json_loads", read_json)
        super().__init__(*args, **kwargs)
        self._response_types: dict[Any, Any] = {}
        """``Response[<a method's result type>]`` by result type (see :meth:`check_response`)."""

    def build_form_data(self, bot: Bot, method: TelegramMethod[TelegramType]) -> FormData:
        """The request's fields as aiogram's own session makes them, with two differences that
        change no byte Telegram reads. When every file is in memory (a board, a game's moves)
        the multipart body is built whole and written at once: aiogram streams each file, so
        aiohttp sent the body of unknown length chunk by chunk, some twenty socket writes for
        one board (more than half of an edit's CPU). And the empty fields are left out of the
        dump: aiogram drops them from what it sends anyway, after walking them one by one.
        And an inline keyboard's dump is written as JSON at once: it holds nothing that
        aiogram's walk would change (no files, dates or default values), and the walk took
        0.15 ms for a board's 14 buttons on a slow machine."""
        files: dict[str, InputFile] = {}
        fields = []
        inline_keyboard = isinstance(getattr(method, "reply_markup", None), InlineKeyboardMarkup)
        for key, value in method.model_dump(warnings=False, exclude_none=True).items():
            if key == "reply_markup" and inline_keyboard:
                prepared = self.json_dumps(value)
            else:
                prepared = self.prepare_value(value, bot=bot, files=files)
            if prepared:
                fields.append((key, prepared))
        if files and all(isinstance(file, BufferedInputFile) for file in files.values()):
            buffered = cast(dict[str, BufferedInputFile], files)
            return _WholeBody(
                fields, {key: (f.filename or key, f.data) for key, f in buffered.items()}
            )
        form = FormData(quote_fields=False)
        for key, prepared in fields:
            form.add_field(key, prepared)
        for key, file in files.items():
            form.add_field(key, file.read(bot), filename=file.filename or key)
        return form

    def check_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, content: str
    ) -> Response[TelegramType]:
        """A successful answer read with the method's ``Response`` type built once for the
        session. aiogram asks pydantic for ``Response[<result type>]`` on every answer, and
        pydantic keeps the classes it builds in a cache of the calling task's context (since
        2.11): a task whose context began without one starts its own, empty, and the class was
        built again (about a millisecond, on a slow machine) for nearly every board edit.
        Anything but a success (an error, an answer that does not read) is aiogram's to tell."""
        returning = method.__returning__
        response_type = self._response_types.get(returning)
        if response_type is None:
            response_type = self._response_types[returning] = Response[returning]  # type: ignore[valid-type]
        if HTTPStatus.OK <= status_code <= HTTPStatus.IM_USED:
            with contextlib.suppress(Exception):  # aiogram's own reading says what is wrong
                response = response_type.model_validate(
                    self.json_loads(content), context={"bot": bot}
                )
                if response.ok:
                    return cast(Response[TelegramType], response)
        try:
            return super().check_response(bot, method, status_code, content)
        except (TelegramServerError, ClientDecodeError) as error:
            if status_code not in (502, 503):
                raise
            message = error.message if isinstance(error, TelegramAPIError) else "not JSON"
            raise TelegramGatewayError(method=method, message=message) from None


class _WholeBody(FormData):
    """A multipart/form-data body built in memory (fields, then files as ``name: (filename,
    bytes)``), which aiohttp sends as one payload of known length."""

    def __init__(self, fields: list[tuple[str, Any]], files: dict[str, tuple[str, bytes]]) -> None:
        super().__init__(quote_fields=False)
        boundary = secrets.token_hex(16)
        separator = f"--{boundary}\r\n".encode()
        parts: list[bytes] = []
        for name, value in fields:
            parts += (
                separator,
                f'Content-Disposition: form-data; name="{_quoted(name)}"\r\n'
                "Content-Type: text/plain; charset=utf-8\r\n\r\n".encode(),
                # a str (aiogram's fields are), perhaps an enum's, whose str() is its name
                value.encode() if isinstance(value, str) else str(value).encode(),
                b"\r\n",
            )
        for name, (filename, data) in files.items():
            parts += (
                separator,
                f'Content-Disposition: form-data; name="{_quoted(name)}"; '
                f'filename="{_quoted(filename)}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n".encode(),
                data,
                b"\r\n",
            )
        parts.append(f"--{boundary}--\r\n".encode())
        self._body = BytesPayload(
            b"".join(parts), content_type=f"multipart/form-data; boundary={boundary}"
        )

    def __call__(self) -> Payload:
        return self._body


def _quoted(text: str) -> str:
    """``text`` for a quoted header parameter (RFC 7578): quotes and backslashes escaped, line
    breaks (which would end the header) left out."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "")
