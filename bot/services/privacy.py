"""Forgetting a user who asks (``/forget``, or the operator's ``python -m bot forget``): what
the bot keeps about them is deleted, or kept under a pseudonym where other players' records
need it (their games, results, ratings, chips, tournaments); see :mod:`bot.storage.privacy`
for every table's share. Refused while they play: a game, a match, a tournament."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from bot.model import Holding, IntegrityError, Store
from bot.model.users import FORGOTTEN_IDS

from .users import Users

ATTEMPTS = 3
"""Pseudonyms drawn at most: one taken already is a chance of one in 2^52."""


class StillPlaying(Exception):
    """The user plays now: :attr:`holding` says in what."""

    def __init__(self, holding: Holding) -> None:
        super().__init__(f"games {holding.games}, tournaments {holding.tournaments}")
        self.holding = holding


class Privacy:
    """What the bot keeps about a user, on their request."""

    def __init__(
        self, store: Store, users: Users, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._store = store
        self._users = users
        self._clock = clock

    async def holding(self, user_id: int) -> Holding:
        """What keeps the user from being forgotten now (empty: nothing)."""
        return await self._store.privacy.holding(user_id)

    async def forget(self, user_id: int) -> bool:
        """Forgets the user; False if the bot knew nothing of them.

        :raises: :exc:`StillPlaying` while they play (nothing is changed then).
        """
        for attempt in range(ATTEMPTS):
            pseudonym = FORGOTTEN_IDS[secrets.randbelow(len(FORGOTTEN_IDS))]
            try:
                holding = await self._store.privacy.forget(
                    user_id, pseudonym=pseudonym, now=self._clock()
                )
            except IntegrityError:  # the pseudonym was taken: draw another
                if attempt == ATTEMPTS - 1:
                    raise
                continue
            break
        self._users.drop(user_id)
        if holding is None:
            return False
        if holding:
            raise StillPlaying(holding)
        return True
