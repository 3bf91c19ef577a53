"""A staked game stored for the chips tests (ledger invariants, anti-dumping), its result
settled and saved in one transaction, as the bot settles one (:func:`play_staked`: resigned
after three turns each), and a fresh database for each of their examples."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

import pytest

from bot.engine import Cube, Game, Side, StakeMode
from bot.model import StoredGame
from bot.services import chips
from bot.storage import Store
from tests.support.postgres import PostgresServer

EXAMPLES: Final = {"sqlite": 40, "postgresql": 10}
"""Hypothesis examples per backend. The rules under test are the same on both; what
PostgreSQL adds is its SQL, which ten examples cover, each on a new database (a sixth of a
second to copy one migrated)."""


def fresh_databases(
    backend: str, request: pytest.FixtureRequest
) -> Callable[[], contextlib.AbstractContextManager[Path | str]]:
    """A maker of a new database of ``backend`` for each example: an SQLite file in a folder
    removed after it, or a new database of the tests' PostgreSQL server with the bot's schema
    built."""
    if backend == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")

        @contextlib.contextmanager
        def postgresql() -> Iterator[Path | str]:
            yield asyncio.run(server.new_migrated_database())

        return postgresql

    @contextlib.contextmanager
    def sqlite() -> Iterator[Path | str]:
        with tempfile.TemporaryDirectory() as folder:
            yield Path(folder) / "chips.sqlite3"

    return sqlite


async def staked_game(
    store: Store, white: int, black: int, *, stake: int, mode: StakeMode, now: float
) -> tuple[Game, StoredGame]:
    """A new long-nardy game between ``white`` and ``black`` (users already stored) at
    ``stake``, from a start that depends only on the two players; the game and its row."""
    game = Game.start("long", random.Random(white * 7 + black))
    stored = await store.games.create(
        chat_id=-1,
        white_id=white,
        black_id=black,
        game=game,
        move_seconds=60,
        deadline=None,
        locale="en",
        boards=[],
        now=now,
        stake=stake,
        stake_mode=mode,
    )
    return game, stored


async def settle_and_save(store: Store, finished: StoredGame, now: float) -> StoredGame:
    """Settles ``finished`` (a stored game with its result) and saves it, in one transaction."""
    async with store.transaction():
        settled = await chips.settle(store, finished, now)
        await store.games.save(settled, expected_version=finished.version, now=now)
    return settled


async def play_staked(
    store: Store,
    *,
    loser: int,
    winner: int,
    stake: int,
    mode: StakeMode,
    cube: int,
    now: float,
) -> StoredGame:
    """Settles (and saves) a game between ``loser`` (white) and ``winner`` that white resigned
    after three turns each, so that no early-concession rule voids it."""
    for user in (loser, winner):
        await store.users.upsert(
            user, username=None, first_name=f"P{user}", language_code=None, now=now
        )
    game, stored = await staked_game(store, loser, winner, stake=stake, mode=mode, now=now)
    ended = replace(game, cube=Cube(cube, Side.WHITE)).resign(Side.WHITE)
    history = tuple(f"{side} 3-1 8/5 6/5" for _ in range(chips.MIN_LOSER_TURNS) for side in "wb")
    return await settle_and_save(store, replace(stored, game=ended, history=history), now)


@dataclass(frozen=True, slots=True)
class Payment:
    """Chips that went from one player to another at a moment (a game's, a pot's entry)."""

    payer: int
    payee: int
    chips: int
    at: float


def net_flow(payments: list[Payment], payer: int, payee: int, now: float) -> tuple[int, int]:
    """The chips and the payments that went from ``payer`` to ``payee`` in the window that ends
    at ``now``, less those that went back."""
    chips_, count = 0, 0
    for payment in payments:
        if now - chips.DUMP_WINDOW_SECONDS <= payment.at <= now:
            sign = {(payer, payee): 1, (payee, payer): -1}.get((payment.payer, payment.payee), 0)
            chips_, count = chips_ + sign * payment.chips, count + sign
    return chips_, count
