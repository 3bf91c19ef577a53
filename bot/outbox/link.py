"""The bot's link to Telegram: what a failed call means, which calls are tried again, and whether
Telegram can be reached right now.

Every call to the Bot API goes through :class:`TelegramLink`, an aiogram request middleware
(``bot.session.middleware(link)``). It sorts each failure into one of three kinds
(:func:`classify`):

* **Telegram answered** (a 4xx refusal, a 429 flood wait): the caller's business, raised as is.
  A 401 means the token was revoked: the link records :attr:`TelegramLink.refused` and the bot
  stops (exit status 2).
* **Surely not sent**: the connection was never made (refused, DNS failure, connect timeout), or
  the answer was 502/503, which comes from the proxy in front of the Bot API, i.e. Telegram saying
  it did not take the request (:class:`TelegramGatewayError`, from :class:`TelegramSession`).
* **Maybe sent**: a timeout or a reset after the request was written, a 500 or 504, an answer
  that could not be read. Telegram may have done what was asked.

A failure of either of the last two kinds starts an **outage** (one log line), unless another
call got an answer while the failed one was under way (then Telegram is up and this request is
the problem); the first answer of any call ends it (one log line, with its length; see
:class:`Outage`). During an
outage :attr:`TelegramLink.reachable` is clear and calls wait for Telegram, with exponential
backoff and jitter (:class:`Backoff`), waking early when another call gets through:

* calls that are safe to repeat (:data:`SAFE_METHODS`: getUpdates, getMe, deleteWebhook,
  setMyCommands, edits, callback answers, pins, getChat*...) are repeated after either kind of
  failure until they get an answer. An edit repeated after it did go through answers "message is
  not modified", which callers already take as done; a callback answer repeated answers "query
  is too old", which is dropped (below). getUpdates is repeated with the same offset, so the
  offset only moves past updates that were received (aiogram advances it as it hands them out);
* every other call, i.e. a send (sendMessage, sendPhoto, sendDocument...), is repeated only after
  a failure of the "surely not sent" kind. After a "maybe sent" failure it is not repeated, so
  that one message is never posted twice: the caller gets :class:`TelegramSendUncertain`. (What
  this means for a board: :meth:`bot.messages.kept.KeptMessage.show`.)

A safe call that keeps failing while other calls get answers (Telegram is up; this request is the
problem) gives up after :data:`ATTEMPTS_WHILE_UP` tries and raises its last error; getUpdates
never gives up. A caller can bound the wait with :func:`abandon_when` (a board whose newer state
is waiting does not need its older state sent): the call then raises :class:`Superseded`.

An answer to a callback query that arrives too late ("query is too old", 400: Telegram forgets a
press after some seconds, e.g. one delivered after an outage) is dropped quietly: it is reported
as done, since the spinner on the user's side stopped anyway and nothing depends on it.

Before the first answer (:meth:`TelegramLink.connect`) calls are tried once: the start-up loop
does its own retrying, logging every attempt. :meth:`TelegramLink.close`, once the bot has waited
its drain time, cancels the tasks still waiting for Telegram, so that a stopping bot never hangs
on an outage.

:meth:`TelegramLink.on_restored` hooks run when an outage ends, before any call that ended it
returns: the bot moves game deadlines there, before the first update received after the outage
is handed to a handler (see :mod:`bot.app`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, cast

from aiogram import methods
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from aiohttp import ClientConnectorError, ConnectionTimeoutError, FormData
from aiohttp.payload import BytesPayload, Payload

if TYPE_CHECKING:
    from aiogram import Bot

    from bot.metrics import Metrics

logger = logging.getLogger(__name__)

ATTEMPTS_WHILE_UP: Final = 5
"""Tries of a safe call that fails while other calls get answers, before it gives up."""

EXPIRED_QUERY: Final = "query is too old"
REASON_LENGTH: Final = 200
"""Longest reason written to the log (a proxy's error page can be long)."""

SAFE_METHODS: Final[frozenset[type[TelegramMethod[Any]]]] = frozenset(
    {
        methods.GetUpdates,
        methods.GetMe,
        methods.DeleteWebhook,
        methods.SetWebhook,
        methods.GetWebhookInfo,
        methods.SetMyCommands,
        methods.GetMyCommands,
        methods.DeleteMyCommands,
        methods.EditMessageText,
        methods.EditMessageCaption,
        methods.EditMessageMedia,
        methods.EditMessageReplyMarkup,
        methods.AnswerCallbackQuery,
        methods.PinChatMessage,
        methods.UnpinChatMessage,
        methods.UnpinAllChatMessages,
        methods.DeleteMessage,
        methods.GetChat,
        methods.GetChatMember,
        methods.GetChatMemberCount,
        methods.GetChatAdministrators,
        methods.SendChatAction,
    }
)
"""Methods whose repetition does no harm: they read, set a state, or act on one message."""

_SAFE_API_METHODS: Final = frozenset(method.__api_method__ for method in SAFE_METHODS)
"""The same by their Bot API names, which also cover this module's :class:`EditMediaUnread`."""


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


class TelegramGatewayError(TelegramServerError):
    """A 502 Bad Gateway or 503 Service Unavailable answer: the proxy in front of the Bot API
    did not pass the request on, so Telegram did not act on it."""


class TelegramSendUncertain(TelegramNetworkError):
    """A call that is not safe to repeat failed in a way that leaves open whether Telegram acted
    on it (a timeout or reset after the request was written, a 500 or 504); it was not repeated.
    The original error is its ``__cause__``."""


class Superseded(Exception):
    """Raised by a call waiting for Telegram once its :func:`abandon_when` condition holds."""


class TokenRefused(Exception):
    """Telegram refused the bot token: 401 Unauthorized, or 404 Not Found, which Telegram answers
    for a malformed token. Not a network failure: retrying cannot help."""

    def __init__(self, status: str) -> None:
        super().__init__(f"Telegram refused BOT_TOKEN ({status})")
        self.status = status


class Failure(Enum):
    """What a failed call tells about the request (see the module docstring)."""

    ANSWERED = "Telegram answered"
    NOT_SENT = "surely not sent"
    MAYBE_SENT = "maybe sent"


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between tries: ``base`` × ``factor``\\ :sup:`n` seconds before try n + 1, at most
    ``cap``, each shortened at random by up to ``jitter`` (a fraction), so that calls waiting
    together (or many bots after one outage) do not all retry at the same instant."""

    base: float = 1.0
    cap: float = 60.0
    factor: float = 2.0
    jitter: float = 0.2

    def delay(self, attempt: int, rand: Callable[[], float] = random.random) -> float:
        """The wait after failed try number ``attempt`` (0 for the first)."""
        raw = min(self.cap, self.base * self.factor ** min(attempt, 64))
        return raw * (1.0 - self.jitter * rand())


STARTUP_BACKOFF: Final = Backoff(base=1.0, cap=60.0)
"""Start-up: 1, 2, 4 ... 60 s between attempts to reach Telegram, forever."""

OUTAGE_BACKOFF: Final = Backoff(base=0.5, cap=15.0)
"""During an outage: 0.5, 1, 2 ... 15 s; a call that gets through wakes the others at once."""


@dataclass(frozen=True, slots=True)
class Outage:
    """A time Telegram could not be reached: from its last answer before the first failed call
    (``began``, a :func:`time.time`) to the first answer after it (``ended``). Counting from the
    last answer rather than the first failure errs on the players' side: an update sent in that
    gap may have been waiting for a call that was going to fail."""

    began: float
    ended: float
    reason: str

    @property
    def length(self) -> float:
        """Seconds without Telegram."""
        return self.ended - self.began


@dataclass(slots=True)
class _Down:
    began: float
    reason: str


_abandon: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "abandon_telegram_call_when", default=None
)


@contextlib.contextmanager
def abandon_when(condition: Callable[[], bool] | None) -> Iterator[None]:
    """Inside the block, a call waiting to be tried again raises :class:`Superseded` as soon as
    ``condition()`` is true (checked before every new try)."""
    token = _abandon.set(condition)
    try:
        yield
    finally:
        _abandon.reset(token)


def _root_cause(error: BaseException) -> BaseException | None:
    """The exception aiogram wrapped into ``error`` (it raises inside ``except``), if any."""
    cause = error.__cause__ or error.__context__
    while cause is not None and isinstance(cause, TelegramAPIError):
        cause = cause.__cause__ or cause.__context__
    return cause


def classify(error: Exception) -> Failure:
    """Whether Telegram answered, the request surely did not reach it, or it may have."""
    if isinstance(error, TelegramGatewayError):
        return Failure.NOT_SENT
    if isinstance(error, TelegramNetworkError):
        cause = _root_cause(error)
        if isinstance(cause, ClientConnectorError | ConnectionTimeoutError):
            return Failure.NOT_SENT  # no connection, so nothing was written
        return Failure.MAYBE_SENT
    if isinstance(error, TelegramServerError | ClientDecodeError):
        return Failure.MAYBE_SENT
    return Failure.ANSWERED


def _expired_answer(error: Exception, method: TelegramMethod[Any]) -> bool:
    return (
        isinstance(method, methods.AnswerCallbackQuery)
        and isinstance(error, TelegramBadRequest)
        and EXPIRED_QUERY in error.message
    )


def describe(error: BaseException, token: str = "") -> str:
    """A one-line reason for the log, with ``token`` masked (aiohttp puts URLs in messages)."""
    if isinstance(error, TelegramNetworkError):
        cause = _root_cause(error)
        if isinstance(cause, ClientConnectorError):
            why = cause.os_error.strerror or type(cause.os_error).__name__
            text = f"cannot connect to {cause.host}:{cause.port} ({why})"
        elif isinstance(cause, TimeoutError):
            text = "no answer in time"
        elif cause is not None:
            text = f"{type(cause).__name__}: {cause}".rstrip(": ")
        else:
            text = error.message
    elif isinstance(error, TelegramAPIError):
        text = error.message
    elif isinstance(error, ClientDecodeError):
        text = f"an answer that is not the Bot API's ({error.message})"
    else:
        text = f"{type(error).__name__}: {error}"
    text = " ".join(text.split())
    if token:
        text = text.replace(token, "<BOT_TOKEN>")
    return text if len(text) <= REASON_LENGTH else text[: REASON_LENGTH - 1] + "…"


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
        # aiogram validates each answer with ``Response[<the method's result type>]``, a class
        # pydantic builds once and keeps only weakly: the garbage collector takes it, and it is
        # built again (a fifth of a millisecond) for a later answer. Holding each one here keeps
        # it built.
        self._response_types: dict[Any, Any] = {}

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
        returning = method.__returning__
        if returning not in self._response_types:
            self._response_types[returning] = Response[returning]  # type: ignore[valid-type]
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


class TelegramLink(BaseRequestMiddleware):
    """The request middleware and the outage state described in the module docstring.

    One link serves one :class:`~aiogram.Bot`: :meth:`attach` it, :meth:`connect`, and
    :meth:`close` it when the bot stops.
    """

    def __init__(
        self,
        *,
        startup: Backoff = STARTUP_BACKOFF,
        outage: Backoff = OUTAGE_BACKOFF,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.startup_backoff = startup
        self.outage_backoff = outage
        self._clock = clock
        self.reachable = asyncio.Event()
        """Set while Telegram answers; clear before :meth:`connect` and during an outage."""
        self.outages: list[Outage] = []
        """Every outage that ended, oldest first (one during start-up included)."""
        self.on_restored: list[Callable[[Outage], Awaitable[None]]] = []
        """Awaited when an outage ends, before calls go on; errors are logged, not raised."""
        self.on_refused: list[Callable[[], None]] = []
        """Called when Telegram refuses the token in the middle of a run (401)."""
        self.refused: TokenRefused | None = None
        self.last_answer: float | None = None
        """When a call last got an answer (any answer, a refusal too)."""
        self.metrics: Metrics | None = None
        """Counts flood waits and times callback answers, when set."""
        self._token = ""
        self._connected = False
        self._closed = False
        self._down: _Down | None = None
        self._restoring: asyncio.Task[None] | None = None
        self._answers = 0
        self._callers: set[asyncio.Task[Any]] = set()

    def attach(self, bot: Bot) -> None:
        """Routes every call of ``bot`` through this link."""
        self._token = bot.token
        bot.session.middleware(self)

    async def connect(self, bot: Bot, stop: asyncio.Event) -> bool:
        """Calls getMe until Telegram answers, logging one line per failed attempt and waiting
        :attr:`startup_backoff` between them; returns False if ``stop`` is set first.

        The answer is cached by aiogram (``bot.me()``), so polling starts without asking again.

        :raises: :exc:`TokenRefused` when Telegram refuses the token.
        """
        attempt = 0
        first_failure: float | None = None
        reason = ""
        while not stop.is_set():
            try:
                await bot.me()
            except TelegramUnauthorizedError:
                raise TokenRefused("401 Unauthorized") from None
            except TelegramNotFound:
                raise TokenRefused("404 Not Found") from None
            except (TelegramNetworkError, TelegramServerError, ClientDecodeError) as error:
                delay = self.startup_backoff.delay(attempt)
                reason = describe(error, self._token)
                logger.warning("Telegram unreachable: %s; retrying in %.1f s", reason, delay)
            except TelegramRetryAfter as error:
                delay = float(error.retry_after)
                reason = "flood control"
                if self.metrics is not None:
                    self.metrics.flood_wait(error.method.__api_method__, delay)
                logger.warning("Telegram asks to wait (flood control); retrying in %.1f s", delay)
            else:
                now = self._clock()
                self._connected = True
                self.last_answer = now
                if first_failure is not None:
                    logger.warning("Telegram answered after %.1f s", now - first_failure)
                    await self._run_hooks(Outage(first_failure, now, reason))
                self.reachable.set()
                return True
            if first_failure is None:
                first_failure = self._clock()
            attempt += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
        return False

    def close(self) -> None:
        """The bot is stopping: cancels every task still waiting for (or talking to) Telegram;
        any later call is cancelled at once."""
        self._closed = True
        current = asyncio.current_task()
        for task in list(self._callers):
            if task is not current:
                task.cancel()

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        if self._closed:
            raise asyncio.CancelledError()
        if not self._connected:
            return await make_request(bot, method)
        task = asyncio.current_task()
        if task is not None:
            self._callers.add(task)
        try:
            return await self._call(make_request, bot, method)
        finally:
            if task is not None:
                self._callers.discard(task)

    async def _call(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        safe = method.__api_method__ in _SAFE_API_METHODS
        polling = isinstance(method, methods.GetUpdates)
        attempt = 0
        while_up = 0
        while True:
            answers_before = self._answers
            try:
                response = await make_request(bot, method)
            except (TelegramAPIError, ClientDecodeError) as error:
                failure = classify(error)
                if failure is Failure.ANSWERED:
                    await self._answered()
                    if isinstance(error, TelegramRetryAfter) and self.metrics is not None:
                        self.metrics.flood_wait(method.__api_method__, error.retry_after)
                    if _expired_answer(error, method):
                        logger.info("a callback answer came too late (the query expired); dropped")
                        return cast(Response[TelegramType], Response[bool](ok=True, result=True))
                    if isinstance(error, TelegramUnauthorizedError):
                        self._refuse()
                    raise
                up = self._answers != answers_before  # others got answers while this one failed
                if not up:
                    self._failed(error)
                if not safe and failure is Failure.MAYBE_SENT:
                    raise TelegramSendUncertain(
                        method=method, message=f"not repeated: {describe(error, self._token)}"
                    ) from error
                if up:  # Telegram is there: this request is the problem
                    while_up += 1
                    if while_up >= ATTEMPTS_WHILE_UP and not polling:
                        raise
                await self._pause(attempt)
                attempt += 1
            else:
                await self._answered()
                if self.metrics is not None and isinstance(method, methods.AnswerCallbackQuery):
                    self.metrics.tap_answered()
                return response

    def _refuse(self) -> None:
        if self.refused is None:
            self.refused = TokenRefused("401 Unauthorized")
            for callback in self.on_refused:
                callback()

    async def _pause(self, attempt: int) -> None:
        delay = self.outage_backoff.delay(attempt)
        if self.reachable.is_set():  # Telegram answers others: just wait
            await asyncio.sleep(delay)
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.reachable.wait(), delay)
        condition = _abandon.get()
        if condition is not None and condition():
            raise Superseded()

    def _failed(self, error: Exception) -> None:
        if self._down is not None:
            return
        now = self._clock()
        began = self.last_answer if self.last_answer is not None else now
        self._down = _Down(began=began, reason=describe(error, self._token))
        self.reachable.clear()
        logger.warning(
            "Telegram outage began: %s; calls wait for it and are retried", self._down.reason
        )

    async def _answered(self) -> None:
        self._answers += 1
        self.last_answer = self._clock()
        if self._down is not None and self._restoring is None:
            outage = Outage(self._down.began, self.last_answer, self._down.reason)
            self._restoring = asyncio.create_task(self._restore(outage), name="telegram-restored")
        if self._restoring is not None:
            # Shielded: a caller cancelled meanwhile must not cut the hooks short (or run them
            # twice); callers that got answers wait for them, so no update is handled before.
            await asyncio.shield(self._restoring)

    async def _restore(self, outage: Outage) -> None:
        try:
            logger.warning("Telegram outage ended after %.1f s", outage.length)
            await self._run_hooks(outage)
        finally:
            self._down = None
            self._restoring = None
            self.reachable.set()

    async def _run_hooks(self, outage: Outage) -> None:
        self.outages.append(outage)
        for hook in self.on_restored:
            try:
                await hook(outage)
            except Exception:
                logger.exception("a hook after the outage failed")
