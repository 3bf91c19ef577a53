"""The chip ledger's invariants under random results, replays included (hypothesis).

Each example opens a fresh database (an SQLite file, or a PostgreSQL database), starts games
between four players with random stakes and modes, ends them by random outcomes after a random
number of turns, and sometimes settles a finished game a second time, as a redelivered update or
a crash-and-retry would. After every step: chips are only created by grants, never by a
transfer; no balance is negative; each wallet equals its last ledger row; a game pays at most
once.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Cube, Side, StakeMode
from bot.services import chips
from bot.storage import IntegrityError, Store, VersionConflict, open_database
from tests.conftest import BACKENDS

from .staked import EXAMPLES, fresh_databases, settle_and_save, staked_game

PLAYERS = (1, 2, 3, 4)

Step = tuple[tuple[int, int], int, StakeMode, str, int, int, bool, float]
"""A game of the scenario: its players, stake and mode, how it ends, the turns played, the cube,
whether it is settled again, the seconds until the next."""

step = st.tuples(
    st.sampled_from([(a, b) for a in PLAYERS for b in PLAYERS if a != b]),  # white, black
    st.sampled_from([0, 10, 50, 100, 500]),  # stake
    st.sampled_from(list(StakeMode)),
    st.sampled_from(["resign", "timeout", "drop"]),
    st.integers(0, 5),  # turns each side played before the end
    st.sampled_from([1, 2, 4, 8]),  # the cube
    st.booleans(),  # settle it again afterwards
    st.floats(0, 6 * 3600),  # seconds until the next game ends
)


async def _check(store: Store) -> None:
    row = await store.database.fetch_one(
        """SELECT (SELECT COALESCE(SUM(chips), 0) FROM wallets),
                  (SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE kind != 'game'),
                  (SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE kind = 'game'),
                  (SELECT COUNT(*) FROM wallets WHERE chips < 0),
                  (SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM ledger
                                       WHERE kind = 'game' GROUP BY game_id) AS paid)"""
    )
    assert row is not None
    total, granted, moved, negative, most = (row[i] for i in range(5))
    assert total == granted, "chips were created or lost outside the grants"
    assert moved == 0, "a transfer created or destroyed chips"
    assert negative == 0
    assert most in (None, 2), "a game paid more than once"
    for wallet in await store.database.fetch_all(
        """SELECT wallets.chips, (SELECT balance FROM ledger WHERE ledger.user_id = wallets.user_id
                                  ORDER BY id DESC LIMIT 1) FROM wallets"""
    ):
        assert wallet[0] == wallet[1]


async def _scenario(path: Path | str, steps: list[Step]) -> None:
    db = await open_database(path)
    store = Store(db)
    now = 1_000_000.0
    try:
        for user in PLAYERS:
            await store.users.upsert(
                user, username=None, first_name=f"P{user}", language_code=None, now=now
            )
        for (white, black), stake, mode, end, turns, cube, replay, wait in steps:
            now += wait
            game, stored = await staked_game(store, white, black, stake=stake, mode=mode, now=now)
            history = tuple(f"{side} 3-1 8/5 6/5" for _ in range(turns) for side in "wb")
            if end == "drop":
                owner = game.turn if cube > 1 else None
                ended = replace(game, dice=None, cube=Cube(cube, owner)).double().drop()
            else:
                ended = replace(game, cube=Cube(cube, Side.WHITE))
                ended = ended.resign(Side.BLACK) if end == "resign" else ended.timeout()
            finished = replace(stored, game=ended, history=history)
            settled = await settle_and_save(store, finished, now)
            await _check(store)
            if replay:  # the same result settled again: refused as a whole, nothing changes
                try:
                    async with store.transaction():
                        await chips.settle(store, finished, now)
                        await store.games.save(settled, expected_version=stored.version, now=now)
                except (IntegrityError, VersionConflict):
                    pass
                else:
                    raise AssertionError("a result was settled twice")
                await _check(store)
    finally:
        await db.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_ledger_keeps_its_invariants(backend: str, request: pytest.FixtureRequest) -> None:
    new_database = fresh_databases(backend, request)

    @settings(
        max_examples=EXAMPLES[backend],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(steps=st.lists(step, min_size=1, max_size=12))
    def check(steps: list[Step]) -> None:
        with new_database() as database:
            asyncio.run(_scenario(database, steps))

    check()
