"""Games from the pool (``Lobby.find``): a pairing starts one game, refusals change nothing,
the same two accounts paired again weigh less in the ratings, the computer's offer, and two
workers starting two pairings of one player start one game; the timers' sweep starting the
games of seekers who waited, stakes, and the computer after a wait that ran out. With two
workers over PostgreSQL: a worker dying between taking a pairing out of the pool and starting
its game (on entering, and in the sweep) loses nobody's wait, and a second Find on the other
worker meanwhile never leaves a player both in the pool and in a game."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import Any

import pytest

from bot import model
from bot.model import ChipsStatus, Rating, Seeker, StoredGame, Terms, User
from bot.services import Games, GameSnapshot, Services, chips, compose
from bot.services import errors as e
from bot.services.pool import MAX_WAIT, PoolPairing, pool_terms
from bot.services.ratings import rate_game
from bot.storage import Store, open_database
from tests.support.clock import Clock
from tests.support.postgres import PostgresServer

from .conftest import World

TERMS = Terms(move_seconds=60)


async def _turns(service: Games, snapshot: GameSnapshot, count: int) -> GameSnapshot:
    """Plays ``count`` turns, each the first steps offered (no cube in the pool's games)."""
    for _ in range(count):
        mover = snapshot.stored.player(snapshot.game.turn)
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    return snapshot


async def _rated_game(services: Services, users: list[User], clock: Clock) -> int:
    """users[0] and users[1] find each other and play until the one to move resigns after
    enough turns to be rated; returns the loser."""
    assert await services.lobby.find(users[0], 0, TERMS, locale="en") is None
    clock.now += 60  # after a game their ratings are apart: the window opens in a minute
    found = await services.lobby.find(users[1], 0, TERMS, locale="en")
    assert found is not None
    snapshot = await _turns(services.games, found.snapshot, 8)
    loser = snapshot.stored.player(snapshot.game.turn)
    clock.now += 60
    await services.games.resign(snapshot.stored.id, loser)
    return loser


async def test_a_pairing_starts_one_game_and_the_same_two_again_weigh_less(
    world: World,
) -> None:
    services, clock, users = world
    lobby, ratings = services.lobby, services.store.ratings
    anna, boris, vera = users
    assert await lobby.find(anna, 0, TERMS, locale="en", message_id=7) is None
    with pytest.raises(e.AlreadySeeking):
        await lobby.find(anna, 0, TERMS, locale="en")
    with pytest.raises(e.NotSeeking):
        await lobby.cancel_seeking(boris.id)
    found = await lobby.find(boris, 0, TERMS, locale="en")
    assert found is not None
    stored = found.snapshot.stored
    assert (stored.white_id, stored.black_id, stored.chat_id) == (anna.id, boris.id, 0)
    assert found.pairing.waiting.message_id == 7
    assert sorted(b.chat_id for b in await services.board_messages.boards(stored.id)) == [1, 2]
    for player in (anna, boris):  # playing: refused, and nobody enters the pool
        with pytest.raises(e.AlreadyPlaying):
            await lobby.find(player, 0, TERMS, locale="en")
        assert await services.pool.seeker(player.id) is None
    with pytest.raises(e.NotSeeking):  # the computer's offer once paired
        await lobby.play_offered_computer(anna, locale="en")
    # the computer's offer: Vera leaves the pool for a game with level 3 (her 1500)
    assert await lobby.find(vera, 0, TERMS, locale="en") is None
    left, computer = await lobby.play_offered_computer(vera, locale="en")
    assert left.user_id == vera.id and await services.pool.seeker(vera.id) is None
    assert (computer.stored.white_id, computer.stored.black_id) == (vera.id, -3)
    await services.games.resign(found.snapshot.stored.id, anna.id)  # conceded early

    # two rated games of the same two: the second counts half
    weights = []
    for _game in range(2):
        before = {u.id: await ratings.get(u.id, "long") for u in (anna, boris)}
        loser = await _rated_game(services, [anna, boris], clock)
        winner = anna.id + boris.id - loser
        for weight in (1.0, 0.5):
            full = rate_game(before[winner], before[loser], weight)
            if (await ratings.get(winner, "long"), await ratings.get(loser, "long")) == full:
                weights.append(weight)
    assert weights == [1.0, 0.5]


async def test_two_workers_starting_pairings_of_one_player_start_one_game(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_migrated_database()
    clock = Clock()
    stores = [Store(await open_database(url)) for _ in range(2)]
    try:
        workers = [compose(store, random.Random(n), clock=clock) for n, store in enumerate(stores)]
        users = [
            await workers[0].users.see(i, username=f"u{i}", first_name="U", language_code="en")
            for i in (1, 2, 3)
        ]
        seekers = [Seeker(u.id, 0, pool_terms(TERMS), 1500.0, clock.now) for u in users]
        for _round in range(3):  # the same waiting player paired on each worker at once
            starts = [
                worker.lobby.start_pairing(
                    PoolPairing(0, seekers[0], seekers[1 + n], TERMS), locale="en"
                )
                for n, worker in enumerate(workers)
            ]
            found = [f for f in await asyncio.gather(*starts) if f is not None]
            assert len(found) == 1
            games = await workers[1].games.active_games(users[0].id)
            assert [g.id for g in games] == [found[0].snapshot.stored.id]
            await workers[0].games.resign(games[0].id, users[0].id)
    finally:
        for store in stores:
            await store.close()


async def _locale(seeker: Seeker) -> str:
    return "en"


async def _waiting(store: model.Store, clock: Clock, *seekers: tuple[User, int | None]) -> None:
    """Players waiting side by side, a second apart, unpaired: as entries made at the same
    moment on two workers leave them (one entering pairs with the only opponent at once)."""
    for user, message_id in seekers:
        rating = (await store.ratings.get(user.id, "long")).rating
        seeker = Seeker(user.id, 0, pool_terms(TERMS), rating, clock.now, message_id=message_id)
        await store.pool.put(seeker)
        clock.now += 1


async def test_the_sweep_starts_the_game_of_two_who_waited_and_skips_one_playing(
    world: World,
) -> None:
    services, clock, users = world
    lobby, pool, ratings = services.lobby, services.pool, services.store.ratings
    anna, boris, vera = users
    dan = await services.users.see(4, username="dan", first_name="Dan", language_code="en")
    for far in (boris, dan):
        await ratings.set(far.id, "long", Rating(rating=1800.0))
    await _waiting(services.store, clock, (anna, 5), (boris, 6))
    [found] = await lobby.pair_waiting(_locale)  # 300 apart, but nobody else is there
    stored = found.snapshot.stored
    assert (stored.white_id, stored.black_id, stored.chat_id) == (anna.id, boris.id, 0)
    assert (found.pairing.waiting.message_id, found.pairing.entering.message_id) == (5, 6)
    assert sorted(b.chat_id for b in await services.board_messages.boards(stored.id)) == [1, 2]
    assert await lobby.pair_waiting(_locale) == []  # one game each
    assert [g.id for g in await services.games.active_games(anna.id)] == [stored.id]
    await services.games.resign(stored.id, anna.id)

    # Vera waits, then accepts a challenge: the sweep leaves her out, and Dan waits on
    await _waiting(services.store, clock, (vera, None), (dan, None))
    since = (await pool.seeker(dan.id) or pytest.fail("Dan waits")).since
    challenge = await services.challenges.open(chat_id=-5, challenger=anna, locale="en")
    await lobby.accept(challenge.id, vera)
    clock.now += 45
    assert await lobby.pair_waiting(_locale) == []
    assert await pool.seeker(vera.id) is None
    back = await pool.seeker(dan.id)
    assert back is not None and back.since == since
    assert [g.id for g in await services.games.active_games(dan.id)] == []


async def test_a_stake_needs_the_chips_pairs_with_the_same_stake_and_obeys_the_rules(
    world: World,
) -> None:
    services, clock, users = world
    lobby, store = services.lobby, services.store
    anna, boris, vera = users
    staked = replace(TERMS, stake=10)
    with pytest.raises(ValueError):
        await lobby.find(anna, 0, replace(TERMS, stake=7), locale="en")
    assert await lobby.find(anna, 0, staked, locale="en") is None
    assert await lobby.find(boris, 0, TERMS, locale="en") is None  # no stake: not with Anna
    await chips.balance(store, vera.id, clock.now)
    await store.tournaments.pay(vera.id, -995, kind="test", now=clock.now)
    with pytest.raises(e.NotEnoughChips):
        await lobby.find(vera, 0, staked, locale="en")
    assert await services.pool.seeker(vera.id) is None  # the refusal entered nothing
    await store.tournaments.pay(vera.id, 995, kind="test", now=clock.now)
    found = await lobby.find(vera, 0, staked, locale="en")
    assert found is not None and found.pairing.waiting.user_id == anna.id
    assert found.snapshot.stored.stake == 10
    # given up at once, it is an early concession: no chips move (the anti-dumping rule)
    ended = await services.games.resign(found.snapshot.stored.id, vera.id)
    assert ended.stored.chips_status is ChipsStatus.VOID
    assert [await chips.balance(store, u.id, clock.now) for u in (anna, vera)] == [1000, 1000]


async def test_the_computer_after_a_wait_that_ran_out_starts_once(
    world: World,
) -> None:
    services, clock, users = world
    lobby, pool = services.lobby, services.pool
    anna, boris, _vera = users
    by_mail = Terms(move_seconds=86_400, stake=10)
    for player in (anna, boris):
        assert await lobby.find(player, 0 if player is anna else -5, by_mail, locale="en") is None
        clock.now += 1
    with pytest.raises(e.AlreadySeeking):
        await lobby.play_computer(anna, 0, by_mail, locale="en")
    clock.now += MAX_WAIT
    assert {s.user_id for s in await pool.expire()} == {anna.id, boris.id}
    snapshot = await lobby.play_computer(anna, 0, by_mail, locale="en")
    stored = snapshot.stored
    assert (stored.white_id, stored.black_id, stored.stake, stored.chat_id) == (1, -3, 0, 0)
    with pytest.raises(e.AlreadyPlaying):  # a correspondence game, but one computer at a time
        await lobby.play_computer(anna, 0, by_mail, locale="en")
    group = await lobby.play_computer(boris, -5, by_mail, locale="en")
    assert group.stored.chat_id == -5
    assert [b.chat_id for b in await services.board_messages.boards(group.stored.id)] == [-5]


async def test_two_workers_sweeping_at_once_start_one_game_per_player(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_migrated_database()
    clock = Clock()
    stores = [Store(await open_database(url)) for _ in range(2)]
    try:
        workers = [compose(store, random.Random(n), clock=clock) for n, store in enumerate(stores)]
        users = [
            await workers[0].users.see(i, username=f"u{i}", first_name="U", language_code="en")
            for i in range(1, 9)
        ]
        for number, user in enumerate(users):  # 150 apart, all waiting
            await stores[0].ratings.set(user.id, "long", Rating(rating=1000.0 + 150 * number))
        await _waiting(stores[0], clock, *((user, None) for user in users))
        clock.now += 60
        found = await asyncio.gather(*(w.lobby.pair_waiting(_locale) for w in workers))
        games = [f.snapshot.stored for each in found for f in each]
        assert len(games) == 4
        for user in users:
            active = await workers[1].games.active_games(user.id)
            assert len(active) == 1 and await workers[0].pool.seeker(user.id) is None
    finally:
        for store in stores:
            await store.close()


def _players(pairing: PoolPairing) -> tuple[int, int]:
    return pairing.waiting.user_id, pairing.entering.user_id


class _Crash(BaseException):
    """A worker dying where it stands: nothing catches it."""


async def test_a_crash_between_leaving_the_pool_and_the_games_start_loses_no_pairing(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await postgres.new_migrated_database()
    clock = Clock()
    stores = [Store(await open_database(url))]
    alive = compose(stores[0], random.Random(1), clock=clock)
    try:
        anna, boris, vera, carl, dan = [
            await alive.users.see(i, username=name, first_name=name, language_code="en")
            for i, name in enumerate(("anna", "boris", "vera", "carl", "dan"), start=1)
        ]

        async def doomed() -> Services:
            """A second worker whose next game start dies before it is made."""
            stores.append(Store(await open_database(url)))
            worker = compose(stores[-1], random.Random(2), clock=clock)

            async def crash(**_terms: object) -> None:
                raise _Crash()

            monkeypatch.setattr(worker.game_starts, "start", crash)
            return worker

        # a pairing made as Boris enters, on the worker that dies before the game is made
        assert await alive.lobby.find(anna, 0, TERMS, locale="en", message_id=7) is None
        dying = await doomed()
        with pytest.raises(_Crash):
            await dying.lobby.find(boris, 0, TERMS, locale="en", message_id=8)
        await stores.pop().close()
        for player in (anna, boris):  # both still wait, and their waits still say so
            seeker = await alive.pool.seeker(player.id)
            assert seeker is not None and seeker.message_id in (7, 8)
            assert await alive.games.active_games(player.id) == []
        await alive.lobby.cancel_seeking(boris.id)  # his ✖ Cancel works
        found = await alive.lobby.find(vera, 0, TERMS, locale="en")
        assert found is not None and _players(found.pairing) == (anna.id, vera.id)

        # a pairing of the timers' sweep, on the next worker that dies
        await alive.store.ratings.set(dan.id, "long", Rating(rating=1800.0))
        await _waiting(alive.store, clock, (carl, None), (dan, None))
        clock.now += 60
        dying = await doomed()
        with pytest.raises(_Crash):
            await dying.lobby.pair_waiting(_locale)
        await stores.pop().close()
        assert [await alive.pool.seeker(p.id) is not None for p in (carl, dan)] == [True, True]
        [swept] = await alive.lobby.pair_waiting(_locale)
        assert _players(swept.pairing) == (carl.id, dan.id)
    finally:
        for store in stores:
            await store.close()


async def test_a_second_find_while_a_pairing_starts_never_leaves_a_player_in_both(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await postgres.new_migrated_database()
    clock = Clock()
    stores = [Store(await open_database(url)) for _ in range(2)]
    try:
        one, two = (compose(store, random.Random(n), clock=clock) for n, store in enumerate(stores))
        anna, boris = [
            await one.users.see(i, username=name, first_name=name, language_code="en")
            for i, name in ((1, "anna"), (2, "boris"))
        ]
        reached, go = asyncio.Event(), asyncio.Event()
        start = two.game_starts.start

        async def slow_start(**terms: Any) -> StoredGame:
            reached.set()
            await go.wait()
            return await start(**terms)

        monkeypatch.setattr(two.game_starts, "start", slow_start)
        assert await one.lobby.find(anna, 0, TERMS, locale="en") is None
        pairing = asyncio.create_task(two.lobby.find(boris, 0, TERMS, locale="en"))
        await reached.wait()  # out of the pool on worker two, her game not made yet
        again = await asyncio.gather(
            one.lobby.find(anna, 0, TERMS, locale="en"), return_exceptions=True
        )
        go.set()
        found = await pairing
        assert found is not None and _players(found.pairing) == (anna.id, boris.id)
        assert isinstance(again[0], e.AlreadySeeking | e.AlreadyPlaying), again
        games = await one.games.active_games(anna.id)
        assert [g.id for g in games] == [found.snapshot.stored.id]
        assert await one.pool.seeker(anna.id) is None
    finally:
        for store in stores:
            await store.close()
