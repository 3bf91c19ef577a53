"""Chip balances and their ledger; transfers held back as possible chip dumping.

A balance lives in ``wallets`` and every change of it is a ``ledger`` row written in the same
transaction, with the balance after it. A game's transfer is two rows, the loser's ``-n`` and
the winner's ``+n``; a unique index on (game, user) means a result can pay only once, even if
it is saved again. A tournament's entry is the entrant's ``-n`` on joining, then, at the end,
the winner's ``+n`` naming them (:meth:`ChipRepository.pay_entry`) or their own ``+n`` back.
``CHECK (chips >= 0)`` keeps every balance from going negative.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bot.model import ChipFlag, ChipsStatus, LedgerEntry

PLAYER: Final = "player"
"""The lock on a player's wallet and ratings (see :meth:`.Store.lock_players`)."""
PRIZE: Final = "tournament_prize"
"""The ledger's kind of a tournament's entry paid to its winner."""

if TYPE_CHECKING:
    from .database import Database, Row


class ChipRepository:
    """Wallets, the ledger and the flags."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def balance(
        self, user_id: int, *, now: float, grant: int, floor: int, period: float
    ) -> int:
        """The user's chips, after the grants due: ``grant`` on the first look at the wallet,
        later a top-up to ``floor`` when the balance is below it and the last grant is at
        least ``period`` seconds old."""
        async with self._store.transaction():
            await self._store.lock(PLAYER, user_id)  # grants once, whichever worker asks
            row = await self._store.fetch_one(
                "SELECT chips, topped_up_at FROM wallets WHERE user_id = ?", (user_id,)
            )
            if row is None:
                await self._store.write(
                    "INSERT INTO wallets (user_id, chips, topped_up_at) VALUES (?, ?, ?)",
                    (user_id, grant, now),
                )
                await self._record(user_id, grant, grant, "grant", None, None, now)
                return grant
            chips = int(row["chips"])
            if chips < floor and now - row["topped_up_at"] >= period:
                await self._store.write(
                    "UPDATE wallets SET chips = ?, topped_up_at = ? WHERE user_id = ?",
                    (floor, now, user_id),
                )
                await self._record(user_id, floor - chips, floor, "top_up", None, None, now)
                return floor
            return chips

    async def transfer(
        self, *, game_id: int, payer_id: int, payee_id: int, amount: int, now: float
    ) -> None:
        """Moves ``amount`` chips for a game's result (both wallets must exist; the payer must
        hold the amount).

        :raises: :exc:`~.database.IntegrityError` if the game has paid before or the payer's
            balance would go negative; the caller's transaction is then rolled back.
        """
        async with self._store.transaction():
            for user_id, other_id, delta in (
                (payer_id, payee_id, -amount),
                (payee_id, payer_id, amount),
            ):
                row = await self._store.fetch_one(
                    "UPDATE wallets SET chips = chips + ? WHERE user_id = ? RETURNING chips",
                    (delta, user_id),
                )
                assert row is not None, f"user {user_id} has no wallet"
                await self._record(user_id, delta, row["chips"], "game", game_id, other_id, now)

    async def _record(
        self,
        user_id: int,
        delta: int,
        balance: int,
        kind: str,
        game_id: int | None,
        other_id: int | None,
        now: float,
    ) -> None:
        await self._store.write(
            """INSERT INTO ledger (user_id, delta, balance, kind, game_id, other_id, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (user_id, delta, balance, kind, game_id, other_id, now),
        )

    async def pay_entry(self, *, payer_id: int, payee_id: int, amount: int, now: float) -> None:
        """Pays a tournament's winner the entry ``payer_id`` paid into its pot on joining: the
        winner's ``+amount`` row, of kind :data:`PRIZE`, names the payer (whose ``-amount`` row
        is the entry's), so that :meth:`paid_between` counts it as a payment between the two.
        """
        async with self._store.transaction():
            row = await self._store.fetch_one(
                "UPDATE wallets SET chips = chips + ? WHERE user_id = ? RETURNING chips",
                (amount, payee_id),
            )
            assert row is not None, f"user {payee_id} has no wallet"
            await self._record(payee_id, amount, row["chips"], PRIZE, None, payer_id, now)

    async def paid_between(self, payer_id: int, payee_id: int, since: float) -> tuple[int, int]:
        """Chips that ``payer_id`` paid ``payee_id`` since ``since`` (a game's result, a
        tournament's entry paid to its winner), and the number of those payments: read from
        the payee's rows, which name the payer in both."""
        row = await self._store.fetch_one(
            f"""SELECT COALESCE(SUM(delta), 0) AS chips, COUNT(*) AS payments FROM ledger
                WHERE user_id = ? AND other_id = ? AND kind IN ('game', '{PRIZE}')
                  AND delta > 0 AND created_at >= ?""",
            (payee_id, payer_id, since),
        )
        return (int(row["chips"]), int(row["payments"])) if row else (0, 0)

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
        """Records a transfer held back as possible chip dumping (once: a game's, or an
        entrant's in a tournament)."""
        await self._store.write(
            """INSERT INTO chip_flags (game_id, tournament_id, chat_id, loser_id, winner_id,
                   amount, payments, paid, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
            (game_id, tournament_id, chat_id, loser_id, winner_id, amount, payments, paid, now),
        )

    async def flags(self, chat_id: int, limit: int = 20) -> list[ChipFlag]:
        """The chat's transfers still held, newest first."""
        rows = await self._store.fetch_all(
            """SELECT * FROM chip_flags WHERE chat_id = ? AND resolution IS NULL
               ORDER BY created_at DESC LIMIT ?""",
            (chat_id, limit),
        )
        return [_flag(row) for row in rows]

    async def held(self, limit: int = 20) -> list[ChipFlag]:
        """The games' transfers still held in every chat, newest first (a tournament's
        entries held are decided by its own rule)."""
        rows = await self._store.fetch_all(
            """SELECT * FROM chip_flags WHERE resolution IS NULL AND game_id IS NOT NULL
               ORDER BY created_at DESC, game_id DESC LIMIT ?""",
            (limit,),
        )
        return [_flag(row) for row in rows]

    async def resolve(
        self, game_id: int, resolution: str, *, operator_id: int, now: float
    ) -> ChipFlag | None:
        """Records an operator's decision on a held transfer, if it is still held; returns
        the flag as it was then (None if decided before, or there is none)."""
        row = await self._store.fetch_one(
            """UPDATE chip_flags SET resolution = ?, operator_id = ?, resolved_at = ?
               WHERE game_id = ? AND resolution IS NULL RETURNING *""",
            (resolution, operator_id, now, game_id),
        )
        return _flag(row) if row is not None else None

    async def settle_game(self, game_id: int, *, chips: int, status: ChipsStatus) -> None:
        """Records what a game's result moved in the end (after a decision on its flag)."""
        await self._store.write(
            "UPDATE games SET chips = ?, chips_status = ? WHERE id = ?",
            (chips, status.value, game_id),
        )

    async def entries(self, user_id: int, limit: int = 10) -> list[LedgerEntry]:
        """The user's latest ledger rows, newest first."""
        rows = await self._store.fetch_all(
            "SELECT * FROM ledger WHERE user_id = ? ORDER BY id DESC LIMIT ?", (user_id, limit)
        )
        return [
            LedgerEntry(
                row["id"],
                row["user_id"],
                row["delta"],
                row["balance"],
                row["kind"],
                row["game_id"],
                row["other_id"],
                row["created_at"],
            )
            for row in rows
        ]


def _flag(row: Row) -> ChipFlag:
    return ChipFlag(
        row["game_id"],
        row["chat_id"],
        row["loser_id"],
        row["winner_id"],
        row["amount"],
        row["payments"],
        row["paid"],
        row["created_at"],
        tournament_id=row["tournament_id"],
        resolution=row["resolution"],
    )
