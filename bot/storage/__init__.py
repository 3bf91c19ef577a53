"""Storage: the database (an SQLite file, or a PostgreSQL server that several workers share)
and the repositories that own its SQL."""

from __future__ import annotations

from .database import (
    Database,
    IntegrityError,
    SchemaTooNew,
    VersionConflict,
    is_postgres_url,
    open_database,
)
from .models import (
    COMPUTER_LEVELS,
    Board,
    Challenge,
    ChallengeStatus,
    ChipFlag,
    ChipsStatus,
    ComputerRecord,
    FinishedGame,
    League,
    LedgerEntry,
    MatchRecord,
    PlayerStats,
    RatedPlayer,
    Rating,
    Standing,
    StoredGame,
    Tally,
    User,
    computer_id,
    computer_level,
)
from .store import Store

__all__ = [
    "COMPUTER_LEVELS",
    "Board",
    "Challenge",
    "ChallengeStatus",
    "ChipFlag",
    "ChipsStatus",
    "ComputerRecord",
    "Database",
    "FinishedGame",
    "IntegrityError",
    "League",
    "LedgerEntry",
    "MatchRecord",
    "PlayerStats",
    "RatedPlayer",
    "Rating",
    "SchemaTooNew",
    "Standing",
    "Store",
    "StoredGame",
    "Tally",
    "User",
    "VersionConflict",
    "computer_id",
    "computer_level",
    "is_postgres_url",
    "open_database",
]
