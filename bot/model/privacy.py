"""Forgetting a user on request (``/forget``): what keeps it from being done now
(:class:`Holding`), and the repository that does it (:class:`PrivacyRepository`, implemented by
:mod:`bot.storage.privacy`, which says table by table what is deleted and what is kept under a
pseudonym)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Holding:
    """What keeps a user from being forgotten now: their unfinished games (a match's game
    standing for a match not over), and the tournaments they are entered in that have not
    ended."""

    games: tuple[int, ...] = ()
    tournaments: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.games or self.tournaments)


class PrivacyRepository(Protocol):
    """What the bot keeps about one user."""

    async def holding(self, user_id: int) -> Holding:
        """What keeps the user from being forgotten now (nothing: an empty :class:`Holding`)."""

    async def forget(self, user_id: int, *, pseudonym: int, now: float) -> Holding | None:
        """Deletes what is the user's alone and puts ``pseudonym`` in their place in the rows
        they share with others, at once, unless something holds them (checked in the same
        transaction). Returns what holds them (empty: forgotten), or None if the bot knows
        nothing of them."""
