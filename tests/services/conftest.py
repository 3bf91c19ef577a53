"""Fixtures of the service tests: a real database of each backend (an SQLite file, a
PostgreSQL database), a clock the test moves, three users."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.model import User
from bot.services import GameSnapshot, ScoreService, Services, compose
from bot.storage import Store, open_database


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(migrated_database: Path | str) -> AsyncIterator[Store]:
    db = await open_database(migrated_database)
    yield Store(db)
    await db.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def world(store: Store, clock: Clock) -> tuple[Services, Clock, list[User]]:
    """The services (with a seeded dice source and ``clock``), the clock, three users."""
    services = compose(store, random.Random(11), move_seconds=60, clock=clock)
    users = [
        await services.users.see(i, username=name, first_name=name.title(), language_code="ru")
        for i, name in ((1, "anna"), (2, "boris"), (3, "vera"))
    ]
    return services, clock, users


@pytest.fixture
def scores(store: Store, clock: Clock) -> ScoreService:
    return ScoreService(store, clock=clock)


async def two_people_playing(services: Services) -> GameSnapshot:
    """Users 1 and 2, met; 1 challenges 2 in group -5, 2 accepts: their game, just begun."""
    anna, boris = [
        await services.users.see(user_id, username=None, first_name="U", language_code="en")
        for user_id in (1, 2)
    ]
    challenge = await services.challenges.open(
        chat_id=-5, challenger=anna, target=boris, locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, boris)
    return snapshot
