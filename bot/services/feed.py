"""The change feed: every change to a game, told once, by the service that made it, to whoever
shows games (the chat boards, the Mini App's sockets, the league's table), in this worker and
in every other worker of the database. No client owns it and none has to remember to call it.

A change names its game and version and, in the worker that made it, carries the game as it
was saved (:attr:`Change.snapshot`); elsewhere a listener reads the state afresh (the message
between workers is a few bytes). Changes are told once their transaction commits, so a listener
never reads back less than it was told of, and never hears of a change that was rolled back.

Listeners are called at once, in the order of the changes, and must return at once (schedule
work, never await it); what one raises is logged and does not keep the change from the others.
A listener of every worker's changes (``remote=True``) also hears :class:`Resumed` when the
channel between workers was cut off and is back: what was told meanwhile is lost, so it reads
afresh whatever it shows.

Across workers the feed rides on the database they share (:class:`bot.model.ChangeChannel`:
PostgreSQL's ``LISTEN``/``NOTIFY``); one SQLite process has nobody to tell.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypeAlias

from bot.model import Store

if TYPE_CHECKING:
    from .snapshots import GameSnapshot

logger = logging.getLogger(__name__)

SEND_AT_ONCE: Final = 200
"""Changes sent to the other workers in one round trip at most."""


@dataclass(frozen=True, slots=True)
class Change:
    """Something new about game ``game_id``, as of its ``version``."""

    game_id: int
    version: int
    snapshot: GameSnapshot | None = field(default=None, compare=False, repr=False)
    """The game as saved, in the worker that saved it (None in the others: read it)."""
    remote: bool = field(default=False, compare=False)
    """Heard from another worker."""


@dataclass(frozen=True, slots=True)
class GameSaved(Change):
    """A game's new state: a tap, a turn, a roll, a cube action, a result."""


@dataclass(frozen=True, slots=True)
class GameStarted(Change):
    """A new game; ``follows`` is the finished game of its match it comes after (its boards
    lose their ▶ Next game)."""

    follows: int | None = None


@dataclass(frozen=True, slots=True)
class ClockStarted(Change):
    """The clock of the move shown at ``version`` started late, its first board having been
    held back: the move's deadline is now ``deadline``."""

    deadline: float = 0.0


@dataclass(frozen=True, slots=True)
class WatcherAdded(Change):
    """Someone began to watch the game: their board is to be shown."""


@dataclass(frozen=True, slots=True)
class Resumed:
    """The channel between workers was cut off and is back: changes may have been missed."""


Heard: TypeAlias = Change | Resumed
Listener: TypeAlias = Callable[[Heard], None]

_KINDS: Final[dict[str, type[Change]]] = {
    "s": GameSaved,
    "n": GameStarted,
    "c": ClockStarted,
    "w": WatcherAdded,
}
_CODES: Final = {kind: code for code, kind in _KINDS.items()}


def encode(change: Change, origin: str) -> str:
    """The message that tells the other workers of ``change``: its origin, kind, game,
    version and extra field, space-separated (``"a1b2c3d4 n 17 1 16"``)."""
    extra = ""
    if isinstance(change, GameStarted) and change.follows is not None:
        extra = f" {change.follows}"
    elif isinstance(change, ClockStarted):
        extra = f" {change.deadline!r}"
    return f"{origin} {_CODES[type(change)]} {change.game_id} {change.version}{extra}"


def decode(message: str) -> tuple[str, Change] | None:
    """The origin and change of a message (None for one this release cannot read)."""
    parts = message.split(" ")
    if len(parts) < 4 or parts[1] not in _KINDS:
        return None
    origin, code, game, version, *extra = parts
    try:
        game_id, at = int(game), int(version)
        kind = _KINDS[code]
        if kind is GameStarted:
            follows = int(extra[0]) if extra else None
            return origin, GameStarted(game_id, at, remote=True, follows=follows)
        if kind is ClockStarted:
            return origin, ClockStarted(game_id, at, remote=True, deadline=float(extra[0]))
        return origin, kind(game_id, at, remote=True)
    except (ValueError, IndexError):
        return None


class ChangeFeed:
    """The feed (see the module docstring)."""

    def __init__(self, store: Store, *, origin: str | None = None) -> None:
        self._store = store
        self.origin = origin or secrets.token_hex(4)
        """This worker's mark on what it sends, so that it does not hear its own changes twice."""
        self._local: list[Listener] = []
        self._every: list[Listener] = []
        self._outgoing: list[str] = []
        self._sending: asyncio.Task[None] | None = None
        self._listening = False

    def subscribe(self, listener: Listener, *, remote: bool = False) -> None:
        """Calls ``listener`` with every change this worker makes from now on, and with every
        other worker's too when ``remote``."""
        (self._every if remote else self._local).append(listener)

    def announce(self, change: Change) -> None:
        """Tells everyone of ``change`` once the transaction it was made in commits (at once
        outside one). The listeners are called in a context of their own: what they start
        (a board's worker, say) must not inherit the announcing task's, whose database
        connection it holds may still be in use."""
        self._store.after_commit(lambda: contextvars.Context().run(self._deliver, change))

    async def start(self) -> None:
        """Starts hearing the other workers' changes (nothing to hear with one SQLite process)."""
        if self._store.shared and not self._listening:
            self._listening = True
            await self._store.changes.listen(self._receive, self._resumed)

    async def close(self) -> None:
        """Sends what is still to be sent, and stops hearing the others."""
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await self._sending
        if self._listening:
            self._listening = False
            await self._store.changes.close()

    def _deliver(self, change: Change) -> None:
        _tell(self._local, change)
        _tell(self._every, change)
        if self._store.shared:
            self._outgoing.append(encode(change, self.origin))
            if self._sending is None:
                self._sending = asyncio.get_running_loop().create_task(
                    self._send(), name="changes-send"
                )

    async def _send(self) -> None:
        """Sends the changes told meanwhile, a batch a round trip, in their order."""
        try:
            while self._outgoing:
                batch = self._outgoing[:SEND_AT_ONCE]
                del self._outgoing[:SEND_AT_ONCE]
                try:
                    await self._store.changes.send(batch)
                except Exception:
                    # the others read afresh on their next change, or when their board
                    # reconnects: a lost message delays a board, it loses nothing
                    logger.exception("could not tell the other workers of %d change(s)", len(batch))
        finally:
            self._sending = None

    def _receive(self, message: str) -> None:
        decoded = decode(message)
        if decoded is None:
            logger.warning("a change this release cannot read: %r", message[:100])
            return
        origin, change = decoded
        if origin != self.origin:
            _tell(self._every, change)

    def _resumed(self) -> None:
        _tell(self._every, Resumed())


def _tell(listeners: list[Listener], heard: Heard) -> None:
    for listener in listeners:
        try:
            listener(heard)
        except Exception:
            logger.exception("a listener of the change feed failed on %r", heard)
