"""Ratings: Glicko-2 through the ``glicko2`` library, one rating per player and variant.

Every rated game is a rating period of its own: both players are updated from their ratings as
they stood before the game. A new player starts at 1500 with a deviation of 350 and a volatility
of 0.06, Glickman's defaults.

Noticed in the library (2.1.0): its volatility iteration uses the rating where Glickman's step 5
has the deviation; on his worked example it gives σ' 0.05999 against 0.06000, and about 0.0001
after twenty games. Left as it is; a library with a fix would be a one-line swap here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import glicko2

from bot.model import Rating


def _player(rating: Rating) -> glicko2.Player:
    return glicko2.Player(rating=rating.rating, rd=rating.deviation, vol=rating.volatility)


def _updated(before: Rating, opponent: Rating, won: bool) -> Rating:
    player = _player(before)
    player.update_player([opponent.rating], [opponent.deviation], [1 if won else 0])
    return Rating(float(player.rating), float(player.rd), float(player.vol), before.games + 1)


def rate_game(winner: Rating, loser: Rating, weight: float = 1.0) -> tuple[Rating, Rating]:
    """The two ratings after ``winner`` beat ``loser``; a game of ``weight`` below 1 (see
    :func:`repeat_weight`) moves each rating, deviation and volatility that part of the way
    from where it stood to where a full game would take it."""
    return (
        _weighed(winner, _updated(winner, loser, True), weight),
        _weighed(loser, _updated(loser, winner, False), weight),
    )


def _weighed(before: Rating, after: Rating, weight: float) -> Rating:
    if weight >= 1:
        return after
    return Rating(
        before.rating + weight * (after.rating - before.rating),
        before.deviation + weight * (after.deviation - before.deviation),
        before.volatility + weight * (after.volatility - before.volatility),
        after.games,
    )


REPEAT_WINDOW_SECONDS: Final = 30 * 24 * 3600
"""How far back :func:`repeat_weight` counts the games two accounts played together."""


def repeat_weight(
    earlier: Iterable[float], now: float, window: float = REPEAT_WINDOW_SECONDS
) -> float:
    """The weight of a rated game between two accounts at ``now``, given when their earlier
    rated games together ended (``earlier``): 1/(1+k) for k of them within ``window`` (30
    days), so the first game counts fully, the second half, the third a third. The same two
    accounts paired again and again (a friend's second account, a pool that keeps pairing
    them) move ratings less and less; a month apart, they count fully again. The game
    service weighs every rated game so (``bot.services.games``), wherever it was agreed."""
    k = sum(1 for at in earlier if now - window <= at < now)
    return 1 / (1 + k)
