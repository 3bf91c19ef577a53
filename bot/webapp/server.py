"""The board's routes on the bot's HTTP server: the page, its files and its WebSocket.

* ``GET /app/``: the page (``static/index.html``), never cached, its files named with a hash of
  their contents so that they are cached for a year (``Cache-Control: immutable``) and a new
  release is fetched at once.
* ``GET /app/static/<file>``: the page's ES modules and style sheet.
* ``GET /app/ws``: the WebSocket. The page's first message is ``{"type": "hello", "init":
  <init data>, "game": <id>}``; the server checks the init data (:mod:`.auth`) and the reader's
  right to the game (a player, or anyone where the game can be watched) and answers with the
  page's texts and the game's state, then pushes every new state (:mod:`.hub`). A refused hello
  gets ``{"type": "refused", "reason": ..., "text": ...}`` and the socket is closed: nothing
  else is read from it. After the hello the page may send ``turn`` (the whole turn, with the
  version it was built on), ``expand`` (the step tree below a node the server did not list),
  and ``act`` (roll, double, take, drop, strike, hint, resign; after a finished game, next (a
  match's next game) and rematch): each goes through the game service as a button's tap does,
  refused with the same words when it must be, in the reader's language (a hello's refusal
  too: the language of the user the init data names).
* A socket joins its game's boards before the state it is sent first is read: a state
  published in between reaches it (and none older after it). A board follows its players to
  their next game (:mod:`.hub`): its states then name the new game.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from aiogram.utils.i18n import I18n
from aiohttp import WSMsgType, web

from bot.i18n import N_, locale_of, user_locale
from bot.services import GameService, GameSnapshot, Users
from bot.services.errors import Banned, GameError, NotAPlayer, StaleAction
from bot.services.moderation import Moderation
from bot.views.boards import hint_text
from bot.views.common import translator
from bot.views.texts import explain

from . import BASE_PATH
from .auth import BoardUser, InitDataRefused, check_init_data
from .hub import BoardHub, Viewer
from .state import encode, find_path, step_tree
from .texts import page_texts, refusal_texts

logger = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
HELLO_SECONDS: Final = 10.0
"""How long a new socket may take to say who it is."""
MESSAGE_BYTES: Final = 16 * 1024
"""The largest message a page sends (a turn of 24 steps is about 300 bytes)."""
YEAR: Final = 365 * 86_400
REMATCH_OFFERED: Final = N_("Rematch offered: the challenge is in the chat.")


class BoardApp:
    """The Mini App board's server side (see the module docstring).

    :param publish: shows a new state of a game everywhere (the bot's board publisher, which
        hands it to :attr:`hub` too).
    :param rematch: the chat's Rematch button's work for a finished game (its id) and a
        player (theirs): the new challenge posted where the game's board is (None: the board
        offers no rematch).
    :param moved_on: told the id of a finished match game whose next game was started from
        the board (the chats' boards of it lose their ▶ Next game).
    :param moderation: who is banned: a banned player's requests are refused.
    """

    def __init__(
        self,
        *,
        token: str,
        games: GameService,
        users: Users,
        i18n: I18n,
        publish: Callable[[GameSnapshot], None],
        max_age: float,
        clock: Callable[[], float] = time.time,
        rematch: Callable[[int, int], Awaitable[object]] | None = None,
        moved_on: Callable[[int], None] = lambda game_id: None,
        moderation: Moderation | None = None,
    ) -> None:
        self._token = token
        self._moderation = moderation
        self._moved_on = moved_on
        self._rematch = rematch
        self._games = games
        self._users = users
        self._i18n = i18n
        self._publish = publish
        self._max_age = max_age
        self._clock = clock
        self.hub = BoardHub(i18n)
        self._files = {
            path.name: (path.read_bytes(), _content_type(path))
            for path in sorted(STATIC.iterdir())
            if path.is_file() and path.name != "index.html"
        }
        stamp = hashlib.sha256(b"".join(body for body, _ in self._files.values())).hexdigest()[:12]
        self.stamp = stamp
        """A hash of the page's files: in their addresses, so a new release is fetched."""
        index = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{stamp}}", stamp)
        self._index = index.encode()
        self._sockets: set[web.WebSocketResponse] = set()

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
        self.hub.close()
        for socket in list(self._sockets):
            await socket.close(code=1001, message=b"server stopping")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=20, max_msg_size=MESSAGE_BYTES)
        await socket.prepare(request)
        self._sockets.add(socket)
        try:
            await self._serve(socket)
        finally:
            self._sockets.discard(socket)
            if not socket.closed:
                await socket.close()
        return socket

    async def _serve(self, socket: web.WebSocketResponse) -> None:
        try:
            first = await socket.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            return
        hello = _json(first)
        viewer = await self._open(socket, hello)
        if viewer is None:
            return
        try:
            async for message in socket:
                request = _json(message)
                if request is None:
                    continue
                answer = await self._answer(viewer, request)
                if answer is not None:
                    await socket.send_str(encode(answer))
        finally:
            self.hub.leave(viewer)

    async def _open(
        self, socket: web.WebSocketResponse, hello: dict[str, Any] | None
    ) -> Viewer | None:
        """Checks a hello, joins the game's boards and sends the texts and the state; None
        (and the socket closed) when it is refused."""
        init = hello.get("init") if hello else None
        game = hello.get("game") if hello else None
        if not isinstance(init, str) or not isinstance(game, int) or isinstance(game, bool):
            await self._refuse(socket, "forged", None)
            return None
        try:
            user = check_init_data(self._token, init, max_age=self._max_age, now=self._clock())
        except InitDataRefused as error:
            logger.info("board refused: %s", error)
            if error.user is not None:  # Telegram's, only too old: the user's own language
                locale = await self._locale(error.user)
            else:
                locale = user_locale(None, error.language_code)
            await self._refuse(socket, "expired" if error.expired else "forged", locale)
            return None
        locale = await self._locale(user)
        try:
            # who may read it never changes: checked first, so a stranger never joins
            stored = await self._games.stored(game)
        except GameError:
            await self._refuse(socket, "closed", locale)
            return None
        side = stored.side_of(user.id)
        if side is None and not (stored.chat_id or stored.watchable):
            await self._refuse(socket, "closed", locale)
            return None
        _ = translator(self._i18n, locale)
        await socket.send_str(
            encode({"type": "hello", "texts": page_texts(_), "now": self._clock(), "lang": locale})
        )
        viewer = Viewer(socket, user.id, side, locale, game)
        self.hub.join(viewer)  # before the state is read: a state published meanwhile is sent
        try:
            snapshot = await self._games.snapshot(game)
        except BaseException:
            self.hub.leave(viewer)
            raise
        self.hub.seen(snapshot)
        version = snapshot.stored.version
        if viewer.shown < version:
            text = await self.hub.state_text(snapshot, side, locale)
            # pushed a newer state (or moved to the next game) while this one was written:
            # that one stands
            if viewer.shown < version and viewer.game_id == game:
                viewer.shown = version
                await socket.send_str(text)
        return viewer

    async def _refuse(self, socket: web.WebSocketResponse, reason: str, locale: str | None) -> None:
        _ = translator(self._i18n, locale or "en")
        text = refusal_texts(_)[reason]
        await socket.send_str(
            encode({"type": "refused", "reason": reason, "text": text, "lang": locale or "en"})
        )
        await socket.close(code=4403, message=reason.encode())

    async def _locale(self, user: BoardUser) -> str:
        stored = await self._users.get(user.id)
        return locale_of(stored) if stored is not None else user_locale(None, user.language_code)

    async def _answer(self, viewer: Viewer, request: dict[str, Any]) -> dict[str, Any] | None:
        """What the page asked for, done, or refused with the words of the chat's alerts."""
        game_id = viewer.game_id
        kind = request.get("type")
        version = request.get("version")
        if not isinstance(version, int):
            return {"type": "refused", "text": self._explain(viewer, None)}
        try:
            if self._moderation is not None and await self._moderation.is_banned(viewer.user_id):
                raise Banned()
            if viewer.side is None:
                raise NotAPlayer()
            if kind == "turn":
                steps = request.get("steps")
                if not isinstance(steps, list) or len(steps) > 64:
                    raise _Bad()
                moved = await self._games.play_turn(
                    game_id, viewer.user_id, version, [_step(step) for step in steps]
                )
                self._publish(moved)
                return {"type": "done", "version": moved.stored.version}
            if kind == "expand":
                return await self._expand(game_id, viewer, version, request.get("steps"))
            if kind == "act":
                return await self._act(game_id, viewer, version, str(request.get("action")))
        except GameError as error:
            return {"type": "refused", "text": self._explain(viewer, error)}
        except _Bad:
            pass
        return {"type": "refused", "text": self._explain(viewer, None)}

    async def _act(
        self, game_id: int, viewer: Viewer, version: int, action: str
    ) -> dict[str, Any] | None:
        games, user = self._games, viewer.user_id
        if action == "hint":
            hint, tapped = await games.hint(game_id, user, version)
            return {"type": "hint", "text": hint_text(hint, tapped, self._translate(viewer))}
        if action.startswith("strike:") and action[7:].isdigit():
            moved = await games.strike(game_id, user, version, int(action[7:]))
        elif action == "resign":
            moved = await games.resign(game_id, user)
        elif action == "next":  # a match's next game: the boards follow it (see .hub)
            moved = await games.next_game(game_id, user)
            self._moved_on(game_id)
        elif action == "rematch" and self._rematch is not None:
            await self._rematch(game_id, user)
            return {"type": "note", "text": self._translate(viewer)(REMATCH_OFFERED)}
        elif action in ("roll", "double", "take", "drop"):
            moved = await getattr(games, action)(game_id, user, version)
        else:
            raise _Bad()
        self._publish(moved)
        return {"type": "done", "version": moved.stored.version}

    async def _expand(
        self, game_id: int, viewer: Viewer, version: int, steps: object
    ) -> dict[str, Any]:
        """The step tree below the node ``steps`` lead to (the server listed it cut short)."""
        snapshot = await self._games.snapshot(game_id)
        current = snapshot.turn_input
        if (
            snapshot.stored.version != version
            or current is None
            or viewer.side is not snapshot.game.turn
            or not isinstance(steps, list)
        ):
            raise _Bad()
        path = await asyncio.to_thread(find_path, current, steps)
        if path is None:
            raise _Bad()
        node = await asyncio.to_thread(step_tree, current, path)
        return {"type": "tree", "version": version, "steps": steps, "node": node}

    def _translate(self, viewer: Viewer) -> Callable[[str], str]:
        return translator(self._i18n, viewer.locale)

    def _explain(self, viewer: Viewer, error: GameError | None) -> str:
        with self._i18n.context(), self._i18n.use_locale(viewer.locale):
            if error is None:
                return explain(StaleAction(), markup=False)
            return explain(error, markup=False)


class _Bad(Exception):
    """A request the page cannot have sent: answered as a stale button is."""


def _step(step: object) -> tuple[int, int, int]:
    if (
        not isinstance(step, list)
        or len(step) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in step)
    ):
        raise _Bad()
    return step[0], step[1], step[2]


def _json(message: Any) -> dict[str, Any] | None:
    if getattr(message, "type", None) is not WSMsgType.TEXT:
        return None
    try:
        found = json.loads(message.data)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _content_type(path: Path) -> str:
    return {
        ".js": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".svg": "image/svg+xml",
    }.get(path.suffix, "application/octet-stream")
