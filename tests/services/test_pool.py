"""The pool ("play anyone now"): pairing on the same terms and close ratings, the window that
widens with the wait, re-entering, leaving, the computer's offer once, groups' pools apart, and
two workers racing over one PostgreSQL database."""

from __future__ import annotations

import asyncio
import math
import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.engine import DiceMode
from bot.model import Seeker, Terms
from bot.services.pool import (
    MAX_WAIT,
    Pairing,
    Pool,
    best_match,
    computer_level_for,
    rating_window,
    waiting_pairs,
)
from bot.storage import Store, open_database
from tests.services.conftest import Clock
from tests.support.postgres import PostgresServer

LONG = Terms()
SHORT = Terms(variant="short", match_length=3)


async def test_two_compatible_seekers_are_paired_and_leave_the_pool(
    store: Store, clock: Clock
) -> None:
    pool = Pool(store, clock=clock)
    assert await pool.enter(1, 0, LONG, 1500) is None
    clock.now += 3
    pairing = await pool.enter(2, 0, LONG, 1550)
    assert pairing is not None
    assert (pairing.waiting.user_id, pairing.entering.user_id) == (1, 2)
    assert pairing.terms == LONG and pairing.scope == 0
    assert await pool.seeker(1) is None and await pool.seeker(2) is None
    assert await pool.enter(3, 0, LONG, 1500) is None  # nobody left to pair with


async def test_other_terms_are_not_paired_and_a_stake_only_with_the_same_stake(
    store: Store, clock: Clock
) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1500)
    assert await pool.enter(2, 0, SHORT, 1500) is None
    assert await pool.enter(3, 0, Terms(dice_mode=DiceMode.THREE), 1500) is None
    assert await pool.enter(4, 0, Terms(move_seconds=30), 1500) is None
    assert await pool.enter(5, 0, Terms(match_length=5), 1500) is None
    assert await pool.enter(6, 0, Terms(stake=10), 1500) is None  # 1 chose no stake
    assert await pool.enter(7, 0, Terms(stake=50), 1500) is None  # 6 chose another
    both = await pool.enter(8, 0, Terms(stake=10), 1500)
    assert both is not None and both.terms.stake == 10 and both.waiting.user_id == 6
    clock.now += 120  # any rating now, but never another stake
    assert await pool.pair_waiting() == []
    unstaked = await pool.enter(9, 0, LONG, 1500)
    assert unstaked is not None and unstaked.terms.stake == 0 and unstaked.waiting.user_id == 1


async def test_seekers_already_waiting_are_paired_once_their_windows_meet(
    store: Store, clock: Clock
) -> None:
    pool = Pool(store, clock=clock)
    assert await pool.enter(1, 0, LONG, 1500) is None
    clock.now += 1
    assert await pool.enter(2, 0, LONG, 1800) is None  # 300 apart: too far at once
    assert await pool.pair_waiting() == []
    clock.now += 38  # 1 waited 39 s: ±250
    assert await pool.pair_waiting() == []
    clock.now += 1  # 40 s: ±300
    [pairing] = await pool.pair_waiting()
    assert (pairing.waiting.user_id, pairing.entering.user_id) == (1, 2)
    assert pairing.scope == 0 and pairing.terms == LONG
    assert await pool.seeker(1) is None and await pool.seeker(2) is None
    assert await pool.pair_waiting() == []  # each seeker paired once


async def test_the_sweep_pairs_by_pool_terms_closest_rating_then_longest_wait(
    store: Store, clock: Clock
) -> None:
    pool = Pool(store, clock=clock)
    await store.users.upsert(50, username=None, first_name="K", language_code=None, now=0.0)
    await store.users.set_blocked(50, True)
    entries = [  # user, pool, terms, rating: none paired on entering
        (1, 0, LONG, 1500),
        (2, 0, LONG, 1800),
        (3, 0, LONG, 1210),  # 290 from 1, closer than 2's 300
        (4, 0, SHORT, 1500),  # other terms
        (5, -9, LONG, 1500),  # another pool
        (6, 0, Terms(stake=10), 1500),  # another stake
        (7, -9, SHORT, 1500),
        (50, 0, LONG, 1650),  # blocked the bot: never paired in private
    ]
    for user, scope, terms, rating in entries:
        assert await pool.enter(user, scope, terms, rating) is None
        clock.now += 1
    clock.now += 40
    [pairing] = await pool.pair_waiting()
    assert (pairing.waiting.user_id, pairing.entering.user_id) == (1, 3)
    clock.now += 60  # any rating now: 2 and 50 are alike, but 50 blocked the bot
    assert await pool.pair_waiting() == []
    for user in (2, 4, 5, 6, 7, 50):
        assert await pool.seeker(user) is not None
    newcomer = await pool.enter(8, 0, LONG, 1700)  # 50 is closer, but passed over
    assert newcomer is not None and newcomer.waiting.user_id == 2
    # in a group's pool a player who blocked the bot in private plays all the same
    group = await pool.enter(50, -9, SHORT, 1650)
    assert group is not None and (group.scope, group.waiting.user_id) == (-9, 7)
    assert await pool.enter(50, 0, LONG, 1650) is None
    assert await pool.leave_private(50) and await pool.seeker(50) is None
    await pool.enter(51, -9, LONG, 1500)
    assert not await pool.leave_private(51)  # a group's pool keeps them


async def test_the_longest_wait_is_paired_first_in_a_sweep(store: Store, clock: Clock) -> None:
    pool = Pool(store, clock=clock)
    for user, rating in ((1, 1500), (2, 1700), (3, 1900)):
        assert await pool.enter(user, 0, LONG, rating) is None
        clock.now += 1
    clock.now += 60  # any rating: 1 waited longest and takes its closest, 2
    [pairing] = await pool.pair_waiting()
    assert (pairing.waiting.user_id, pairing.entering.user_id) == (1, 2)
    assert await pool.seeker(3) is not None


async def test_a_wait_ends_by_itself_once(store: Store, clock: Clock) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1500, message_id=11)
    clock.now += 10
    await pool.enter(2, -9, SHORT, 1500)
    clock.now += MAX_WAIT - 11
    assert await pool.expire() == []
    clock.now += 1
    [ended] = await pool.expire()
    assert (ended.user_id, ended.message_id) == (1, 11)
    assert await pool.seeker(1) is None and await pool.seeker(2) is not None
    assert await pool.expire() == []  # told once
    clock.now += 10
    assert [s.user_id for s in await pool.expire()] == [2]


async def test_the_window_widens_while_they_wait(store: Store, clock: Clock) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1500)
    assert await pool.enter(2, 0, LONG, 1760) is None  # 260 apart: too far at once
    await pool.leave(2)
    clock.now += 35  # 1 waited 35 s: ±250
    assert await pool.enter(2, 0, LONG, 1760) is None
    await pool.leave(2)
    clock.now += 15  # 50 s: ±350
    pairing = await pool.enter(2, 0, LONG, 1760)
    assert pairing is not None and pairing.waiting.user_id == 1
    await pool.enter(3, 0, LONG, 1000)
    clock.now += 60  # a minute: anyone
    assert await pool.enter(4, 0, LONG, 2400) is not None


async def test_the_closest_rating_then_the_longest_wait_is_preferred(
    store: Store, clock: Clock
) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1440)
    clock.now += 1
    await pool.enter(2, 0, SHORT, 1500)  # other terms
    clock.now += 1
    await pool.enter(3, 0, LONG, 1550)  # 110 from 1: not paired
    clock.now += 1
    pairing = await pool.enter(4, 0, LONG, 1500)
    assert pairing is not None and pairing.waiting.user_id == 3  # 50 from 1500, 1 is 60


async def test_the_longest_wait_breaks_a_tie(store: Store, clock: Clock) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1400)
    clock.now += 1
    await pool.enter(2, 0, SHORT, 1600)
    clock.now += 1
    await pool.enter(3, 0, LONG, 1600)  # 200 from 1: not paired
    clock.now += 1
    await pool.enter(5, 0, LONG, 1700)  # 100 from 3: paired with 3
    await pool.enter(3, 0, LONG, 1600)
    clock.now += 1
    pairing = await pool.enter(4, 0, LONG, 1500)  # 1 and 3 both 100 away: 1 waited longer
    assert pairing is not None and pairing.waiting.user_id == 1


async def test_entering_again_updates_the_entry_and_remembers_the_choice(
    store: Store, clock: Clock
) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1500, offer_after=30)
    since = clock.now
    clock.now += 5
    await pool.enter(1, 0, SHORT, 1510, offer_after=90)
    seeker = await pool.seeker(1)
    assert seeker is not None
    assert (seeker.terms, seeker.rating, seeker.since, seeker.offer_after, seeker.version) == (
        SHORT,
        1510,
        since,
        90,
        1,
    )
    assert await pool.enter(2, 0, LONG, 1500) is None  # 1 looks for short now
    assert await pool.enter(3, 0, SHORT, 1500) is not None
    choice = await pool.last_choice(1)
    assert choice is not None and (choice.terms, choice.offer_after) == (SHORT, 90)
    assert await pool.last_choice(9) is None


async def test_leaving_takes_the_seeker_out(store: Store, clock: Clock) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1500)
    assert await pool.leave(1) and not await pool.leave(1)
    assert await pool.enter(2, 0, LONG, 1500) is None
    assert await pool.last_choice(1) is not None  # kept after leaving


async def test_sweep_returns_each_due_seeker_once(store: Store, clock: Clock) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, 0, LONG, 1500)
    await pool.enter(2, 0, SHORT, 1900, offer_after=20)
    await pool.enter(3, -7, LONG, 1200, offer_after=120)
    clock.now += 19
    assert await pool.sweep() == []
    clock.now += 1
    assert [s.user_id for s in await pool.sweep()] == [2]
    clock.now += 40
    due = await pool.sweep()
    assert [(s.user_id, s.offered) for s in due] == [(1, True)]
    assert await pool.sweep() == [] and await pool.sweep(clock.now + 1000) != []
    assert await pool.sweep(clock.now + 1000) == []
    offered = await pool.seeker(2)
    assert offered is not None and offered.offered  # still in the pool


def test_computer_levels_follow_the_rating() -> None:
    assert [computer_level_for(r) for r in (800, 1299, 1300, 1500, 1600, 1749, 1750, 2600)] == [
        1,
        1,
        2,
        3,
        4,
        4,
        5,
        5,
    ]


async def test_a_groups_pool_is_apart_from_the_private_one(store: Store, clock: Clock) -> None:
    pool = Pool(store, clock=clock)
    await pool.enter(1, -100, LONG, 1500)
    assert await pool.enter(2, 0, LONG, 1500) is None
    assert await pool.enter(3, -200, LONG, 1500) is None
    pairing = await pool.enter(4, -100, LONG, 1500)
    assert pairing is not None and pairing.waiting.user_id == 1 and pairing.scope == -100
    # entering another pool moves the entry (never two) and starts the wait afresh
    clock.now += 10
    await pool.enter(2, -300, LONG, 1500)
    moved = await pool.seeker(2)
    assert moved is not None and moved.scope == -300 and moved.since == clock.now


async def test_many_entering_at_once_on_one_worker_are_paired_once(
    store: Store, clock: Clock
) -> None:
    pool = Pool(store, clock=clock)
    pairings = await asyncio.gather(*(pool.enter(user, 0, LONG, 1500) for user in range(30)))
    paired = [u for p in pairings if p for u in (p.waiting.user_id, p.entering.user_id)]
    assert sorted(paired) == list(range(30))  # all alike: fifteen pairs, each seeker in one


@given(st.floats(-10, 500), st.floats(0, 500))
def test_the_window_never_shrinks_as_the_wait_grows(waited: float, more: float) -> None:
    assert rating_window(waited) <= rating_window(waited + more)
    assert rating_window(waited) >= 100


async def test_two_workers_racing_pair_each_seeker_at_most_once(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_migrated_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    clock = Clock()
    pools = [Pool(store, clock=clock) for store in stores]
    rng = random.Random(5)
    try:
        for _round in range(3):
            entries = [
                pools[user % 2].enter(
                    user + 100 * _round,
                    rng.choice((0, 0, -9)),
                    rng.choice((LONG, LONG, SHORT)),
                    rng.uniform(1300, 1700),
                )
                for user in range(40)
            ]
            clock.now += 30
            pairings = [p for p in await asyncio.gather(*entries) if p is not None]
            paired = [u for p in pairings for u in (p.waiting.user_id, p.entering.user_id)]
            assert pairings and len(paired) == len(set(paired))
            for p in pairings:
                assert p.waiting.scope == p.entering.scope == p.scope
                assert p.waiting.terms == p.entering.terms == p.terms
            for user in paired:  # the paired left the pool, the rest are in it
                assert await stores[0].pool.get(user) is None
            for user in {u + 100 * _round for u in range(40)} - set(paired):
                assert await stores[1].pool.get(user) is not None
    finally:
        for store in stores:
            await store.close()


async def test_two_workers_sweeping_and_entering_at_once_pair_each_seeker_once(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_migrated_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    clock = Clock()
    pools = [Pool(store, clock=clock) for store in stores]
    rng = random.Random(8)
    try:
        for round_ in range(3):
            first = 1000 * round_
            for user in range(first, first + 30):  # 110 apart: nobody paired on entering
                rating = 1000 + 110 * (user - first)
                assert await pools[user % 2].enter(user, rng.choice((0, -9)), LONG, rating) is None
            clock.now += 40
            late = [
                pools[user % 2].enter(user, rng.choice((0, -9)), LONG, rng.uniform(1000, 2200))
                for user in range(first + 30, first + 40)
            ]
            sweeps = [pool.pair_waiting() for pool in pools for _ in range(2)]
            done = await asyncio.gather(*sweeps, *late)
            pairings = [p for result in done if isinstance(result, list) for p in result]
            pairings += [p for p in done if isinstance(p, Pairing)]
            paired = [u for p in pairings for u in (p.waiting.user_id, p.entering.user_id)]
            assert pairings and len(paired) == len(set(paired))
            for p in pairings:
                assert p.waiting.scope == p.entering.scope == p.scope
            for user in paired:
                assert await stores[0].pool.get(user) is None
            for user in set(range(first, first + 40)) - set(paired):
                assert await stores[1].pool.get(user) is not None
            for user in set(range(first, first + 40)) - set(paired):
                await pools[0].leave(user)
    finally:
        for store in stores:
            await store.close()


def _pairs_one_by_one(seekers: list[Seeker], now: float) -> list[tuple[Seeker, Seeker]]:
    """The look's rule as written: the longest wait first, each with its best match among the
    unpaired after it with the same terms (quadratic: the reference)."""
    left, made = list(seekers), []
    while left:
        seeker = left.pop(0)
        other = best_match(seeker, [o for o in left if o.terms == seeker.terms], now)
        if other is not None:
            left.remove(other)
            made.append((seeker, other))
    return made


@given(
    st.lists(
        st.tuples(
            st.sampled_from([LONG, SHORT, Terms(stake=10)]),
            st.sampled_from([1400.0, 1450.0, 1500.0, 1500.5, 1600.0, 1750.0, 2100.0]),
            st.integers(0, 70),  # seconds waited, ties included
        ),
        max_size=40,
    )
)
def test_the_look_in_n_log_n_pairs_as_the_rule_says(
    entries: list[tuple[Terms, float, int]],
) -> None:
    now = 1000.0
    seekers = sorted(
        (
            Seeker(user_id, 0, terms, rating, now - waited)
            for user_id, (terms, rating, waited) in enumerate(entries, start=1)
        ),
        key=lambda s: (s.since, s.user_id),
    )
    assert waiting_pairs(seekers, now) == _pairs_one_by_one(seekers, now)


async def test_the_looks_between_whole_ones_pair_as_whole_looks_would(tmp_path: Path) -> None:
    """Seekers entering and leaving over two minutes, looked at every half second: a pool that
    reads only the widened windows between whole looks pairs exactly as one that always reads
    everyone."""
    pools = []
    for name, whole_every in (("whole", 0.0), ("widened", math.inf)):
        db = await open_database(tmp_path / f"{name}.sqlite3")
        pools.append((db, Pool(Store(db), clock=lambda: 0.0, whole_every=whole_every)))
    rng, made = random.Random(7), {"whole": [], "widened": []}
    kinds = [LONG, SHORT, Terms(stake=10)]
    try:
        for tick in range(240):
            now = 1000.0 + tick / 2
            entering = [
                (100 * tick + n, rng.choice(kinds), rng.choice(range(1000, 4000, 50)))
                for n in range(rng.choice((0, 0, 0, 0, 1)))
            ]
            leaving = rng.randrange(100 * tick) if tick and rng.random() < 0.1 else None
            for (_, pool), name in zip(pools, made, strict=True):
                for user_id, terms, rating in entering:
                    pairing = await pool.enter(user_id, 0, terms, rating, now)
                    if pairing is not None:
                        made[name].append(("enter", now, _ids(pairing)))
                if leaving is not None:
                    await pool.leave(leaving)
                made[name] += [("look", now, _ids(p)) for p in await pool.pair_waiting(now)]
        assert made["whole"] == made["widened"]
        assert sum(kind == "look" for kind, *_ in made["whole"]) >= 5  # the looks paired some
    finally:
        for db, _ in pools:
            await db.close()


def _ids(pairing: Pairing) -> tuple[int, int]:
    return pairing.waiting.user_id, pairing.entering.user_id
