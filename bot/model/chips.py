"""Chips: what a game's result did with its stake, the ledger, the transfers held back as
possible chip dumping, with the repository that keeps wallets, ledger and flags."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol


class ChipsStatus(enum.Enum):
    """What a finished game's result did with its stake."""

    PAID = "paid"  # the loser paid the winner (at most the loser's balance)
    HELD = "held"  # held back as possible chip dumping; flagged for the group's admins
    VOID = "void"  # conceded before the loser had played a few turns: nothing moves


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One change of a user's chip balance."""

    id: int
    user_id: int
    delta: int
    balance: int
    kind: str
    game_id: int | None
    other_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class ChipFlag:
    """A transfer held back as possible chip dumping: a game's result (``game_id``), or the
    entry the loser paid into tournament ``tournament_id``, which the winner won."""

    game_id: int | None
    chat_id: int
    loser_id: int
    winner_id: int
    amount: int
    payments: int
    """Payments from the loser to the winner in the window, this one included, less those
    the other way (the net count)."""
    paid: int
    """Their chips, this one's included, less those paid back (the net flow)."""
    created_at: float
    tournament_id: int | None = None
    resolution: str | None = None
    """None while held; ``released`` (an operator let the winner be paid) or ``refunded`` (an
    operator confirmed the chips stay with the loser)."""


class ChipRepository(Protocol):
    """Wallets, the ledger and the flags."""

    async def balance(
        self, user_id: int, *, now: float, grant: int, floor: int, period: float
    ) -> int:
        """The user's chips, after the grants due: ``grant`` on the first look at the wallet, later
        a top-up to ``floor`` when the balance is below it and the last grant is at least ``period``
        seconds old."""

    async def transfer(
        self, *, game_id: int, payer_id: int, payee_id: int, amount: int, now: float
    ) -> None:
        """Moves ``amount`` chips for a game's result (both wallets must exist; the payer must hold
        the amount)."""

    async def pay_entry(self, *, payer_id: int, payee_id: int, amount: int, now: float) -> None:
        """Pays ``payee_id``, a tournament's winner, the entry of ``amount`` chips that
        ``payer_id`` paid into its pot on joining (the payer's row is that entry's)."""

    async def paid_between(self, payer_id: int, payee_id: int, since: float) -> tuple[int, int]:
        """Chips that ``payer_id`` paid ``payee_id`` since ``since``, for games and as
        tournament entries (:meth:`pay_entry`), and the number of those payments."""

    async def flag(
        self,
        *,
        game_id: int | None,
        chat_id: int,
        loser_id: int,
        winner_id: int,
        amount: int,
        payments: int,
        paid: int,
        now: float,
        tournament_id: int | None = None,
    ) -> None:
        """Records a transfer held back as possible chip dumping: a game's result, or (no
        game) the entry of ``loser_id`` into tournament ``tournament_id``, once each."""

    async def flags(self, chat_id: int, limit: int = 20) -> list[ChipFlag]:
        """The chat's transfers still held, newest first."""

    async def held(self, limit: int = 20) -> list[ChipFlag]:
        """The transfers still held in every chat, newest first."""

    async def resolve(
        self, game_id: int, resolution: str, *, operator_id: int, now: float
    ) -> ChipFlag | None:
        """Records an operator's decision on a held transfer, if it is still held; returns
        the flag as it was then (None if it was decided before, or there is none)."""

    async def settle_game(self, game_id: int, *, chips: int, status: ChipsStatus) -> None:
        """Records what a game's result moved in the end (after a decision on its flag)."""

    async def entries(self, user_id: int, limit: int = 10) -> list[LedgerEntry]:
        """The user's latest ledger rows, newest first."""
