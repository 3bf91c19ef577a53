"""Fixtures of the service tests: a real database of each backend (an SQLite file, a
PostgreSQL database), a clock the test moves, three users."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import NamedTuple

import pytest

from bot.model import Challenge, User
from bot.services import GameSnapshot, Scores, Services, choices, compose
from bot.storage import Store, open_database
from tests.support.clock import Clock


class World(NamedTuple):
    """What the ``world`` fixture hands a test: the services, their clock, three users."""

    services: Services
    clock: Clock
    users: list[User]


@pytest.fixture
async def store(migrated_database: Path | str) -> AsyncIterator[Store]:
    db = await open_database(migrated_database)
    yield Store(db)
    await db.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def world(store: Store, clock: Clock) -> World:
    """The services (with a seeded dice source and ``clock``), the clock, three users: anna,
    boris and vera."""
    services = compose(store, random.Random(11), move_seconds=60, clock=clock)
    users = [
        await services.users.see(i, username=name, first_name=name.title(), language_code="ru")
        for i, name in ((1, "anna"), (2, "boris"), (3, "vera"))
    ]
    return World(services, clock, users)


@pytest.fixture
def scores(store: Store, clock: Clock) -> Scores:
    return Scores(store, clock=clock)


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


async def change(services: Services, challenge: Challenge, option: str) -> Challenge:
    """The challenger changes ``option``: a switch turns; an option with a list of choices
    takes the one after the current (the first after the last)."""
    index = None
    if option in choices.OPTIONS:
        values = choices.offered(option, challenge.terms, challenge.move_seconds)
        now = choices.current(
            option, challenge.terms, challenge.move_seconds, challenge.computer_level
        )
        index = (values.index(now) + 1) % len(values) if values else 0
    return await services.challenges.change_option(
        challenge.id, challenge.challenger_id, challenge.version, option, index
    )
