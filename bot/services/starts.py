"""How a game starts: one game at one sitting (a player busy with another is refused), the
opening roll with forced turns played, and provably fair dice (:mod:`bot.engine.fair`) whose
secret seed is drawn here and whose client value is the tap that started the game. The game
service (:class:`~.games.Games`) starts its games here. No Telegram here."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine import Game, Played, Side
from bot.model import DiceProof, Store, StoredGame, Terms, computer_level

from . import fairplay, flow
from .deadlines import REMIND_FROM_SECONDS
from .errors import (
    AlreadyPlaying,
    GameError,
    OpponentPlaying,
    OpponentTournamentGameWaits,
    TournamentGameWaits,
)
from .feed import ChangeFeed, GameStarted
from .seeds import DiceSeeds
from .users import Users


@dataclass(frozen=True, slots=True)
class Busy:
    """What keeps player ``user_id`` from starting a game at one sitting: ``game``, an
    unfinished game at one sitting they play; or, with no game, ``tournament_id``, a
    tournament whose board of theirs waits to start (or waits for its match's next game)."""

    user_id: int
    game: StoredGame | None = None
    tournament_id: int | None = None


class GameStarts:
    """Starts games (:meth:`start`) once their players are free (:meth:`busy`)."""

    def __init__(
        self,
        store: Store,
        rng: random.Random,
        *,
        users: Users,
        seeds: DiceSeeds,
        feed: ChangeFeed,
        move_seconds: int,
        computer_pause: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._rng = rng
        self._users = users
        self._seeds = seeds
        self._feed = feed
        self.move_seconds = move_seconds
        """The default time per move (a challenge may choose another)."""
        self._computer_pause = computer_pause
        self._clock = clock

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
        pause = self._computer_pause if computer_level(waits_for) else move_seconds
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
