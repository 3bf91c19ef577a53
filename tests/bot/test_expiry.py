"""An open challenge expires: its message says so and its buttons go."""

from __future__ import annotations

import random

import pytest

from bot.app import ServicesFactory
from bot.services import compose
from tests.support.harness import BotHarness
from tests.support.services import composed


@pytest.fixture
def services_factory() -> ServicesFactory:
    """The production services, with challenges that expire after one second."""

    return composed(
        lambda store, settings: compose(
            store, random.Random(1), move_seconds=settings.move_seconds, challenge_seconds=1
        )
    )


async def test_an_unanswered_challenge_expires(bot_harness: BotHarness) -> None:
    fake = bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("club", [alice, bob])
    fake.send_text(alice, group, "/play @bob")
    await bot_harness.settle()
    challenge = fake.last_message(group)
    assert challenge.buttons
    await fake.wait_for(lambda: "expired" in (challenge.text or ""), timeout=10)
    assert not challenge.buttons
    # a late Accept on the message, which shows no buttons now: stale, nothing happens
    late = await fake.next_answer_to(fake.tap(bob, challenge, "c:1:0:1:0", check=False))
    assert late.show_alert and "no longer valid" in (late.text or "")
