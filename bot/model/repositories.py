"""What the services need of storage, as protocols: a repository per concern and the store
that holds them (:class:`Store`), with the errors a repository raises.

The services are written against these, as the engine's games are against its ``Variant``
protocol: :class:`bot.storage.Store` and its repositories implement them structurally (``mypy``
checks it in :mod:`bot.storage.store`, and wherever the composition hands a store to the
services), and the services import nothing of :mod:`bot.storage` (an import contract in
``pyproject.toml``). Each protocol names only the methods the services call; storage has more,
for the app, the web server and the tests, which hold the store itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Final, Protocol

from bot.engine import Game, Match, Played, Position, Side, StakeMode

from .changes import ChangeChannel
from .daily import DailyRepository
from .learning import LearningRepository
from .luck import LuckRepository
from .operators import OperatorRepository
from .privacy import PrivacyRepository
from .records import (
    Board,
    Challenge,
    ChallengeMessage,
    ChipFlag,
    ChipsStatus,
    DiceProof,
    FinishedGame,
    League,
    LedgerEntry,
    MatchRecord,
    PlayerRolls,
    PlayerStats,
    RatedPlayer,
    Rating,
    Seeker,
    SeekerChoice,
    Standing,
    StoredGame,
    Tally,
    Terms,
    User,
    WatchResult,
)
from .tournaments import TournamentRepository


class VersionConflict(Exception):
    """Raised when a row changed since it was read (another tap won the race)."""


class DatabaseUnavailable(Exception):
    """The database could not be reached (a server stopped, restarting, out of reach): nothing
    of the statement, or of the transaction it was part of, was done. Try again later."""


class IntegrityError(Exception):
    """A constraint refused a write (a unique key taken, a balance below zero), in either
    backend; the transaction it was part of is rolled back."""


OVERALL: Final = 0
"""The pace row of all chats together (no chat has id 0): see
:meth:`CoordinationRepository.take_spare`."""
WATCHERS: Final = -(2**53)
"""The pace row of watchers' boards together, within the overall pace (Telegram's chat ids
take at most 52 bits, so no chat has this one)."""


class UserRepository(Protocol):
    """Users the bot has seen: names for captions, @usernames for challenges."""

    async def upsert(
        self,
        user_id: int,
        *,
        username: str | None,
        first_name: str,
        language_code: str | None,
        private_chat: bool = False,
        now: float,
    ) -> User:
        """Records the user's current names; ``private_chat`` only ever turns on."""

    async def get(self, user_id: int) -> User | None:
        """Returns the user with ``user_id``, if seen."""

    async def by_username(self, username: str) -> User | None:
        """Returns the user whose @username is ``username`` (any case, with or without @)."""

    async def set_quick(self, user_id: int, quick: bool) -> None:
        """Turns the user's quick mode on or off."""

    async def set_locale(self, user_id: int, locale: str | None) -> None:
        """Records the catalog the user chose (None: back to their ``language_code``)."""

    async def set_blocked(self, user_id: int, blocked: bool) -> None:
        """Marks that the user has blocked (or unblocked) the bot."""


class ChatRepository(Protocol):
    """One row per group whose admins changed a setting."""

    async def locale(self, chat_id: int) -> str | None:
        """The catalog chosen for the group's messages, or None if none was."""

    async def set_locale(self, chat_id: int, locale: str | None, *, now: float) -> None:
        """Records the group's catalog (None: back to each challenge's own)."""

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (a setting made there is kept)."""


class ChallengeRepository(Protocol):
    """Challenges, with the same optimistic versioning as games; the terms of every version are
    kept, so that a button drawn for one can be told what changed since."""

    async def create(
        self,
        *,
        chat_id: int,
        challenger_id: int,
        target_id: int | None,
        target_username: str | None,
        terms: Terms,
        locale: str,
        expires_at: float,
        now: float,
        inline_message_id: str | None = None,
        dice_seed: bytes | None = None,
    ) -> Challenge:
        """Stores a new open challenge on ``terms`` (settled: they name the rule set and the move
        time) and returns it (``dice_seed``: the secret seed of the game it will start, whose
        commitment the challenge shows)."""

    async def get(self, challenge_id: int) -> Challenge | None:
        """Returns the challenge, if it exists."""

    async def by_inline_message(self, inline_message_id: str) -> Challenge | None:
        """Returns the challenge shown by that inline message, if there is one."""

    async def save(self, challenge: Challenge, *, expected_version: int) -> Challenge:
        """Writes ``challenge`` if nobody changed it since ``expected_version``, and keeps the terms
        of its new version."""

    async def at_version(self, challenge: Challenge, version: int) -> Challenge | None:
        """``challenge`` with the terms it offered at ``version`` (None for a version it never had
        open: a forged one)."""

    async def show(
        self, challenge_id: int, chat_id: int, message_id: int | None, locale: str
    ) -> None:
        """Records that ``message_id`` in ``chat_id`` shows the challenge, written in ``locale``
        (None: a message is being sent there): the one message of it in that chat (an earlier one
        there no longer counts). No version change: its buttons, already drawn, stay valid."""

    async def shown_by(self, chat_id: int, message_id: int) -> int | None:
        """The challenge that message ``message_id`` in ``chat_id`` shows, if any."""

    async def messages(self, challenge_id: int) -> list[ChallengeMessage]:
        """The messages that show the challenge, by chat."""

    async def pending_invitation(
        self, challenger_id: int, *, target_id: int | None, target_username: str | None, now: float
    ) -> Challenge | None:
        """The challenger's latest open challenge, not yet run out at ``now``, to the user
        ``target_id`` or to the (lowercase) ``target_username`` it was made to; None if none."""

    async def expired(self, now: float) -> list[Challenge]:
        """Open challenges whose time is up."""

    async def open_by(self, challenger_id: int, now: float) -> list[Challenge]:
        """The user's challenges still open."""


class GameRepository(Protocol):
    """Games and their board messages; rows <-> engine values in the engine's notation."""

    async def create(
        self,
        *,
        chat_id: int,
        white_id: int,
        black_id: int,
        game: Game,
        move_seconds: int,
        deadline: float | None,
        locale: str,
        boards: Iterable[tuple[int, Side]],
        now: float,
        history: tuple[str, ...] = (),
        last_turn: tuple[Played, ...] = (),
        match_id: int | None = None,
        game_no: int = 1,
        stake: int = 0,
        stake_mode: StakeMode = StakeMode.RULES,
        hints: bool = False,
        inline_board: str | None = None,
        chat_instance: str | None = None,
        dice_proof: DiceProof | None = None,
        watchable: bool = True,
        start: Position | None = None,
        training: bool = False,
    ) -> StoredGame:
        """Stores a new game and its board messages (not yet sent) in one transaction;
        ``inline_board`` is the inline message that shows an inline game, played in the chat
        Telegram calls ``chat_instance``; ``start``: the position it was set up at, when it was not
        the variant's start."""

    async def get(self, game_id: int) -> StoredGame | None:
        """Returns the game, if it exists."""

    async def version(self, game_id: int) -> int | None:
        """The game's current version, if it exists."""

    async def save(
        self, stored: StoredGame, *, expected_version: int, now: float, durable: bool = True
    ) -> StoredGame:
        """Writes ``stored`` if nobody changed it since ``expected_version``; returns it as written,
        with its new version. ``durable``: see :meth:`Store.transaction`."""

    async def in_progress(self) -> int:
        """How many games are being played (the /metrics gauge)."""

    async def due(self, now: float) -> list[int]:
        """Ids of unfinished games whose player to move has run out of time."""

    async def claim_deadline(
        self, game_id: int, version: int, deadline: float, until: float
    ) -> bool:
        """Moves the deadline of the game at ``version`` from ``deadline`` (passed) to ``until``,
        leaving its version alone; False when it is no longer that (another worker claimed it first,
        or the game changed). A claim that its worker does not follow up simply falls due again at
        ``until``."""

    async def start_clock(self, game_id: int, version: int, until: float) -> bool:
        """Moves the deadline of the game at ``version`` to ``until``, if that is later and the game
        is unfinished, leaving its version alone (a board shown late; a game that changed meanwhile
        has a clock of its own). True when it moved."""

    async def to_remind(self, now: float, *, min_seconds: int) -> list[int]:
        """Unfinished games with a move time of ``min_seconds`` or more whose player to move has
        used half of it, not yet reminded of this deadline."""

    async def claim_reminder(self, game_id: int, version: int, deadline: float) -> bool:
        """Records that the player to move at ``version`` is reminded of ``deadline``; False when
        the game moved on or another worker reminded them first."""

    async def postpone_deadlines(self, since: float, seconds: float) -> int:
        """Moves the deadline of every unfinished game whose deadline is after ``since`` by
        ``seconds``, leaving versions alone; returns how many games it moved."""

    async def active_for(self, user_id: int, chat_id: int | None = None) -> list[StoredGame]:
        """Unfinished games of ``user_id`` (in ``chat_id`` only, when given), newest first."""

    async def active_in(self, chat_id: int) -> list[StoredGame]:
        """Unfinished games with a board in ``chat_id``, newest first."""

    async def replay_file(self, game_id: int, locale: str) -> str | None:
        """Telegram's file id of the game's replay in ``locale``, once one was sent."""

    async def set_replay_file(self, game_id: int, locale: str, file_id: str | None) -> None:
        """Records Telegram's file id of the game's replay in ``locale`` (None forgets it: Telegram
        no longer knows it)."""

    async def boards(self, game_id: int) -> list[Board]:
        """The messages that show the game."""

    async def shown_by(self, chat_id: int, message_id: int) -> int | None:
        """The game whose board message ``message_id`` in ``chat_id`` is, if any."""

    async def shown_inline(self, inline_message_id: str) -> int | None:
        """The latest game played in that inline message (a match's games follow one another
        in it), if any."""

    async def add_watcher(self, game_id: int, chat_id: int, *, limit: int) -> WatchResult:
        """Gives the watcher in private chat ``chat_id`` a board of the game (not yet sent), unless
        they have one or the game has ``limit`` watchers already; counted and added in one
        transaction that holds the game's watchers, so that watchers joining at once on several
        workers never make more than ``limit``."""

    async def remove_watcher(self, chat_id: int, game_id: int | None = None) -> list[int]:
        """Takes away the watcher's boards in private chat ``chat_id`` (of game ``game_id`` only,
        when given); returns the games still being played among them."""

    async def set_board_message(self, game_id: int, chat_id: int, message_id: int | None) -> None:
        """Records which message shows the game in ``chat_id``."""

    async def set_board_shown(
        self, game_id: int, chat_id: int, version: int, message_id: int | None = None
    ) -> None:
        """Records that the board in ``chat_id`` now shows ``version`` (and, for a message just
        sent, which message it is)."""

    async def set_boards_shown(self, shown: Sequence[tuple[int, int, int]]) -> None:
        """Records, in one transaction, what each board shows: ``(game_id, chat_id,
        version)``, a board's version never going back."""

    async def behind(self, since: float) -> list[int]:
        """Games with a board that is not known to show their current version: unfinished, or
        finished after ``since`` (the bot stopped between saving a change and showing it)."""

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (its chat id changes)."""

    async def head_to_head(self, user_id: int, other_id: int) -> Tally:
        """Finished games between two players, from ``user_id``'s side (those that count: not the
        games from a chosen position)."""

    async def finished_between(
        self, user_id: int, other_id: int, variant: str, since: float, *, besides: int
    ) -> list[StoredGame]:
        """The games of ``variant`` between two players that ended from ``since`` on, but
        those from a chosen position (never rated) and game ``besides``."""

    async def top(self, chat_id: int, limit: int = 10) -> list[Standing]:
        """The chat's leaderboard: net points (won minus lost), then wins, over the games that count
        (not those from a chosen position)."""

    async def top_in_instance(self, chat_instance: str, limit: int = 10) -> list[Standing]:
        """The leaderboard of the inline games played in the chat Telegram calls ``chat_instance``
        (the bot knows no id of that chat), ranked as :meth:`top`."""


class MatchRepository(Protocol):
    """Matches; their games point at them (``games.match_id``)."""

    async def create(self, *, length: int, cube: bool, now: float) -> MatchRecord:
        """Stores a new match at 0:0."""

    async def get(self, match_id: int) -> MatchRecord | None:
        """Returns the match, if it exists."""

    async def latest_between(self, user_id: int, other_id: int) -> tuple[MatchRecord, int] | None:
        """The latest match between two players, and the id of the one playing white."""

    async def save(self, match_id: int, match: Match, *, now: float) -> None:
        """Writes the match's score and Crawford state (and its end, once won)."""


class ChipRepository(Protocol):
    """Wallets, the ledger and the flags."""

    async def balance(
        self, user_id: int, *, now: float, grant: int, floor: int, period: float
    ) -> int:
        """The user's chips, after the grants due: ``grant`` on the first look at the wallet, later
        a top-up to ``floor`` when the balance is below it and the last grant is at least ``period``
        seconds old."""

    async def transfer(
        self, *, game_id: int, payer_id: int, payee_id: int, amount: int, now: float
    ) -> None:
        """Moves ``amount`` chips for a game's result (both wallets must exist; the payer must hold
        the amount)."""

    async def pay_entry(self, *, payer_id: int, payee_id: int, amount: int, now: float) -> None:
        """Pays ``payee_id``, a tournament's winner, the entry of ``amount`` chips that
        ``payer_id`` paid into its pot on joining (the payer's row is that entry's)."""

    async def paid_between(self, payer_id: int, payee_id: int, since: float) -> tuple[int, int]:
        """Chips that ``payer_id`` paid ``payee_id`` since ``since``, for games and as
        tournament entries (:meth:`pay_entry`), and the number of those payments."""

    async def flag(
        self,
        *,
        game_id: int | None,
        chat_id: int,
        loser_id: int,
        winner_id: int,
        amount: int,
        payments: int,
        paid: int,
        now: float,
        tournament_id: int | None = None,
    ) -> None:
        """Records a transfer held back as possible chip dumping: a game's result, or (no
        game) the entry of ``loser_id`` into tournament ``tournament_id``, once each."""

    async def flags(self, chat_id: int, limit: int = 20) -> list[ChipFlag]:
        """The chat's transfers still held, newest first."""

    async def held(self, limit: int = 20) -> list[ChipFlag]:
        """The transfers still held in every chat, newest first."""

    async def resolve(
        self, game_id: int, resolution: str, *, operator_id: int, now: float
    ) -> ChipFlag | None:
        """Records an operator's decision on a held transfer, if it is still held; returns
        the flag as it was then (None if it was decided before, or there is none)."""

    async def settle_game(self, game_id: int, *, chips: int, status: ChipsStatus) -> None:
        """Records what a game's result moved in the end (after a decision on its flag)."""

    async def entries(self, user_id: int, limit: int = 10) -> list[LedgerEntry]:
        """The user's latest ledger rows, newest first."""


class RatingRepository(Protocol):
    """Players' ratings by variant; a player without a row has the starting rating."""

    async def get(self, user_id: int, variant: str) -> Rating:
        """The user's rating in ``variant``."""

    async def set(self, user_id: int, variant: str, rating: Rating) -> None:
        """Stores the user's rating in ``variant``."""

    async def games(self, user_id: int) -> int:
        """The user's rated games, every variant's together."""


class PoolRepository(Protocol):
    """The pool of players looking for anyone to play, one row per player, and each player's
    last choice of terms."""

    async def put(self, seeker: Seeker) -> Seeker:
        """Enters ``seeker`` (its version ignored), or updates the player's row: new terms,
        rating and offer time; the row keeps its ``since`` and ``offered`` if it stays in the
        same scope, else starts afresh. Returns the row as stored, its version moved on."""

    async def get(self, user_id: int) -> Seeker | None:
        """The player's row, if they are in the pool."""

    async def candidates(self, seeker: Seeker) -> list[Seeker]:
        """The others in ``seeker``'s scope with the same terms (the stake included) who may
        be paired (see :meth:`waiting`), oldest first."""

    async def waiting(self, scope: int | None = None) -> list[Seeker]:
        """The seekers who may be paired, in ``scope`` or in every pool: all but those of the
        private pool (scope 0) known to have blocked the bot. By scope, then the longest wait
        first."""

    async def entered_within(self, spans: Sequence[tuple[float, float]]) -> list[Seeker]:
        """The seekers who may be paired (as :meth:`waiting` has them) who entered within one
        of ``spans`` (each ``(after, until)``: ``after < since <= until``), by scope, then the
        longest wait first."""

    async def within_reach(
        self, widened: Sequence[tuple[Seeker, float]]
    ) -> dict[int, list[Seeker]]:
        """For each ``(seeker, reach)``, by the seeker's id: the others who may be paired in
        its scope with its terms who entered no earlier, their rating within ``reach`` of its
        own (those with none left out)."""

    async def waited(self, since: float) -> list[Seeker]:
        """The seekers in the pool since ``since`` or earlier, the longest wait first."""

    async def remove(self, seeker: Seeker) -> bool:
        """Deletes the row if it is still at ``seeker``'s version; False when it changed or
        went."""

    async def leave(self, user_id: int) -> bool:
        """Deletes the player's row; False if they were not in the pool."""

    async def due(self, now: float) -> list[Seeker]:
        """Seekers not offered the computer yet who have waited their ``offer_after``."""

    async def mark_offered(self, seeker: Seeker) -> bool:
        """Marks the computer offered; True only for the one call that marked it."""

    async def choice(self, user_id: int) -> SeekerChoice | None:
        """What the player last looked for, if ever."""

    async def remember(self, user_id: int, choice: SeekerChoice, now: float) -> None:
        """Keeps ``choice`` as the player's last."""


class LeagueRepository(Protocol):
    """One league per group, with the message that shows its standings."""

    async def get(self, chat_id: int) -> League | None:
        """The group's league, if it has one."""

    async def start(self, chat_id: int, *, locale: str, now: float) -> League:
        """Starts the group's league (or keeps the one it has, with the new locale)."""

    async def stop(self, chat_id: int) -> League | None:
        """Ends the group's league; returns it as it was."""

    async def set_message(self, chat_id: int, message_id: int | None) -> None:
        """Records the message that shows the standings."""

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup."""


class StatsRepository(Protocol):
    """Statistics over finished games, ratings and matches."""

    async def player(self, user_id: int) -> PlayerStats:
        """The user's record over finished games with people, with the ratings they have, and apart,
        per level, over games with the computer (games from a chosen position, practice, count in
        neither)."""

    async def rolls(self, user_id: int) -> PlayerRolls:
        """The user's own rolls in their finished games with fair dice (the opponent's rolls and
        games from before fair dice are left out), oldest game first."""

    async def top_rated(self, chat_id: int, variant: str, limit: int = 10) -> list[RatedPlayer]:
        """The chat's players (everyone who finished a game there) by their rating in ``variant``,
        highest first; players without a rating in it are left out."""

    async def recent(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[FinishedGame]:
        """The latest finished games, newest first: those played in ``chat_id``, or those of
        ``user_id`` anywhere (exactly one of the two is given)."""


class UpdateRepository(Protocol):
    """Update ids already handled, so that an update Telegram delivers twice acts once."""

    async def claim(self, update_id: int, now: float) -> bool:
        """Records ``update_id``; returns False if it was already recorded. Every thousandth update
        also forgets ids old enough (Telegram keeps an update for at most a day)."""


class CoordinationRepository(Protocol):
    """Leases, the shared pace and the outages made up for."""

    async def claim(self, name: str, owner: str, *, now: float, seconds: float) -> bool:
        """Claims ``name`` for ``owner`` until ``now + seconds``: True when it was free, had run
        out, or was ``owner``'s already (then it is renewed)."""

    async def release(self, name: str, owner: str) -> None:
        """Gives up ``owner``'s claim on ``name`` (nothing if another holds it now)."""

    async def reserve(
        self,
        chat_id: int,
        *,
        now: float,
        interval: float,
        burst: float,
        overall: float,
        overall_burst: float,
    ) -> float:
        """Takes the next message slot of ``chat_id`` and of all chats together (a message every
        ``interval`` seconds, ``burst`` at once; ``overall`` and ``overall_burst`` for all chats);
        returns how many seconds from ``now`` the message may go."""

    async def take_spare(
        self, slots: Sequence[tuple[int, float, float, float]], *, now: float
    ) -> float:
        """Takes the next message slot of each of ``slots`` (row, interval, burst, slots to leave),
        only if every one is free now with its ``leave`` slots of burst left over; returns 0 when
        taken, else how many seconds from ``now`` they may be (then nothing is taken). For messages
        that must yield to the others: they never take a slot ahead of time, so they never push a
        later message back (the storage's ``reserve`` has the cell rate algorithm and the rows)."""

    async def made_up_for(self, began: float, ended: float) -> bool:
        """Records the outage from ``began`` to ``ended`` unless another worker recorded one that
        overlaps it; True when this call recorded it (and its length is to be added to the deadlines
        now)."""


class Store(Protocol):
    """The repositories, and what holds a change together across them: one transaction, work
    that one task at a time does (in every worker), the players' rows held for a transaction.
    """

    @property
    def users(self) -> UserRepository: ...

    @property
    def chats(self) -> ChatRepository: ...

    @property
    def challenges(self) -> ChallengeRepository: ...

    @property
    def games(self) -> GameRepository: ...

    @property
    def matches(self) -> MatchRepository: ...

    @property
    def chips(self) -> ChipRepository: ...

    @property
    def ratings(self) -> RatingRepository: ...

    @property
    def leagues(self) -> LeagueRepository: ...

    @property
    def pool(self) -> PoolRepository: ...

    @property
    def stats(self) -> StatsRepository: ...

    @property
    def updates(self) -> UpdateRepository: ...

    @property
    def coordination(self) -> CoordinationRepository: ...

    @property
    def tournaments(self) -> TournamentRepository: ...

    @property
    def luck(self) -> LuckRepository: ...

    @property
    def daily(self) -> DailyRepository: ...

    @property
    def changes(self) -> ChangeChannel: ...

    @property
    def privacy(self) -> PrivacyRepository: ...

    @property
    def operators(self) -> OperatorRepository: ...

    @property
    def learning(self) -> LearningRepository: ...

    @property
    def shared(self) -> bool:
        """Other processes (workers) may use the database at the same time."""

    def after_commit(self, action: Callable[[], None]) -> None:
        """Runs ``action`` once the transaction this task is in commits (at once outside
        one; never if it rolls back)."""

    def transaction(self, *, durable: bool = False) -> AbstractAsyncContextManager[None]:
        """One atomic change across repositories (``durable``: on disk before it returns)."""

    def exclusive(self, kind: str, key: int) -> AbstractAsyncContextManager[None]:
        """``kind`` ``key`` held by this task alone, in every worker."""

    def attempt(self, kind: str, key: int) -> AbstractAsyncContextManager[bool]:
        """``kind`` ``key`` claimed if nobody holds it (the context's value says whether)."""

    async def lock_players(self, *user_ids: int) -> None:
        """Inside a transaction: holds these players' wallets and ratings until it ends, for
        this transaction alone across every worker."""

    async def ping(self) -> None:
        """Returns once the database answers (the health check); raises when it does not."""
