"""The game service: what players do in a game until its result: turns tapped step by step (or
sent whole by the Mini App), the cube, rolls and strikes, hints, take-backs in training,
resigning and forfeiting, a match's next game. A game starts in :mod:`.starts`; it is read,
held and saved by :mod:`.saves` (one action at a time per game, the version checked again on
write); deadlines that pass (the computer's turns, losses on time) are :mod:`.timeouts`'; how a
game moves on after each step is :mod:`.flow`'s, what a result changes :mod:`.results`'. The
service is given its collaborators (see :mod:`bot.services.root`) and builds no other. No
Telegram here.

The engine's work for an action (the turn searches behind a tap, a roll's forced turns) runs on
a thread (:func:`asyncio.to_thread`), never on the event loop: the taps of every other game are
answered meanwhile (see docs/decisions.md).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.ai import Action, Hint
from bot.engine import Side, TurnInput
from bot.model import Store, StoredGame, VersionConflict

from . import flow
from .computer import Brain
from .errors import (
    GameFinished,
    NoHints,
    NoNextGame,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
)
from .hints import Advice, advise
from .results import Results
from .saves import GameSaves
from .snapshots import WHOLE_TURN_BUTTONS, GameSnapshot, turn_input
from .starts import GameStarts
from .takeback import taken_back
from .users import Users


class Games:
    """Games for the bot's handlers (ids and domain values in, snapshots out). Every action
    names the game and the ``version`` its button was drawn for: a stale one is refused."""

    def __init__(
        self,
        store: Store,
        rng: random.Random,
        *,
        users: Users,
        brain: Brain,
        results: Results,
        saves: GameSaves,
        starts: GameStarts,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._rng = rng
        self._users = users
        self._brain = brain
        self._results = results
        self._saves = saves
        self._clock = clock
        self.move_seconds = starts.move_seconds
        """The default time per move (a challenge may choose another)."""
        self.computer_waits = saves.computer_waits
        """Set when a saved game waits for the computer: the timers' loop looks at once."""
        self._starts = starts

    # --- games -----------------------------------------------------------------------------

    async def next_game(
        self, game_id: int, user_id: int, *, dice_client: str | None = None
    ) -> GameSnapshot:
        """Starts the next game of a match after its finished game ``game_id``, same players,
        colours, options and boards; without the cube in the Crawford game. ``dice_client``:
        the id of the tap that asked for it, for its dice (see :meth:`.GameStarts.start`).

        :raises: :exc:`NotAPlayer`; :exc:`NoNextGame` if the game is not over, not part of a
            match, the match is over, or its next game has already started.
        """
        async with self._saves.one_at_a_time(game_id):
            stored = await self._saves.get(game_id)
            if stored.side_of(user_id) is None:
                raise NotAPlayer()
            if stored.match_id is None or not stored.game.is_over:
                raise NoNextGame()
            match = await self._store.matches.get(stored.match_id)
            if match is None or match.match.is_over:
                raise NoNextGame()
            old_boards = await self._store.games.boards(game_id)
            boards = [  # the players' boards; watchers watch one game, not its match
                (b.chat_id, b.viewer)
                for b in old_boards
                if b.inline_message_id is None and not b.watcher
            ]
            # an inline game's next game is played in the same inline message: the bot cannot
            # post another one in that chat
            inline = next((b.inline_message_id for b in old_boards if b.inline_message_id), None)
            try:
                started = await self._starts.start(
                    chat_id=stored.chat_id,
                    white_id=stored.white_id,
                    black_id=stored.black_id,
                    terms=replace(
                        stored.terms(match), cube=match.cube and match.match.cube_allowed
                    ),
                    locale=stored.locale,
                    boards=boards,
                    match_id=match.id,
                    game_no=stored.game_no + 1,
                    inline_board=inline,
                    chat_instance=stored.chat_instance,
                    dice_client=dice_client,
                    follows=game_id,
                    by=user_id,
                    tournament=await self._store.tournaments.of_match(match.id) is not None,
                )
            except VersionConflict:  # the other player was quicker
                raise NoNextGame() from None
            return await self._saves.snapshot(started)

    async def snapshot(self, game_id: int) -> GameSnapshot:
        """The game as it stands."""
        return await self._saves.snapshot(await self._saves.get(game_id))

    async def choose(self, game_id: int, user_id: int, version: int, index: int) -> GameSnapshot:
        """Plays the ``index``-th offered step of the turn being tapped, and with it a remainder
        that can be played one way only; in quick mode a step that completes the turn
        confirms it."""

        def step(current: TurnInput) -> TurnInput:
            if not 0 <= index < len(current.options):
                raise StaleAction()
            return _worked_out(current.play(current.options[index]).with_forced())

        async with self._saves.one_at_a_time(game_id):
            stored, chosen = await self._mover_input(game_id, user_id, version, step)
            return await self._after_tap(stored, chosen, user_id, version)

    async def finish(self, game_id: int, user_id: int, version: int, index: int) -> GameSnapshot:
        """Finishes the turn being tapped the ``index``-th way of
        :attr:`GameSnapshot.finishes` (a whole-turn button); in quick mode this confirms it."""

        def finished(current: TurnInput) -> TurnInput:
            finishes = current.finishes(WHOLE_TURN_BUTTONS)
            if finishes is None or not 0 <= index < len(finishes):
                raise StaleAction()
            return _worked_out(current.finish(finishes[index]))

        async with self._saves.one_at_a_time(game_id):
            stored, chosen = await self._mover_input(game_id, user_id, version, finished)
            return await self._after_tap(stored, chosen, user_id, version)

    async def undo(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """Takes back the last tap of this turn (a step with its forced remainder, or a
        finish)."""
        async with self._saves.one_at_a_time(game_id):
            stored, turn_input = await self._mover_input(game_id, user_id, version, _worked_out)
            if not turn_input.taps:
                raise StaleAction()
            return await self._saves.save(
                replace(stored, input=turn_input.undo().taps), version, durable=False
            )

    async def confirm(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """Commits the tapped turn, then rolls for the next player (playing passes and forced
        turns for them)."""
        async with self._saves.one_at_a_time(game_id):
            stored, turn_input = await self._mover_input(game_id, user_id, version, _worked_out)
            if not turn_input.is_complete:
                raise StaleAction()
            return await self._commit(stored, turn_input, version)

    async def play_turn(
        self, game_id: int, user_id: int, version: int, steps: Sequence[tuple[int, int, int]]
    ) -> GameSnapshot:
        """Plays a whole turn sent at once (the Mini App board's Confirm): ``steps`` as
        ``(src, dst, die)`` from the turn's start, whatever the buttons tapped so far (their
        taps are replaced), each one checked as a button's tap is, then committed like
        :meth:`confirm`: one save, so the chat's board is edited once for the turn.

        :raises: :exc:`NotAPlayer`, :exc:`GameFinished`, :exc:`NotYourTurn`,
            :exc:`StaleAction` (another version, or steps that are not a legal complete turn).
        """

        def whole(current: TurnInput) -> TurnInput:
            built = replace(current, taps=())
            for src, dst, die in steps:
                option = next(
                    (o for o in built.options if (o.src, o.dst, o.die) == (src, dst, die)), None
                )
                if option is None:
                    raise StaleAction()
                built = built.play(option)
            return _worked_out(built)

        async with self._saves.one_at_a_time(game_id):
            stored, chosen = await self._mover_input(game_id, user_id, version, whole)
            if not chosen.is_complete:
                raise StaleAction()
            return await self._commit(stored, chosen, version)

    async def _after_tap(
        self, stored: StoredGame, chosen: TurnInput, user_id: int, version: int
    ) -> GameSnapshot:
        """Saves a tap: the turn committed at once when it is complete and the player plays in
        quick mode, else the taps so far."""
        if chosen.is_complete:
            player = await self._users.get(user_id)
            if player is not None and player.quick:
                return await self._commit(stored, chosen, version)
        return await self._saves.save(replace(stored, input=chosen.taps), version, durable=False)

    async def _commit(
        self, stored: StoredGame, turn_input: TurnInput, version: int
    ) -> GameSnapshot:
        """Plays the complete ``turn_input`` and rolls for the next player, in one save: the
        board's next edit shows the turn and the next roll together."""
        now = self._clock()
        moved_on = await asyncio.to_thread(
            lambda: flow.played(stored, turn_input.turn(), self._rng, now)
        )
        return await self._saves.save(moved_on, version)

    async def take_back(self, game_id: int, user_id: int, line: int) -> GameSnapshot:
        """In a training game, ``user_id`` takes back their latest chosen turn, history line
        ``line`` (and what the computer played after it): the game is as it was before that
        turn, the same roll to play again (:func:`.takeback.taken_back`).

        :raises: :exc:`NotAPlayer`, :exc:`GameFinished`; :exc:`StaleAction` in a game that is
            not a training game, or for a turn that is not the player's latest.
        """
        async with self._saves.one_at_a_time(game_id):
            stored = await self._saves.get(game_id)
            side = _playing_side(stored, user_id)
            if not stored.training:
                raise StaleAction()
            now = self._clock()
            restored = await asyncio.to_thread(taken_back, stored, side, line, now)
            return await self._saves.save(restored, stored.version)

    async def roll(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The player to move rolls instead of doubling (passes and forced turns play
        themselves)."""
        return await self._act(game_id, user_id, version, Action.ROLL)

    async def strike(self, game_id: int, user_id: int, version: int, value: int) -> GameSnapshot:
        """``anti_three``: the mover's opponent strikes the die showing ``value`` from the three
        rolled; the mover then plays the two left (passes and forced turns play themselves)."""
        async with self._saves.one_at_a_time(game_id):
            stored = await self._saves.get(game_id)
            side = _playing_side(stored, user_id)
            game = stored.game
            if side is not game.to_act or not game.strike_pending:
                raise NotYourTurn()
            if stored.version != version:
                raise StaleAction()
            moved_on = await asyncio.to_thread(flow.struck, stored, value, self._rng, self._clock())
            return await self._saves.save(moved_on, version)

    async def double(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The player to move offers to double."""
        return await self._act(game_id, user_id, version, Action.DOUBLE)

    async def take(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The opponent takes the offered double; the doubler then rolls."""
        return await self._act(game_id, user_id, version, Action.TAKE)

    async def drop(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The opponent drops the offered double and loses the game at the cube's value."""
        return await self._act(game_id, user_id, version, Action.DROP)

    async def _act(self, game_id: int, user_id: int, version: int, action: Action) -> GameSnapshot:
        """A cube action or a roll (the engine's :class:`~bot.ai.Action`, the computer's too)."""
        async with self._saves.one_at_a_time(game_id):
            stored = await self._saves.get(game_id)
            side = _playing_side(stored, user_id)
            if side is not stored.game.to_act:
                raise NotYourTurn()
            if stored.version != version:
                raise StaleAction()
            moved_on = await asyncio.to_thread(flow.acted, stored, action, self._rng, self._clock())
            return await self._saves.save(moved_on, version)

    async def hint(
        self, game_id: int, user_id: int, version: int, *, known: Hint | None = None
    ) -> tuple[Hint, Advice]:
        """The strongest level's view of the roll of the player to move, in a game with hints,
        and what it advises in the board's buttons from the turn tapped so far (see
        :mod:`.hints`). Changes nothing. ``known``: this version's hint, asked for before (the
        computer is not asked again; the request is checked all the same).

        :raises: :exc:`NoHints`, :exc:`NotAPlayer`, :exc:`NotYourTurn`, :exc:`StaleAction`.
        """
        stored = await self._saves.get(game_id)
        side = _playing_side(stored, user_id)
        if not stored.hints:
            raise NoHints()
        if side is not stored.game.turn:
            raise NotYourTurn()
        tapped = await asyncio.to_thread(turn_input, stored)
        if stored.version != version or tapped is None:
            raise StaleAction()
        hint = known if known is not None else await self._brain.hint(stored.game)
        return hint, await asyncio.to_thread(advise, hint, tapped)

    async def resign(self, game_id: int, user_id: int) -> GameSnapshot:
        """``user_id`` resigns the game, at any moment of it."""
        async with self._saves.one_at_a_time(game_id):
            stored = await self._saves.get(game_id)
            side = _playing_side(stored, user_id)
            return await self._saves.save(
                flow.concluded(stored, stored.game.resign(side), f"{side.value} resign"),
                stored.version,
            )

    async def forfeit(self, game_id: int, user_id: int) -> GameSnapshot | None:
        """``user_id`` gives up game ``game_id`` and, when it is a match's, the whole match at
        once (a tournament's withdrawal): the game being played is resigned, and the match is
        won by the opponent whatever its score, in the transaction of that result, so the
        tournament's board it decides is decided with it and no next game starts. Between two
        games of the match the match alone is ended; a newer game of it, started meanwhile,
        is the one resigned. Returns the resigned game, None when none was being played.

        :raises: :exc:`NotAPlayer`.
        """
        for _attempt in range(3):
            async with self._saves.one_at_a_time(game_id):
                stored = await self._saves.get(game_id)
                side = stored.side_of(user_id)
                if side is None:
                    raise NotAPlayer()
                if not stored.game.is_over:
                    line = f"{side.value} resign"
                    return await self._saves.save(
                        flow.concluded(stored, stored.game.resign(side), line),
                        stored.version,
                        forfeit=True,
                    )
                if stored.match_id is None:
                    return None
                newer = [
                    g for g in await self.active_games(user_id) if g.match_id == stored.match_id
                ]
                if newer:  # its next game started meanwhile: that one is given up
                    game_id = newer[0].id
                    continue
                async with self._store.transaction(durable=True):
                    await self._store.lock_players(stored.white_id, stored.black_id)
                    await self._results.end_match(stored, side.other, self._clock())
                return None
        return None  # a next game started each time it looked: the timers end it later

    async def active_games(self, user_id: int, chat_id: int | None = None) -> list[StoredGame]:
        """Unfinished games of the user, in one chat or anywhere."""
        return await self._store.games.active_for(user_id, chat_id)

    async def version(self, game_id: int) -> int | None:
        """The game's current version (None if there is no such game)."""
        return await self._store.games.version(game_id)

    # --- inside ----------------------------------------------------------------------------

    async def stored(self, game_id: int) -> StoredGame:
        """The game as stored.

        :raises: :exc:`GameNotFound`.
        """
        return await self._saves.get(game_id)

    async def snapshot_of(self, stored: StoredGame) -> GameSnapshot:
        """What a view needs to show ``stored``."""
        return await self._saves.snapshot(stored)

    async def _mover_input(
        self, game_id: int, user_id: int, version: int, then: Callable[[TurnInput], TurnInput]
    ) -> tuple[StoredGame, TurnInput]:
        """The game and ``then`` of its turn being tapped by ``user_id`` (the tapped input
        rebuilt and ``then`` applied on a thread, searches and all).

        :raises: :exc:`NotAPlayer`, :exc:`GameFinished`, :exc:`NotYourTurn`,
            :exc:`StaleAction`, and what ``then`` raises.
        """
        stored = await self._saves.get(game_id)
        side = _playing_side(stored, user_id)
        if side is not stored.game.turn:
            raise NotYourTurn()
        if stored.version != version:
            raise StaleAction()

        def worked_out() -> TurnInput:
            tapped = turn_input(stored)
            if tapped is None:
                raise StaleAction()
            return then(tapped)

        return stored, await asyncio.to_thread(worked_out)


def _playing_side(stored: StoredGame, user_id: int) -> Side:
    """The side ``user_id`` plays in a game still in progress.

    :raises: :exc:`NotAPlayer`, :exc:`GameFinished`.
    """
    side = stored.side_of(user_id)
    if side is None:
        raise NotAPlayer()
    if stored.game.is_over:
        raise GameFinished()
    return side


def _worked_out(current: TurnInput) -> TurnInput:
    """``current`` with whether it is complete worked out (a search, the first time): what the
    service asks next, on the thread that made the input."""
    _ = current.is_complete
    return current
