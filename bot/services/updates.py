"""Updates handled once: Telegram delivers an update again when the bot stopped before
confirming it, and every worker behind the proxy may receive it. No Telegram here."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.model import Store


class Updates:
    """The record of the updates being handled or handled."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def claim(self, update_id: int) -> bool:
        """Records that an update is being handled; False if it was handled before (here or
        by another worker)."""
        return await self._store.updates.claim(update_id, self._clock())
