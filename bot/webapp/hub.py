"""The open boards, by game, and what each is pushed when its game changes.

:meth:`BoardHub.publish` is called with every new state of a game, whoever made it (the bot's
publisher hands it each one it shows in the chats), and returns at once: one task per game
then pushes the newest state to every board open on it, skipping states a newer one replaced
meanwhile (as the chats' boards do). Each state is written once per reader's side and language,
and the step tree of the turn once per game version (the mover's tabs share it), on a thread:
the event loop only sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field

from aiogram.utils.i18n import I18n
from aiohttp import web

from bot.engine import Side
from bot.services import GameSnapshot
from bot.views.common import translator

from .state import Node, board_state, encode, step_tree

logger = logging.getLogger(__name__)

TREES_KEPT = 256
"""Step trees kept, the latest made last: one per game being played on the board."""


@dataclass(eq=False)
class Viewer:
    """One open board: its socket, who reads it and as which side (None: a watcher)."""

    socket: web.WebSocketResponse
    user_id: int
    side: Side | None
    locale: str
    shown: int = field(default=-1)
    """The game version it was last sent."""


class BoardHub:
    """The open boards of every game (see the module docstring)."""

    def __init__(self, i18n: I18n) -> None:
        self._i18n = i18n
        self._rooms: dict[int, set[Viewer]] = {}
        self._pending: dict[int, GameSnapshot] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._trees: OrderedDict[tuple[int, int], Node] = OrderedDict()
        self.bytes_sent = 0
        """Bytes of the states pushed so far (for ``bench/webapp.py``)."""
        self.states_sent = 0

    def join(self, game_id: int, viewer: Viewer) -> None:
        self._rooms.setdefault(game_id, set()).add(viewer)

    def leave(self, game_id: int, viewer: Viewer) -> None:
        room = self._rooms.get(game_id)
        if room is not None:
            room.discard(viewer)
            if not room:
                del self._rooms[game_id]

    def open_boards(self, game_id: int) -> int:
        """How many boards are open on game ``game_id``."""
        return len(self._rooms.get(game_id, ()))

    def publish(self, snapshot: GameSnapshot) -> None:
        """Schedules ``snapshot`` to be pushed to the boards open on its game (newest wins)."""
        game_id = snapshot.stored.id
        if game_id not in self._rooms:
            return
        pending = self._pending.get(game_id)
        if pending is not None and pending.stored.version >= snapshot.stored.version:
            return
        self._pending[game_id] = snapshot
        if game_id not in self._workers:
            self._workers[game_id] = asyncio.create_task(
                self._work(game_id), name=f"webapp-{game_id}"
            )

    async def drain(self) -> None:
        """Waits until every state scheduled is pushed."""
        while self._workers:
            await asyncio.wait(list(self._workers.values()))

    def close(self) -> None:
        for worker in self._workers.values():
            worker.cancel()

    async def _work(self, game_id: int) -> None:
        try:
            while (snapshot := self._pending.pop(game_id, None)) is not None:
                viewers = [
                    v for v in self._rooms.get(game_id, ()) if v.shown < snapshot.stored.version
                ]
                await self.push(snapshot, viewers)
        except Exception:
            logger.exception("could not push game %d to its boards", game_id)
        finally:
            self._workers.pop(game_id, None)

    async def push(self, snapshot: GameSnapshot, viewers: list[Viewer]) -> None:
        """Sends ``snapshot`` to ``viewers`` (each written once per side and language)."""
        written: dict[tuple[Side | None, str], str] = {}
        sends = []
        for viewer in viewers:
            key = (viewer.side, viewer.locale)
            if key not in written:
                written[key] = await self.state_text(snapshot, viewer.side, viewer.locale)
            text = written[key]
            viewer.shown = snapshot.stored.version
            self.bytes_sent += len(text.encode())
            self.states_sent += 1
            sends.append(self._send(viewer, text))
        await asyncio.gather(*sends)

    async def state_text(self, snapshot: GameSnapshot, side: Side | None, locale: str) -> str:
        """The state as the reader playing ``side`` in ``locale`` is sent it."""
        _ = translator(self._i18n, locale)
        tree = None
        if side is not None and side is snapshot.game.turn and snapshot.turn_input is not None:
            tree = await self.tree(snapshot)
        return encode(board_state(snapshot, side, _, tree=tree))

    async def tree(self, snapshot: GameSnapshot) -> Node | None:
        """The step tree of the turn being played in ``snapshot`` (made once per version)."""
        current = snapshot.turn_input
        if current is None:
            return None
        key = (snapshot.stored.id, snapshot.stored.version)
        found = self._trees.get(key)
        if found is None:
            found = self._trees[key] = await asyncio.to_thread(step_tree, current)
            while len(self._trees) > TREES_KEPT:
                self._trees.popitem(last=False)
        self._trees.move_to_end(key)
        return found

    async def _send(self, viewer: Viewer, text: str) -> None:
        if viewer.socket.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):  # the page went away meanwhile
            await viewer.socket.send_str(text)
