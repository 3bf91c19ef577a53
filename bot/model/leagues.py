"""A group's league and the message with its standings, with the repository that keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class League:
    """A group's league: the message with its standings (None until sent)."""

    chat_id: int
    message_id: int | None
    locale: str


class LeagueRepository(Protocol):
    """One league per group, with the message that shows its standings."""

    async def get(self, chat_id: int) -> League | None:
        """The group's league, if it has one."""

    async def start(self, chat_id: int, *, locale: str, now: float) -> League:
        """Starts the group's league (or keeps the one it has, with the new locale)."""

    async def stop(self, chat_id: int) -> League | None:
        """Ends the group's league; returns it as it was."""

    async def set_message(self, chat_id: int, message_id: int | None) -> None:
        """Records the message that shows the standings."""

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup."""
