"""The store: one open :class:`~.database.Database` with a repository per concern, each owning
its table's SQL (users, group settings, challenges, games and their boards, matches, chips,
ratings, leagues, the pool of seekers, tournaments, statistics, handled updates, what keeps
several workers in step, the automatic analysis, forgetting a user, the daily position,
learning to play). Services
are given a :class:`Store` as the model's :class:`bot.model.Store`, whose protocols it and its
repositories implement; the repositories know only the :class:`~.database.Database` they write
through.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from bot import model

from .challenges import ChallengeRepository
from .chats import ChatRepository
from .chips import PLAYER, ChipRepository
from .coordination import CoordinationRepository
from .daily import DailyRepository
from .database import Database
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
from .updates import UpdateRepository
from .users import UserRepository


class Store:
    """The database and its repositories, for the services."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.users = UserRepository(database)
        self.chats = ChatRepository(database)
        self.challenges = ChallengeRepository(database)
        self.games = GameRepository(database)
        self.matches = MatchRepository(database)
        self.chips = ChipRepository(database)
        self.ratings = RatingRepository(database)
        self.leagues = LeagueRepository(database)
        self.pool = PoolRepository(database)
        self.stats = StatsRepository(database)
        self.updates = UpdateRepository(database)
        self.coordination = CoordinationRepository(database)
        self.tournaments = TournamentRepository(database)
        self.luck = LuckRepository(database)
        self.daily = DailyRepository(database)
        self.privacy = PrivacyRepository(database)
        self.operators = OperatorRepository(database)
        self.learning = LearningRepository(database)

    def transaction(self, *, durable: bool = False) -> AbstractAsyncContextManager[None]:
        """One atomic change across repositories: see :meth:`.Database.transaction`."""
        return self.database.transaction(durable=durable)

    @property
    def changes(self) -> model.ChangeChannel:
        """How the other workers hear of this one's changes (see :mod:`bot.services.feed`)."""
        return self.database.changes

    def after_commit(self, action: Callable[[], None]) -> None:
        """Runs ``action`` once this task's transaction commits: see
        :meth:`.Database.after_commit`."""
        self.database.after_commit(action)

    @property
    def shared(self) -> bool:
        """Other processes (workers) may use the database at the same time."""
        return self.database.dialect != "sqlite"

    def exclusive(self, kind: str, key: int) -> AbstractAsyncContextManager[None]:
        """``kind`` ``key`` held by this task alone, in every worker: see
        :meth:`.Database.exclusive`."""
        return self.database.exclusive(kind, key)

    def attempt(self, kind: str, key: int) -> AbstractAsyncContextManager[bool]:
        """``kind`` ``key`` claimed if nobody holds it: see :meth:`.Database.attempt`."""
        return self.database.attempt(kind, key)

    async def lock_players(self, *user_ids: int) -> None:
        """Inside a transaction: holds these players' wallets and ratings until it ends, for
        this transaction alone across every worker (see :meth:`.Database.lock`)."""
        await self.database.lock(PLAYER, *user_ids)

    async def ping(self) -> None:
        """Raises if the database cannot be reached."""
        await self.database.ping()

    async def close(self) -> None:
        """Closes the database."""
        await self.database.close()


if TYPE_CHECKING:

    def _implements(store: Store) -> model.Store:
        """For ``mypy``: a :class:`Store` is what the services are written against."""
        return store
