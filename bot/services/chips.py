"""Chips: balances with their grants, what a result pays, and the rules against chip dumping.

- **Early concessions move nothing.** A game resigned, timed out or dropped before the loser has
  played :data:`MIN_LOSER_TURNS` turns (passes and forced turns count) pays no chips and is not
  rated.
- **One-way streams are held.** When a payment would bring the net flow from the loser to this
  winner within :data:`DUMP_WINDOW_SECONDS` up to :data:`DUMP_CHIPS` chips, or up to
  :data:`DUMP_PAYMENTS` payments (both inclusive), the chips stay with the loser and the game is
  flagged for the group's admins (``/flags``); it still counts for points and ratings. The net
  flow is what the loser paid the winner in the window less what the winner paid back, in chips
  and in payments. A tournament's pot is payments too (:func:`stream` says whether one is held).

What a result pays is :func:`bot.engine.chips_due`, capped at the loser's balance: a balance
never goes below zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from bot.engine import Outcome, Side, chips_due
from bot.model import ChipsStatus, Store, StoredGame

START_CHIPS: Final = 1000
"""Every user's first balance."""
DAILY_FLOOR: Final = 100
"""Once a day a balance below this is topped up to it, so nobody is stuck at zero."""
TOP_UP_SECONDS: Final = 24 * 3600
STAKE_CHOICES: Final = (0, 10, 50, 100, 500)
"""Stakes a challenger can pick."""

MIN_LOSER_TURNS: Final = 3
EARLY_OUTCOMES: Final = frozenset({Outcome.RESIGN, Outcome.TIMEOUT, Outcome.DROP})
DUMP_WINDOW_SECONDS: Final = 24 * 3600
DUMP_CHIPS: Final = 1000
DUMP_PAYMENTS: Final = 10

_TURN_LINE: Final = re.compile(r"^([wb]) \d-\d\b")


async def balance(store: Store, user_id: int, now: float) -> int:
    """The user's chips, with the first grant and the daily top-up applied when due."""
    return await store.chips.balance(
        user_id, now=now, grant=START_CHIPS, floor=DAILY_FLOOR, period=TOP_UP_SECONDS
    )


def turns_played(history: tuple[str, ...], side: Side) -> int:
    """The turns ``side`` has rolled for in a game's history (passes and forced ones too)."""
    return sum(1 for line in history if (m := _TURN_LINE.match(line)) and m[1] == side.value)


def is_early_concession(stored: StoredGame) -> bool:
    """True if the game was conceded before the loser played :data:`MIN_LOSER_TURNS` turns:
    it then moves no chips and is not rated."""
    result = stored.game.result
    if result is None or result.outcome not in EARLY_OUTCOMES:
        return False
    return turns_played(stored.history, result.winner.other) < MIN_LOSER_TURNS


@dataclass(frozen=True, slots=True)
class Stream:
    """The net flow from one player to another over the window, a payment being made
    included, and whether that payment is held (the flow reaches a limit)."""

    chips: int
    payments: int

    @property
    def held(self) -> bool:
        return self.chips >= DUMP_CHIPS or self.payments >= DUMP_PAYMENTS


async def stream(store: Store, payer: int, payee: int, amount: int, now: float) -> Stream:
    """The one-way stream from ``payer`` to ``payee`` if ``payer`` paid ``amount`` now: what
    they paid in the window ending now less what came back, this payment included."""
    since = now - DUMP_WINDOW_SECONDS
    paid, payments = await store.chips.paid_between(payer, payee, since)
    paid_back, payments_back = await store.chips.paid_between(payee, payer, since)
    return Stream(paid - paid_back + amount, payments - payments_back + 1)


async def settle(store: Store, stored: StoredGame, now: float) -> StoredGame:
    """Pays a finished game's stake (inside the caller's transaction, the one that saves the
    result); returns the game with ``chips`` and ``chips_status`` set."""
    result = stored.game.result
    if result is None or stored.stake <= 0:
        return stored
    if is_early_concession(stored):
        return replace(stored, chips=0, chips_status=ChipsStatus.VOID)
    winner, loser = stored.player(result.winner), stored.player(result.winner.other)
    due = chips_due(
        stored.stake,
        stored.stake_mode,
        stored.game.rules,
        result.outcome,
        stored.game.cube_value,
    )
    amount = min(due, await balance(store, loser, now))
    await balance(store, winner, now)  # the winner's wallet exists before it is paid
    flow = await stream(store, loser, winner, amount, now)
    if flow.held:
        await store.chips.flag(
            game_id=stored.id,
            chat_id=stored.chat_id,
            loser_id=loser,
            winner_id=winner,
            amount=amount,
            payments=flow.payments,
            paid=flow.chips,
            now=now,
        )
        return replace(stored, chips=amount, chips_status=ChipsStatus.HELD)
    if amount > 0:
        await store.chips.transfer(
            game_id=stored.id, payer_id=loser, payee_id=winner, amount=amount, now=now
        )
    return replace(stored, chips=amount, chips_status=ChipsStatus.PAID)
