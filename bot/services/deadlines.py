"""Deadlines around the games' own: the reminders of correspondence games, and the clocks
stopped for an outage (Telegram's or the database's). A game lost on time is the game
service's (:meth:`~.timeouts.Timeouts.timeouts`). No Telegram here."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Final

from bot.model import Store, StoredGame, User

from .coordination import Coordination
from .snapshots import GameSnapshot
from .users import Users

REMIND_FROM_SECONDS: Final = 3600
"""Games with this much time a move or more (correspondence games) remind the player to move,
in private, when half of it is gone; shorter ones are played at one sitting."""


class Deadlines:
    """Reminders and postponed deadlines, across workers."""

    def __init__(
        self,
        store: Store,
        users: Users,
        coordination: Coordination,
        snapshot_of: Callable[[StoredGame], Awaitable[GameSnapshot]],
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._users = users
        self._coordination = coordination
        self._snapshot_of = snapshot_of
        self._clock = clock

    async def reminders(self) -> list[tuple[GameSnapshot, User]]:
        """The correspondence games whose player to move has used half the time for the move,
        each with that player: claimed once for each deadline (by one worker, when several
        share the database), so a player is reminded once a move. Players the bot cannot
        write to privately are left out (their reminder is claimed all the same)."""
        found = []
        games = self._store.games
        for game_id in await games.to_remind(self._clock(), min_seconds=REMIND_FROM_SECONDS):
            stored = await games.get(game_id)
            if stored is None or stored.game.is_over or stored.computer_to_act:
                continue
            if stored.deadline is None:
                continue
            if not await games.claim_reminder(game_id, stored.version, stored.deadline):
                continue
            player = await self._users.get(stored.player(stored.game.to_act))
            if player is not None and player.private_chat and not player.blocked:
                found.append((await self._snapshot_of(stored), player))
        return found

    async def postpone(self, since: float, seconds: float) -> int:
        """Stops the clocks for a time the players could not reach the bot, or the bot its
        database (an outage from ``since`` lasting ``seconds``): every running game's deadline
        after ``since`` moves ``seconds`` later. Versions stay, so buttons pressed meanwhile
        still count. Returns how many games it moved. With several workers, the first to report
        the outage moves them; the others' reports of it (they saw it too, each with its own
        timing) move nothing."""
        async with self._store.transaction():
            if not await self._coordination.outage_ended(since, since + seconds):
                return 0
            return await self._store.games.postpone_deadlines(since, seconds)
