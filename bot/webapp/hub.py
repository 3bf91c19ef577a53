"""The open boards, by game, and what each is pushed when its game changes.

:meth:`BoardHub.publish` is called with every new state of a game, whoever made it (the bot's
publisher hands it each one it shows in the chats), and returns at once: one task per game
then pushes the newest state to every board open on it, skipping states a newer one replaced
meanwhile (as the chats' boards do). Each state is written once per reader's side and language,
and the step tree of the turn once per game version (the mover's tabs share it), on a thread:
the event loop only sends. A board is never sent a version older than one it was sent.

Boards follow their players from game to game: a board open on a finished game moves to the
next game between the same two players in the same chat (a match's next game, a rematch
accepted) as soon as that game is published, its readers' sides read again (a watcher moves
only where the new game may be watched). The page learns the new game from the state itself.

:meth:`BoardHub.clock` tells the boards of a game that the deadline of the move they show moved
later (its chat's board was shown late: the move's time runs from then).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TypeAlias

from aiogram.utils.i18n import I18n
from aiohttp import web

from bot.engine import Side
from bot.model import StoredGame
from bot.services import GameSnapshot
from bot.views.common import translator

from .state import Node, board_state, encode, step_tree

logger = logging.getLogger(__name__)

TREES_KEPT = 256
"""Step trees kept, the latest made last: one per game being played on the board."""


PairKey: TypeAlias = tuple[int, str | None, int, int]
"""A game's chat (its id, an inline game's ``chat_instance``) and its two players, lower id
first: the games a board follows from one to the next."""


def pair_key(stored: StoredGame) -> PairKey:
    low, high = sorted((stored.white_id, stored.black_id))
    return stored.chat_id, stored.chat_instance, low, high


@dataclass(eq=False)
class Viewer:
    """One open board: its socket, who reads it, the game it shows and as which side (None:
    a watcher)."""

    socket: web.WebSocketResponse
    user_id: int
    side: Side | None
    locale: str
    game_id: int
    shown: int = field(default=-1)
    """The game version it was last sent."""


class BoardHub:
    """The open boards of every game (see the module docstring)."""

    def __init__(self, i18n: I18n) -> None:
        self._i18n = i18n
        self._rooms: dict[int, set[Viewer]] = {}
        # the games with boards open, by their chat and players; and those known to be over
        self._pairs: dict[int, PairKey] = {}
        self._over: set[int] = set()
        self._pending: dict[int, GameSnapshot] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._trees: OrderedDict[tuple[int, int], Node] = OrderedDict()
        self._sending: set[asyncio.Task[None]] = set()
        self.bytes_sent = 0
        """Bytes of the states pushed so far (for ``bench/webapp.py``)."""
        self.states_sent = 0

    def join(self, viewer: Viewer) -> None:
        """Opens ``viewer``'s board on its game: pushed every state published from now on
        (join before reading the state to send first, so that none published in between is
        lost; an older one is never sent after a newer one)."""
        self._rooms.setdefault(viewer.game_id, set()).add(viewer)

    def seen(self, snapshot: GameSnapshot) -> None:
        """Notes the chat, players and end of the game of ``snapshot``, which a board shows:
        for :meth:`publish` to move its boards on to the pair's next game."""
        game_id = snapshot.stored.id
        if game_id in self._rooms:
            self._pairs[game_id] = pair_key(snapshot.stored)
            if snapshot.game.is_over:
                self._over.add(game_id)

    def leave(self, viewer: Viewer) -> None:
        room = self._rooms.get(viewer.game_id)
        if room is not None:
            room.discard(viewer)
            if not room:
                self._close_room(viewer.game_id)

    def _close_room(self, game_id: int) -> None:
        del self._rooms[game_id]
        self._pairs.pop(game_id, None)
        self._over.discard(game_id)

    def open_boards(self, game_id: int) -> int:
        """How many boards are open on game ``game_id``."""
        return len(self._rooms.get(game_id, ()))

    def publish(self, snapshot: GameSnapshot) -> None:
        """Schedules ``snapshot`` to be pushed to the boards open on its game (newest wins),
        and to those open on the finished game before it between the same players."""
        game_id = snapshot.stored.id
        if not snapshot.game.is_over and self._over:
            self._follow(snapshot)
        if game_id not in self._rooms:
            return
        self.seen(snapshot)
        pending = self._pending.get(game_id)
        if pending is not None and pending.stored.version >= snapshot.stored.version:
            return
        self._pending[game_id] = snapshot
        if game_id not in self._workers:
            self._workers[game_id] = asyncio.create_task(
                self._work(game_id), name=f"webapp-{game_id}"
            )

    def _follow(self, snapshot: GameSnapshot) -> None:
        """Moves the boards open on a finished game of the pair of ``snapshot``'s game (a
        newer game) to it: a player stays the same player, whichever colour they play now; a
        watcher only where the new game may be watched."""
        stored = snapshot.stored
        key = pair_key(stored)
        for old in [g for g in self._over if g < stored.id and self._pairs.get(g) == key]:
            for viewer in list(self._rooms.get(old, ())):
                side = stored.side_of(viewer.user_id)
                if side is None and not (stored.chat_id or stored.watchable):
                    continue  # a watcher of a private game that is not open to them
                self.leave(viewer)
                viewer.game_id, viewer.side, viewer.shown = stored.id, side, -1
                self.join(viewer)
            if old not in self._rooms:
                self._over.discard(old)

    def clock(self, game_id: int, version: int, deadline: float) -> None:
        """Tells the boards showing ``version`` of game ``game_id`` that its move's deadline
        is now ``deadline`` (started when its first chat board showed it, later than saved)."""
        text = encode({"type": "clock", "game": game_id, "version": version, "deadline": deadline})
        for viewer in self._rooms.get(game_id, ()):
            if viewer.shown == version:
                task = asyncio.create_task(self._send(viewer, text))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)

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
        """Sends ``snapshot`` to ``viewers`` (each written once per side and language), each
        as soon as its text is written; none that was sent a newer version meanwhile (a board
        just opened), nor one that moved to another game."""
        version = snapshot.stored.version
        written: dict[tuple[Side | None, str], str] = {}
        sends = []
        # the player to move first: the one who waits to see the move just made (and whose
        # step tree is the longest to write); each reader's text is sent as soon as written
        for viewer in sorted(viewers, key=lambda v: v.side is not snapshot.game.turn):
            key = (viewer.side, viewer.locale)
            if key not in written:
                written[key] = await self.state_text(snapshot, viewer.side, viewer.locale)
            if viewer.shown >= version or viewer.game_id != snapshot.stored.id:
                continue
            text = written[key]
            viewer.shown = version
            self.bytes_sent += len(text.encode())
            self.states_sent += 1
            sends.append(asyncio.ensure_future(self._send(viewer, text)))
        if sends:
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
