"""What the bot's operators keep: the users they banned, the messages they broadcast to every
user, the figures they read (``/ops``), with the repository that keeps them
(:class:`OperatorRepository`, implemented by :mod:`bot.storage.operators`).

A broadcast goes to each user at most once, whatever restarts or workers come between: its
cursor (the last user id taken) moves past a user before the message to them is sent, in one
conditional write that only one worker can make; a worker that dies between the two leaves that
one user without the message, never anyone with two.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Ban:
    """A user an operator banned."""

    user_id: int
    operator_id: int
    created_at: float


class BroadcastState(enum.Enum):
    """Where a broadcast is: written and waiting for its confirmation, being sent, sent to
    everyone, or stopped by an operator (before or while it was being sent)."""

    DRAFT = "draft"
    SENDING = "sending"
    DONE = "done"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class Broadcast:
    """A message an operator sends to every user who has a private chat with the bot and has
    not blocked it (nor been banned): ``text`` is HTML, as the operator wrote it; ``chat_id``
    and ``message_id`` are the operator's message that shows its progress."""

    id: int
    operator_id: int
    text: str
    state: BroadcastState
    chat_id: int
    message_id: int | None
    last_user_id: int
    """The last user taken (0 before the first): the next is the first eligible above it."""
    total: int
    """The recipients counted when it was confirmed (0 before)."""
    sent: int
    failed: int
    """Recipients the message did not reach (they blocked the bot meanwhile...)."""
    created_at: float


@dataclass(frozen=True, slots=True)
class Figures:
    """What an operator reads at a glance (``/ops``), from the database."""

    users: int
    """People the bot has met (not the computer)."""
    reachable: int
    """Of them, those with a private chat who have not blocked the bot: a broadcast's
    recipients, less the banned."""
    banned: int
    games_today: int
    """Games started since midnight (UTC)."""
    finished_today: int
    in_progress: int
    seekers: int
    """Players waiting in ``/find``'s pools."""
    analysis_backlog: int
    """Finished games waiting for their automatic analysis."""
    broadcast_left: int
    """Recipients the broadcasts being sent have still to reach."""


class OperatorRepository(Protocol):
    """Bans, broadcasts and the operators' figures."""

    async def ban(self, user_id: int, operator_id: int, *, now: float) -> bool:
        """Bans the user; False if they were banned already (the first ban stays)."""

    async def unban(self, user_id: int) -> bool:
        """Lifts the user's ban; False if they were not banned."""

    async def banned(self) -> frozenset[int]:
        """Every banned user's id."""

    async def create_broadcast(
        self, operator_id: int, text: str, *, chat_id: int, now: float
    ) -> Broadcast:
        """Stores a new broadcast, a draft."""

    async def broadcast(self, broadcast_id: int) -> Broadcast | None:
        """The broadcast, if it exists."""

    async def set_broadcast_message(self, broadcast_id: int, message_id: int) -> None:
        """Records the operator's message that shows the broadcast's progress."""

    async def start_broadcast(self, broadcast_id: int, *, now: float) -> Broadcast | None:
        """Turns the draft into one being sent, with its recipients counted now; None if it
        was no draft (confirmed or stopped before)."""

    async def stop_broadcast(self, broadcast_id: int, *, now: float) -> Broadcast | None:
        """Stops a draft or a broadcast being sent; None if it was neither."""

    async def sending(self) -> list[Broadcast]:
        """The broadcasts being sent, oldest first."""

    async def take_recipient(self, broadcast: Broadcast) -> int | None:
        """Moves the cursor of ``broadcast`` (as read) past the next recipient and returns
        their id, if the cursor and state are still as read; None when nobody is left (the
        broadcast is then done) or another worker moved it first, or it was stopped."""

    async def count_sent(self, broadcast_id: int, *, sent: bool) -> None:
        """Counts one recipient reached (or, ``sent=False``, not)."""

    async def recipients_after(self, user_id: int) -> int:
        """The recipients whose id is above ``user_id``."""

    async def figures(self, *, day_started: float) -> Figures:
        """The figures of ``/ops``; "today" began at ``day_started``."""
