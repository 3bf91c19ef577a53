"""The bot's domain model, one module per concern (users, challenges, the pool, games,
matches, chips, ratings, leagues, statistics, tournaments, ...), each holding that concern's
records and the protocol of its repository, which :mod:`bot.storage` implements;
:mod:`.store` gathers the repositories into the :class:`Store` the services are written
against."""

from __future__ import annotations

from .challenges import (
    TRAINING_VARIANTS,
    Challenge,
    ChallengeMessage,
    ChallengeRepository,
    ChallengeStatus,
    Terms,
)
from .changes import ChangeChannel
from .chips import ChipFlag, ChipRepository, ChipsStatus, LedgerEntry
from .coordination import OVERALL, WATCHERS, CoordinationRepository, UpdateRepository
from .daily import (
    DailyAnswer,
    DailyGroup,
    DailyPosition,
    DailyPost,
    DailyRepository,
    DailyTally,
    RankedTurn,
    Streak,
)
from .games import (
    BoardMessage,
    DiceProof,
    GameRepository,
    Standing,
    StoredGame,
    Tally,
    WatchResult,
)
from .leagues import League, LeagueRepository
from .learning import (
    CoachMessage,
    Learner,
    LearningRepository,
    LessonProgress,
    PracticeAnswer,
    PracticePosition,
)
from .luck import AnalysisJob, LuckRepository, PlayerLuck, PrFlag
from .matches import MatchRecord, MatchRepository
from .operators import Ban, Broadcast, BroadcastState, Figures, OperatorRepository
from .pool import PoolRepository, Seeker, SeekerChoice
from .privacy import Holding, PrivacyRepository
from .ratings import Rating, RatingRepository
from .stats import (
    ComputerRecord,
    FinishedGame,
    PlayerRolls,
    PlayerStats,
    RatedPlayer,
    StatsRepository,
)
from .store import DatabaseUnavailable, IntegrityError, Store, VersionConflict
from .tournaments import (
    Tournament,
    TournamentEntrant,
    TournamentFormat,
    TournamentPairing,
    TournamentRepository,
    TournamentState,
)
from .users import (
    COMPUTER_LEVELS,
    ChatRepository,
    User,
    UserRepository,
    computer_id,
    computer_level,
    is_forgotten,
)

__all__ = [
    "AnalysisJob",
    "ChangeChannel",
    "LuckRepository",
    "PlayerLuck",
    "PrFlag",
    "Ban",
    "BoardMessage",
    "Broadcast",
    "BroadcastState",
    "Figures",
    "OperatorRepository",
    "COMPUTER_LEVELS",
    "TRAINING_VARIANTS",
    "Challenge",
    "ChallengeMessage",
    "ChallengeRepository",
    "ChallengeStatus",
    "ChatRepository",
    "ChipFlag",
    "ChipRepository",
    "ChipsStatus",
    "CoachMessage",
    "ComputerRecord",
    "CoordinationRepository",
    "DailyAnswer",
    "DailyGroup",
    "DailyPost",
    "DailyPosition",
    "DailyRepository",
    "DailyTally",
    "DatabaseUnavailable",
    "DiceProof",
    "FinishedGame",
    "GameRepository",
    "IntegrityError",
    "League",
    "LeagueRepository",
    "Learner",
    "LearningRepository",
    "LedgerEntry",
    "LessonProgress",
    "MatchRecord",
    "MatchRepository",
    "OVERALL",
    "PlayerRolls",
    "PlayerStats",
    "PracticeAnswer",
    "PracticePosition",
    "RatedPlayer",
    "Rating",
    "RatingRepository",
    "PoolRepository",
    "Seeker",
    "SeekerChoice",
    "RankedTurn",
    "Standing",
    "Streak",
    "StatsRepository",
    "Store",
    "StoredGame",
    "Tally",
    "Terms",
    "Tournament",
    "TournamentEntrant",
    "TournamentFormat",
    "TournamentPairing",
    "TournamentRepository",
    "TournamentState",
    "UpdateRepository",
    "User",
    "UserRepository",
    "VersionConflict",
    "WATCHERS",
    "WatchResult",
    "computer_id",
    "computer_level",
    "is_forgotten",
    "Holding",
    "PrivacyRepository",
]
