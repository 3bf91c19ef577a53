"""Services: what the bot does, in ids and domain values. No aiogram here.

Each service is built once, in :func:`.root.compose`, and given the others it needs; none
builds another. The lobby (:mod:`.lobby`) sits above the game service, challenges, inline
games and watchers; the board messages' bookkeeping is :mod:`.boards`'.
"""

from __future__ import annotations

from bot.model import Terms

from .analysis import Analyses
from .boards import BoardMessages
from .challenges import Challenges
from .chats import Chats
from .errors import GameError
from .games import GameService
from .inline import InlineGames
from .leagues import LeagueService
from .lobby import Lobby
from .replays import Replays
from .root import Services, compose
from .scores import ScoreService
from .snapshots import GameSnapshot
from .users import Users
from .watchers import Watchers

__all__ = [
    "Analyses",
    "BoardMessages",
    "Challenges",
    "Chats",
    "GameError",
    "GameService",
    "GameSnapshot",
    "InlineGames",
    "LeagueService",
    "Lobby",
    "Replays",
    "ScoreService",
    "Services",
    "Terms",
    "Users",
    "Watchers",
    "compose",
]
