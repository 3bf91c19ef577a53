"""How the workers that share a database hear of each other's changes: the channel the change
feed (:mod:`bot.services.feed`) sends its short messages through, which :mod:`bot.storage`
implements (PostgreSQL's ``LISTEN``/``NOTIFY``; nothing to carry with one SQLite process)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class ChangeChannel(Protocol):
    """Short text messages to every other process of the database, in the order sent."""

    async def send(self, messages: Sequence[str]) -> None:
        """Sends ``messages`` (a few dozen bytes each) to every process listening."""

    async def listen(self, receive: Callable[[str], None], resumed: Callable[[], None]) -> None:
        """Calls ``receive`` with every message sent from now on, by any process, this one's
        included, until :meth:`close`; ``resumed`` after listening was cut off and has started
        again (messages sent meanwhile are lost: a listener reads the state afresh). Returns
        once listening has started."""

    async def close(self) -> None:
        """Stops listening."""
