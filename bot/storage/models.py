"""Rows as values: what the storage hands to the services."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.engine import Game, Played, Side


class ChallengeStatus(enum.Enum):
    """Where a challenge stands."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class User:
    """A Telegram user the bot has seen."""

    id: int
    username: str | None
    first_name: str
    language_code: str | None
    private_chat: bool = False
    blocked: bool = False

    @property
    def mention(self) -> str:
        """``@username`` when there is one, else the first name."""
        return f"@{self.username}" if self.username else self.first_name


@dataclass(frozen=True, slots=True)
class Challenge:
    """An invitation to play, open until someone accepts it or it expires."""

    id: int
    chat_id: int
    message_id: int | None
    challenger_id: int
    target_id: int | None
    target_username: str | None
    variant: str
    rule_set: str
    move_seconds: int
    locale: str
    status: ChallengeStatus
    expires_at: float
    game_id: int | None
    version: int

    @property
    def is_open(self) -> bool:
        """True while it can still be accepted."""
        return self.status is ChallengeStatus.OPEN


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game with everything the bot keeps around it.

    ``input`` holds the steps the player to move has tapped this turn (nothing is committed
    before Confirm), ``last_turn`` the steps of the turn before, ``history`` one line per turn.
    ``version`` goes up with every change; each button carries it, so a stale or replayed tap
    is refused.
    """

    id: int
    chat_id: int
    white_id: int
    black_id: int
    game: Game
    input: tuple[Played, ...]
    last_turn: tuple[Played, ...]
    history: tuple[str, ...]
    move_seconds: int
    deadline: float | None
    locale: str
    version: int
    created_at: float
    finished_at: float | None

    def player(self, side: Side) -> int:
        """The user id playing ``side``."""
        return self.white_id if side is Side.WHITE else self.black_id

    def side_of(self, user_id: int) -> Side | None:
        """The side ``user_id`` plays, or None for an onlooker."""
        if user_id == self.white_id:
            return Side.WHITE
        if user_id == self.black_id:
            return Side.BLACK
        return None


@dataclass(frozen=True, slots=True)
class Board:
    """A message that shows a game: in a group one per game, between private chats one each."""

    game_id: int
    chat_id: int
    viewer: Side
    message_id: int | None


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
