"""The open boards, by game, and what each is pushed when its game changes.

The hub listens to the change feed (:meth:`BoardHub.hear`), this worker's changes and every
other worker's: a change made here carries its state, one made elsewhere is read afresh, once,
whatever the number of boards open on it. One task per game then pushes the newest state to
every board open on it, skipping states a newer one replaced meanwhile. Each state is written
once per reader's side and language, and the step tree of the turn once per game version (the
mover's tabs share it), on a thread: the event loop only hands texts over. A board is never
sent a version older than one it was sent.

No socket can hold back another: each board has its own sender (:class:`Viewer`), which sends
only the newest state it was handed, with its answers and notes behind a bounded queue, each
within :data:`SEND_SECONDS`. A board that does not take what it is sent in time (a page that
stopped reading, a connection gone quiet) is dropped: its page connects again and catches up.

Boards follow their players from game to game: a board open on a finished game moves to the
next game between the same two players in the same chat (a match's next game, a rematch
accepted) as soon as that game is heard of, its readers' sides read again (a watcher moves
only where the new game may be watched). The page learns the new game from the state itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from aiogram.utils.i18n import I18n
from aiohttp import web

from bot.engine import Side
from bot.model import StoredGame
from bot.outbox import Latest
from bot.services import GameSnapshot
from bot.services.feed import ClockStarted, GameSaved, GameStarted, Heard, Resumed
from bot.views.common import translator

from .protocol import Clock, State
from .state import Node, board_state, step_tree

logger = logging.getLogger(__name__)

TREES_KEPT: Final = 256
"""Step trees kept, the latest made last: one per game being played on the board."""
SEND_SECONDS: Final = 10.0
"""How long a board may take to accept a message before it is dropped (its page reconnects)."""
NOTES_KEPT: Final = 32
"""Answers and notes waiting for one board at most; one more drops it (a page that keeps
asking without reading its answers)."""
CLOSE_SECONDS: Final = 1.0
"""How long a stopping server waits for a board to take its closing frame before it cuts the
connection."""


PairKey: TypeAlias = tuple[int, str | None, int, int]
"""A game's chat (its id, an inline game's ``chat_instance``) and its two players, lower id
first: the games a board follows from one to the next."""

Reader: TypeAlias = Callable[[int], Awaitable[GameSnapshot]]
"""Reads a game as it stands (:meth:`bot.services.GameService.snapshot`)."""


def pair_key(stored: StoredGame) -> PairKey:
    low, high = sorted((stored.white_id, stored.black_id))
    return stored.chat_id, stored.chat_instance, low, high


@dataclass(eq=False)
class Viewer:
    """One open board: its socket, who reads it, the game it shows and as which side (None:
    a watcher), and its sender (see the module docstring)."""

    socket: web.WebSocketResponse
    user_id: int
    side: Side | None
    locale: str
    game_id: int
    abort: Callable[[], None] = field(default=lambda: None, repr=False)
    """Cuts the connection at once (its transport's abort)."""
    shown: int = -1
    """The game version it was last handed."""
    send_seconds: float = SEND_SECONDS
    _state: str | None = field(default=None, repr=False)
    _queue: deque[str | None] = field(default_factory=deque, repr=False)
    _wake: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    _sender: asyncio.Task[None] | None = field(default=None, repr=False)
    dropped: bool = False

    def send(self, text: str) -> None:
        """Queues ``text`` (an answer, a note) after what waits; too many waiting drops the
        board."""
        if self.dropped:
            return
        if len(self._queue) >= NOTES_KEPT:
            self.drop("too many messages waiting")
            return
        self._queue.append(text)
        self._start()

    def send_state(self, version: int, text: str) -> None:
        """Hands the board a game state (of ``version``, newer than any before): it replaces
        one still waiting, or waits its turn behind the messages queued before it."""
        self.shown = version
        if self.dropped:
            return
        if self._state is None:
            self._queue.append(None)  # the state's place in the queue
        self._state = text
        self._start()

    def _start(self) -> None:
        self._wake.set()
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(
                self._send_all(), name=f"board-socket-{self.user_id}"
            )

    async def _send_all(self) -> None:
        try:
            while not self.dropped:
                if not self._queue:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                item = self._queue.popleft()
                if item is None:
                    item, self._state = self._state, None
                if item is None or self.socket.closed:
                    continue
                try:
                    await asyncio.wait_for(self.socket.send_str(item), self.send_seconds)
                except TimeoutError:
                    self.drop(f"took more than {self.send_seconds:.0f} s to take a message")
                except (ConnectionError, RuntimeError):
                    self.drop("gone")
        except asyncio.CancelledError:
            pass

    def stop(self) -> None:
        """Stops sending (the socket has closed)."""
        self.dropped = True
        self._queue.clear()
        if self._sender is not None and self._sender is not asyncio.current_task():
            self._sender.cancel()

    def drop(self, why: str) -> None:
        """Cuts the board off (its page connects again, and catches up)."""
        if self.dropped:
            return
        self.dropped = True
        logger.info("board of user %d on game %d dropped: %s", self.user_id, self.game_id, why)
        self._queue.clear()
        self._state = None
        self.abort()
        if self._sender is not None and self._sender is not asyncio.current_task():
            self._sender.cancel()

    async def close(self, code: int, message: bytes) -> None:
        """Closes the socket, cutting the connection if it does not take the closing frame
        within :data:`CLOSE_SECONDS`."""
        if self._sender is not None:
            self._sender.cancel()
        try:
            await asyncio.wait_for(self.socket.close(code=code, message=message), CLOSE_SECONDS)
        except (TimeoutError, ConnectionError, RuntimeError):
            self.drop("did not take its closing frame")


class BoardHub:
    """The open boards of every game (see the module docstring)."""

    def __init__(self, i18n: I18n, read: Reader) -> None:
        self._i18n = i18n
        self._read = read
        self._rooms: dict[int, set[Viewer]] = {}
        # the games with boards open, by their chat and players; and those known to be over
        self._pairs: dict[int, PairKey] = {}
        self._over: set[int] = set()
        # by game: its newest state to push, or (heard from elsewhere) the version to read
        self._pushes: Latest[int, GameSnapshot | int] = Latest(
            self._push_newest, name="webapp", newer=_newer
        )
        self._trees: OrderedDict[tuple[int, int], Node] = OrderedDict()
        self._users: Counter[int] = Counter()

    # --- who is open where ---------------------------------------------------------------------

    def join(self, viewer: Viewer) -> None:
        """Opens ``viewer``'s board on its game: handed every state heard of from now on
        (join before reading the state to send first, so that none heard of in between is
        lost; an older one is never sent after a newer one)."""
        self._rooms.setdefault(viewer.game_id, set()).add(viewer)
        self._users[viewer.user_id] += 1

    def leave(self, viewer: Viewer) -> None:
        room = self._rooms.get(viewer.game_id)
        if room is not None and viewer in room:
            room.discard(viewer)
            self._users[viewer.user_id] -= 1
            if not self._users[viewer.user_id]:
                del self._users[viewer.user_id]
            if not room:
                self._close_room(viewer.game_id)

    def boards_of(self, user_id: int) -> int:
        """How many boards ``user_id`` has open here."""
        return self._users[user_id]

    def both_players(self, game_id: int) -> bool:
        """Whether both players of game ``game_id`` have its board open here."""
        sides = {v.side for v in self._rooms.get(game_id, ()) if v.side is not None}
        return len(sides) == 2

    def watchers(self, game_id: int) -> int:
        """How many boards are open on game ``game_id`` by people who do not play it."""
        return sum(1 for viewer in self._rooms.get(game_id, ()) if viewer.side is None)

    def seen(self, snapshot: GameSnapshot) -> None:
        """Notes the chat, players and end of the game of ``snapshot``, which a board shows:
        for the boards to follow the pair to its next game."""
        game_id = snapshot.stored.id
        if game_id in self._rooms:
            self._pairs[game_id] = pair_key(snapshot.stored)
            if snapshot.game.is_over:
                self._over.add(game_id)

    def _close_room(self, game_id: int) -> None:
        del self._rooms[game_id]
        self._pairs.pop(game_id, None)
        self._over.discard(game_id)

    # --- what changed --------------------------------------------------------------------------

    def hear(self, change: Heard) -> None:
        """The change feed's listener, every worker's changes: see the module docstring."""
        if isinstance(change, Resumed):  # what another worker told meanwhile is lost
            for game_id in self._rooms:
                self._schedule(game_id, -1)
            return
        if isinstance(change, ClockStarted):
            self.clock(change.game_id, change.version, change.deadline)
            return
        if not isinstance(change, GameSaved | GameStarted):
            return
        follows = change.follows if isinstance(change, GameStarted) else None
        if follows is not None and follows in self._rooms:
            self._over.add(follows)  # its boards follow the new game
        if change.snapshot is not None:
            self.publish(change.snapshot)
        elif change.game_id in self._rooms or (isinstance(change, GameStarted) and self._over):
            self._schedule(change.game_id, change.version)

    def publish(self, snapshot: GameSnapshot) -> None:
        """Schedules ``snapshot`` to be pushed to the boards open on its game (newest wins),
        and to those open on the finished game before it between the same players."""
        if not snapshot.game.is_over and self._over:
            self._follow(snapshot)
        if snapshot.stored.id not in self._rooms:
            return
        self.seen(snapshot)
        self._schedule(snapshot.stored.id, snapshot)

    def _schedule(self, game_id: int, item: GameSnapshot | int) -> None:
        self._pushes.hand(game_id, item)

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
        is now ``deadline``."""
        text = Clock(game_id, version, deadline).encode()
        for viewer in self._rooms.get(game_id, ()):
            if viewer.shown == version:
                viewer.send(text)

    # --- pushing -------------------------------------------------------------------------------

    async def _push_newest(self, game_id: int, item: GameSnapshot | int) -> None:
        """The game's pushing worker's round: the newest state heard of (read afresh when it
        was another worker's change) pushed to the boards open on it that are behind it."""
        if isinstance(item, int):
            if game_id not in self._rooms and not self._over:
                return
            snapshot = await self._read(game_id)
            if not snapshot.game.is_over and self._over:
                self._follow(snapshot)
            self.seen(snapshot)
        else:
            snapshot = item
        version = snapshot.stored.version
        await self.push(snapshot, [v for v in self._rooms.get(game_id, ()) if v.shown < version])

    async def push(self, snapshot: GameSnapshot, viewers: list[Viewer]) -> None:
        """Hands ``snapshot`` to ``viewers`` (each written once per side and language), each
        as soon as its text is written; none that was handed a newer version meanwhile (a
        board just opened), nor one that moved to another game."""
        version = snapshot.stored.version
        written: dict[tuple[Side | None, str], str] = {}
        # the player to move first: the one who waits to see the move just made (and whose
        # step tree is the longest to write)
        for viewer in sorted(viewers, key=lambda v: v.side is not snapshot.game.turn):
            key = (viewer.side, viewer.locale)
            if key not in written:
                written[key] = await self.state_text(snapshot, viewer.side, viewer.locale)
            if viewer.shown >= version or viewer.game_id != snapshot.stored.id:
                continue
            viewer.send_state(version, written[key])

    async def state_text(self, snapshot: GameSnapshot, side: Side | None, locale: str) -> str:
        """The state as the reader playing ``side`` in ``locale`` is sent it."""
        _ = translator(self._i18n, locale)
        tree = None
        if side is not None and side is snapshot.game.turn and snapshot.turn_input is not None:
            tree = await self.tree(snapshot)
        return State(board_state(snapshot, side, _, tree=tree)).encode()

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

    async def drain(self, timeout: float = 10.0) -> None:
        """Waits until every state scheduled is handed to its boards."""
        await self._pushes.drain(timeout)

    async def close(self) -> None:
        """Stops pushing and closes every board (cut off where it does not take its closing
        frame in time): a stopping server never waits on a page."""
        await self._pushes.close()
        viewers = [viewer for room in self._rooms.values() for viewer in room]
        await asyncio.gather(
            *(viewer.close(1001, b"server stopping") for viewer in viewers),
            return_exceptions=True,
        )


def _newer(new: GameSnapshot | int, old: GameSnapshot | int) -> bool:
    """Whether ``new`` replaces ``old`` for a game's push: a later version; the state itself
    rather than a note to read that version; or a note to read afresh (-1: the channel between
    workers was cut off), which always goes."""
    new_version = new if isinstance(new, int) else new.stored.version
    old_version = old if isinstance(old, int) else old.stored.version
    if new_version == -1 or old_version == -1:
        return True
    if new_version != old_version:
        return new_version > old_version
    return not isinstance(new, int) and isinstance(old, int)
