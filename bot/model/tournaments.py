"""Tournaments in groups (issue 24): the records storage hands to the tournament service, and
the repository's protocol, which :mod:`bot.storage.tournaments` implements.

A tournament is a group's: made there, signed up for there, shown there; its games are played
in the players' private chats. Its rounds are stored board by board as they are paired, with
the game (and the match, for a match of several games) that decides each board, so that a
round is paired and started once and a result counted once, whatever restarts in between.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .challenges import Terms
from .games import StoredGame


class TournamentFormat(enum.Enum):
    """How a tournament pairs its players (see :mod:`bot.pairing`)."""

    KNOCKOUT = "knockout"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class TournamentState(enum.Enum):
    """Where a tournament stands: sign-up, rounds being played, over, or called off."""

    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament of group ``chat_id``: its ``terms`` are every game's (without a stake:
    the ``entry`` in chips is paid once, on joining, and the pot goes to the winner).

    ``rounds`` is the number of rounds, settled at the start (0 before); ``round`` the
    current one (0 before the start). ``version`` goes up with every change of the row and
    with every result of its games; ``shown_version`` is the version its pinned message
    shows, so a message behind is brought up to date once, by one worker."""

    id: int
    chat_id: int
    creator_id: int
    format: TournamentFormat
    terms: Terms
    entry: int
    starts_at: float | None
    state: TournamentState
    locale: str
    created_at: float
    rounds: int = 0
    round: int = 0
    winner_id: int | None = None
    message_id: int | None = None
    """The sign-up message."""
    pinned_id: int | None = None
    """The tournament's pinned message (the bracket or table), once it started."""
    version: int = 0
    shown_version: int = -1
    finished_at: float | None = None
    prize: int | None = None
    """The chips its winner was paid at the end (see :mod:`bot.services.tournament_pot`): the
    pot, or less (0: none)."""

    @property
    def is_open(self) -> bool:
        """Still taking sign-ups."""
        return self.state is TournamentState.SIGNUP

    @property
    def is_over(self) -> bool:
        return self.state in (TournamentState.FINISHED, TournamentState.CANCELLED)


@dataclass(frozen=True, slots=True)
class TournamentEntrant:
    """A player signed up: ``rating`` is their rating in the variant at the start (the seed),
    0 before it; a ``withdrawn`` player forfeits the rest of the tournament."""

    tournament_id: int
    user_id: int
    joined_at: float
    rating: float = 0.0
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class TournamentPairing:
    """Board ``board`` of round ``round``: ``first`` plays white; no ``second`` is a bye.

    ``game_id`` is the game that decides it (the first game of its match when the terms make
    a match, ``match_id``); ``decided`` once it has a result: ``winner_id`` None then is a
    double forfeit (both withdrew, or both were still in other games when its wait ran out).

    ``waits_until``: a board whose players were not both free when its round began has no game
    yet; it starts once neither plays another game at one sitting, and when this time comes
    first, whoever still does forfeits it."""

    tournament_id: int
    round: int
    board: int
    first_id: int
    second_id: int | None = None
    game_id: int | None = None
    match_id: int | None = None
    winner_id: int | None = None
    decided: bool = False
    waits_until: float | None = None

    @property
    def is_bye(self) -> bool:
        return self.second_id is None

    @property
    def is_waiting(self) -> bool:
        """Undecided, with no game started yet: its game waits for a player's other game."""
        return not self.decided and self.game_id is None and self.second_id is not None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first_id,) if self.second_id is None else (self.first_id, self.second_id)


class TournamentRepository(Protocol):
    """Tournaments, their entrants and their boards, and who may make one in a group."""

    async def create(
        self,
        *,
        chat_id: int,
        creator_id: int,
        format: TournamentFormat,
        terms: Terms,
        entry: int,
        starts_at: float | None,
        locale: str,
        now: float,
        picker_id: int | None = None,
    ) -> Tournament | None:
        """Stores a new tournament, open for sign-up, made by the creation picker
        ``picker_id`` (a message of the group, then its sign-up message); None when that
        picker made one already (a second tap, on any worker)."""

    async def by_picker(self, chat_id: int, picker_id: int) -> Tournament | None:
        """The tournament the creation picker ``picker_id`` of group ``chat_id`` made."""

    async def get(self, tournament_id: int) -> Tournament | None: ...

    async def finished_games(self, tournament_id: int) -> list[int]:
        """The finished games of the tournament's boards (every game of a match), in order."""

    async def decided_on_time(self, tournament_id: int) -> set[tuple[int, int]]:
        """The boards (round, board) whose game, or whose match's last game, ended on time."""

    async def in_chat(self, chat_id: int, limit: int = 10) -> list[Tournament]:
        """The group's tournaments, the newest first."""

    async def save(self, tournament: Tournament, *, expected_version: int) -> Tournament:
        """Saves the row if it is still at ``expected_version`` (its version goes up by one).

        :raises: :exc:`~bot.model.VersionConflict` otherwise."""

    async def set_messages(
        self, tournament_id: int, *, message_id: int | None = None, pinned_id: int | None = None
    ) -> None:
        """Records the sign-up message and/or the pinned message (None leaves one as it is)."""

    async def mark_shown(self, tournament: Tournament) -> bool:
        """Records that the pinned message shows ``tournament``'s version, once it does (the
        edit went through); False when that or a newer one was recorded already."""

    async def behind(self) -> list[int]:
        """Running or just finished tournaments whose pinned message shows an older version."""

    async def entrants(self, tournament_id: int) -> list[TournamentEntrant]:
        """The entrants in the order they joined."""

    async def entered(self, user_id: int) -> list[int]:
        """The tournaments in sign-up or running that the user is in (not withdrawn)."""

    async def add_entrant(self, tournament_id: int, user_id: int, *, now: float) -> bool:
        """Signs the player up; False if they were already."""

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Takes the player off the list; False if they were not on it."""

    async def seed(self, tournament_id: int, ratings: dict[int, float]) -> None:
        """Records each entrant's rating at the start."""

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        """Marks the player withdrawn; False if they were not in or had withdrawn."""

    async def pairings(self, tournament_id: int) -> list[TournamentPairing]:
        """Every board so far, by round and board."""

    async def add_pairings(self, pairings: Sequence[TournamentPairing]) -> None:
        """Stores a round's boards.

        :raises: :exc:`~bot.model.IntegrityError` if one is there already (the round was
            paired by another worker)."""

    async def set_game(
        self, pairing: TournamentPairing, game_id: int, match_id: int | None
    ) -> None:
        """Records the game (and match) that decides ``pairing``."""

    async def game_result(
        self, game: StoredGame, *, winner_id: int, match_over: bool
    ) -> int | None:
        """Inside the transaction that saves a result: if ``game`` decides a board (on its own,
        or as the last game of its match, ``match_over``), records the winner there once and
        counts the game for the group's league; returns the tournament's id, or None for a game
        of no tournament."""

    async def decide(self, pairing: TournamentPairing, winner_id: int | None) -> bool:
        """Decides a board without a game (a forfeit, a bye); False if it was decided."""

    async def open_boards(self, user_id: int) -> list[tuple[TournamentPairing, int | None]]:
        """The undecided boards of running tournaments that ``user_id`` plays on and has not
        withdrawn from, each with its tournament's move time (None: the bot's default)."""

    async def of_match(self, match_id: int) -> TournamentPairing | None:
        """The board that match ``match_id`` decides, if it is a tournament's."""

    async def waiting(self) -> list[TournamentPairing]:
        """The boards of running tournaments whose game waits to start (see
        :attr:`TournamentPairing.waits_until`), the longest waiting first."""

    async def due(self, now: float) -> list[int]:
        """Tournaments with something to do: sign-ups whose start time has come, and running
        ones whose current round has every board decided."""

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup: its tournaments, their games and who may
        make one (a setting made in the supergroup already is kept)."""

    async def stalled_matches(self) -> list[tuple[int, int]]:
        """The finished latest games of tournament matches still undecided, with no game of
        theirs being played, each with its tournament: each match's next game is due."""

    async def anyone_creates(self, chat_id: int) -> bool:
        """Whether anyone in the group may make a tournament (else only its admins)."""

    async def set_anyone_creates(self, chat_id: int, anyone: bool, *, now: float) -> None: ...

    async def pay(self, user_id: int, delta: int, *, kind: str, now: float) -> None:
        """Moves ``delta`` chips into (or, negative, out of) the player's wallet, which exists,
        with its ledger row of ``kind``: an entry, a refund, a prize.

        :raises: :exc:`~bot.model.IntegrityError` if the balance would go below zero."""
