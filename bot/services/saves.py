"""One game read, held and saved, for the services that change games (:class:`~.games.Games`,
:class:`~.timeouts.Timeouts`): one action at a time per game across every worker, the version
checked again on write (a stale, replayed or forged tap changes nothing), a result saved in one
transaction with its chips, match score and ratings, each save told to the change feed, and
each game's turn plan held until its turn ends. No Telegram here."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Final

from bot import logs
from bot.engine import TurnInput, TurnPlan
from bot.model import Store, StoredGame, VersionConflict

from . import chips
from .errors import GameNotFound, StaleAction
from .feed import ChangeFeed, GameSaved
from .locks import KeyedLocks
from .planner import RemotePlan
from .results import Results
from .snapshots import GameSnapshot, Snapshots

COMPUTER_PAUSE: Final = 1.5
"""Seconds between a change and the computer's answer to it: time to see what happened."""

TURN_PLANS_HELD: Final = 1_000
"""How many games' turn plans :class:`GameSaves` holds at most (the latest tapped or shown):
each game being played's, until its turn ends, so its next tap finds what the last one
searched however many other games were tapped between; most plans hold a few dozen nodes."""


class GameSaves:
    """Games read (:meth:`get`), held (:meth:`one_at_a_time`) and saved (:meth:`save`)."""

    def __init__(
        self,
        store: Store,
        *,
        feed: ChangeFeed,
        results: Results,
        snapshots: Snapshots,
        clock: Callable[[], float] = time.time,
        computer_pause: float = COMPUTER_PAUSE,
    ) -> None:
        self._store = store
        self._feed = feed
        self._results = results
        self._snapshots = snapshots
        self._clock = clock
        self.computer_pause = computer_pause
        self.computer_waits = asyncio.Event()
        """Set when a saved game waits for the computer: the timers' loop looks at once."""
        self.locks: KeyedLocks[int] = KeyedLocks()
        """This process's lock per game (the database's lock holds it across workers)."""
        # the plan of the turn being tapped, by game, the latest last (see TURN_PLANS_HELD)
        self._plans: OrderedDict[int, TurnPlan] = OrderedDict()

    @asynccontextmanager
    async def one_at_a_time(self, game_id: int) -> AsyncIterator[None]:
        """Holds game ``game_id`` for one action: in this process (its lock) and in every
        worker of a shared database."""
        async with self.locks.hold(game_id), self._store.exclusive("game", game_id):
            yield

    @asynccontextmanager
    async def attempt(self, game_id: int) -> AsyncIterator[bool]:
        """Holds game ``game_id`` if no other worker does (yields whether it could)."""
        async with self.locks.hold(game_id), self._store.attempt("game", game_id) as claimed:
            yield claimed

    async def get(self, game_id: int) -> StoredGame:
        """The game as stored.

        :raises: :exc:`GameNotFound`.
        """
        logs.note_game(game_id)  # what is logged from here on is about this game
        stored = await self._store.games.get(game_id)
        if stored is None:
            raise GameNotFound()
        return stored

    async def save(
        self, stored: StoredGame, version: int, *, durable: bool = True, forfeit: bool = False
    ) -> GameSnapshot:
        """Saves the game if it is still at ``version``; a result is saved in one transaction
        with what it pays, the match score and the ratings. ``durable`` (all but the taps before
        Confirm, which count for nothing yet): on disk when this returns, power cut or not.
        A game that now waits for the computer gets the computer's pause as its deadline.
        ``forfeit``: the loser of this result gives up its match too (:meth:`.Games.forfeit`)."""
        now = self._clock()
        if stored.computer_to_act:
            stored = replace(stored, deadline=now + self.computer_pause)
            self.computer_waits.set()
        try:
            if not stored.game.is_over:
                saved = await self._store.games.save(
                    stored, expected_version=version, now=now, durable=durable
                )
            else:
                async with self._store.transaction(durable=True):
                    # both players' wallets and ratings, in one order: their other games'
                    # results (on any worker) wait, and no two wait for each other
                    await self._store.lock_players(stored.white_id, stored.black_id)
                    stored = await chips.settle(self._store, replace(stored, deadline=None), now)
                    saved = await self._store.games.save(stored, expected_version=version, now=now)
                    await self._results.record(saved, now)
                    result = saved.game.result
                    if forfeit and saved.match_id is not None and result is not None:
                        await self._results.end_match(saved, result.winner, now)
        except VersionConflict:
            raise StaleAction() from None
        snapshot = await self.snapshot(saved)
        self._feed.announce(GameSaved(saved.id, saved.version, snapshot))
        return snapshot

    async def snapshot(self, stored: StoredGame) -> GameSnapshot:
        """What a view needs to show ``stored``; its turn's plan held meanwhile."""
        snapshot = await self._snapshots.of(stored)
        self._hold(stored.id, snapshot.turn_input)
        return snapshot

    def _hold(self, game_id: int, current: TurnInput | None) -> None:
        """Holds the plan of ``current``, the turn being tapped in game ``game_id`` (its turn
        ended when there is none), in place of the game's plan before; at most
        :data:`TURN_PLANS_HELD`, the least recently shown let go first."""
        before = self._plans.pop(game_id, None)
        if before is not None and (current is None or current.plan is not before):
            _let_go(before)
        if current is None:
            return
        self._plans[game_id] = current.plan
        while len(self._plans) > TURN_PLANS_HELD:
            _let_go(self._plans.popitem(last=False)[1])


def _let_go(plan: TurnPlan) -> None:
    """Lets go of a turn's plan: a heavy turn's, kept by the planner's process, is dropped
    there too (a plan of this process goes once nothing holds it)."""
    if isinstance(plan, RemotePlan):
        plan.forget()
