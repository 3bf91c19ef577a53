"""Games as stored: the game with everything the bot keeps around it, its fair dice's proof,
the messages that show it, and the tallies over finished games, with the repository that keeps
them."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from bot.engine import (
    FairDice,
    Game,
    Played,
    Position,
    Roll,
    Side,
    StakeMode,
    commitment,
)

from .challenges import Terms
from .chips import ChipsStatus
from .matches import MatchRecord
from .users import User, computer_level


@dataclass(frozen=True, slots=True)
class DiceProof:
    """What proves a game's dice fair (:mod:`bot.engine.fair`): the commitment shown from the
    start, the players' client value, every roll so far, and the server seed, which is secret
    until the game ends: it is left out of the ``repr`` (and so of logs and tracebacks), and
    :attr:`StoredGame.revealed_seed` is the one way to it for anything shown."""

    commitment: str
    client: str
    seed: bytes = field(repr=False)
    rolls: tuple[Roll, ...] = ()

    @classmethod
    def new(cls, seed: bytes, client: str) -> DiceProof:
        """The proof of a game about to start with ``seed`` and ``client``."""
        FairDice(seed, client)  # checks both
        return cls(commitment(seed), client, seed)

    @property
    def count(self) -> int:
        """How many dice the game has rolled: the number of its next die."""
        return self.rolls[-1].end if self.rolls else 0

    def dice(self) -> FairDice:
        """The game's dice, going on from the next die."""
        return FairDice(self.seed, self.client, self.count)

    def after(self, rolls: tuple[Roll, ...]) -> DiceProof:
        """The proof with ``rolls`` made since."""
        return replace(self, rolls=self.rolls + rolls) if rolls else self


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game with everything the bot keeps around it.

    ``input`` holds the taps the player to move has made this turn, each one or more steps
    (nothing is committed before Confirm; Undo takes back a whole tap), ``last_turn`` the steps
    of the turn before, ``history`` one line per turn. ``version`` goes up with every change;
    each button carries it, so a stale or replayed tap is refused. A game of a match has
    ``match_id`` and its number in the match, ``game_no``. ``chips`` and ``chips_status`` record
    what the result did with the stake.

    It holds no :class:`Terms`: of the terms it was played on, the variant, the rules and the
    dice are its ``game``'s, the match length and the cube its match's (a :class:`MatchRecord`,
    which the match's games share), and only the rest is its own (``move_seconds``, ``stake``,
    ``stake_mode``, ``hints``, ``watchable``, ``start``); a copy of them all would be a second
    place for each to be wrong in. :meth:`terms` puts them back together.
    """

    id: int
    chat_id: int
    white_id: int
    black_id: int
    game: Game
    input: tuple[tuple[Played, ...], ...]
    last_turn: tuple[Played, ...]
    history: tuple[str, ...]
    move_seconds: int
    deadline: float | None
    locale: str
    version: int
    created_at: float
    finished_at: float | None
    match_id: int | None = None
    game_no: int = 1
    stake: int = 0
    stake_mode: StakeMode = StakeMode.RULES
    chips: int | None = None
    chips_status: ChipsStatus | None = None
    hints: bool = False
    """The 💡 button is offered (games with the computer; between people when both agreed)."""
    chat_instance: str | None = None
    """Telegram's ``chat_instance`` of the chat an inline game is played in (the bot knows no
    chat id there): the key of its pace and of that chat's leaderboard. None elsewhere."""
    dice_proof: DiceProof | None = None
    """The fair dice's proof (None for a game started before fair dice)."""
    watchable: bool = True
    """Anyone with its Watch link may watch it (a game between private chats whose players did
    not make it private)."""

    @property
    def revealed_seed(self) -> str | None:
        """The dice's server seed in hex once the game is over, else None: it stays secret
        while the game is played."""
        proof = self.dice_proof
        return proof.seed.hex() if proof is not None and self.game.is_over else None

    start: Position | None = None
    """The position the game started at when it was played on from one (its history replays
    from there, with no opening roll; such games are not rated and pay no chips); None for a
    game from the variant's start."""

    training: bool = False
    """A training game (:attr:`Terms.training`)."""

    def terms(self, match: MatchRecord | None) -> Terms:
        """The terms it was played on (``match``: its match, None for a single game): what a
        rematch offers again, and the next game of its match is played on."""
        game = self.game
        return Terms(
            variant=game.variant,
            rule_set=game.rules.name,
            match_length=match.match.length if match else 0,
            cube=match.cube if match else game.cube is not None,
            stake=self.stake,
            stake_mode=self.stake_mode,
            dice_mode=game.dice_mode,
            hints=self.hints,
            move_seconds=self.move_seconds,
            watchable=self.watchable,
            start=self.start,
            training=self.training,
        )

    def player(self, side: Side) -> int:
        """The user id playing ``side``."""
        return self.white_id if side is Side.WHITE else self.black_id

    def level(self, side: Side) -> int | None:
        """The computer's level playing ``side``, None for a person."""
        return computer_level(self.player(side))

    @property
    def computer_to_act(self) -> bool:
        """True while the game waits for the computer: to move, double, take or strike."""
        game = self.game
        return not game.is_over and self.level(game.to_act) is not None

    @property
    def between_private_chats(self) -> bool:
        """Played between private chats (or in one, with the computer): not in a group, not
        in an inline message."""
        return not self.chat_id and self.chat_instance is None

    def side_of(self, user_id: int) -> Side | None:
        """The side ``user_id`` plays, or None for an onlooker."""
        if user_id == self.white_id:
            return Side.WHITE
        if user_id == self.black_id:
            return Side.BLACK
        return None


@dataclass(frozen=True, slots=True)
class BoardMessage:
    """A message that shows a game: in a group one per game, between private chats one per
    player and one per watcher, in inline mode the inline message."""

    game_id: int
    chat_id: int
    viewer: Side
    message_id: int | None
    shown_version: int | None = None
    """The game version the message is known to show (None: not known to show any)."""
    inline_message_id: str | None = None
    """An inline game's board: the inline message, edited by this id (``chat_id`` is 0 and
    ``message_id`` None: the bot cannot write to that chat, only edit the message)."""
    watcher: bool = False
    """A watcher's board, in their private chat (``chat_id`` is the watcher's id): no buttons,
    white's side at the bottom, the watcher's language."""


class WatchResult(enum.Enum):
    """What asking for a watcher's board of a game came to."""

    ADDED = "added"
    ALREADY = "already"  # the watcher has one: nothing changes
    FULL = "full"  # the game has as many watchers as it may


@dataclass(frozen=True, slots=True)
class Tally:
    """Games and points between two players, or of one player."""

    games: int = 0
    wins: int = 0
    points_won: int = 0
    points_lost: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a chat's leaderboard."""

    user: User
    games: int
    wins: int
    points: int


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
        with its new version. ``durable``: see :meth:`.store.Store.transaction`."""

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

    async def boards(self, game_id: int) -> list[BoardMessage]:
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
