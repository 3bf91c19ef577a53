"""Composition of the bot: Bot, Dispatcher, services, the outbox, the publishers, the timers
and who listens to the change feed. Nothing is created at import time. :func:`run` is the whole
life of one bot process and is what both ``python -m bot`` and the end-to-end tests call; how it
takes updates is :mod:`bot.runners`', the updates in flight are :mod:`bot.update_tracker`'s.

Outages and the clock follow a chess-clock rule: no player loses on time because Telegram was
unreachable (the timers enforce no deadline meanwhile; when it ends, before any update received
after it is handled, the deadlines are moved later by its length: :meth:`.Deadlines.postpone`).
The whole account is in docs/decisions.md.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Final, TypeAlias

from aiogram import BaseMiddleware, Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import (
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
)
from aiogram.utils.i18n import I18n

from bot.analyst import Analyst
from bot.config import Settings
from bot.engine import stepwise
from bot.handlers import get_routers
from bot.handlers.middlewares import (
    ButtonsInPlace,
    CallbackAnswers,
    GameErrorAlerts,
    HandleOnce,
    NeedsSender,
    RememberUsers,
    TapThrottle,
    TurnAwayBanned,
    WaitOutDatabase,
)
from bot.http_server import Webhook, WebServer
from bot.i18n import DEFAULT_LOCALE, LANGUAGE_CODES, LanguageMiddleware, create_i18n, locale_of
from bot.messages.board_links import BoardAppLinks
from bot.messages.boards import BoardPublisher
from bot.messages.broadcasts import Broadcaster
from bot.messages.challenges import post_rematch
from bot.messages.daily import DailyPublisher
from bot.messages.league import LeaguePublisher
from bot.messages.learning import Coach, LessonBoards
from bot.messages.members import member_check
from bot.messages.tournaments import TournamentPublisher
from bot.metrics import Metrics
from bot.outbox import Outbox
from bot.outbox.link import Outage, TelegramLink
from bot.outbox.pace import BoardPace, RateLimiter, SharedRateLimiter
from bot.outbox.session import TelegramSession
from bot.runners import poll, serve_webhook, stop_on
from bot.services import Users
from bot.services.computer import Brain
from bot.services.deadlines import Deadlines
from bot.services.planner import Planner
from bot.services.root import Services, compose
from bot.storage import Store, open_database
from bot.timers import Timers
from bot.update_tracker import UpdateTracker
from bot.views.commands import Scope, command_menu
from bot.webapp.server import BoardApp

logger = logging.getLogger(__name__)

MenuScope: TypeAlias = (
    BotCommandScopeDefault
    | BotCommandScopeAllPrivateChats
    | BotCommandScopeAllGroupChats
    | BotCommandScopeAllChatAdministrators
)

DRAIN_SECONDS: Final = 10.0
"""How long a stopping bot waits for updates still being handled and boards still being sent;
then whatever still waits for Telegram is cancelled."""

INLINE_WITHOUT_STORAGE: Final = (
    "inline mode is on (@BotFather /setinline) but STORAGE_CHAT_ID is empty: inline games get "
    "text boards, not pictures. Set STORAGE_CHAT_ID to a private channel where the bot may "
    "post (see .env.example), or turn inline mode off with /setinline"
)

ServicesFactory: TypeAlias = Callable[[Settings], AbstractAsyncContextManager[Services]]


@asynccontextmanager
async def build_services(
    settings: Settings, *, dice: random.Random | None = None, brain: Brain | None = None
) -> AsyncIterator[Services]:
    """Opens the database and composes the services (:func:`bot.services.root.compose`);
    stops the analyses under way and closes the database (and the computer's worker processes,
    unless ``brain`` was given) after polling.

    Each field of :class:`~bot.services.root.Services` becomes workflow data of the
    dispatcher by its name, so a handler declaring ``games: Games`` receives
    ``services.games``.
    """
    database = await open_database(settings.database)
    own_brain = brain is None
    thinking = brain or Brain(settings.computer_workers)
    services: Services | None = None
    planner = Planner()  # heavy turns searched in a process of their own
    stepwise.set_planner(planner.plan)
    try:
        services = compose(
            Store(database),
            dice or random.SystemRandom(),  # a seeded one only in tests
            thinking,
            move_seconds=settings.move_seconds,
            computer_pause=settings.computer_pause_seconds,
            planner=planner,
            owners=frozenset(settings.owner_ids),
        )
        await services.feed.start()  # the other workers' changes
        yield services
    finally:
        if services is not None:
            await services.feed.close()
            await services.database_watch.close()
            await services.coordination.close()
            await services.analyses.close()
        if own_brain:
            await asyncio.to_thread(thinking.close)
        stepwise.set_planner(None)
        await asyncio.to_thread(planner.close)
        await database.close()


def create_bot(settings: Settings) -> Bot:
    """Returns a Bot speaking to Telegram, or to ``settings.telegram_api_url`` when it is set.

    :raises: :exc:`aiogram.utils.token.TokenValidationError` for a token of the wrong shape.
    """
    if settings.telegram_api_url:
        session = TelegramSession(api=TelegramAPIServer.from_base(settings.telegram_api_url))
    else:
        session = TelegramSession()
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


def create_dispatcher(
    settings: Settings,
    *,
    i18n: I18n | None = None,
    outermost: BaseMiddleware | None = None,
    **services: Any,
) -> Dispatcher:
    """Returns a dispatcher with the routers, middlewares and ``services`` as workflow data.

    Handlers receive ``settings``, ``i18n`` and every service by parameter name. Tests call this
    too, with fake services, and feed updates with ``dispatcher.feed_update(bot, update)``.
    """
    i18n = i18n or create_i18n()
    dispatcher = Dispatcher(settings=settings, i18n=i18n, **services)
    if outermost is not None:  # sees every update, even one dropped as a duplicate
        dispatcher.update.outer_middleware(outermost)
    # During a database outage every tap and command is told to try again, touching nothing;
    # a user who floods refused taps is answered at once, costing nothing more; an update
    # Telegram delivers twice is handled once; a banned user is turned away; then users are
    # remembered (and handed to handlers as ``player``) before any handler runs.
    in_response = bool(settings.webhook_url)  # presses answered in the webhook's response
    outage = WaitOutDatabase(i18n, in_response=in_response)
    dispatcher.update.outer_middleware(outage)
    throttle = TapThrottle(i18n, in_response=in_response)
    dispatcher.update.outer_middleware(throttle)
    dispatcher.update.outer_middleware(HandleOnce())
    dispatcher.update.outer_middleware(TurnAwayBanned(i18n, in_response=in_response))
    remember = RememberUsers()
    dispatcher.message.outer_middleware(remember)
    dispatcher.callback_query.outer_middleware(remember)
    dispatcher.inline_query.outer_middleware(remember)
    dispatcher.chosen_inline_result.outer_middleware(remember)
    LanguageMiddleware(i18n).setup(dispatcher)  # after RememberUsers: it reads their choice
    # Inner middlewares: CallbackAnswers answers every press once, after the handler (style
    # guide 2.6), in the webhook's response in webhook mode; GameErrorAlerts, registered after
    # it, turns refusals into its alert, which the throttle's counter, between them, counts;
    # the outage's, last, makes the answer "try again" when the database failed.
    dispatcher.callback_query.middleware(CallbackAnswers(in_response=in_response))
    dispatcher.callback_query.middleware(throttle.counter)
    dispatcher.callback_query.middleware(ButtonsInPlace())
    dispatcher.callback_query.middleware(GameErrorAlerts())
    dispatcher.callback_query.middleware(outage.pressed)
    dispatcher.message.middleware(NeedsSender())
    dispatcher.message.middleware(GameErrorAlerts())
    dispatcher.include_routers(*get_routers())
    dispatcher.startup.register(set_up_bot)
    return dispatcher


async def set_up_bot(bot: Bot, i18n: I18n, settings: Settings, users: Users | None = None) -> None:
    """Startup hook: makes polling possible (deletes a webhook left set, in polling mode) and
    publishes the command menus in every language, for each Telegram language code that has a
    catalog (:data:`~bot.i18n.LANGUAGE_CODES`): one for private chats (also the default), one
    for groups, one for groups' admins (``setMyCommands`` scopes), and each operator's in their
    private chat (:func:`_operator_menu`). In webhook mode the webhook is set later, once the
    bot is ready for its first update (:func:`~bot.runners.serve_webhook`).

    These calls are safe to repeat, so during an outage they wait for Telegram (see
    :mod:`bot.outbox.link`). A flood wait, or a failure that persists while Telegram answers
    other calls, is logged, not fatal: the menu is a convenience.

    It also warns of a setting that plays worse than the operator may think: inline mode
    turned on at @BotFather (getMe's ``supports_inline_queries``) without
    ``STORAGE_CHAT_ID``, where inline games get text boards.
    """
    menus: list[tuple[str | None, str]] = [(None, DEFAULT_LOCALE)]
    menus += sorted(LANGUAGE_CODES.items())
    scopes: list[tuple[MenuScope, Scope]] = [
        (BotCommandScopeDefault(), Scope.PRIVATE),
        (BotCommandScopeAllPrivateChats(), Scope.PRIVATE),
        (BotCommandScopeAllGroupChats(), Scope.GROUP),
        (BotCommandScopeAllChatAdministrators(), Scope.ADMINS),
    ]
    try:
        me = await bot.me()
        if me.supports_inline_queries and not settings.storage_chat_id:
            logger.warning(INLINE_WITHOUT_STORAGE)
        if not settings.webhook_url:
            await bot.delete_webhook(drop_pending_updates=False)
        for language_code, locale in menus:
            for telegram_scope, scope in scopes:
                await bot.set_my_commands(
                    command_menu(i18n, locale, scope),
                    scope=telegram_scope,
                    language_code=language_code,
                )
        for owner in settings.owner_ids:
            known = await users.get(owner) if users is not None else None
            await _operator_menu(bot, i18n, owner, locale_of(known) if known else DEFAULT_LOCALE)
    except (TelegramNetworkError, TelegramServerError, TelegramRetryAfter) as error:
        logger.warning("start-up calls failed, going on anyway: %s", error)


async def _operator_menu(bot: Bot, i18n: I18n, owner: int, locale: str) -> None:
    """Publishes the operator's menu (everyone's, with the operators' commands) in the
    operator's private chat, in their language (as ``/language`` sets a chat's menu: one for
    the chat, whatever the app's language); Telegram refuses it (400) until they have written
    to the bot, which is logged."""
    try:
        await bot.set_my_commands(
            command_menu(i18n, locale, operator=True), scope=BotCommandScopeChat(chat_id=owner)
        )
    except TelegramBadRequest as error:
        logger.warning(
            "the operator menu of user %d was refused (%s): they must write to the bot first; "
            "their commands work anyway",
            owner,
            error.message,
        )


async def run(
    settings: Settings,
    *,
    stop: asyncio.Event | None = None,
    services_factory: ServicesFactory = build_services,
    tracker: UpdateTracker | None = None,
    link: TelegramLink | None = None,
) -> None:
    """Runs the bot until ``stop`` is set (or SIGINT/SIGTERM without ``stop``), by long polling
    or, with ``settings.webhook_url``, by webhook.

    It opens its HTTP server when there is one (:attr:`Settings.web_port`), so /healthz answers
    during start-up too, then reaches Telegram (getMe, retried with backoff for as long as it
    takes, see :meth:`TelegramLink.connect`), runs the startup hooks (the command menu, boards
    to catch up, the timers) and polls, or takes webhook requests and sets the webhook. On the
    way out it stops taking updates (aiogram then runs the dispatcher's shutdown hooks), waits
    for updates still being handled and boards still being sent, :data:`DRAIN_SECONDS` for all
    of them together, cancels what still waits for Telegram, closes the HTTP server and session
    and only then leaves ``services_factory``. So close the database there, not in a shutdown
    hook, which would run while handlers may still use it.

    :param stop: set it to stop the bot; signals are left alone when it is given (tests).
        Without it SIGINT and SIGTERM stop the bot at any point, the start-up retries included.
    :param services_factory: opens the services for the handlers (default :func:`build_services`).
    :param tracker: counts updates in flight; tests pass one to observe the bot.
    :param link: the link to Telegram (its backoff schedules); tests pass a fast one.
    :raises: :exc:`~bot.outbox.link.TokenRefused` if Telegram refuses the token, at start-up
        or later; :exc:`~bot.runners.WebhookRefused` if it refuses the webhook.
    """
    tracker = tracker or UpdateTracker()
    link = link or TelegramLink()
    stopping = asyncio.Event()
    link.on_refused.append(stopping.set)
    with stop_on(stop, stopping):
        async with services_factory(settings) as services:
            await _run(settings, services, tracker, link, stopping)
    if link.refused is not None:
        raise link.refused


async def _run(
    settings: Settings,
    services: Services,
    tracker: UpdateTracker,
    link: TelegramLink,
    stopping: asyncio.Event,
) -> None:
    bot = create_bot(settings)
    link.attach(bot)
    metrics = Metrics()  # one per bot instance: a restarted bot counts from zero
    metrics.watch_workers(services.workers)
    link.metrics = metrics
    i18n = create_i18n()
    private = (3.0, settings.private_messages_per_second)
    group = (3.0, settings.group_messages_per_minute / 60)
    overall = (30.0, settings.messages_per_second)
    coordination = services.coordination
    limiter: BoardPace = (
        SharedRateLimiter(coordination, private=private, group=group, overall=overall)
        if coordination.shared
        else RateLimiter(private=private, group=group, overall=overall)
    )
    outbox = Outbox.create(limiter)  # the pace, the drawing threads: every sender's
    board_app = None
    if settings.webapp_url:  # the Mini App board: every change, from any worker, pushed
        board_app = BoardApp(
            token=settings.bot_token.get_secret_value(),
            games=services.games,
            actions=services.game_actions,
            users=services.users,
            chats=services.chats,
            i18n=i18n,
            max_age=settings.webapp_max_age_seconds,
            post_rematch=functools.partial(
                post_rematch, bot, i18n, services.users, services.challenges, outbox
            ),
            is_member=member_check(bot),
            moderation=services.moderation,
        )
        services.feed.subscribe(board_app.hub.hear, remote=True)
    publisher = BoardPublisher(
        bot,
        services,
        i18n,
        outbox,
        metrics=metrics,
        storage_chats=settings.storage_chat_id,
        board_app=(
            BoardAppLinks(settings.webapp_url, settings.webapp_name)
            if settings.webapp_url
            else None
        ),
        on_the_board=board_app.hub.both_players if board_app is not None else lambda _: False,
    )
    services.feed.subscribe(publisher.hear)
    analyst = Analyst(services, bot, i18n, outbox.pace, metrics=metrics, inline=publisher.inline)
    daily = DailyPublisher(bot, services.daily, outbox, i18n)
    timers = Timers(services, publisher, outbox, bot, i18n, link=link, daily=daily)
    lesson_boards = LessonBoards(outbox)
    coach = Coach(bot, services, outbox, lesson_boards, i18n)
    services.feed.subscribe(coach.hear)  # training games judged, offers after a loss
    leagues = LeaguePublisher(
        bot, services.leagues, services.chats, coordination, i18n, limiter=limiter
    )
    services.feed.subscribe(leagues.hear)  # a group game's result
    tournaments = TournamentPublisher(
        bot,
        services.tournaments,
        services.users,
        services.chats,
        outbox,
        i18n,
        league_refresh=leagues.refresh,
    )
    timers.tournaments = tournaments
    link.on_restored.append(_postponer(services.deadlines))
    broadcaster = Broadcaster(
        bot,
        services.broadcasts,
        services.users,
        coordination,
        i18n,
        pace=outbox.spare,
        progress_pace=limiter,
    )
    dispatcher = create_dispatcher(
        settings,
        i18n=i18n,
        outermost=tracker,
        metrics=metrics,
        publisher=publisher,
        outbox=outbox,
        league_publisher=leagues,
        tournament_publisher=tournaments,
        daily_publisher=daily,
        lesson_boards=lesson_boards,
        coach=coach,
        **services.by_name(),
    )
    dispatcher.startup.register(outbox.drawing.warm_up)
    dispatcher.startup.register(publisher.catch_up)
    dispatcher.startup.register(timers.start)
    dispatcher.startup.register(analyst.start)
    dispatcher.startup.register(broadcaster.start)
    webhook = None
    if settings.webhook_url and settings.webhook_secret is not None:
        webhook = Webhook(
            dispatcher,
            bot,
            path=settings.webhook_path,
            secret=settings.webhook_secret.get_secret_value(),
            busy=tracker.holding,
        )
    server = None
    if settings.web_port is not None:
        server = WebServer(
            host=settings.webhook_host,
            port=settings.web_port,
            metrics=metrics,
            store=services.store,
            mode="webhook" if webhook is not None else "polling",
            webhook=webhook,
            telegram_reachable=link.reachable,
        )
        if board_app is not None:
            board_app.install(server.app)
    loop = asyncio.get_running_loop()
    deadline = None
    try:
        if server is not None:
            await server.start()
        if await link.connect(bot, stopping):
            if webhook is not None:
                await serve_webhook(dispatcher, bot, webhook, settings, stopping)
            else:
                await poll(dispatcher, bot, stopping)
        if server is not None:
            await server.stop_listening()  # a proxy sends new requests to the other workers
        deadline = loop.time() + DRAIN_SECONDS
        if not await tracker.drain(max(0.0, deadline - loop.time())):
            logger.warning("stopped with %d update(s) still being handled", tracker.in_flight)
    finally:
        if deadline is None:
            deadline = loop.time() + DRAIN_SECONDS
        await timers.stop()
        await analyst.stop()
        await broadcaster.stop()
        await publisher.drain(max(0.0, deadline - loop.time()))
        # after the boards: their results refresh it
        await leagues.drain(max(0.0, deadline - loop.time()))
        await daily.drain(max(0.0, deadline - loop.time()))
        await coach.drain(max(0.0, deadline - loop.time()))
        link.close()  # what still waits for Telegram now gives up (its task is cancelled)
        await asyncio.sleep(0)
        await publisher.close()
        await services.board_messages.close()  # the versions boards show, before the database
        await leagues.close()
        await daily.close()
        await coach.close()
        outbox.close()
        if server is not None:
            await server.close()
        await bot.session.close()


def _postponer(deadlines: Deadlines) -> Callable[[Outage], Awaitable[None]]:
    async def postpone(outage: Outage) -> None:
        moved = await deadlines.postpone(outage.began, outage.length)
        if moved:
            logger.info("%d game deadline(s) moved %.1f s later", moved, outage.length)

    return postpone
