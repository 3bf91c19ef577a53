"""Rows as values: what the storage hands to the services."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Final

from bot.engine import (
    DiceMode,
    FairDice,
    Game,
    Match,
    Played,
    Position,
    Result,
    Roll,
    RuleSet,
    Side,
    StakeMode,
    commitment,
    resolve_rules,
)


class ChallengeStatus(enum.Enum):
    """Where a challenge stands."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


TRAINING_VARIANTS: Final = ("long", "short", "abkhaz")
"""The variants a training game may be played in: those whose every turn plays one roll (no
gul-bara remainder or chain), so a turn can be taken back to the roll before it."""

COMPUTER_LEVELS: Final = range(1, 6)
"""The computer's levels; the computer at level n is the user with id -n (Telegram's user ids
are positive), stored by migration 5 so that games refer to it like to anyone."""


def computer_id(level: int) -> int:
    """The user id of the computer at ``level``."""
    if level not in COMPUTER_LEVELS:
        raise ValueError(f"levels are 1..5, not {level}")
    return -level


def computer_level(user_id: int) -> int | None:
    """The computer's level if ``user_id`` is the computer, else None."""
    return -user_id if -user_id in COMPUTER_LEVELS else None


FORGOTTEN_IDS: Final = range(2**52, 2**53)
"""The ids that stand for forgotten users (``/forget``): positive like a person's (statistics
count people by it, the computer's are negative), above every Telegram user id (at most 52
bits), and within what a JavaScript number holds exactly."""


def is_forgotten(user_id: int) -> bool:
    """Whether ``user_id`` stands for a user who asked to be forgotten ("deleted player")."""
    return user_id in FORGOTTEN_IDS


@dataclass(frozen=True, slots=True)
class User:
    """A Telegram user the bot has seen, the computer at one of its levels, or a user who asked
    to be forgotten (:attr:`forgotten`: no name, shown as "deleted player")."""

    id: int
    username: str | None
    first_name: str
    language_code: str | None
    private_chat: bool = False
    blocked: bool = False
    quick: bool = False
    """Quick mode: the tap that completes a turn also confirms it."""
    locale: str | None = None
    """The catalog the user chose with ``/language``; None: their ``language_code`` decides."""

    @property
    def mention(self) -> str:
        """``@username`` when there is one, else the first name."""
        return f"@{self.username}" if self.username else self.first_name

    @property
    def computer_level(self) -> int | None:
        """The level when this player is the computer, else None."""
        return computer_level(self.id)

    @property
    def forgotten(self) -> bool:
        """Whether this is a user who asked to be forgotten (see :func:`is_forgotten`)."""
        return is_forgotten(self.id)


@dataclass(frozen=True, slots=True)
class Terms:
    """What a challenge offers besides its players: the variant and its rules, a single game or
    a match to ``match_length``, the cube, the dice, the time for a move, a stake in chips with
    the table that prices it, hints, watchers, and the position to start at.

    Asked for (``/play``, an inline query), the rule set and the move time may be left to the
    defaults; a :class:`Challenge` holds them settled (the challenge service names both when it
    opens one), so that every version of a challenge says exactly what its game will be."""

    variant: str = "long"
    rule_set: str | None = None
    """The variant's rule set by name; None: the variant's default."""
    match_length: int = 0
    """Points to win a match; 0 for a single game."""
    cube: bool = False
    stake: int = 0
    """Chips per game (times the result's multiplier); 0 plays for nothing."""
    stake_mode: StakeMode = StakeMode.RULES
    dice_mode: DiceMode = DiceMode.TWO
    """How many dice a roll has (short variants: two, three, or three with a strike)."""
    hints: bool = False
    """Both players get the 💡 button (between people; always so against the computer)."""
    move_seconds: int | None = None
    """The time for a move, in seconds; None: the bot's default."""
    watchable: bool = True
    """A game between private chats is open to watchers (a Watch link); False: the players
    keep it private. Nothing to choose in a group, where everyone sees the board."""
    start: Position | None = None
    """The position the game starts at ("play from here"), its side to move rolling first and
    played by the challenger; None: the variant's start after an opening roll. It decides the
    variant, and makes a single game without a stake."""
    training: bool = False
    """A training game against the computer: each of the player's turns judged, the better
    turn shown, a take-back to try again (:mod:`bot.services.training`); a single game of two
    dice without the cube, in a variant of :data:`TRAINING_VARIANTS`."""

    @property
    def rules(self) -> RuleSet:
        """The rule set :attr:`rule_set` names (the variant's default for None)."""
        return resolve_rules(self.variant, self.rule_set)


@dataclass(frozen=True, slots=True)
class Seeker:
    """A player in the pool ("play anyone now"), waiting for anyone with the same terms.

    ``scope`` is the pool: 0 for the private pool of everyone, a group's id for that group's
    members. Of ``terms`` the pool keeps the variant, rule set, match length, dice mode, move
    time and stake; the rest are the defaults."""

    user_id: int
    scope: int
    terms: Terms
    rating: float
    """The player's rating in the variant when they entered."""
    since: float
    """When they entered (re-entering with other terms in the same pool keeps it)."""
    offer_after: int = 60
    """Seconds of waiting before the bot offers the computer, the player's choice."""
    offered: bool = False
    """The computer was offered (each seeker is offered it once)."""
    version: int = 0
    message_id: int | None = None
    """The message that shows their wait ("Looking for an opponent…"), in the private chat
    (scope 0) or the group: edited when they are paired or offered the computer."""


@dataclass(frozen=True, slots=True)
class SeekerChoice:
    """What a player last looked for in the pool, kept after they leave it."""

    terms: Terms
    offer_after: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """An invitation to play, open until someone accepts it or it expires. Its ``terms`` are
    settled: they name the rule set and the move time. A version of it may change its terms
    and its ``target_id`` (the computer's level), nothing else."""

    id: int
    chat_id: int
    challenger_id: int
    target_id: int | None
    target_username: str | None
    terms: Terms
    locale: str
    status: ChallengeStatus
    expires_at: float
    game_id: int | None
    version: int
    inline_message_id: str | None = None
    """The inline message that shows the invitation, posted through the challenger in a chat
    the bot may not be in (inline mode); its game is played in that message. None elsewhere."""
    dice_seed: bytes | None = field(default=None, repr=False)
    """The secret seed of the game's fair dice, drawn with the challenge so that its
    commitment is shown before anyone accepts (and so before the client value, the accepting
    tap's id, exists); None for challenges made before it. Never shown: see
    :attr:`dice_commitment`."""

    @property
    def move_seconds(self) -> int:
        """The time for a move its terms name (settled: never the default's None)."""
        seconds = self.terms.move_seconds
        assert seconds is not None, "a challenge's terms name the move time"
        return seconds

    @property
    def dice_commitment(self) -> str | None:
        """The SHA-256 of :attr:`dice_seed` (what the challenge shows), if it has one."""
        return commitment(self.dice_seed) if self.dice_seed is not None else None

    @property
    def computer_level(self) -> int | None:
        """The level when the challenge is to play the computer, else None."""
        return None if self.target_id is None else computer_level(self.target_id)

    @property
    def in_private_chat(self) -> bool:
        """Made in the challenger's private chat (not posted inline from there): its game is
        played between private chats."""
        return self.chat_id == self.challenger_id and self.inline_message_id is None

    @property
    def is_open(self) -> bool:
        """True while it can still be accepted."""
        return self.status is ChallengeStatus.OPEN


@dataclass(frozen=True, slots=True)
class ChallengeMessage:
    """A message that shows a challenge with its buttons: where it was made, an invitation
    sent to the challenged, or a link opened (one a chat). Its buttons count only there."""

    challenge_id: int
    chat_id: int
    message_id: int | None
    """None while it is being sent (or when its sending got no answer)."""
    locale: str
    """The language it is written in (the bot edits it in the same one)."""


class ChipsStatus(enum.Enum):
    """What a finished game's result did with its stake."""

    PAID = "paid"  # the loser paid the winner (at most the loser's balance)
    HELD = "held"  # held back as possible chip dumping; flagged for the group's admins
    VOID = "void"  # conceded before the loser had played a few turns: nothing moves


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
class Board:
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


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match as stored: its score and Crawford state, and whether its games use the cube."""

    id: int
    match: Match
    cube: bool
    created_at: float
    finished_at: float | None
    games: int = 0
    """How many of its games have started (the highest game number): a finished game whose
    number is lower has a next game already."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (1500 is the start)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    games: int = 0


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One change of a user's chip balance."""

    id: int
    user_id: int
    delta: int
    balance: int
    kind: str
    game_id: int | None
    other_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class ChipFlag:
    """A transfer held back as possible chip dumping: a game's result (``game_id``), or the
    entry the loser paid into tournament ``tournament_id``, which the winner won."""

    game_id: int | None
    chat_id: int
    loser_id: int
    winner_id: int
    amount: int
    payments: int
    """Payments from the loser to the winner in the window, this one included, less those
    the other way (the net count)."""
    paid: int
    """Their chips, this one's included, less those paid back (the net flow)."""
    created_at: float
    tournament_id: int | None = None
    resolution: str | None = None
    """None while held; ``released`` (an operator let the winner be paid) or ``refunded`` (an
    operator confirmed the chips stay with the loser)."""


@dataclass(frozen=True, slots=True)
class League:
    """A group's league: the message with its standings (None until sent)."""

    chat_id: int
    message_id: int | None
    locale: str


@dataclass(frozen=True, slots=True)
class PlayerRolls:
    """The dice one player rolled in their finished games with fair dice, counted: how many
    games, how many of their dice showed 1, 2 … 6 (an opening roll's single die too), and over
    their rolls of two dice, how many there were, how many doubles and their pips (a double
    four times its value)."""

    games: int = 0
    faces: tuple[int, ...] = (0,) * 6
    rolls: int = 0
    doubles: int = 0
    pips: int = 0

    @classmethod
    def counted(cls, rolls: Iterable[tuple[int, ...]], games: int = 0) -> PlayerRolls:
        """The counts of ``rolls`` (each one's dice) over ``games`` games."""
        faces = [0] * 6
        two, doubles, pips = 0, 0, 0
        for values in rolls:
            for value in values:
                faces[value - 1] += 1
            if len(values) == 2:
                two += 1
                if values[0] == values[1]:
                    doubles += 1
                    pips += 4 * values[0]
                else:
                    pips += values[0] + values[1]
        return cls(games, tuple(faces), two, doubles, pips)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's finished games: results, mars and koks both ways, streaks and ratings.

    Mars, koks and home mars are counted apart, each as it was scored: ``given`` in games the
    player won, ``taken`` in games lost. The streaks follow the games in the order they ended.
    """

    games: int = 0
    wins: int = 0
    points_won: int = 0
    points_lost: int = 0
    mars_given: int = 0
    mars_taken: int = 0
    koks_given: int = 0
    koks_taken: int = 0
    home_mars_given: int = 0
    home_mars_taken: int = 0
    best_streak: int = 0
    """The most games won in a row."""
    streak: int = 0
    """The latest run: games won in a row (positive) or lost in a row (negative); 0 before any."""
    ratings: tuple[tuple[str, Rating], ...] = ()
    """(variant, rating) for each variant the player is rated in, by variant name."""
    computer: tuple[ComputerRecord, ...] = ()
    """Games with the computer, per level played (counted apart from everything above)."""


@dataclass(frozen=True, slots=True)
class ComputerRecord:
    """A player's finished games with the computer at one level."""

    level: int
    games: int
    wins: int
    points_won: int
    points_lost: int


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """One line of a chat's rating table."""

    user: User
    rating: Rating


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as a list of games shows it; ``match`` is its match's score now."""

    id: int
    chat_id: int
    white: User
    black: User
    variant: str
    rule_set: str
    result: Result
    cube: int
    """The cube's value at the end (1 without a cube); ``result.points`` include it."""
    finished_at: float
    match_id: int | None = None
    game_no: int = 1
    match: Match | None = None
