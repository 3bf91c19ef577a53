"""The pool ("play anyone now"): the players waiting for anyone with the same terms and each
one's last choice, with the repository that keeps them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .challenges import Terms


@dataclass(frozen=True, slots=True)
class Seeker:
    """A player in the pool ("play anyone now"), waiting for anyone with the same terms.

    ``scope`` is the pool: 0 for the private pool of everyone, a group's id for that group's
    members. Of ``terms`` the pool keeps the variant, rule set, match length, dice mode, move
    time and stake; the rest are the defaults."""

    user_id: int
    scope: int
    terms: Terms
    rating: float
    """The player's rating in the variant when they entered."""
    since: float
    """When they entered (re-entering with other terms in the same pool keeps it)."""
    offer_after: int = 60
    """Seconds of waiting before the bot offers the computer, the player's choice."""
    offered: bool = False
    """The computer was offered (each seeker is offered it once)."""
    version: int = 0
    message_id: int | None = None
    """The message that shows their wait ("Looking for an opponent…"), in the private chat
    (scope 0) or the group: edited when they are paired or offered the computer."""


@dataclass(frozen=True, slots=True)
class SeekerChoice:
    """What a player last looked for in the pool, kept after they leave it."""

    terms: Terms
    offer_after: int


class PoolRepository(Protocol):
    """The pool of players looking for anyone to play, one row per player, and each player's
    last choice of terms."""

    async def put(self, seeker: Seeker) -> Seeker:
        """Enters ``seeker`` (its version ignored), or updates the player's row: new terms,
        rating and offer time; the row keeps its ``since`` and ``offered`` if it stays in the
        same scope, else starts afresh. Returns the row as stored, its version moved on."""

    async def get(self, user_id: int) -> Seeker | None:
        """The player's row, if they are in the pool."""

    async def candidates(self, seeker: Seeker) -> list[Seeker]:
        """The others in ``seeker``'s scope with the same terms (the stake included) who may
        be paired (see :meth:`waiting`), oldest first."""

    async def waiting(self, scope: int | None = None) -> list[Seeker]:
        """The seekers who may be paired, in ``scope`` or in every pool: all but those of the
        private pool (scope 0) known to have blocked the bot. By scope, then the longest wait
        first."""

    async def entered_within(self, spans: Sequence[tuple[float, float]]) -> list[Seeker]:
        """The seekers who may be paired (as :meth:`waiting` has them) who entered within one
        of ``spans`` (each ``(after, until)``: ``after < since <= until``), by scope, then the
        longest wait first."""

    async def within_reach(
        self, widened: Sequence[tuple[Seeker, float]]
    ) -> dict[int, list[Seeker]]:
        """For each ``(seeker, reach)``, by the seeker's id: the others who may be paired in
        its scope with its terms who entered no earlier, their rating within ``reach`` of its
        own (those with none left out)."""

    async def waited(self, since: float) -> list[Seeker]:
        """The seekers in the pool since ``since`` or earlier, the longest wait first."""

    async def remove(self, seeker: Seeker) -> bool:
        """Deletes the row if it is still at ``seeker``'s version; False when it changed or
        went."""

    async def leave(self, user_id: int) -> bool:
        """Deletes the player's row; False if they were not in the pool."""

    async def due(self, now: float) -> list[Seeker]:
        """Seekers not offered the computer yet who have waited their ``offer_after``."""

    async def mark_offered(self, seeker: Seeker) -> bool:
        """Marks the computer offered; True only for the one call that marked it."""

    async def choice(self, user_id: int) -> SeekerChoice | None:
        """What the player last looked for, if ever."""

    async def remember(self, user_id: int, choice: SeekerChoice, now: float) -> None:
        """Keeps ``choice`` as the player's last."""
