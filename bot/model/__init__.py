"""The bot's domain model: the records of users, games, challenges, matches, ratings, leagues and
chips that the services work with and storage keeps (:mod:`bot.storage` implements their
repositories)."""

from __future__ import annotations

from .records import (
    COMPUTER_LEVELS,
    Board,
    Challenge,
    ChallengeMessage,
    ChallengeStatus,
    ChipFlag,
    ChipsStatus,
    ComputerRecord,
    DiceProof,
    FinishedGame,
    League,
    LedgerEntry,
    MatchRecord,
    PlayerRolls,
    PlayerStats,
    RatedPlayer,
    Rating,
    Standing,
    StoredGame,
    Tally,
    User,
    WatchResult,
    computer_id,
    computer_level,
)

__all__ = [
    "Board",
    "COMPUTER_LEVELS",
    "Challenge",
    "ChallengeMessage",
    "ChallengeStatus",
    "ChipFlag",
    "ChipsStatus",
    "ComputerRecord",
    "DiceProof",
    "FinishedGame",
    "League",
    "LedgerEntry",
    "MatchRecord",
    "PlayerRolls",
    "PlayerStats",
    "RatedPlayer",
    "Rating",
    "Standing",
    "StoredGame",
    "Tally",
    "User",
    "WatchResult",
    "computer_id",
    "computer_level",
]
