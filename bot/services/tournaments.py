"""Tournaments in groups (issue 24): sign-up with an entry in chips, then round after round
paired by :mod:`.pairing` and played in the players' private chats, to a winner who takes the
pot. No Telegram here.

- **Who makes one**: a group's admins, or anyone when the admins allowed it (a setting per
  group, admins only by default).
- **Sign-up**: joining takes the entry from the player's chips, leaving (or the creator
  calling it off) gives it back, each in the transaction that changes the list. A player
  joins only after opening a private chat with the bot: that is where their games are.
- **Start**: by the creator, or by the timers at ``starts_at`` (with fewer than two players it
  is called off then, and the entries go back). Entrants are seeded by their rating in the
  variant; Swiss plays ``ceil(log2 n)`` rounds, round robin n - 1 (n with an odd n), a
  knock-out the bracket's rounds.
- **Rounds**: each round is paired from what is stored (the seeds, the earlier boards and
  their results), so pairing it again after a restart gives the same round; its boards are
  stored with the primary key (tournament, round, board) and its games started, all in one
  transaction that also saves the tournament at the version read. A second worker (or a
  retry after a crash) either finds the round there or rolls back whole: a round is started
  once. Games are between private chats, each player's board in their own chat.
- **One game at one sitting**: a board whose player still plays another game at one sitting
  when its round begins (:meth:`~.games.Games.busy`) does not start: it waits, and its
  game starts (its clock with it) once both players are free, looked at by the timers; a
  player still busy :data:`WAIT_SECONDS` after the round began forfeits the board (both, when
  both are). The players are told either way, and the pinned message lists the boards that
  wait.
- **Results**: the game service records each finished game on its board
  (:meth:`~bot.model.TournamentRepository.game_result`) in the transaction of the result, so
  a result is counted once, early concessions (a no-show lost on time) included. A player who
  withdraws resigns the game they are playing, forfeits a match whole at once, and forfeits
  their later boards. When every
  board of the round is decided the next round is paired (:meth:`Tournaments.advance`, from
  the timers); after the last one the winner is named and paid the pot.
- **The pot** is not a way to pass chips (seed 000 forbids chip dumping; :mod:`.chips`). Each
  entry is a payment from its entrant to the winner, paid at the end in the transaction that
  names the winner, under the rule that holds games' results: one that would bring the net
  flow from that entrant to the winner up to a limit goes back to the entrant and is flagged
  for the group's admins (``/flags``). Only play is paid for: the entry of a player who
  played no game of the tournament (past the early concessions: withdrawn before playing, or
  never there) goes back to them, and a winner who played fewer distinct opponents than
  :func:`prize_opponents` asks (carried by byes and forfeits) is paid nothing: every entry
  goes back. Spare accounts that join and withdraw thus pass nothing, and spares that play
  pass no more than the same games staked would.
- **Ratings and the league**: tournament games are rated like any game between people, and
  count in the group's league and leaderboard (``tournament_games``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
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
from .starts import Busy

MAX_PLAYERS: Final = {
    TournamentFormat.KNOCKOUT: 64,
    TournamentFormat.ROUND_ROBIN: 16,
    TournamentFormat.SWISS: 64,
}
"""The most players each format takes: what its picture can show (a 64-place bracket, a
16-player cross table)."""

PRIZE_OPPONENTS: Final = 2
"""Distinct opponents a winner must have played to be paid the pot (see
:func:`prize_opponents`)."""

WAIT_SECONDS: Final = 30 * 60
"""How long a board waits for a player still in another game when its round begins (the
sign-up message says so): past it, whoever is still busy forfeits it."""

ENTRY_KIND: Final = "tournament_entry"
REFUND_KIND: Final = "tournament_refund"
PRIZE_KIND: Final = "tournament_prize"

_ATTEMPTS: Final = 3


@dataclass(frozen=True, slots=True)
class Waiting:
    """A board of a round that waits to start: ``busy``, what keeps its players (one or
    both) from starting it."""

    board: TournamentPairing
    busy: tuple[Busy, ...]


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A waiting board decided when its wait ran out: ``losers``, the players still busy."""

    board: TournamentPairing
    losers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Progress:
    """What a step of a tournament did, for the messages: the tournament as it is now and
    the games it started (each player's board in their private chat), the boards that wait
    and those forfeited by a player still busy when their wait ran out."""

    tournament: Tournament
    started: tuple[GameSnapshot, ...] = ()
    changed: bool = False
    moved_on: tuple[int, ...] = ()
    """The finished match games whose next game it started."""
    waiting: tuple[Waiting, ...] = ()
    forfeited: tuple[Forfeit, ...] = ()


@dataclass(frozen=True, slots=True)
class Fixture:
    """A board of a round with its players, for the views."""

    pairing: TournamentPairing
    first: User
    second: User | None


@dataclass(frozen=True, slots=True)
class TournamentOverview:
    """Everything a tournament's messages show."""

    tournament: Tournament
    entrants: tuple[TournamentEntrant, ...]
    users: dict[int, User]
    pairings: tuple[TournamentPairing, ...]
    standings: tuple[pairing.Placing, ...] = ()
    games_over: frozenset[int] = field(default_factory=frozenset)
    on_time: frozenset[tuple[int, int]] = frozenset()
    """The boards (round, board) decided by a clock: their game's, or their match's last
    game's, loser ran out of time."""

    def user(self, user_id: int) -> User:
        return self.users.get(user_id) or User(user_id, None, str(user_id), None)

    def round_fixtures(self, number: int) -> list[Fixture]:
        return [
            Fixture(
                p, self.user(p.first_id), None if p.second_id is None else self.user(p.second_id)
            )
            for p in self.pairings
            if p.round == number
        ]

    @property
    def pot(self) -> int:
        return self.tournament.entry * len(self.entrants)


def seeds(entrants: Sequence[TournamentEntrant]) -> list[pairing.SeededPlayer]:
    """The entrants as pairing sees them (their seed ratings), by seed."""
    return pairing.seeded(pairing.SeededPlayer(e.user_id, e.rating) for e in entrants)


def results(pairings: Sequence[TournamentPairing]) -> list[pairing.PairingResult]:
    """The decided boards as pairing's results, in the order played."""
    return [
        pairing.PairingResult(p.first_id, p.second_id, p.winner_id)
        for p in pairings
        if p.decided and not (p.second_id is None and p.winner_id is None)
    ]


def prize_opponents(rounds: int) -> int:
    """The distinct opponents a tournament's winner must have played (games past the early
    concessions) to be paid its pot: :data:`PRIZE_OPPONENTS`, or one in a tournament of two
    rounds or fewer (where a bye leaves its winner only the final to play)."""
    return max(1, min(PRIZE_OPPONENTS, rounds - 1))


def planned_rounds(format: TournamentFormat, players: int) -> int:
    """How many rounds ``players`` play in ``format``."""
    if format is TournamentFormat.KNOCKOUT:
        return max(1, (players - 1).bit_length())
    if format is TournamentFormat.ROUND_ROBIN:
        return players - 1 + players % 2
    return pairing.swiss_rounds(players)


def pair_round(
    tournament: Tournament,
    entrants: Sequence[TournamentEntrant],
    played: Sequence[TournamentPairing],
    number: int,
) -> pairing.Round:
    """Round ``number`` of ``tournament``, from its stored seeds and earlier boards (the same
    round however often it is asked for)."""
    seeded = seeds(entrants)
    if tournament.format is TournamentFormat.KNOCKOUT:
        bracket = pairing.knockout_bracket(seeded)
        round_ = bracket.first_round()
        for earlier in range(1, number):
            round_ = bracket.next_round(round_, _results_of(played, earlier))
        return round_
    if tournament.format is TournamentFormat.ROUND_ROBIN:
        return pairing.round_robin([e.player for e in seeded])[number - 1]
    active = [e for e in seeded if not _withdrawn(entrants, e.player)]
    if len(active) < 2:
        return pairing.Round(number, tuple(pairing.Pairing(e.player) for e in active))
    return pairing.swiss_round(active, results(played), number)


def _results_of(played: Sequence[TournamentPairing], number: int) -> list[pairing.PairingResult]:
    """A knock-out round's results: a double forfeit goes to the better seed (the first), who
    forfeits their next board in turn, so the bracket always has someone in each place."""
    return [
        pairing.PairingResult(p.first_id, p.second_id, p.winner_id if p.winner_id else p.first_id)
        for p in played
        if p.round == number
    ]


def _withdrawn(entrants: Sequence[TournamentEntrant], user_id: int) -> bool:
    return any(e.user_id == user_id and e.withdrawn for e in entrants)


class Tournaments:
    """Make, join, leave, start and run tournaments (ids and domain values in, values out)."""

    def __init__(
        self,
        store: Store,
        games: Games,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._games = games
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
            limit = MAX_PLAYERS[tournament.format]
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
                        rounds=planned_rounds(tournament.format, len(entrants)),
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
        if tournament.format is not TournamentFormat.KNOCKOUT and not tournament.is_open:
            standings = await asyncio.to_thread(pairing.standings, seeds(entrants), results(played))
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
        paired = await asyncio.to_thread(pair_round, tournament, entrants, played, number)
        boards = []
        for index, paired_board in enumerate(paired.pairings, start=1):
            first, second = paired_board.first, paired_board.second
            decided, winner = False, None
            if second is None:
                decided, winner = True, first
            elif _withdrawn(entrants, first) or _withdrawn(entrants, second):
                decided = True
                if not _withdrawn(entrants, first):
                    winner = first
                elif not _withdrawn(entrants, second):
                    winner = second
            boards.append(
                TournamentPairing(
                    tournament.id, number, index, first, second, None, None, winner, decided
                )
            )
        # every player's lock at once, in one order: no two transactions wait for each other
        await self._games.lock_players(*(p for b in boards if not b.decided for p in b.players))
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
        stored = await self._games.start(
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
        found = [await self._games.busy(p, tournament=True) for p in board.players]
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
                    await self._games.lock_players(*current.players)
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
        pays (:meth:`_pay_pot`)."""
        if tournament.format is TournamentFormat.KNOCKOUT:
            final = [p for p in played if p.round == tournament.round]
            winner = final[0].winner_id if final else None
        else:
            table = await asyncio.to_thread(pairing.standings, seeds(entrants), results(played))
            winner = table[0].player if table else None
        now = self._clock()
        prize = None
        if tournament.entry:
            prize = await self._pay_pot(tournament, entrants, winner, now)
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

    async def _pay_pot(
        self,
        tournament: Tournament,
        entrants: Sequence[TournamentEntrant],
        winner: int | None,
        now: float,
    ) -> int:
        """Inside the caller's transaction: the pot's entries, each to the winner or back to
        its entrant (see the module docstring); returns what the winner was paid."""
        store = self._store
        # the entrants' wallets, in one order: a staked game between two of them settling
        # meanwhile is judged after these payments (or before), never beside them
        await store.lock_players(*(e.user_id for e in entrants))
        players = await self._players(tournament.id)
        opponents = players.get(winner, frozenset()) if winner is not None else frozenset()
        paid = 0
        for entrant in entrants:
            payer = entrant.user_id
            if winner is None or len(opponents) < prize_opponents(tournament.rounds):
                to_winner = False  # no prize: every entry goes back
            elif payer == winner:
                to_winner = True
            elif payer not in players:
                to_winner = False  # played no game: their entry is theirs
            else:
                flow = await chips.stream(store, payer, winner, tournament.entry, now)
                to_winner = not flow.held
                if flow.held:
                    await store.chips.flag(
                        game_id=None,
                        tournament_id=tournament.id,
                        chat_id=tournament.chat_id,
                        loser_id=payer,
                        winner_id=winner,
                        amount=tournament.entry,
                        payments=flow.payments,
                        paid=flow.chips,
                        now=now,
                    )
            if not to_winner:
                await store.tournaments.pay(payer, tournament.entry, kind=REFUND_KIND, now=now)
            elif payer == winner:
                await store.tournaments.pay(payer, tournament.entry, kind=PRIZE_KIND, now=now)
                paid += tournament.entry
            else:
                assert winner is not None
                await store.chips.pay_entry(
                    payer_id=payer, payee_id=winner, amount=tournament.entry, now=now
                )
                paid += tournament.entry
        return paid

    async def _players(self, tournament_id: int) -> dict[int, frozenset[int]]:
        """Who played in the tournament, each with the opponents they played: its finished
        games past the early concessions only (:func:`~.chips.is_early_concession`: a game
        conceded, or lost on time, before the loser's third turn)."""
        met: dict[int, set[int]] = {}
        for game_id in await self._store.tournaments.finished_games(tournament_id):
            stored = await self._games.stored(game_id)
            if chips.is_early_concession(stored):
                continue
            met.setdefault(stored.white_id, set()).add(stored.black_id)
            met.setdefault(stored.black_id, set()).add(stored.white_id)
        return {player: frozenset(others) for player, others in met.items()}

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
