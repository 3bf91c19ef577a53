"""The board's routes on the bot's HTTP server: the page, its files and its WebSocket.

* ``GET /app/``: the page (``static/index.html``), never cached; its files are named by a hash
  of their contents and cached for a year.
* ``GET /app/static/<stamp>/<file>``: the page's ES modules and style sheets (``palette.css``
  from :mod:`.palette`).
* ``GET /app/ws``: the WebSocket, every message one of :mod:`.protocol`'s. The page's hello is
  checked (:mod:`.auth`, the reader's right to the game), then the game's states are pushed
  (:mod:`.hub`); the page's turns and actions go through
  :meth:`~bot.services.actions.GameActions.perform` as a chat button's tap does.

Who may open a game's board follows the chat's rules (the Watch link's). At most
:data:`BOARDS_PER_USER` boards of one person and :data:`~bot.services.watchers.MAX_WATCHERS` of
people who do not play a game are open on a worker; a page that sends a binary frame, or more
than its allowance of requests, is closed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from aiogram.utils.i18n import I18n
from aiohttp import web

from bot.i18n import N_, locale_of, user_locale
from bot.model import Challenge, StoredGame
from bot.services import Chats, Games, Users
from bot.services.actions import GameAction, GameActions, Hinted, Moved, RematchOffered, Request
from bot.services.allowance import Allowance
from bot.services.challenges import MemberCheck
from bot.services.errors import Banned, GameError, NotAPlayer, StaleAction, TooManyWatchers
from bot.services.moderation import Moderation
from bot.services.watchers import MAX_WATCHERS
from bot.views.boards import hint_text
from bot.views.common import translator
from bot.views.texts import explain

from . import BASE_PATH
from .auth import BoardUser, InitDataRefused, check_init_data
from .hub import BoardHub, Viewer
from .palette import palette_css
from .protocol import (
    MESSAGE_BYTES,
    Act,
    Done,
    Expand,
    Hello,
    Note,
    PlayTurn,
    Refused,
    ServerMessage,
    Tree,
    Unexpected,
    Welcome,
    parse,
)
from .state import find_path, step_tree
from .texts import page_texts, refusal_texts

logger = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
PALETTE: Final = "palette.css"
"""The page's colours, made from the chat picture's at start (:mod:`.palette`)."""
HELLO_SECONDS: Final = 10.0
"""How long a new socket may take to say who it is."""
YEAR: Final = 365 * 86_400
REMATCH_OFFERED: Final = N_("Rematch offered: the challenge is in the chat.")
BOARDS_PER_USER: Final = 6
"""Boards one person may have open on a worker (a phone, a desktop, a few tabs)."""
REQUESTS: Final = (40.0, 10.0)
"""What one board may ask for (burst, per second): a turn and its tree take a few; a page
that asks for more is closed."""
MEMBERS_KEPT_SECONDS: Final = (300.0, 60.0)
"""How long Telegram's word that someone is (is not) a group's member is taken as true."""


class BoardApp:
    """The Mini App board's server side (see the module docstring).

    :param post_rematch: posts a rematch's challenge where the game's board is, as the chat's
        🔁 Rematch does (None: the board offers no rematch).
    :param is_member: whether someone is a group's member (Telegram's getChatMember), for the
        boards of groups' games.
    :param moderation: who is banned: a banned player's requests are refused.
    """

    def __init__(
        self,
        *,
        token: str,
        games: Games,
        actions: GameActions,
        users: Users,
        chats: Chats,
        i18n: I18n,
        max_age: float,
        clock: Callable[[], float] = time.time,
        post_rematch: Callable[[Challenge], Awaitable[None]] | None = None,
        is_member: MemberCheck | None = None,
        moderation: Moderation | None = None,
    ) -> None:
        self._token = token
        self._moderation = moderation
        self._games = games
        self._actions = actions
        self._users = users
        self._chats = chats
        self._i18n = i18n
        self._max_age = max_age
        self._clock = clock
        self._post_rematch = post_rematch
        self._is_member = is_member
        self._members: dict[tuple[int, int], tuple[bool, float]] = {}
        self.hub = BoardHub(i18n, games.snapshot)
        self._files = {
            path.name: (path.read_bytes(), _content_type(path))
            for path in sorted(STATIC.iterdir())
            if path.is_file() and path.name != "index.html"
        }
        self._files[PALETTE] = (palette_css().encode(), "text/css; charset=utf-8")
        stamp = hashlib.sha256(b"".join(body for body, _ in self._files.values())).hexdigest()[:12]
        self.stamp = stamp
        """A hash of the page's files: in their addresses, so a new release is fetched."""
        index = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{stamp}}", stamp)
        self._index = index.encode()
        self._unnamed: dict[web.WebSocketResponse, Callable[[], None]] = {}
        self._requests = Allowance(REQUESTS, time.monotonic)

    def install(self, app: web.Application) -> None:
        """Adds the board's routes to the bot's server."""
        app.router.add_get(BASE_PATH, self._page)
        app.router.add_get(BASE_PATH + "static/{stamp}/{name}", self._static)
        app.router.add_get(BASE_PATH + "ws", self._socket)
        app.on_shutdown.append(self._close_sockets)

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self._index,
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
        )

    async def _static(self, request: web.Request) -> web.Response:
        found = self._files.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        body, content_type = found
        current = request.match_info["stamp"] == self.stamp
        cache = f"public, max-age={YEAR}, immutable" if current else "no-cache"
        return web.Response(
            body=body,
            headers={
                "Content-Type": content_type,
                "Cache-Control": cache,
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def _close_sockets(self, app: web.Application) -> None:
        """On shutdown: every board closed, and cut off where it does not take its closing
        frame at once (a page that stopped reading never holds the server up)."""
        for abort in self._unnamed.values():
            abort()
        await self.hub.close()

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=20, max_msg_size=MESSAGE_BYTES)
        await socket.prepare(request)
        transport = request.transport
        abort: Callable[[], None] = transport.abort if transport is not None else lambda: None
        self._unnamed[socket] = abort
        try:
            await self._serve(socket, abort)
        finally:
            self._unnamed.pop(socket, None)
            if not socket.closed:
                try:
                    await asyncio.wait_for(socket.close(), 1.0)
                except (TimeoutError, ConnectionError, RuntimeError):
                    abort()
        return socket

    async def _serve(self, socket: web.WebSocketResponse, abort: Callable[[], None]) -> None:
        try:
            first = parse(await socket.receive(timeout=HELLO_SECONDS))
        except TimeoutError:
            return
        hello = first if isinstance(first, Hello) else None
        viewer = await self._open(socket, hello, abort)
        if viewer is None:
            return
        self._unnamed.pop(socket, None)
        key = id(viewer)
        try:
            async for message in socket:
                request = parse(message)
                if isinstance(request, Unexpected) and request.binary:
                    await viewer.close(1003, b"text frames only")
                    return
                if self._requests.wait(key) > 0:
                    logger.info("board of user %d closed: too many requests", viewer.user_id)
                    await viewer.close(1008, b"too many requests")
                    return
                self._requests.take(key)
                viewer.send((await self._answer(viewer, request)).encode())
        finally:
            self.hub.leave(viewer)
            viewer.stop()

    async def _open(
        self, socket: web.WebSocketResponse, hello: Hello | None, abort: Callable[[], None]
    ) -> Viewer | None:
        """Checks a hello and the reader's right to the game, joins the game's boards, sends
        the texts and has the state pushed; None (and the socket closed) when it is refused."""
        if hello is None:
            await self._refuse(socket, "forged", None)
            return None
        try:
            user = check_init_data(
                self._token, hello.init, max_age=self._max_age, now=self._clock()
            )
        except InitDataRefused as error:
            logger.info("board refused: %s", error)
            if error.user is not None:  # Telegram's, only too old: the user's own language
                locale = await self._locale(error.user)
            else:
                locale = user_locale(None, error.language_code)
            await self._refuse(socket, "expired" if error.expired else "forged", locale)
            return None
        locale = await self._locale(user)
        if self.hub.boards_of(user.id) >= BOARDS_PER_USER:
            await self._refuse(socket, "busy", locale)
            return None
        try:
            stored = await self._games.stored(hello.game)
        except GameError:
            await self._refuse(socket, "closed", locale)
            return None
        side = stored.side_of(user.id)
        if side is None:
            refusal = await self._may_watch(stored, user)
            if refusal is not None:
                await self._refuse(socket, refusal, locale)
                return None
            if self.hub.watchers(stored.id) >= MAX_WATCHERS:
                with self._i18n.context(), self._i18n.use_locale(locale):
                    text = explain(TooManyWatchers(limit=MAX_WATCHERS), markup=False)
                await socket.send_str(Refused(text, "full", locale).encode())
                await socket.close(code=4403, message=b"full")
                return None
        _ = translator(self._i18n, locale)
        viewer = Viewer(socket, user.id, side, locale, stored.id, abort=abort)
        viewer.send(Welcome(page_texts(_), self._clock(), locale).encode())
        self.hub.join(viewer)  # before the state is read: a state heard of meanwhile is sent
        try:
            snapshot = await self._games.snapshot(stored.id)
        except BaseException:
            self.hub.leave(viewer)
            raise
        # to every board of the game that is behind it, this one's and any that missed a
        # change told by a worker that died before it could tell it
        self.hub.publish(snapshot)
        return viewer

    async def _may_watch(self, stored: StoredGame, user: BoardUser) -> str | None:
        """None when ``user``, who does not play the game, may watch it on the board (the
        chat's rules, see the module docstring); else the reason it is refused."""
        if stored.chat_instance:
            return None if user.chat_instance == stored.chat_instance else "closed"
        if stored.chat_id:
            return None if await self._member(stored.chat_id, user.id) else "closed"
        # between private chats: the Watch link's rules (its cap is the board's own)
        return None if stored.watchable and not stored.game.is_over else "closed"

    async def _member(self, chat_id: int, user_id: int) -> bool:
        if self._is_member is None:
            return False
        now = time.monotonic()
        kept = self._members.get((chat_id, user_id))
        if kept is not None and kept[1] > now:
            return kept[0]
        member = await self._is_member(chat_id, user_id)
        if len(self._members) >= 10_000:
            self._members = {k: v for k, v in self._members.items() if v[1] > now}
        self._members[(chat_id, user_id)] = (member, now + MEMBERS_KEPT_SECONDS[not member])
        return member

    async def _refuse(self, socket: web.WebSocketResponse, reason: str, locale: str | None) -> None:
        _ = translator(self._i18n, locale or "en")
        text = refusal_texts(_)[reason]
        try:
            await asyncio.wait_for(socket.send_str(Refused(text, reason, locale).encode()), 5)
            await asyncio.wait_for(socket.close(code=4403, message=reason.encode()), 1)
        except (TimeoutError, ConnectionError, RuntimeError):
            pass

    async def _locale(self, user: BoardUser) -> str:
        stored = await self._users.get(user.id)
        return locale_of(stored) if stored is not None else user_locale(None, user.language_code)

    async def _answer(
        self, viewer: Viewer, request: Hello | PlayTurn | Expand | Act | Unexpected
    ) -> ServerMessage:
        """What the page asked for, done, or refused with the words of the chat's alerts."""
        try:
            if self._moderation is not None and await self._moderation.is_banned(viewer.user_id):
                raise Banned()
            if viewer.side is None:
                raise NotAPlayer()
            if isinstance(request, Expand):
                return await self._expand(viewer, request)
            if isinstance(request, PlayTurn):
                action = Request(
                    viewer.game_id,
                    viewer.user_id,
                    GameAction.TURN,
                    request.version,
                    steps=request.steps,
                )
            elif isinstance(request, Act):
                rematch = request.action is GameAction.REMATCH
                action = Request(
                    viewer.game_id,
                    viewer.user_id,
                    request.action,
                    request.version,
                    request.arg,
                    locale=await self._rematch_locale(viewer) if rematch else viewer.locale,
                )
            else:
                raise StaleAction()
            outcome = await self._actions.perform(action)
        except GameError as error:
            return Refused(self._explain(viewer, error))
        if isinstance(outcome, Hinted):
            _ = translator(self._i18n, viewer.locale)
            return Note(hint_text(outcome.advice, _), kind="hint")
        if isinstance(outcome, RematchOffered):
            if self._post_rematch is not None:
                await self._post_rematch(outcome.challenge)
            return Note(translator(self._i18n, viewer.locale)(REMATCH_OFFERED))
        assert isinstance(outcome, Moved)
        return Done(outcome.snapshot.stored.version)

    async def _rematch_locale(self, viewer: Viewer) -> str:
        """The language a rematch's challenge is written in: its group's, else the asker's."""
        stored = await self._games.stored(viewer.game_id)
        if stored.chat_id:
            return await self._chats.locale(stored.chat_id) or stored.locale
        return viewer.locale

    async def _expand(self, viewer: Viewer, request: Expand) -> ServerMessage:
        """The step tree below the node ``request.steps`` lead to (the server listed it cut
        short)."""
        snapshot = await self._games.snapshot(viewer.game_id)
        current = snapshot.turn_input
        if (
            snapshot.stored.version != request.version
            or current is None
            or viewer.side is not snapshot.game.turn
        ):
            raise StaleAction()
        path = await asyncio.to_thread(find_path, current, request.steps)
        if path is None:
            raise StaleAction()
        node = await asyncio.to_thread(step_tree, current, path)
        return Tree(request.version, request.steps, node)

    def _explain(self, viewer: Viewer, error: GameError) -> str:
        with self._i18n.context(), self._i18n.use_locale(viewer.locale):
            return explain(error, markup=False)


def _content_type(path: Path) -> str:
    return {
        ".js": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".svg": "image/svg+xml",
    }.get(path.suffix, "application/octet-stream")
