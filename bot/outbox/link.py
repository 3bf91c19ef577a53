"""The bot's link to Telegram: what a failed call means, which calls are tried again, and whether
Telegram can be reached right now. Every call to the Bot API goes through :class:`TelegramLink`,
an aiogram request middleware, which sorts each failure (:func:`classify`): Telegram answered
(the caller's business; a refused token stops the bot), surely not sent (no connection, a
502/503), or maybe sent (a timeout after writing, a 500/504). Either of the last two starts an
outage, which the first answer of any call ends (:class:`Outage`; :attr:`TelegramLink.on_restored`
hooks run then); meanwhile the calls safe to repeat (:data:`SAFE_METHODS`) wait and are repeated
with backoff (:class:`Backoff`), a send only after "surely not sent" (else
:class:`TelegramSendUncertain`: no message is posted twice). :func:`abandon_when` bounds a wait.
The HTTP session is :mod:`.session`'s; the whole account is in docs/decisions.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, cast

from aiogram import methods
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
from aiohttp import ClientConnectorError, ConnectionTimeoutError

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
"""The same by their Bot API names, which also cover :class:`.session.EditMediaUnread`."""


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
