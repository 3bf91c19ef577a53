"""Games from the pool (``Lobby.find``): a pairing starts one game, refusals change nothing,
the same two accounts paired again weigh less in the ratings, the computer's offer, and two
workers starting two pairings of one player start one game."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.model import Seeker, Terms, User
from bot.services import GameService, GameSnapshot, Services, compose
from bot.services import errors as e
from bot.services.pool import Pairing, pool_terms
from bot.services.ratings import rate_game
from bot.storage import Store, open_database
from tests.support.postgres import PostgresServer

from .conftest import Clock

TERMS = Terms(move_seconds=60)


async def _turns(service: GameService, snapshot: GameSnapshot, count: int) -> GameSnapshot:
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
    snapshot = await _turns(services.game_service, found.snapshot, 8)
    loser = snapshot.stored.player(snapshot.game.turn)
    clock.now += 60
    await services.game_service.resign(snapshot.stored.id, loser)
    return loser


async def test_a_pairing_starts_one_game_and_the_same_two_again_weigh_less(
    world: tuple[Services, Clock, list[User]],
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
    await services.game_service.resign(found.snapshot.stored.id, anna.id)  # conceded early

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
    url = await postgres.new_database()
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
                    Pairing(0, seekers[0], seekers[1 + n], TERMS), locale="en"
                )
                for n, worker in enumerate(workers)
            ]
            found = [f for f in await asyncio.gather(*starts) if f is not None]
            assert len(found) == 1
            games = await workers[1].game_service.active_games(users[0].id)
            assert [g.id for g in games] == [found[0].snapshot.stored.id]
            await workers[0].game_service.resign(games[0].id, users[0].id)
    finally:
        for store in stores:
            await store.close()
