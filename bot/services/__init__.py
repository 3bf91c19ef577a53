"""Services: what the bot does, in ids and domain values. No aiogram here."""

from __future__ import annotations

from bot.model import Terms

from .challenges import Challenges
from .errors import GameError
from .games import GameService, GameSnapshot
from .scores import ScoreService
from .users import Users

__all__ = [
    "Challenges",
    "GameError",
    "GameService",
    "GameSnapshot",
    "ScoreService",
    "Terms",  # the model's, named here too for the callers that make challenges
    "Users",
]
