"""Who the bot talks to: the users it has seen (people, the computer at its levels, users who
asked to be forgotten) and the groups' settings, with their repositories."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

COMPUTER_LEVELS: Final = range(1, 6)
"""The computer's levels; the computer at level n is the user with id -n (Telegram's user ids
are positive), stored by migration 5 so that games refer to it like to anyone."""


def computer_id(level: int) -> int:
    """The user id of the computer at ``level``."""
    if level not in COMPUTER_LEVELS:
        raise ValueError(f"levels are 1..5, not {level}")
    return -level


def computer_level(user_id: int) -> int | None:
    """The computer's level if ``user_id`` is the computer, else None."""
    return -user_id if -user_id in COMPUTER_LEVELS else None


FORGOTTEN_IDS: Final = range(2**52, 2**53)
"""The ids that stand for forgotten users (``/forget``): positive like a person's (statistics
count people by it, the computer's are negative), above every Telegram user id (at most 52
bits), and within what a JavaScript number holds exactly."""


def is_forgotten(user_id: int) -> bool:
    """Whether ``user_id`` stands for a user who asked to be forgotten ("deleted player")."""
    return user_id in FORGOTTEN_IDS


@dataclass(frozen=True, slots=True)
class User:
    """A Telegram user the bot has seen, the computer at one of its levels, or a user who asked
    to be forgotten (:attr:`forgotten`: no name, shown as "deleted player")."""

    id: int
    username: str | None
    first_name: str
    language_code: str | None
    private_chat: bool = False
    blocked: bool = False
    quick: bool = False
    """Quick mode: the tap that completes a turn also confirms it."""
    locale: str | None = None
    """The catalog the user chose with ``/language``; None: their ``language_code`` decides."""

    @property
    def mention(self) -> str:
        """``@username`` when there is one, else the first name."""
        return f"@{self.username}" if self.username else self.first_name

    @property
    def computer_level(self) -> int | None:
        """The level when this player is the computer, else None."""
        return computer_level(self.id)

    @property
    def forgotten(self) -> bool:
        """Whether this is a user who asked to be forgotten (see :func:`is_forgotten`)."""
        return is_forgotten(self.id)


class UserRepository(Protocol):
    """Users the bot has seen: names for captions, @usernames for challenges."""

    async def upsert(
        self,
        user_id: int,
        *,
        username: str | None,
        first_name: str,
        language_code: str | None,
        private_chat: bool = False,
        now: float,
    ) -> User:
        """Records the user's current names; ``private_chat`` only ever turns on."""

    async def get(self, user_id: int) -> User | None:
        """Returns the user with ``user_id``, if seen."""

    async def by_username(self, username: str) -> User | None:
        """Returns the user whose @username is ``username`` (any case, with or without @)."""

    async def set_quick(self, user_id: int, quick: bool) -> None:
        """Turns the user's quick mode on or off."""

    async def set_locale(self, user_id: int, locale: str | None) -> None:
        """Records the catalog the user chose (None: back to their ``language_code``)."""

    async def set_blocked(self, user_id: int, blocked: bool) -> None:
        """Marks that the user has blocked (or unblocked) the bot."""


class ChatRepository(Protocol):
    """One row per group whose admins changed a setting."""

    async def locale(self, chat_id: int) -> str | None:
        """The catalog chosen for the group's messages, or None if none was."""

    async def set_locale(self, chat_id: int, locale: str | None, *, now: float) -> None:
        """Records the group's catalog (None: back to each challenge's own)."""

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (a setting made there is kept)."""
