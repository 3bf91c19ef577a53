"""The users kept in memory: at most a bound, the least recently used let go (and read again
from the store when asked for), and a username's previous holder let go when someone takes it."""

from __future__ import annotations

import pytest

from bot.services import users as users_module
from bot.services.users import Users
from bot.storage import Store
from tests.services.conftest import Clock


async def test_users_beyond_the_bound_are_let_go_least_recently_used_first(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(users_module, "USERS_KEPT", 3)
    users = Users(store, clock=clock)
    for user_id in range(1, 6):
        await users.see(user_id, username=None, first_name=f"U{user_id}", language_code="en")
    await store.users.set_quick(1, True)  # behind the service's back
    await store.users.set_quick(5, True)
    first, last = await users.get(1), await users.get(5)
    assert first is not None and first.quick  # let go, read again
    assert last is not None and not last.quick  # still kept (one process owns SQLite)


async def test_a_username_taken_by_another_drops_its_previous_holder(
    store: Store, clock: Clock
) -> None:
    users = Users(store, clock=clock)
    await users.see(1, username="anna", first_name="Anna", language_code="en")
    await users.see(2, username="anna", first_name="New Anna", language_code="en")
    before = await users.get(1)
    assert before is not None and before.username is None
    found = await users.by_username("anna")
    assert found is not None and found.id == 2
