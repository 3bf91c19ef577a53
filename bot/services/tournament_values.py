"""What the tournament service hands out: a step's :class:`Progress` (with the boards that
wait and those forfeited), and a tournament's :class:`TournamentOverview` for its messages."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot import pairing
from bot.model import Tournament, TournamentEntrant, TournamentPairing, User

from .snapshots import GameSnapshot
from .starts import Busy
from .tournament_formats import FORMATS, FormatRules


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
    def rules(self) -> FormatRules:
        """How the tournament's format plays."""
        return FORMATS[self.tournament.format]

    @property
    def pot(self) -> int:
        return self.tournament.entry * len(self.entrants)
