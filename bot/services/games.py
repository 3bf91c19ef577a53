"""The game service: games from their start to their result, with turns tapped step by step, the
cube, matches, timeouts, the computer's moves, and what results pay. How a game moves on after
each step is :mod:`.flow`'s; the messages that show a game are recorded by :mod:`.boards`; what
leads to a game (challenges, inline invitations, watching) is the :mod:`.lobby`'s, which starts
games here. The service is given the users, the dice seeds, the coordination of workers and the
computer's brain (see :mod:`bot.services.root`), and builds no other service. No Telegram here.

A player is a person or the computer (a user with a reserved id, see
:func:`bot.model.computer_level`). When a game waits for the computer its deadline is set
:attr:`GameService.computer_pause` seconds ahead, and the computer acts when that deadline
passes, like a timeout: the person sees what changed before the computer answers, and a game
left waiting by a restart is answered after it. Games with the computer change no ratings.

Every action names the game and the ``version`` its button was drawn for. Actions
on one game run one at a time (a lock per game, held across every worker that shares the
database: :meth:`~bot.model.Store.exclusive`), and the write checks the version again in the
database, so a stale, replayed or forged tap is refused and changes nothing. A deadline that
falls due is acted on by whichever worker claims it first; the others skip it.

A result is saved in one transaction with its chips (:func:`.chips.settle`), the match score and
both players' ratings: a crash leaves all of them or none, and a replayed result pays nothing.

The engine's work for an action (the turn searches behind a tap, a roll's forced turns, what a
board shows) runs on a thread (:func:`asyncio.to_thread`), never on the event loop: a crazy
gul-bara cascade's first look can search 100,000 nodes for seconds (in the bot, in a process of
its own: :mod:`.planner`), and the taps of every other game are answered meanwhile. Each game's
turn plan (:class:`~bot.engine.rules.plan.TurnPlan`) is held until its turn ends
(:data:`TURN_PLANS_HELD`), so the engine's shared cache, which keeps only a budget of nodes,
never makes a game's next tap search its turn again.

Every game's dice are provably fair (:mod:`bot.engine.fair`): :meth:`GameService.start` draws
the game's secret seed (with :mod:`secrets` when the service's random source is a
:class:`random.SystemRandom`, as in production; from a seeded one in tests and benchmarks, so
that they replay) and takes the client value of the tap that started the game, and every roll is
derived from them and recorded in the game's :class:`~bot.model.DiceProof`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Final

from cachetools import Cache

from bot import logs
from bot.ai import Action, Hint
from bot.engine import (
    Game,
    Played,
    Side,
    Turn,
    TurnInput,
    TurnPlan,
)
from bot.model import (
    Board,
    DiceProof,
    Store,
    StoredGame,
    Tally,
    Terms,
    User,
    VersionConflict,
    computer_level,
)

from . import chips, fairplay, flow
from .autoanalysis import AutoAnalyses, match_figures
from .boards import BoardMessages
from .computer import Brain
from .coordination import Coordination
from .errors import (
    GameFinished,
    GameNotFound,
    NoHints,
    NoNextGame,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
)
from .feed import ChangeFeed, GameSaved, GameStarted
from .locks import KeyedLocks
from .planner import RemotePlan
from .ratings import REPEAT_WINDOW_SECONDS, rate_game, repeat_weight
from .seeds import DiceSeeds
from .snapshots import WHOLE_TURN_BUTTONS, GameSnapshot, turn_input
from .takeback import taken_back
from .users import Users, kept

logger = logging.getLogger(__name__)

COMPUTER_PAUSE: Final = 1.5
"""Seconds between a change and the computer's answer to it: time to see what happened."""

REMIND_FROM_SECONDS: Final = 3600
"""Games with this much time a move or more (correspondence games) remind the player to move,
in private, when half of it is gone; shorter ones are played at one sitting."""

THINKING_SECONDS: Final = 15.0
"""How long the computer's turn stays claimed by the worker thinking about it (a turn takes
0.05 s at level 5, 0.3 s in the slowest variants): if that worker dies, another answers after
this."""

SCORES_KEPT: Final = 10_000
"""Pairs whose head-to-head score the captions keep in memory at most, the least recently
used let go first."""
TURN_PLANS_HELD: Final = 1_000
"""How many games' turn plans :class:`GameService` holds at most (the latest tapped or shown):
each game being played's, until its turn ends, so its next tap finds what the last one
searched however many other games were tapped between; most plans hold a few dozen nodes."""


class GameService:
    """Games for the bot's handlers (ids and domain values in, snapshots out), with
    :attr:`users`, :attr:`chats`, :attr:`challenges`, :attr:`watchers` and :attr:`replays`."""

    def __init__(
        self,
        store: Store,
        rng: random.Random,
        *,
        users: Users,
        seeds: DiceSeeds,
        coordination: Coordination,
        brain: Brain,
        feed: ChangeFeed,
        move_seconds: int = 90,
        clock: Callable[[], float] = time.time,
        computer_pause: float = COMPUTER_PAUSE,
        auto_analyses: AutoAnalyses | None = None,
        board_messages: BoardMessages | None = None,
    ) -> None:
        self._store = store
        self._feed = feed
        # what the boards show (the versions not written yet included), for the timeouts
        self._board_messages = board_messages
        self._rng = rng
        self._auto_analyses = auto_analyses
        self._users = users
        self._seeds = seeds
        self._coordination = coordination
        self._clock = clock
        self.move_seconds = move_seconds
        """The default time per move (a challenge may choose another)."""
        self._brain = brain
        self.computer_pause = computer_pause
        self.computer_waits = asyncio.Event()
        """Set when a saved game waits for the computer: the timers' loop looks at once."""
        self._locks: KeyedLocks[int] = KeyedLocks()
        # the plan of the turn being tapped, by game, the latest last (see TURN_PLANS_HELD)
        self._plans: OrderedDict[int, TurnPlan] = OrderedDict()
        # Head-to-head scores for the captions (at most SCORES_KEPT). Only one process writes
        # an SQLite file, so there the cache knows every result; with several workers another
        # may record one, so a score is read again after users.SHARED_SECONDS.
        self._scores: Cache[tuple[int, int], Tally] = kept(
            SCORES_KEPT, shared=store.shared, clock=clock
        )

    @asynccontextmanager
    async def _one_at_a_time(self, game_id: int) -> AsyncIterator[None]:
        """Holds game ``game_id`` for one action: in this process (its lock) and in every
        worker of a shared database."""
        async with self._locks.hold(game_id), self._store.exclusive("game", game_id):
            yield

    async def claim_update(self, update_id: int) -> bool:
        """Records that an update is being handled; False if it was handled before."""
        return await self._store.updates.claim(update_id, self._clock())

    # --- games -----------------------------------------------------------------------------

    async def next_game(
        self, game_id: int, user_id: int, *, dice_client: str | None = None
    ) -> GameSnapshot:
        """Starts the next game of a match after its finished game ``game_id``, same players,
        colours, options and boards; without the cube in the Crawford game. ``dice_client``:
        the id of the tap that asked for it, for its dice (see :meth:`start`).

        :raises: :exc:`NotAPlayer`; :exc:`NoNextGame` if the game is not over, not part of a
            match, the match is over, or its next game has already started.
        """
        async with self._one_at_a_time(game_id):
            stored = await self._get(game_id)
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
                started = await self.start(
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
                )
            except VersionConflict:  # the other player was quicker
                raise NoNextGame() from None
            return await self._snapshot(started)

    async def start(
        self,
        *,
        chat_id: int,
        white_id: int,
        black_id: int,
        terms: Terms,
        locale: str,
        boards: list[tuple[int, Side]],
        match_id: int | None,
        game_no: int = 1,
        inline_board: str | None = None,
        chat_instance: str | None = None,
        dice_client: str | None = None,
        dice_seed: bytes | None = None,
        tournament: bool = False,
        follows: int | None = None,
    ) -> StoredGame:
        """Rolls a new game's opening (playing forced turns) on ``terms`` and stores it;
        an inline game with its ``inline_board`` (the inline message) and ``chat_instance``; a
        game set up at the terms' ``start`` has no opening roll: its side to move rolls first.
        A move time of None is the bot's default.

        ``dice_seed``: the seed drawn (and committed to) with the challenge, before the client
        value existed; a new one when there is none (the next game of a match).

        Its dice are fair dice with a new secret seed and ``dice_client`` as the client
        value: the callback query id of the tap that started the game, which nobody knew
        before it (a value made up here when there is none, or when it is not one, see
        :data:`bot.engine.fair.CLIENT_VALUE`).

        ``match_id``: the match of a match's next game; without one, a match of the terms'
        ``match_length`` (when it is one) is made, whose first game this is.

        ``tournament``: a tournament's game (the tournament service says so): no hints, whatever
        the terms say (see :func:`.fairplay.hints_allowed`).

        ``follows``: the finished game of the match that this game comes after. The new game is
        told to the change feed once the caller's transaction commits.

        :raises: :exc:`~bot.engine.GameOverError` for a ``start`` where a side has borne off
            every checker.
        """
        now = self._clock()
        start, rules, cube, dice_mode = terms.start, terms.rule_set, terms.cube, terms.dice_mode
        move_seconds = terms.move_seconds or self.move_seconds
        if terms.match_length and match_id is None:
            match_id = (
                await self._store.matches.create(length=terms.match_length, cube=cube, now=now)
            ).id
        seed = dice_seed if dice_seed is not None else self._seeds.new_seed()
        proof = DiceProof.new(seed, self._seeds.client(dice_client))
        dice = flow.GameDice(proof, self._rng)

        def opened() -> tuple[Game, tuple[str, ...], tuple[Played, ...]]:
            if start is not None:
                set_up = Game.setup(start, rules=rules, cube=cube, dice_mode=dice_mode)
                game = dice.roll(set_up)
            else:
                game = dice.start(terms.variant, rules=rules, cube=cube, dice_mode=dice_mode)
            return flow.play_automatic(game, (), dice)

        game, history, last_turn = await asyncio.to_thread(opened)
        waits_for = black_id if game.to_act is Side.BLACK else white_id
        pause = self.computer_pause if computer_level(waits_for) else move_seconds
        created = await self._store.games.create(
            chat_id=chat_id,
            white_id=white_id,
            black_id=black_id,
            game=game,
            move_seconds=move_seconds,
            deadline=None if game.is_over else now + pause,
            locale=locale,
            boards=boards,
            now=now,
            history=history,
            last_turn=last_turn,
            match_id=match_id,
            game_no=game_no,
            stake=terms.stake,
            stake_mode=terms.stake_mode,
            hints=terms.hints
            and fairplay.hints_allowed(
                terms,
                computer=bool(computer_level(white_id) or computer_level(black_id)),
                tournament=tournament,
            ),
            inline_board=inline_board,
            chat_instance=chat_instance,
            dice_proof=dice.proof,
            watchable=terms.watchable,
            start=start,
            training=terms.training,
        )
        self._feed.announce(GameStarted(created.id, created.version, follows=follows))
        return created

    async def snapshot(self, game_id: int) -> GameSnapshot:
        """The game as it stands."""
        return await self._snapshot(await self._get(game_id))

    async def choose(self, game_id: int, user_id: int, version: int, index: int) -> GameSnapshot:
        """Plays the ``index``-th offered step of the turn being tapped, and with it a remainder
        that can be played one way only; in quick mode a step that completes the turn
        confirms it."""

        def step(current: TurnInput) -> TurnInput:
            if not 0 <= index < len(current.options):
                raise StaleAction()
            return _worked_out(current.play(current.options[index]).with_forced())

        async with self._one_at_a_time(game_id):
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

        async with self._one_at_a_time(game_id):
            stored, chosen = await self._mover_input(game_id, user_id, version, finished)
            return await self._after_tap(stored, chosen, user_id, version)

    async def undo(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """Takes back the last tap of this turn (a step with its forced remainder, or a
        finish)."""
        async with self._one_at_a_time(game_id):
            stored, turn_input = await self._mover_input(game_id, user_id, version, _worked_out)
            if not turn_input.taps:
                raise StaleAction()
            return await self._save(
                replace(stored, input=turn_input.undo().taps), version, durable=False
            )

    async def confirm(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """Commits the tapped turn, then rolls for the next player (playing passes and forced
        turns for them)."""
        async with self._one_at_a_time(game_id):
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

        async with self._one_at_a_time(game_id):
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
        return await self._save(replace(stored, input=chosen.taps), version, durable=False)

    async def _commit(
        self, stored: StoredGame, turn_input: TurnInput, version: int
    ) -> GameSnapshot:
        """Plays the complete ``turn_input`` and rolls for the next player, in one save: the
        board's next edit shows the turn and the next roll together."""
        now = self._clock()
        moved_on = await asyncio.to_thread(
            lambda: flow.played(stored, turn_input.turn(), self._rng, now)
        )
        return await self._save(moved_on, version)

    async def take_back(self, game_id: int, user_id: int, line: int) -> GameSnapshot:
        """In a training game, ``user_id`` takes back their latest chosen turn, history line
        ``line`` (and what the computer played after it): the game is as it was before that
        turn, the same roll to play again (:func:`.takeback.taken_back`).

        :raises: :exc:`NotAPlayer`, :exc:`GameFinished`; :exc:`StaleAction` in a game that is
            not a training game, or for a turn that is not the player's latest.
        """
        async with self._one_at_a_time(game_id):
            stored = await self._get(game_id)
            side = _playing_side(stored, user_id)
            if not stored.training:
                raise StaleAction()
            now = self._clock()
            restored = await asyncio.to_thread(taken_back, stored, side, line, now)
            return await self._save(restored, stored.version)

    async def roll(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The player to move rolls instead of doubling (passes and forced turns play
        themselves)."""
        return await self._act(game_id, user_id, version, Action.ROLL)

    async def strike(self, game_id: int, user_id: int, version: int, value: int) -> GameSnapshot:
        """``anti_three``: the mover's opponent strikes the die showing ``value`` from the three
        rolled; the mover then plays the two left (passes and forced turns play themselves)."""
        async with self._one_at_a_time(game_id):
            stored = await self._get(game_id)
            side = _playing_side(stored, user_id)
            game = stored.game
            if side is not game.to_act or not game.strike_pending:
                raise NotYourTurn()
            if stored.version != version:
                raise StaleAction()
            moved_on = await asyncio.to_thread(flow.struck, stored, value, self._rng, self._clock())
            return await self._save(moved_on, version)

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
        async with self._one_at_a_time(game_id):
            stored = await self._get(game_id)
            side = _playing_side(stored, user_id)
            if side is not stored.game.to_act:
                raise NotYourTurn()
            if stored.version != version:
                raise StaleAction()
            moved_on = await asyncio.to_thread(flow.acted, stored, action, self._rng, self._clock())
            return await self._save(moved_on, version)

    async def computer_move(self, game_id: int) -> GameSnapshot | None:
        """The computer acts in game ``game_id`` if the game waits for it and its pause is over;
        returns the game after it, or None when there was nothing to do. It thinks outside the
        game's lock, then saves only if the game has not changed meanwhile.

        Whoever thinks first claims the turn by moving its deadline :data:`THINKING_SECONDS`
        on: another worker (or this one's next tick) skips it meanwhile, and if this worker dies
        thinking, the turn falls due again and another answers it."""
        stored = await self._get(game_id)
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
        async with self._one_at_a_time(game_id):
            current = await self._get(game_id)
            if current.version != stored.version:
                return None  # resigned, or already answered by another call
            try:
                moved_on = await asyncio.to_thread(
                    flow.decided, current, decision, self._rng, self._clock()
                )
                return await self._save(moved_on, stored.version)
            except StaleAction:
                return None

    async def hint(
        self, game_id: int, user_id: int, version: int, *, known: Hint | None = None
    ) -> tuple[Hint, Turn | None]:
        """The strongest level's view of the roll of the player to move, in a game with hints,
        and the turn tapped so far when it is complete (to say what it gives away). Changes
        nothing. ``known``: this version's hint, asked for before (the computer is not asked
        again; the request is checked all the same).

        :raises: :exc:`NoHints`, :exc:`NotAPlayer`, :exc:`NotYourTurn`, :exc:`StaleAction`.
        """
        stored = await self._get(game_id)
        side = _playing_side(stored, user_id)
        if not stored.hints:
            raise NoHints()
        if side is not stored.game.turn:
            raise NotYourTurn()
        tapped = await asyncio.to_thread(turn_input, stored)
        if stored.version != version or tapped is None:
            raise StaleAction()
        hint = known if known is not None else await self._brain.hint(stored.game)
        return hint, await asyncio.to_thread(_turn_if_complete, tapped)

    async def resign(self, game_id: int, user_id: int) -> GameSnapshot:
        """``user_id`` resigns the game, at any moment of it."""
        async with self._one_at_a_time(game_id):
            stored = await self._get(game_id)
            side = _playing_side(stored, user_id)
            return await self._save(
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
            async with self._one_at_a_time(game_id):
                stored = await self._get(game_id)
                side = stored.side_of(user_id)
                if side is None:
                    raise NotAPlayer()
                if not stored.game.is_over:
                    line = f"{side.value} resign"
                    return await self._save(
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
                    await self._end_match(stored, side.other, self._clock())
                return None
        return None  # a next game started each time it looked: the timers end it later

    async def _end_match(self, stored: StoredGame, winner: Side, now: float) -> bool:
        """Inside the caller's transaction: the match of ``stored`` (its latest game) is won
        by ``winner`` now, whatever the score, and the tournament's board it decides is
        decided. False when it was over already."""
        assert stored.match_id is not None
        record = await self._store.matches.get(stored.match_id)
        if record is None or record.match.is_over:
            return False
        match = record.match
        if winner is Side.WHITE:
            won = replace(match, white=match.length)
        else:
            won = replace(match, black=match.length)
        await self._store.matches.save(stored.match_id, won, now=now)
        await self._store.tournaments.game_result(
            stored, winner_id=stored.player(winner), match_over=True
        )
        return True

    async def timeouts(self) -> list[GameSnapshot]:
        """Acts on the games whose deadline has passed: the computer answers the games that
        wait for it (all at once, each in its worker), the others are lost on time by the
        player to move. Returns the games changed.

        Not while a players' board does not show the move yet (Telegram's pace held it back):
        nobody loses on time for a move they could not see. Its clock starts when it is shown
        (:meth:`start_clock`); a board that cannot be shown within one more move's time (a
        chat gone) no longer holds the game. A move already being tapped (steps chosen, not
        confirmed) was seen: its board, behind the taps, holds nothing."""
        ended = []
        computer = []
        for game_id in await self._store.games.due(self._clock()):
            async with self._locks.hold(game_id), self._store.attempt("game", game_id) as claimed:
                if not claimed:
                    continue  # another worker is acting on it
                stored = await self._get(game_id)
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
                        for board in await self._boards(game_id)
                    )
                ):
                    continue  # its clock starts when its board is shown (start_clock)
                line = f"{stored.game.to_act.value} timeout"
                try:
                    ended.append(
                        await self._save(
                            flow.concluded(stored, stored.game.timeout(), line), stored.version
                        )
                    )
                except StaleAction:
                    continue
        answered = await asyncio.gather(*(self.computer_move(g) for g in computer))
        return ended + [snapshot for snapshot in answered if snapshot is not None]

    async def _boards(self, game_id: int) -> list[Board]:
        if self._board_messages is not None:
            return await self._board_messages.boards(game_id)
        return await self._store.games.boards(game_id)

    async def reminders(self) -> list[tuple[GameSnapshot, User]]:
        """The correspondence games whose player to move has used half the time for the move,
        each with that player: claimed once for each deadline (by one worker, when several
        share the database), so a player is reminded once a move. Players the bot cannot
        write to privately are left out (their reminder is claimed all the same)."""
        found = []
        for game_id in await self._store.games.to_remind(
            self._clock(), min_seconds=REMIND_FROM_SECONDS
        ):
            stored = await self._get(game_id)
            if stored.game.is_over or stored.computer_to_act or stored.deadline is None:
                continue
            if not await self._store.games.claim_reminder(game_id, stored.version, stored.deadline):
                continue
            player = await self._users.get(stored.player(stored.game.to_act))
            if player is not None and player.private_chat and not player.blocked:
                found.append((await self._snapshot(stored), player))
        return found

    async def active_games(self, user_id: int, chat_id: int | None = None) -> list[StoredGame]:
        """Unfinished games of the user, in one chat or anywhere."""
        return await self._store.games.active_for(user_id, chat_id)

    async def version(self, game_id: int) -> int | None:
        """The game's current version (None if there is no such game)."""
        return await self._store.games.version(game_id)

    async def postpone_deadlines(self, since: float, seconds: float) -> int:
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

    # --- inside ----------------------------------------------------------------------------

    async def stored(self, game_id: int) -> StoredGame:
        """The game as stored.

        :raises: :exc:`GameNotFound`.
        """
        return await self._get(game_id)

    async def snapshot_of(self, stored: StoredGame) -> GameSnapshot:
        """What a view needs to show ``stored``."""
        return await self._snapshot(stored)

    async def _get(self, game_id: int) -> StoredGame:
        logs.note_game(game_id)  # what is logged from here on is about this game
        stored = await self._store.games.get(game_id)
        if stored is None:
            raise GameNotFound()
        return stored

    async def _mover_input(
        self, game_id: int, user_id: int, version: int, then: Callable[[TurnInput], TurnInput]
    ) -> tuple[StoredGame, TurnInput]:
        """The game and ``then`` of its turn being tapped by ``user_id`` (the tapped input
        rebuilt and ``then`` applied on a thread, searches and all).

        :raises: :exc:`NotAPlayer`, :exc:`GameFinished`, :exc:`NotYourTurn`,
            :exc:`StaleAction`, and what ``then`` raises.
        """
        stored = await self._get(game_id)
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

    async def _save(
        self, stored: StoredGame, version: int, *, durable: bool = True, forfeit: bool = False
    ) -> GameSnapshot:
        """Saves the game if it is still at ``version``; a result is saved in one transaction
        with what it pays, the match score and the ratings. ``durable`` (all but the taps before
        Confirm, which count for nothing yet): on disk when this returns, power cut or not.
        A game that now waits for the computer gets the computer's pause as its deadline.
        ``forfeit``: the loser of this result gives up its match too (:meth:`forfeit`)."""
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
                    await self._record_result(saved, now)
                    result = saved.game.result
                    if forfeit and saved.match_id is not None and result is not None:
                        await self._end_match(saved, result.winner, now)
        except VersionConflict:
            raise StaleAction() from None
        snapshot = await self._snapshot(saved)
        self._feed.announce(GameSaved(saved.id, saved.version, snapshot))
        return snapshot

    async def _record_result(self, stored: StoredGame, now: float) -> None:
        """Adds a finished game to its match, to its tournament's board and, unless conceded
        early, to the ratings, weighed by the two players' other rated games together of late
        (:func:`repeat_weight`)."""
        result = stored.game.result
        assert result is not None
        match_over = False
        if stored.match_id is not None:
            record = await self._store.matches.get(stored.match_id)
            if record is not None and not record.match.is_over:
                match = record.match.after_game(result.winner, result.points)
                await self._store.matches.save(stored.match_id, match, now=now)
                match_over = match.is_over
        # a tournament's board is decided by its game (or its match's last), in this
        # transaction: a result saved once is counted once; early concessions count there
        await self._store.tournaments.game_result(
            stored, winner_id=stored.player(result.winner), match_over=match_over
        )
        if chips.is_early_concession(stored):
            return
        if stored.level(Side.WHITE) or stored.level(Side.BLACK):
            return  # games with the computer are counted apart, never in ratings
        if not fairplay.rated(stored):
            return  # played on from a position someone chose, or with hints: not rated
        variant = stored.game.variant
        winner, loser = stored.player(result.winner), stored.player(result.winner.other)
        ratings = self._store.ratings
        # the same two accounts again and again count less (a second account, a pool that
        # keeps pairing them): their rated games of the last 30 days weigh this one
        together = await self._store.games.finished_between(
            winner, loser, variant, now - REPEAT_WINDOW_SECONDS, besides=stored.id
        )
        earlier = [
            game.finished_at
            for game in together
            if game.finished_at is not None and not chips.is_early_concession(game)
        ]
        won, lost = rate_game(
            await ratings.get(winner, variant),
            await ratings.get(loser, variant),
            repeat_weight(earlier, now),
        )
        await ratings.set(winner, variant, won)
        await ratings.set(loser, variant, lost)
        if self._auto_analyses is not None:  # its luck and PR, once the game is analysed
            await self._auto_analyses.queue(stored, now)

    async def _snapshot(self, stored: StoredGame) -> GameSnapshot:
        white = await self._users.get(stored.white_id)
        black = await self._users.get(stored.black_id)
        pair = (stored.white_id, stored.black_id)
        if stored.game.is_over:  # a result changes the score between the two
            self._scores.pop(pair, None)
            self._scores.pop(pair[::-1], None)
        score = self._scores.get(pair)
        if score is None:
            score = self._scores[pair] = await self._store.games.head_to_head(*pair)
        match = await self._store.matches.get(stored.match_id) if stored.match_id else None
        luck = tuple(await self._store.luck.of_game(stored.id)) if stored.game.is_over else ()
        match_luck = None
        if match is not None and match.match.is_over and stored.game.is_over:
            figures = await self._store.luck.of_match(match.id)
            match_luck = match_figures(figures)
        snapshot = GameSnapshot(
            stored, white or _NOBODY, black or _NOBODY, score, match, luck, match_luck
        )
        await asyncio.to_thread(snapshot.prepare)
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


_NOBODY: Final = User(0, None, "?", None)


def _let_go(plan: TurnPlan) -> None:
    """Lets go of a turn's plan: a heavy turn's, kept by the planner's process, is dropped
    there too (a plan of this process goes once nothing holds it)."""
    if isinstance(plan, RemotePlan):
        plan.forget()


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


def _turn_if_complete(current: TurnInput) -> Turn | None:
    """The turn ``current`` has tapped when it is complete, else None."""
    return current.turn() if current.is_complete else None
