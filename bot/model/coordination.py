"""What the workers that share a database coordinate through: update ids handled, leases, the
shared pace of messages and the outages made up for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

OVERALL: Final = 0
"""The pace row of all chats together (no chat has id 0): see
:meth:`CoordinationRepository.take_spare`."""
WATCHERS: Final = -(2**53)
"""The pace row of watchers' boards together, within the overall pace (Telegram's chat ids
take at most 52 bits, so no chat has this one)."""


class UpdateRepository(Protocol):
    """Update ids already handled, so that an update Telegram delivers twice acts once."""

    async def claim(self, update_id: int, now: float) -> bool:
        """Records ``update_id``; returns False if it was already recorded. Every thousandth update
        also forgets ids old enough (Telegram keeps an update for at most a day)."""


class CoordinationRepository(Protocol):
    """Leases, the shared pace and the outages made up for."""

    async def claim(self, name: str, owner: str, *, now: float, seconds: float) -> bool:
        """Claims ``name`` for ``owner`` until ``now + seconds``: True when it was free, had run
        out, or was ``owner``'s already (then it is renewed)."""

    async def release(self, name: str, owner: str) -> None:
        """Gives up ``owner``'s claim on ``name`` (nothing if another holds it now)."""

    async def reserve(
        self,
        chat_id: int,
        *,
        now: float,
        interval: float,
        burst: float,
        overall: float,
        overall_burst: float,
    ) -> float:
        """Takes the next message slot of ``chat_id`` and of all chats together (a message every
        ``interval`` seconds, ``burst`` at once; ``overall`` and ``overall_burst`` for all chats);
        returns how many seconds from ``now`` the message may go."""

    async def take_spare(
        self, slots: Sequence[tuple[int, float, float, float]], *, now: float
    ) -> float:
        """Takes the next message slot of each of ``slots`` (row, interval, burst, slots to leave),
        only if every one is free now with its ``leave`` slots of burst left over; returns 0 when
        taken, else how many seconds from ``now`` they may be (then nothing is taken). For messages
        that must yield to the others: they never take a slot ahead of time, so they never push a
        later message back (the storage's ``reserve`` has the cell rate algorithm and the rows)."""

    async def made_up_for(self, began: float, ended: float) -> bool:
        """Records the outage from ``began`` to ``ended`` unless another worker recorded one that
        overlaps it; True when this call recorded it (and its length is to be added to the deadlines
        now)."""
