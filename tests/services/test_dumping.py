"""The hold against chip dumping: judged on the net flow between two accounts (hypothesis).

Seed 000 forbids passing chips by losing on purpose; :mod:`bot.services.chips` holds a payment
that would bring the net flow from the loser to the winner within
:data:`~bot.services.chips.DUMP_WINDOW_SECONDS` up to :data:`~bot.services.chips.DUMP_CHIPS`
chips or :data:`~bot.services.chips.DUMP_PAYMENTS` payments. The property test plays random
sequences of games between two or three accounts (resigned after the loser's third turn, so
every one of them pays), settles them on a real database of each backend and judges each
result from the ledger alone: a paid result keeps the net flow of its pair, over the window
that ends with it, under both limits; a held one would have reached a limit.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import StakeMode
from bot.model import ChipsStatus
from bot.services import chips
from bot.storage import Store, open_database
from tests.conftest import BACKENDS

from .staked import EXAMPLES, fresh_databases
from .staked import Payment as _Payment
from .staked import net_flow as _net
from .staked import play_staked as _play

START = 1_000_000.0
WINDOW = chips.DUMP_WINDOW_SECONDS


async def _payments(store: Store) -> list[_Payment]:
    rows = await store.database.fetch_all(
        """SELECT user_id, other_id, delta, created_at FROM ledger
           WHERE kind = 'game' AND delta < 0 ORDER BY id"""
    )
    return [_Payment(row[0], row[1], -row[2], row[3]) for row in rows]


game_step = st.tuples(
    st.integers(0, 2),  # the loser, among the accounts
    st.integers(1, 2),  # the winner: that many accounts further on
    st.sampled_from([10, 50, 100, 500]),
    st.sampled_from(list(StakeMode)),  # a resignation pays 4 stakes, 2 (PRO) or 1 (amateur)
    st.sampled_from([1, 2]),  # the cube
    st.one_of(  # seconds since the previous game: often within the window, sometimes its edge
        st.integers(0, 4 * 3600), st.sampled_from([WINDOW - 1, WINDOW, WINDOW + 1])
    ),
)


async def _scenario(path: Path | str, accounts: int, steps: list[tuple[int, ...]]) -> None:
    db = await open_database(path)
    store = Store(db)
    now = START
    try:
        for loser_at, further, stake, mode, cube, wait in steps:
            now += wait
            loser, winner = 1 + loser_at % accounts, 1 + (loser_at + further) % accounts
            if loser == winner:  # two accounts: "two further on" is the loser again
                winner = 1 + (loser_at + 1) % accounts
            before = await _payments(store)
            settled = await _play(
                store, loser=loser, winner=winner, stake=stake, mode=mode, cube=cube, now=now
            )
            after = await _payments(store)
            net_chips, net_count = _net(after, loser, winner, now)
            if settled.chips_status is ChipsStatus.PAID:
                assert net_chips < chips.DUMP_CHIPS, f"{net_chips} chips passed {loser}→{winner}"
                assert net_count < chips.DUMP_PAYMENTS, f"{net_count} payments {loser}→{winner}"
                assert len(after) == len(before) + (settled.chips > 0)
            else:
                assert settled.chips_status is ChipsStatus.HELD
                assert after == before, "a held result moved chips"
                held_chips, held_count = _net(before, loser, winner, now)
                assert (
                    held_chips + settled.chips >= chips.DUMP_CHIPS
                    or held_count + 1 >= chips.DUMP_PAYMENTS
                ), "a result was held that kept to both limits"
    finally:
        await db.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_sequence_of_games_passes_more_than_the_limits(
    backend: str, request: pytest.FixtureRequest
) -> None:
    new_database = fresh_databases(backend, request)

    @settings(
        max_examples=EXAMPLES[backend],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(accounts=st.sampled_from([2, 3]), steps=st.lists(game_step, min_size=1, max_size=14))
    def check(accounts: int, steps: list[tuple[int, ...]]) -> None:
        with new_database() as database:
            asyncio.run(_scenario(database, accounts, steps))

    check()


async def test_a_new_accounts_whole_grant_is_held(store: Store) -> None:
    # PRO 500 resigned: 2 stakes, 1,000 chips, the whole first grant, in one game
    settled = await _play(
        store, loser=1, winner=2, stake=500, mode=StakeMode.PRO, cube=1, now=START
    )
    assert (settled.chips_status, settled.chips) == (ChipsStatus.HELD, 1000)
    assert await chips.balance(store, 1, START) == chips.START_CHIPS
    assert await chips.balance(store, 2, START) == chips.START_CHIPS
    [flag] = await store.chips.flags(-1)
    assert (flag.loser_id, flag.winner_id, flag.paid) == (1, 2, chips.DUMP_CHIPS)


async def test_a_small_game_lost_back_does_not_switch_the_hold_off(store: Store) -> None:
    amateur = StakeMode.AMATEUR  # a resignation pays one stake
    back = await _play(store, loser=2, winner=1, stake=10, mode=amateur, cube=1, now=START)
    assert back.chips_status is ChipsStatus.PAID
    for second in (1, 2):  # 490 net, then 990: under the limit
        paid = await _play(
            store, loser=1, winner=2, stake=500, mode=amateur, cube=1, now=START + second
        )
        assert (paid.chips_status, paid.chips) == (ChipsStatus.PAID, 500)
    # 10 more brings the net flow up to the limit, 1,000: held
    held = await _play(store, loser=1, winner=2, stake=10, mode=amateur, cube=1, now=START + 3)
    assert (held.chips_status, held.chips) == (ChipsStatus.HELD, 10)
    [flag] = await store.chips.flags(-1)
    assert (flag.paid, flag.payments) == (1000, 2)  # net: three payments one way, one back
    assert await chips.balance(store, 1, START + 3) == 10
