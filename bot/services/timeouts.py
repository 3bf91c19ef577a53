"""Deadlines that pass: a game waiting for the computer is answered when its pause is over (the
computer is a player with a reserved id, :func:`bot.model.computer_level`), any other game is
lost on time by the player to move, unless its board does not show the move yet. A deadline
that falls due is acted on by whichever worker claims it first. No Telegram here."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Final

from bot.model import Store

from . import flow
from .boards import BoardMessages
from .computer import Brain
from .errors import StaleAction
from .saves import GameSaves
from .snapshots import GameSnapshot

THINKING_SECONDS: Final = 15.0
"""How long the computer's turn stays claimed by the worker thinking about it (a turn takes
0.05 s at level 5, 0.3 s in the slowest variants): if that worker dies, another answers after
this."""


class Timeouts:
    """The computer's turns and losses on time, for the timers (through
    :class:`~.games.Games`)."""

    def __init__(
        self,
        store: Store,
        rng: random.Random,
        *,
        saves: GameSaves,
        brain: Brain,
        board_messages: BoardMessages,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._rng = rng
        self._saves = saves
        self._brain = brain
        # what the boards show (the versions not written yet included)
        self._board_messages = board_messages
        self._clock = clock

    async def computer_move(self, game_id: int) -> GameSnapshot | None:
        """The computer acts in game ``game_id`` if the game waits for it and its pause is over;
        returns the game after it, or None when there was nothing to do. It thinks outside the
        game's lock, then saves only if the game has not changed meanwhile.

        Whoever thinks first claims the turn by moving its deadline :data:`THINKING_SECONDS`
        on: another worker (or this one's next tick) skips it meanwhile, and if this worker dies
        thinking, the turn falls due again and another answers it."""
        stored = await self._saves.get(game_id)
        now = self._clock()
        if not stored.computer_to_act or stored.deadline is None or stored.deadline > now:
            return None
        if not await self._store.games.claim_deadline(
            game_id, stored.version, stored.deadline, now + THINKING_SECONDS
        ):
            return None  # claimed by another
        game = stored.game
        level = stored.level(game.to_act)
        assert level is not None
        decision = await self._brain.decide(game, level, self._rng.getrandbits(32))
        async with self._saves.one_at_a_time(game_id):
            current = await self._saves.get(game_id)
            if current.version != stored.version:
                return None  # resigned, or already answered by another call
            try:
                moved_on = await asyncio.to_thread(
                    flow.decided, current, decision, self._rng, self._clock()
                )
                return await self._saves.save(moved_on, stored.version)
            except StaleAction:
                return None

    async def timeouts(self) -> list[GameSnapshot]:
        """Acts on the games whose deadline has passed: the computer answers the games that
        wait for it (all at once, each in its worker), the others are lost on time by the
        player to move. Returns the games changed.

        Not while a players' board does not show the move yet (Telegram's pace held it back):
        nobody loses on time for a move they could not see. Its clock starts when it is shown
        (:meth:`.BoardMessages.start_clock`); a board that cannot be shown within one more
        move's time (a chat gone) no longer holds the game. A move already being tapped (steps
        chosen, not confirmed) was seen: its board, behind the taps, holds nothing."""
        ended = []
        computer = []
        for game_id in await self._store.games.due(self._clock()):
            async with self._saves.attempt(game_id) as claimed:
                if not claimed:
                    continue  # another worker is acting on it
                stored = await self._saves.get(game_id)
                if stored.game.is_over or stored.deadline is None:
                    continue
                if stored.deadline > self._clock():
                    continue
                if stored.computer_to_act:
                    computer.append(game_id)
                    continue
                if (
                    not stored.input
                    and self._clock() < stored.deadline + stored.move_seconds
                    and any(
                        not board.watcher
                        and (board.shown_version is None or board.shown_version < stored.version)
                        for board in await self._board_messages.boards(game_id)
                    )
                ):
                    continue  # its clock starts when its board is shown (start_clock)
                line = f"{stored.game.to_act.value} timeout"
                try:
                    ended.append(
                        await self._saves.save(
                            flow.concluded(stored, stored.game.timeout(), line), stored.version
                        )
                    )
                except StaleAction:
                    continue
        answered = await asyncio.gather(*(self.computer_move(g) for g in computer))
        return ended + [snapshot for snapshot in answered if snapshot is not None]
