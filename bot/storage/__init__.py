"""Storage: the SQLite database and the repositories that own its SQL."""

from __future__ import annotations

from .database import VersionConflict, open_database
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
    "computer_id",
    "computer_level",
    "open_database",
]
