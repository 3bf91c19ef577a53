"""Services: what the bot does, in ids and domain values. No aiogram here."""

from __future__ import annotations

from .errors import GameError
from .games import GameService, GameSnapshot, Terms
from .scores import ScoreService

__all__ = ["GameError", "GameService", "GameSnapshot", "ScoreService", "Terms"]
