"""Tournaments in groups (issue 24): sign-up with an entry in chips, then round after round
paired by the format's rules (:mod:`.tournament_formats`) and played in the players' private
chats, to a winner who takes the pot (:mod:`.tournament_pot`). No Telegram here. How sign-up,
rounds, waits, withdrawals and the pot work, and why: ``docs/decisions.md``, section
``bot/services/tournaments.py``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Final

from bot import pairing
from bot.engine import Side
from bot.model import (
    IntegrityError,
    Store,
    StoredGame,
    Terms,
    Tournament,
    TournamentEntrant,
    TournamentFormat,
    TournamentPairing,
    TournamentState,
    User,
    VersionConflict,
)

from . import chips
from .deadlines import REMIND_FROM_SECONDS
from .errors import (
    GameError,
    NoNextGame,
    NoPrivateChat,
    NotEnoughChips,
    NotEntered,
    NotTheCreator,
    TooFewPlayers,
    TournamentClosed,
    TournamentFull,
    TournamentMade,
    TournamentNotFound,
)
from .errors import NotAnAdmin as NotAllowedToCreate
from .games import Games
from .locks import KeyedLocks
from .snapshots import GameSnapshot
from .starts import Busy, GameStarts
from .tournament_formats import FORMATS, withdrawn
from .tournament_pot import ENTRY_KIND, REFUND_KIND, pay_pot
from .tournament_values import Forfeit, Progress, TournamentOverview, Waiting

WAIT_SECONDS: Final = 30 * 60
"""How long a board waits for a player still in another game when its round begins (the
sign-up message says so): past it, whoever is still busy forfeits it."""


class Tournaments:
    """Make, join, leave, start and run tournaments (ids and domain values in, values out)."""

    def __init__(
        self,
        store: Store,
        games: Games,
        starts: GameStarts,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._games = games
        self._starts = starts
        self._clock = clock
        self._locks: KeyedLocks[int] = KeyedLocks()

    def now(self) -> float:
        """The service's clock (start times are counted from it)."""
        return self._clock()

    # --- settings and sign-up --------------------------------------------------------------

    async def anyone_creates(self, chat_id: int) -> bool:
        """Whether anyone in the group may make a tournament (else its admins only)."""
        return await self._store.tournaments.anyone_creates(chat_id)

    async def set_anyone_creates(self, chat_id: int, anyone: bool) -> None:
        """The admins' setting: anyone may make a tournament, or only they."""
        await self._store.tournaments.set_anyone_creates(chat_id, anyone, now=self._clock())

    async def create(
        self,
        chat_id: int,
        creator: User,
        *,
        format: TournamentFormat,
        terms: Terms,
        entry: int = 0,
        starts_at: float | None = None,
        locale: str,
        is_admin: bool,
        picker_id: int | None = None,
    ) -> Tournament:
        """Makes a tournament in group ``chat_id``, open for sign-up; the creator is not
        signed up by it. ``terms``: every game's (no stake; the ``entry`` is the stake).
        ``picker_id``: the creation picker's message, which becomes the sign-up message; a
        picker makes one tournament, however many taps on ✅ Create, on whichever worker
        (a unique key in the table).

        :raises: :exc:`~.errors.NotAnAdmin` when only admins may and ``creator`` is not one;
            :exc:`~.errors.TournamentMade` when the picker made one already;
            :exc:`ValueError` for an entry that is not one of the stakes or a start past.
        """
        if not is_admin and not await self.anyone_creates(chat_id):
            raise NotAllowedToCreate()
        if entry not in chips.STAKE_CHOICES:
            raise ValueError(f"an entry of {chips.STAKE_CHOICES}, not {entry}")
        now = self._clock()
        if starts_at is not None and starts_at <= now:
            raise ValueError("a start time in the past")
        made = await self._store.tournaments.create(
            chat_id=chat_id,
            creator_id=creator.id,
            format=format,
            terms=replace(terms, stake=0, cube=False, start=None, hints=False),
            entry=entry,
            starts_at=starts_at,
            locale=locale,
            now=now,
            picker_id=picker_id,
        )
        if made is None:
            assert picker_id is not None
            earlier = await self._store.tournaments.by_picker(chat_id, picker_id)
            assert earlier is not None, "a picker's tournament is never deleted"
            raise TournamentMade(earlier.id)
        return made

    async def get(self, tournament_id: int) -> Tournament:
        """:raises: :exc:`TournamentNotFound`."""
        tournament = await self._store.tournaments.get(tournament_id)
        if tournament is None:
            raise TournamentNotFound()
        return tournament

    async def in_chat(self, chat_id: int, limit: int = 10) -> list[Tournament]:
        """The group's tournaments, the newest first."""
        return await self._store.tournaments.in_chat(chat_id, limit)

    async def join(self, tournament_id: int, user: User) -> Tournament:
        """Signs ``user`` up, paying the entry; joining twice changes nothing.

        :raises: :exc:`TournamentClosed`, :exc:`TournamentFull`, :exc:`NoPrivateChat`,
            :exc:`~.errors.NotEnoughChips`.
        """
        if not user.private_chat or user.blocked:
            raise NoPrivateChat()
        async with self._held(tournament_id), self._store.transaction(durable=True):
            tournament = await self._open(tournament_id)
            entrants = await self._store.tournaments.entrants(tournament_id)
            if any(e.user_id == user.id for e in entrants):
                return tournament
            limit = FORMATS[tournament.format].max_players
            if len(entrants) >= limit:
                raise TournamentFull(limit=limit)
            now = self._clock()
            if tournament.entry:
                await self._store.lock_players(user.id)
                held = await chips.balance(self._store, user.id, now)
                if held < tournament.entry:
                    raise NotEnoughChips(name=user.mention, chips=held)
                await self._store.tournaments.pay(
                    user.id, -tournament.entry, kind=ENTRY_KIND, now=now
                )
            await self._store.tournaments.add_entrant(tournament_id, user.id, now=now)
            return await self._store.tournaments.save(
                tournament, expected_version=tournament.version
            )

    async def leave(self, tournament_id: int, user_id: int) -> Progress:
        """Takes ``user_id`` off the list during sign-up (the entry comes back); once the
        tournament runs, withdraws them: the game they are playing is resigned, a match is
        forfeited whole at once (the opponent wins it, the bracket or table moves on; no later
        game of it is left for the timer to lose), and their boards of later rounds are
        forfeited as they are paired. The entry stays in the pot then (it goes back at the end
        to a player who played no game: see the module docstring).

        The board being played is decided before the player is marked withdrawn, so a
        withdrawal cut short (a crash) is finished by asking again.

        :raises: :exc:`NotEntered`, :exc:`TournamentClosed` once it is over.
        """
        async with self._held(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.is_over:
                raise TournamentClosed()
            if tournament.is_open:
                async with self._store.transaction(durable=True):
                    if not await self._store.tournaments.remove_entrant(tournament_id, user_id):
                        raise NotEntered()
                    if tournament.entry:
                        await self._store.tournaments.pay(
                            user_id, tournament.entry, kind=REFUND_KIND, now=self._clock()
                        )
                    saved = await self._store.tournaments.save(
                        tournament, expected_version=tournament.version
                    )
                return Progress(saved, changed=True)
            entrants = await self._store.tournaments.entrants(tournament_id)
            if not any(e.user_id == user_id and not e.withdrawn for e in entrants):
                raise NotEntered()
            ended: list[GameSnapshot] = []
            for board in await self._store.tournaments.pairings(tournament_id):
                if board.is_waiting and user_id in board.players:
                    await self._forfeit(tournament_id, board, (user_id,))
                    continue
                if board.decided or user_id not in board.players or board.game_id is None:
                    continue
                resigned = await self._games.forfeit(await self._current_game(board), user_id)
                if resigned is not None:
                    ended.append(resigned)
            await self._store.tournaments.withdraw(tournament_id, user_id)
            return Progress(await self.get(tournament_id), tuple(ended), changed=True)

    async def cancel(self, tournament_id: int, user_id: int) -> Tournament:
        """The creator calls the tournament off during sign-up: every entry comes back.

        :raises: :exc:`NotTheCreator`, :exc:`TournamentClosed`.
        """
        async with self._held(tournament_id):
            tournament = await self._open(tournament_id)
            if tournament.creator_id != user_id:
                raise NotTheCreator()
            return await self._call_off(tournament)

    # --- running ---------------------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int | None = None) -> Progress:
        """Starts the tournament: by its creator (``user_id``), or by the timers (None) at
        its start time. Seeds the entrants and starts round 1.

        :raises: :exc:`NotTheCreator`, :exc:`TournamentClosed`, :exc:`TooFewPlayers` (the
            timers call it off instead).
        """
        async with self._held(tournament_id):
            tournament = await self._open(tournament_id)
            if user_id is not None and tournament.creator_id != user_id:
                raise NotTheCreator()
            entrants = await self._store.tournaments.entrants(tournament_id)
            if len(entrants) < 2:
                if user_id is not None:
                    raise TooFewPlayers()
                return Progress(await self._call_off(tournament), changed=True)
            async with self._store.transaction(durable=True):
                variant = tournament.terms.variant
                await self._store.tournaments.seed(
                    tournament_id,
                    {
                        e.user_id: (await self._store.ratings.get(e.user_id, variant)).rating
                        for e in entrants
                    },
                )
                running = await self._store.tournaments.save(
                    replace(
                        tournament,
                        state=TournamentState.RUNNING,
                        rounds=FORMATS[tournament.format].rounds(len(entrants)),
                    ),
                    expected_version=tournament.version,
                )
                return await self._begin_round(running, 1)

    async def advance(self, tournament_id: int) -> Progress | None:
        """When every board of the current round is decided: pairs and starts the next round,
        or names the winner after the last. None when there is nothing to do (the round is
        being played, or another worker did it)."""
        async with self._held(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.state is not TournamentState.RUNNING:
                return None
            played = await self._store.tournaments.pairings(tournament_id)
            if any(p.round == tournament.round and not p.decided for p in played):
                return None
            entrants = await self._store.tournaments.entrants(tournament_id)
            try:
                async with self._store.transaction(durable=True):
                    if tournament.round >= tournament.rounds:
                        return await self._finish(tournament, entrants, played)
                    return await self._begin_round(tournament, tournament.round + 1)
            except (VersionConflict, IntegrityError):
                return None  # a result came in meanwhile, or another worker did it

    async def due(self) -> list[Progress]:
        """The timers' look: starts the tournaments whose start time has come and moves on
        those whose round is over; each done by the worker that claims it."""
        done = []
        # start and advance hold the tournament and look again under the hold: a worker
        # that comes second finds it started, or its new round being played
        for tournament_id in await self._store.tournaments.due(self._clock()):
            tournament = await self.get(tournament_id)
            try:
                if tournament.is_open:
                    done.append(await self.start(tournament_id))
                    continue
                progress = await self.advance(tournament_id)
            except (TournamentClosed, VersionConflict, IntegrityError):
                continue
            if progress is not None:
                done.append(progress)
        for board in await self._store.tournaments.waiting():
            waited = await self._look_at_waiting(board)
            if waited is not None:
                done.append(waited)
        # a match's next game starts by itself: nobody waits for a ▶ Next tap (nor for a
        # player who does not come back); a second worker's start is refused (NoNextGame),
        # and one while a player is still in another game (that of another tournament,
        # begun first) waits for it
        for tournament_id, game_id in await self._store.tournaments.stalled_matches():
            stored = await self._games.stored(game_id)
            try:
                snapshot = await self._games.next_game(game_id, stored.white_id)
            except (NoNextGame, GameError):
                continue
            done.append(Progress(await self.get(tournament_id), (snapshot,), moved_on=(game_id,)))
        return done

    async def behind(self) -> list[int]:
        """Started tournaments whose pinned message shows an older version than theirs (or
        none yet): see :meth:`showing`."""
        return await self._store.tournaments.behind()

    @asynccontextmanager
    async def showing(self, tournament_id: int) -> AsyncIterator[Tournament | None]:
        """Holds the pinned message of ``tournament_id`` for this worker while the caller
        brings it up to date, then :meth:`mark_shown` records what it shows. The block gets
        the tournament as it is now, or None when its message is up to date or another worker
        is showing it now (this one never waits).

        The version is marked shown only after the message shows it, never before: a worker
        that dies in between (its hold ends with its connection) leaves the message behind,
        and the next look, on any worker or after a restart, shows it. The hold keeps two
        workers from editing the message at once, where an older picture could land last."""
        async with self._store.attempt("tournament_pinned", tournament_id) as held:
            tournament = await self.get(tournament_id) if held else None
            if tournament is not None and tournament.shown_version >= tournament.version:
                tournament = None
            yield tournament

    async def mark_shown(self, tournament: Tournament) -> None:
        """Records that the pinned message shows ``tournament`` at its version (the one its
        picture and caption were drawn from), inside :meth:`showing`."""
        await self._store.tournaments.mark_shown(tournament)

    async def set_messages(
        self, tournament_id: int, *, message_id: int | None = None, pinned_id: int | None = None
    ) -> None:
        """Records the sign-up message and/or the pinned one."""
        await self._store.tournaments.set_messages(
            tournament_id, message_id=message_id, pinned_id=pinned_id
        )

    async def overview(self, tournament_id: int) -> TournamentOverview:
        """The tournament with its entrants (and their names), boards and standings."""
        tournament = await self.get(tournament_id)
        entrants = tuple(await self._store.tournaments.entrants(tournament_id))
        played = tuple(await self._store.tournaments.pairings(tournament_id))
        users = {}
        for entrant in entrants:
            user = await self._store.users.get(entrant.user_id)
            if user is not None:
                users[user.id] = user
        standings: tuple[pairing.Placing, ...] = ()
        rules = FORMATS[tournament.format]
        if not rules.bracket and not tournament.is_open:
            standings = await asyncio.to_thread(rules.standings, entrants, played)
        on_time = frozenset(await self._store.tournaments.decided_on_time(tournament_id))
        return TournamentOverview(tournament, entrants, users, played, standings, on_time=on_time)

    async def game_of(self, board: TournamentPairing) -> int | None:
        """The game being played (or last played) on ``board``."""
        return None if board.game_id is None else await self._current_game(board)

    # --- inside ----------------------------------------------------------------------------

    @asynccontextmanager
    async def _held(self, tournament_id: int) -> AsyncIterator[None]:
        """Holds the tournament for this task alone: in this process and in every worker."""
        async with (
            self._locks.hold(tournament_id),
            self._store.exclusive("tournament", tournament_id),
        ):
            yield

    async def _open(self, tournament_id: int) -> Tournament:
        tournament = await self.get(tournament_id)
        if not tournament.is_open:
            raise TournamentClosed()
        return tournament

    async def _call_off(self, tournament: Tournament) -> Tournament:
        async with self._store.transaction(durable=True):
            now = self._clock()
            if tournament.entry:
                for entrant in await self._store.tournaments.entrants(tournament.id):
                    await self._store.tournaments.pay(
                        entrant.user_id, tournament.entry, kind=REFUND_KIND, now=now
                    )
            return await self._store.tournaments.save(
                replace(tournament, state=TournamentState.CANCELLED, finished_at=now),
                expected_version=tournament.version,
            )

    async def _begin_round(self, tournament: Tournament, number: int) -> Progress:
        """Inside the caller's transaction: pairs round ``number``, decides its byes and
        forfeits, starts its games and saves the tournament at that round."""
        store = self._store.tournaments
        entrants = await store.entrants(tournament.id)
        played = await store.pairings(tournament.id)
        # a Swiss round of a thousand players takes a few hundred ms: not on the event loop
        rules = FORMATS[tournament.format]
        paired = await asyncio.to_thread(rules.pair, entrants, played, number)
        boards = []
        for index, paired_board in enumerate(paired.pairings, start=1):
            first, second = paired_board.first, paired_board.second
            decided, winner = False, None
            if second is None:
                decided, winner = True, first
            elif withdrawn(entrants, first) or withdrawn(entrants, second):
                decided = True
                if not withdrawn(entrants, first):
                    winner = first
                elif not withdrawn(entrants, second):
                    winner = second
            boards.append(
                TournamentPairing(
                    tournament.id, number, index, first, second, None, None, winner, decided
                )
            )
        # every player's lock at once, in one order: no two transactions wait for each other
        await self._starts.lock_players(*(p for b in boards if not b.decided for p in b.players))
        waiting = []
        for index, board in enumerate(boards):
            if not board.decided and board.second_id is not None:
                busy = await self._busy(tournament, board)
                if busy:
                    boards[index] = replace(board, waits_until=self._clock() + WAIT_SECONDS)
                    waiting.append(Waiting(boards[index], busy))
        await store.add_pairings(boards)
        started = []
        for board in boards:
            if board.decided or board.second_id is None or board.waits_until is not None:
                continue
            started.append(await self._start_board(tournament, board))
        saved = await store.save(
            replace(tournament, round=number), expected_version=tournament.version
        )
        snapshots = tuple([await self._games.snapshot_of(s) for s in started])
        return Progress(saved, snapshots, changed=True, waiting=tuple(waiting))

    async def _start_board(self, tournament: Tournament, board: TournamentPairing) -> StoredGame:
        """Inside the caller's transaction, both players free: starts the board's game."""
        assert board.second_id is not None
        stored = await self._starts.start(
            chat_id=0,
            white_id=board.first_id,
            black_id=board.second_id,
            terms=tournament.terms,
            locale=tournament.locale,
            boards=[(board.first_id, Side.WHITE), (board.second_id, Side.BLACK)],
            match_id=None,
            tournament=True,
        )
        await self._store.tournaments.set_game(board, stored.id, stored.match_id)
        return stored

    async def _busy(self, tournament: Tournament, board: TournamentPairing) -> tuple[Busy, ...]:
        """What keeps the board's players from starting its game now (nothing for a game by
        correspondence, which goes on beside others)."""
        move_seconds = tournament.terms.move_seconds or self._games.move_seconds
        if move_seconds >= REMIND_FROM_SECONDS:
            return ()
        found = [await self._starts.busy(p, tournament=True) for p in board.players]
        return tuple(b for b in found if b is not None)

    async def _look_at_waiting(self, board: TournamentPairing) -> Progress | None:
        """The timers' look at a waiting board: its game starts once both players are free;
        when its wait ran out first, whoever is still busy forfeits it. None while it waits
        on (a first look without a hold, then again under the tournament's hold)."""
        tournament = await self.get(board.tournament_id)
        due = board.waits_until is not None and board.waits_until <= self._clock()
        if await self._busy(tournament, board) and not due:
            return None
        async with self._held(board.tournament_id):
            tournament = await self.get(board.tournament_id)
            current = next(
                (
                    p
                    for p in await self._store.tournaments.pairings(board.tournament_id)
                    if (p.round, p.board) == (board.round, board.board)
                ),
                None,
            )
            if tournament.state is not TournamentState.RUNNING or current is None:
                return None
            if not current.is_waiting:
                return None
            try:
                async with self._store.transaction(durable=True):
                    await self._starts.lock_players(*current.players)
                    busy = await self._busy(tournament, current)
                    if not busy:
                        stored = await self._start_board(tournament, current)
                        saved = await self._store.tournaments.save(
                            tournament, expected_version=tournament.version
                        )
                        snapshot = await self._games.snapshot_of(stored)
                        return Progress(saved, (snapshot,), changed=True)
                    if not due:
                        return None
                    losers = tuple(b.user_id for b in busy)
                    saved = await self._forfeit(tournament.id, current, losers)
                    return Progress(saved, changed=True, forfeited=(Forfeit(current, losers),))
            except VersionConflict:
                return None  # a result came in meanwhile: the next look

    async def _forfeit(
        self, tournament_id: int, board: TournamentPairing, losers: tuple[int, ...]
    ) -> Tournament:
        """Decides waiting ``board`` against ``losers`` (both players: a double forfeit),
        moving the tournament's version on."""
        async with self._store.transaction(durable=True):
            winners = [p for p in board.players if p not in losers]
            await self._store.tournaments.decide(board, winners[0] if winners else None)
            tournament = await self.get(tournament_id)
            return await self._store.tournaments.save(
                tournament, expected_version=tournament.version
            )

    async def _finish(
        self,
        tournament: Tournament,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
    ) -> Progress:
        """Inside the caller's transaction: names the winner and pays them what the pot
        pays (:func:`~.tournament_pot.pay_pot`)."""
        rules = FORMATS[tournament.format]
        winner = await asyncio.to_thread(rules.winner, entrants, played, tournament.round)
        now = self._clock()
        prize = None
        if tournament.entry:
            prize = await pay_pot(self._store, self._games, tournament, entrants, winner, now)
        finished = await self._store.tournaments.save(
            replace(
                tournament,
                state=TournamentState.FINISHED,
                winner_id=winner,
                finished_at=now,
                prize=prize,
            ),
            expected_version=tournament.version,
        )
        return Progress(finished, changed=True)

    async def _current_game(self, board: TournamentPairing) -> int:
        """The board's game, or its match's latest game."""
        assert board.game_id is not None
        stored = await self._games.stored(board.game_id)
        if board.match_id is None:
            return stored.id
        latest = [
            g
            for g in await self._games.active_games(board.first_id)
            if g.match_id == board.match_id
        ]
        return latest[0].id if latest else stored.id
