"""A staked game stored for the chips tests (ledger invariants, anti-dumping), and its result
settled and saved in one transaction, as the bot settles one."""

from __future__ import annotations

import random

from bot.engine import Game, StakeMode
from bot.model import StoredGame
from bot.services import chips
from bot.storage import Store


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
