"""The store the services are written against: every repository, one transaction across them,
and the errors a repository raises.

:class:`bot.storage.Store` implements it structurally (``mypy`` checks it wherever the
composition hands a store to the services); the services import nothing of :mod:`bot.storage`
(an import contract in ``pyproject.toml``). Each protocol names only the methods the services
call; storage has more, for the app, the web server and the tests, which hold the store itself."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from .challenges import ChallengeRepository
from .changes import ChangeChannel
from .chips import ChipRepository
from .coordination import CoordinationRepository, UpdateRepository
from .daily import DailyRepository
from .games import GameRepository
from .leagues import LeagueRepository
from .learning import LearningRepository
from .luck import LuckRepository
from .matches import MatchRepository
from .operators import OperatorRepository
from .pool import PoolRepository
from .privacy import PrivacyRepository
from .ratings import RatingRepository
from .stats import StatsRepository
from .tournaments import TournamentRepository
from .users import ChatRepository, UserRepository


class VersionConflict(Exception):
    """Raised when a row changed since it was read (another tap won the race)."""


class DatabaseUnavailable(Exception):
    """The database could not be reached (a server stopped, restarting, out of reach): nothing
    of the statement, or of the transaction it was part of, was done. Try again later."""


class IntegrityError(Exception):
    """A constraint refused a write (a unique key taken, a balance below zero), in either
    backend; the transaction it was part of is rolled back."""


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
