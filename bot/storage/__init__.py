"""Storage: the SQLite database and the repositories that own its SQL."""

from __future__ import annotations

from .database import VersionConflict, open_database
from .models import (
    Board,
    Challenge,
    ChallengeStatus,
    ChipFlag,
    ChipsStatus,
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
)
from .store import Store

__all__ = [
    "Board",
    "Challenge",
    "ChallengeStatus",
    "ChipFlag",
    "ChipsStatus",
    "FinishedGame",
    "League",
    "LedgerEntry",
    "MatchRecord",
    "PlayerStats",
    "RatedPlayer",
    "Rating",
    "Standing",
    "Store",
    "StoredGame",
    "Tally",
    "User",
    "VersionConflict",
    "open_database",
]
