"""The Telegram wing's outbox: what every sender of messages shares, so that none reaches into
another's. Telegram's pace (per chat and overall, one for all workers), the share of it that
yields to everything else (watchers' boards, messages users ask for, with their allowance),
the drawing threads, and the newest-wins worker that every kept message in step is shown by.

* :mod:`.pace`: the pace and the allowance of messages on demand;
* :mod:`.drawing`: the pictures, off the event loop;
* :mod:`.latest`: one worker per key, the newest value wins;
* :mod:`.link`: what a failure of Telegram means, retries and outages;
* :mod:`.session`: the HTTP session to the Bot API.
"""

from __future__ import annotations

from dataclasses import dataclass

from .drawing import Drawing
from .latest import Latest
from .pace import WATCHERS_SHARE, BoardPace, OnDemand, Pace, RateLimiter

__all__ = ["Drawing", "Latest", "Outbox"]


@dataclass(frozen=True, slots=True)
class Outbox:
    """The pace, its spare share, the messages on demand and the drawing threads of one bot."""

    pace: BoardPace
    """Every message's: a board, the league's table, a reminder, a tournament's message."""
    spare: Pace
    """Slots free now within a share of the overall pace only: watchers' boards, and (with
    their allowance) what users ask for, which must never push a player's edit back."""
    on_demand: OnDemand
    """Replays, analyses and the other messages users ask for: their allowances, their pace."""
    drawing: Drawing

    @classmethod
    def create(
        cls, pace: BoardPace | None = None, *, spare_share: float = WATCHERS_SHARE
    ) -> Outbox:
        """An outbox over ``pace`` (one process's own, by default)."""
        pace = pace or RateLimiter()
        spare = pace.spare(spare_share)
        return cls(pace, spare, OnDemand(spare), Drawing())

    def close(self) -> None:
        """Stops the drawing threads."""
        self.drawing.close()
