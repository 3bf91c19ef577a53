"""Middlewares: updates during a database outage answered "try again", taps paced per user,
each update handled once, banned users turned away, users remembered, commands that need a
user refused to a group or a channel, every press answered, expected refusals as alerts."""

from __future__ import annotations

import functools
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from aiogram import BaseMiddleware
from aiogram.dispatcher.event.handler import HandlerObject
from aiogram.dispatcher.flags import get_flag
from aiogram.methods import AnswerCallbackQuery, TelegramMethod
from aiogram.types import CallbackQuery, Chat, Message, TelegramObject, Update, User
from aiogram.utils.callback_answer import CallbackAnswer, CallbackAnswerMiddleware
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _
from cachetools import LRUCache, TTLCache

from bot.i18n import N_, user_locale
from bot.metrics import Metrics
from bot.model import DatabaseUnavailable
from bot.services import GameError, GameService, Users
from bot.services.database_outages import DatabaseWatch
from bot.services.moderation import Moderation
from bot.views.texts import explain

logger = logging.getLogger(__name__)

Handler: TypeAlias = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


TRY_AGAIN_TEXT: Final = N_("The bot cannot reach its records right now: try again in a minute.")


class WaitOutDatabase(BaseMiddleware):
    """Tells whoever taps or sends a command while the database cannot be reached to try again
    (:class:`~bot.services.database_outages.DatabaseWatch`), with nothing the database would
    be needed for: a tap's answer and a command's reply are Telegram's alone. During a known
    outage the update is not even tried; a failure to reach the database found on the way
    (the update's claim, the user's record, a handler) starts one.

    The first ``update`` middleware after the tracker. A tap whose press is being answered
    already (a handler failed, inside :class:`CallbackAnswers`) gets its "try again" from
    :attr:`pressed`, an inner ``callback_query`` middleware after :class:`CallbackAnswers`."""

    def __init__(self, i18n: I18n, *, in_response: bool = False) -> None:
        self._i18n = i18n
        self._in_response = in_response
        self.pressed = _TryAgainPressed(self)

    def text(self, user: User | None) -> str:
        """The "try again" in the user's Telegram language (their choice is in the database)."""
        locale = user_locale(None, user.language_code if user is not None else None)
        return self._i18n.gettext(TRY_AGAIN_TEXT, locale=locale)

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        watch: DatabaseWatch | None = data.get("database_watch")
        if watch is None:
            return await handler(event, data)
        if watch.reachable.is_set():
            try:
                return await handler(event, data)
            except DatabaseUnavailable as error:
                watch.failed(error)
        assert isinstance(event, Update)
        logger.info("update %d: the database is unreachable; asked to try again", event.update_id)
        text = self.text(data.get("event_from_user"))
        if event.callback_query is not None:
            answer = event.callback_query.answer(text)
            return await _give(answer, data, in_response=self._in_response)
        if event.message is not None and _is_command(event.message):
            await event.message.reply(text)
        return None


class _TryAgainPressed(BaseMiddleware):
    """A tap whose handler could not reach the database: its answer (sent by
    :class:`CallbackAnswers`) says to try again."""

    def __init__(self, outer: WaitOutDatabase) -> None:
        self._outer = outer

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        try:
            return await handler(event, data)
        except DatabaseUnavailable as error:
            watch: DatabaseWatch | None = data.get("database_watch")
            answer: CallbackAnswer | None = data.get("callback_answer")
            if watch is None or answer is None:
                raise
            watch.failed(error)
            answer.text = self._outer.text(data.get("event_from_user"))
            answer.show_alert = False
            return None


REFUSALS_PER_SECOND: Final = 2.0
"""After a burst of :data:`REFUSAL_BURST` refused taps, a user's taps are let through at this
pace; the others are answered with a short note and go no further (no database, no edit)."""
REFUSAL_BURST: Final = 8.0
TOO_FAST_TEXT: Final = N_("Too many taps: wait a moment.")
KEPT: Final = 10_000
"""Users whose tap allowance, or whose names as last seen, a middleware keeps at most, the
least recently used let go first (a user let go is simply met anew)."""


@dataclass(slots=True)
class _Allowance:
    tokens: float
    updated: float


class TapThrottle(BaseMiddleware):
    """Answers at once the taps of a user who keeps tapping buttons that are refused (stale,
    forged, not theirs), before anything else runs: such a flood costs the bot a token bucket
    and an answer, never a database write or a board edit, so it cannot slow other games or
    spend a group's edits. Taps that play are not slowed: only refusals keep their allowance
    spent (or more than a burst of taps in flight at once).

    Two parts: the throttle itself is the first ``update`` middleware after the tracker (before
    the update is claimed as handled: a throttled tap is not recorded, the player can simply tap
    again); :attr:`counter` is a ``callback_query`` middleware between
    :class:`CallbackAnswers` and :class:`GameErrorAlerts` that counts the refusals."""

    def __init__(
        self,
        i18n: I18n,
        *,
        per_second: float = REFUSALS_PER_SECOND,
        burst: float = REFUSAL_BURST,
        clock: Callable[[], float] = time.monotonic,
        in_response: bool = False,
    ) -> None:
        """``in_response``: answer in the answer to Telegram's POST (webhook mode), as
        :class:`CallbackAnswers` does."""
        self.in_response = in_response
        self._i18n = i18n
        self._per_second = per_second
        self._burst = burst
        self._clock = clock
        # an allowance untouched for as long as it takes to fill up again is full: forgotten
        self._users: TTLCache[int, _Allowance] = TTLCache(KEPT, burst / per_second, timer=clock)
        self.counter = _CountRefusals(self)

    def _allowance(self, user_id: int) -> _Allowance:
        now = self._clock()
        allowance = self._users.get(user_id) or _Allowance(self._burst, now)
        allowance.tokens = min(
            self._burst, allowance.tokens + (now - allowance.updated) * self._per_second
        )
        allowance.updated = now
        self._users[user_id] = allowance  # kept for a full refill from now
        return allowance

    def take(self, user_id: int) -> bool:
        """Takes one from ``user_id``'s allowance for a tap about to be handled; False (taking
        nothing) when it is spent. Taken before the tap is handled, so that a burst of taps
        arriving together is bounded too."""
        allowance = self._allowance(user_id)
        if allowance.tokens < 1:
            return False
        allowance.tokens -= 1
        return True

    def give_back(self, user_id: int) -> None:
        """Returns what :meth:`take` took, for a tap that was not refused."""
        allowance = self._allowance(user_id)
        allowance.tokens = min(self._burst, allowance.tokens + 1)

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        query = event.callback_query if isinstance(event, Update) else None
        if query is None or self.take(query.from_user.id):
            return await handler(event, data)
        metrics: Metrics | None = data.get("metrics")
        if metrics is not None:
            metrics.tap("throttled")
        users: Users | None = data.get("users")
        known = await users.get(query.from_user.id) if users is not None else None
        locale = user_locale(known.locale if known else None, query.from_user.language_code)
        answer = query.answer(self._i18n.gettext(TOO_FAST_TEXT, locale=locale))
        return await _give(answer, data, in_response=self.in_response)


class _CountRefusals(BaseMiddleware):
    """Gives the :class:`TapThrottle` back the allowance of each tap that was not refused (not
    answered with an alert): only refusals stay spent. Counts each tap's outcome in the
    ``metrics`` (workflow data), since here is where it is known."""

    def __init__(self, throttle: TapThrottle) -> None:
        self._throttle = throttle

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        refused = True
        try:
            result = await handler(event, data)
            answer: CallbackAnswer | None = data.get("callback_answer")
            refused = answer is not None and answer.show_alert is True
            return result
        finally:
            if isinstance(event, CallbackQuery) and not refused:
                self._throttle.give_back(event.from_user.id)
            metrics: Metrics | None = data.get("metrics")
            if metrics is not None:
                metrics.tap("refused" if refused else "played")


class HandleOnce(BaseMiddleware):
    """Drops an update whose id was handled before: Telegram delivers an update again when the
    bot stopped before confirming it. The id is recorded before handling, so an update that was
    being handled when the process died is not replayed either (its taps can simply be made
    again; nothing half-done is committed)."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        service: GameService | None = data.get("game_service")
        if (
            service is not None
            and isinstance(event, Update)
            and not await service.claim_update(event.update_id)
        ):
            logger.info("update %d was handled already; dropped", event.update_id)
            return None
        return await handler(event, data)


BANNED_TEXT: Final = N_("You are banned from this bot.")
BANNED_REPLY_SECONDS: Final = 60.0
"""A banned user's commands get at most one answer in this time; the others none."""


class TurnAwayBanned(BaseMiddleware):
    """Turns away the updates of a banned user (:class:`~bot.services.moderation.Moderation`)
    before anything is remembered or done: a tap is answered "banned" (an alert), a command
    once a minute (:data:`BANNED_REPLY_SECONDS`) too, an inline query with nothing; the rest
    (plain messages, chosen inline results, their chats' changes) is dropped unanswered.
    Register it as an ``update`` middleware after :class:`HandleOnce`."""

    def __init__(
        self,
        i18n: I18n,
        *,
        in_response: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._i18n = i18n
        self._in_response = in_response
        self._clock = clock
        self._answered: dict[int, float] = {}

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        moderation: Moderation | None = data.get("moderation")
        user: User | None = data.get("event_from_user")
        if moderation is None or user is None or not await moderation.is_banned(user.id):
            return await handler(event, data)
        assert isinstance(event, Update)
        logger.debug("update %d of banned user %d turned away", event.update_id, user.id)
        text = self._i18n.gettext(BANNED_TEXT, locale=user_locale(None, user.language_code))
        if event.callback_query is not None:
            answer = event.callback_query.answer(text, show_alert=True)
            return await _give(answer, data, in_response=self._in_response)
        if event.inline_query is not None:
            return await event.inline_query.answer([], cache_time=60, is_personal=True)
        message = event.message
        if message is not None and _is_command(message) and self._may_answer(user.id):
            await message.reply(text)
        return None

    def _may_answer(self, user_id: int) -> bool:
        now = self._clock()
        if now - self._answered.get(user_id, float("-inf")) < BANNED_REPLY_SECONDS:
            return False
        if len(self._answered) > 10_000:
            self._answered = {
                k: v for k, v in self._answered.items() if now - v < BANNED_REPLY_SECONDS
            }
        self._answered[user_id] = now
        return True


def _is_command(message: Message) -> bool:
    """Whether the message is a command (a ``bot_command`` entity where it starts)."""
    first = next(iter(message.entities or ()), None)
    return first is not None and first.type == "bot_command" and first.offset == 0


class RememberUsers(BaseMiddleware):
    """Records who sent each update (names for captions, @usernames for challenges), writing
    only when something changed, and hands handlers the stored ``user`` (the ``player``)."""

    def __init__(self) -> None:
        self._known: LRUCache[int, tuple[str | None, str, str | None, bool]] = LRUCache(KEPT)

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        users: Users | None = data.get("users")
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        if users is not None and user is not None and not user.is_bot:
            private = chat is not None and chat.type == "private"
            key = (user.username, user.first_name, user.language_code, private)
            player = await users.get(user.id) if self._known.get(user.id) == key else None
            if player is None:  # new, changed, or forgotten since (/forget)
                player = await users.see(
                    user.id,
                    username=user.username,
                    first_name=user.first_name,
                    language_code=user.language_code,
                    private_chat=private,
                )
                self._known[user.id] = key
            data["player"] = player
        return await handler(event, data)


NO_SENDER_TEXT: Final = N_(
    "I cannot tell who you are: this message was sent on behalf of a group or a channel. "
    "Write as yourself (not anonymously) to use this command."
)


class NeedsSender(BaseMiddleware):
    """Answers a message sent on behalf of a chat (an anonymous group admin's, or one sent as a
    channel: Telegram names a bot as its sender, and the chat as its ``sender_chat``) that
    reached a handler needing the sender (a ``player`` parameter without a default, which
    :class:`RememberUsers` fills in for people only): the sender is told to write as
    themselves, and nothing else happens. A handler that does without (``player: User | None =
    None``) runs as always. Register it as an inner ``message`` middleware: it reads which
    handler the filters chose."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        chosen: HandlerObject | None = data.get("handler")
        if (
            "player" not in data
            and isinstance(event, Message)
            and chosen is not None
            and _needs_player(chosen.callback)
        ):
            await event.reply(_(NO_SENDER_TEXT))
            return None
        return await handler(event, data)


@functools.cache
def _needs_player(callback: Callable[..., Any]) -> bool:
    """Whether handler ``callback`` takes a ``player`` it cannot do without."""
    parameter = inspect.signature(callback).parameters.get("player")
    return parameter is not None and parameter.default is inspect.Parameter.empty


async def _give(
    answer: AnswerCallbackQuery, data: dict[str, Any], *, in_response: bool
) -> AnswerCallbackQuery | None:
    """Gives a press its ``answer``: sent to Telegram now, or (``in_response``, webhook mode)
    returned to go back in the answer to Telegram's POST, the tap-to-answer clock stopped here
    since no request of ours will stop it."""
    if not in_response:
        await answer
        return None
    metrics: Metrics | None = data.get("metrics")
    if metrics is not None:
        metrics.tap_answered()
    return answer


class CallbackAnswers(CallbackAnswerMiddleware):
    """Answers every press once, after its handler, as aiogram's ``CallbackAnswerMiddleware``
    does (handlers fill in ``callback_answer``).

    With ``in_response`` (webhook mode) the answer of a press handled without an error goes
    back in the answer to Telegram's POST, which Telegram then carries out: one request to
    Telegram less per tap. Telegram reports nothing of such a call, and an answer that fails
    costs only the spinner, so nothing is lost; the tap-to-answer clock (``metrics``) stops
    when the handler is done. A handler that returns a method of its own, or fails, is answered
    by a request as before (a failure's apology comes from further out)."""

    def __init__(self, *, in_response: bool) -> None:
        super().__init__()
        self.in_response = in_response

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if not self.in_response or not isinstance(event, CallbackQuery):
            return await super().__call__(handler, event, data)
        answer = data["callback_answer"] = self.construct_callback_answer(
            properties=get_flag(data, "callback_answer")
        )
        try:
            result = await handler(event, data)
        except BaseException:
            if not answer.disabled:
                await self.answer(event, answer)
            raise
        if answer.disabled:
            return result
        if isinstance(result, TelegramMethod):  # the response is taken: ask Telegram directly
            await self.answer(event, answer)
            return result
        return await _give(self.answer(event, answer), data, in_response=True)


class GameErrorAlerts(BaseMiddleware):
    """Shows an expected refusal (not your turn, a stale button, a self-challenge...): as an
    alert on the pressed button, or as a reply to a command. For callback queries register it
    after :class:`CallbackAnswers`, which then sends the answer."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        try:
            return await handler(event, data)
        except GameError as error:
            if isinstance(event, Message):
                await event.reply(explain(error))
                return None
            answer: CallbackAnswer | None = data.get("callback_answer")
            if answer is None or not isinstance(event, CallbackQuery):
                raise
            answer.text = explain(error, markup=False)
            answer.show_alert = True
            return None
