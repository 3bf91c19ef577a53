"""The store: one open :class:`~.database.Database` with a repository per concern, each owning
its table's SQL (users, challenges, games and their boards, matches, chips, ratings, leagues,
statistics, handled updates). Services are given a :class:`Store`; the repositories know only
the :class:`~.database.Database` they write through.
"""

from __future__ import annotations

import aiosqlite

from .challenges import ChallengeRepository
from .chips import ChipRepository
from .database import Database
from .games import GameRepository
from .leagues import LeagueRepository
from .matches import MatchRepository
from .ratings import RatingRepository
from .stats import StatsRepository
from .updates import UpdateRepository
from .users import UserRepository


class Store(Database):
    """The database and its repositories, for the services."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        super().__init__(db)
        self.users = UserRepository(self)
        self.challenges = ChallengeRepository(self)
        self.games = GameRepository(self)
        self.matches = MatchRepository(self)
        self.chips = ChipRepository(self)
        self.ratings = RatingRepository(self)
        self.leagues = LeagueRepository(self)
        self.stats = StatsRepository(self)
        self.updates = UpdateRepository(self)
