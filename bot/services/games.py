"""The game service: games from their start to their result, with turns tapped step by step, the
cube, matches, timeouts and the computer's moves. How a game moves on after each step is
:mod:`.flow`'s; what a result changes (match, tournament, ratings) is :mod:`.results`'; what a
view needs to show a game is :mod:`.snapshots`'; the messages that show a game are recorded by
:mod:`.boards`; reminders and clocks stopped for an outage are :mod:`.deadlines`'; what leads to
a game (challenges, inline invitations, watching) is the :mod:`.lobby`'s, which starts games
here. The service is given its collaborators (see :mod:`bot.services.root`) and builds no other
service. No Telegram here.

A player is a person or the computer (a user with a reserved id, see
:func:`bot.model.computer_level`). When a game waits for the computer its deadline is set
:attr:`Games.computer_pause` seconds ahead, and the computer acts when that deadline
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

Every game's dice are provably fair (:mod:`bot.engine.fair`): :meth:`Games.start` draws
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
from dataclasses import dataclass, replace
from typing import Final

from bot import logs
from bot.ai import Action, Hint
from bot.engine import (
    Game,
    Played,
    Side,
    TurnInput,
    TurnPlan,
)
from bot.model import (
    BoardMessage,
    DiceProof,
    Store,
    StoredGame,
    Terms,
    VersionConflict,
    computer_level,
)

from . import chips, fairplay, flow
from .boards import BoardMessages
from .computer import Brain
from .deadlines import REMIND_FROM_SECONDS
from .errors import (
    AlreadyPlaying,
    GameError,
    GameFinished,
    GameNotFound,
    NoHints,
    NoNextGame,
    NotAPlayer,
    NotYourTurn,
    OpponentPlaying,
    OpponentTournamentGameWaits,
    StaleAction,
    TournamentGameWaits,
)
from .feed import ChangeFeed, GameSaved, GameStarted
from .hints import Advice, advise
from .locks import KeyedLocks
from .planner import RemotePlan
from .results import Results
from .seeds import DiceSeeds
from .snapshots import WHOLE_TURN_BUTTONS, GameSnapshot, Snapshots, turn_input
from .takeback import taken_back
from .users import Users

logger = logging.getLogger(__name__)

COMPUTER_PAUSE: Final = 1.5
"""Seconds between a change and the computer's answer to it: time to see what happened."""

THINKING_SECONDS: Final = 15.0
"""How long the computer's turn stays claimed by the worker thinking about it (a turn takes
0.05 s at level 5, 0.3 s in the slowest variants): if that worker dies, another answers after
this."""

TURN_PLANS_HELD: Final = 1_000
"""How many games' turn plans :class:`Games` holds at most (the latest tapped or shown):
each game being played's, until its turn ends, so its next tap finds what the last one
searched however many other games were tapped between; most plans hold a few dozen nodes."""


@dataclass(frozen=True, slots=True)
class Busy:
    """What keeps player ``user_id`` from starting a game at one sitting: ``game``, an
    unfinished game at one sitting they play; or, with no game, ``tournament_id``, a
    tournament whose board of theirs waits to start (or waits for its match's next game)."""

    user_id: int
    game: StoredGame | None = None
    tournament_id: int | None = None


class Games:
    """Games for the bot's handlers (ids and domain values in, snapshots out), with
    :attr:`users`, :attr:`chats`, :attr:`challenges`, :attr:`watchers` and :attr:`replays`."""

    def __init__(
        self,
        store: Store,
        rng: random.Random,
        *,
        users: Users,
        seeds: DiceSeeds,
        brain: Brain,
        feed: ChangeFeed,
        results: Results,
        snapshots: Snapshots,
        board_messages: BoardMessages,
        move_seconds: int = 90,
        clock: Callable[[], float] = time.time,
        computer_pause: float = COMPUTER_PAUSE,
    ) -> None:
        self._store = store
        self._feed = feed
        # what the boards show (the versions not written yet included), for the timeouts
        self._board_messages = board_messages
        self._rng = rng
        self._results = results
        self._snapshots = snapshots
        self._users = users
        self._seeds = seeds
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

    @asynccontextmanager
    async def _one_at_a_time(self, game_id: int) -> AsyncIterator[None]:
        """Holds game ``game_id`` for one action: in this process (its lock) and in every
        worker of a shared database."""
        async with self._locks.hold(game_id), self._store.exclusive("game", game_id):
            yield

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
                    by=user_id,
                    tournament=await self._store.tournaments.of_match(match.id) is not None,
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
        by: int | None = None,
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

        One game at one sitting: a game with less than :data:`REMIND_FROM_SECONDS` a move
        starts only while neither player is :meth:`busy` (a match's next game is its match's
        continuation), checked with both players' locks held in the transaction that stores
        it (the caller's, else one of its own), so that two paths starting games for one
        player at once, on any workers, start one. ``by``: the player who asked for it (a
        refusal speaks to them of their own game, and names the other's).

        :raises: :exc:`~bot.engine.GameOverError` for a ``start`` where a side has borne off
            every checker; :exc:`AlreadyPlaying`, :exc:`OpponentPlaying`,
            :exc:`TournamentGameWaits`, :exc:`OpponentTournamentGameWaits` (see
            :meth:`refusal`) while a player is busy.
        """
        async with self._store.transaction(durable=True):
            move_seconds = terms.move_seconds or self.move_seconds
            if move_seconds < REMIND_FROM_SECONDS:
                match = match_id if follows is not None else None
                await self.lock_players(white_id, black_id)
                for player in (white_id, black_id):
                    busy = await self.busy(player, tournament=tournament, match_id=match)
                    if busy is not None:
                        raise await self.refusal(busy, by)
            return await self._start(
                chat_id=chat_id,
                white_id=white_id,
                black_id=black_id,
                terms=terms,
                locale=locale,
                boards=boards,
                match_id=match_id,
                game_no=game_no,
                inline_board=inline_board,
                chat_instance=chat_instance,
                dice_client=dice_client,
                dice_seed=dice_seed,
                tournament=tournament,
                follows=follows,
            )

    async def lock_players(self, *user_ids: int) -> None:
        """Inside a transaction: holds these people (the computer needs no lock) until it
        ends, for it alone across every worker (:meth:`~bot.model.Store.lock_players`)."""
        await self._store.lock_players(*(p for p in user_ids if not computer_level(p)))

    async def busy(
        self, user_id: int, *, tournament: bool = False, match_id: int | None = None
    ) -> Busy | None:
        """What keeps ``user_id`` from starting a game at one sitting now, if anything: an
        unfinished game at one sitting (correspondence games, :data:`REMIND_FROM_SECONDS` a
        move or more, go on beside others); a tournament match between its games (but match
        ``match_id``'s own, whose next game is its continuation); a tournament board waiting
        to start, unless the game asked for is a tournament's (``tournament``: the first of
        the two to be free starts first). The computer is never busy."""
        if computer_level(user_id):
            return None
        for game in await self._store.games.active_for(user_id):
            # match_id's own next game, started by the other player's tap: it is that one
            if game.move_seconds < REMIND_FROM_SECONDS and (
                match_id is None or game.match_id != match_id
            ):
                return Busy(user_id, game=game)
        for board, move_seconds in await self._store.tournaments.open_boards(user_id):
            if (move_seconds or self.move_seconds) >= REMIND_FROM_SECONDS:
                continue
            between = board.game_id is not None and board.match_id != match_id
            if between or (board.is_waiting and not tournament):
                return Busy(user_id, tournament_id=board.tournament_id)
        return None

    async def refusal(self, busy: Busy, by: int | None) -> GameError:
        """The refusal of a game because of ``busy``, told to ``by`` (who asked for it): of
        their own game, or naming the busy player."""
        if busy.user_id == by:
            if busy.game is not None:
                return AlreadyPlaying(game=busy.game.id)
            return TournamentGameWaits(tournament=busy.tournament_id)
        user = await self._users.get(busy.user_id)
        name = user.mention if user is not None else str(busy.user_id)
        if busy.game is not None:
            return OpponentPlaying(name=name, game=busy.game.id)
        return OpponentTournamentGameWaits(name=name, tournament=busy.tournament_id)

    async def _start(
        self,
        *,
        chat_id: int,
        white_id: int,
        black_id: int,
        terms: Terms,
        locale: str,
        boards: list[tuple[int, Side]],
        match_id: int | None,
        game_no: int,
        inline_board: str | None,
        chat_instance: str | None,
        dice_client: str | None,
        dice_seed: bytes | None,
        tournament: bool,
        follows: int | None,
    ) -> StoredGame:
        """:meth:`start`, once its players are known to be free."""
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
    ) -> tuple[Hint, Advice]:
        """The strongest level's view of the roll of the player to move, in a game with hints,
        and what it advises in the board's buttons from the turn tapped so far (see
        :mod:`.hints`). Changes nothing. ``known``: this version's hint, asked for before (the
        computer is not asked again; the request is checked all the same).

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
        return hint, await asyncio.to_thread(advise, hint, tapped)

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
                    await self._results.end_match(stored, side.other, self._clock())
                return None
        return None  # a next game started each time it looked: the timers end it later

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

    async def _boards(self, game_id: int) -> list[BoardMessage]:
        return await self._board_messages.boards(game_id)

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
                    await self._results.record(saved, now)
                    result = saved.game.result
                    if forfeit and saved.match_id is not None and result is not None:
                        await self._results.end_match(saved, result.winner, now)
        except VersionConflict:
            raise StaleAction() from None
        snapshot = await self._snapshot(saved)
        self._feed.announce(GameSaved(saved.id, saved.version, snapshot))
        return snapshot

    async def _snapshot(self, stored: StoredGame) -> GameSnapshot:
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
