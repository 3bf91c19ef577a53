"""Requests repeated or forged in bulk cost the bot nothing that lasts: the per-id lock tables
keep only the ids in use, and a sender has at most one pending invitation to each person."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.app import ServicesFactory, build_services
from bot.callbacks import ChallengeAction, ChallengeOption, GameButton
from bot.config import Settings
from bot.services import Services
from bot.services.actions import GameAction
from tests.support.harness import BotHarness

FORGED = 300
IDS_EACH = 4


@pytest.fixture
def built() -> dict[str, Any]:
    """The services the running bot was built with (``"services"``, when it starts)."""
    return {}


@pytest.fixture
def services_factory(built: dict[str, Any]) -> ServicesFactory:
    """The production services (``bot.app.build_services``), kept in ``built`` to look at."""

    @asynccontextmanager
    async def factory(settings: Settings) -> AsyncIterator[Any]:
        async with build_services(settings) as services:
            built["services"] = services
            yield services

    return factory


async def test_forged_ids_leave_no_lock_behind(
    bot_harness: BotHarness, built: dict[str, Any]
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    users = [fake.create_user(f"Mallory {n}") for n in range(FORGED // IDS_EACH)]
    group = fake.create_group("Club", users)
    # a board and an open challenge: the kinds of message these buttons count on
    fake.send_text(users[0], group, "/play")
    await harness.settle()
    fake.press(users[1], fake.last_message(group), "✅ Accept")
    board = await fake.wait_for_message(group, where=lambda m: m.photo is not None)
    fake.send_text(users[2], group, "/play")
    await harness.settle()
    challenge = fake.last_message(group)
    forged = iter(range(10**6, 10**6 + FORGED))  # games and challenges that do not exist
    for user in users:  # each within the refusals a user may make at once
        for game_id in itertools.islice(forged, IDS_EACH):
            for message, data in (
                (board, GameButton(game=game_id, version=0, action=GameAction.ROLL).pack()),
                (
                    challenge,
                    ChallengeAction(
                        challenge=game_id, version=0, option=ChallengeOption.ACCEPT
                    ).pack(),
                ),
            ):
                answer = await fake.next_answer_to(fake.tap(user, message, data, check=False))
                # refused: as a button of no message of the bot's, or of nothing that exists
                assert answer.show_alert and (
                    "does not exist" in (answer.text or "")
                    or "does not belong" in (answer.text or "")
                )
    await harness.settle()
    services: Services = built["services"]
    assert (len(services.games._saves.locks), len(services.challenges._locks)) == (0, 0)


async def test_five_invitations_to_bob_send_him_one(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    alice_chat, bob_chat = fake.private_chat(alice), fake.private_chat(bob)
    fake.send_text(bob, bob_chat, "/start")
    await harness.settle()
    since = fake.last_message(bob_chat).message_id
    for _ in range(5):
        fake.send_text(alice, alice_chat, "/play @bob")
    await harness.settle()
    to_bob = [m for m in fake.messages(bob_chat) if m.message_id > since]
    assert len(to_bob) == 1 and "✅ Accept" in [b.text for b in to_bob[0].buttons]
    said = fake.messages(alice_chat)
    refused = [m for m in said if m.content.startswith("You have invited them already")]
    [challenge] = [m for m in said if "✖ Decline" in [b.text for b in m.buttons]]
    assert len(refused) == 4 and refused[0].buttons == []
    # withdrawn, the invitation may be sent again: once more
    fake.press(alice, challenge, "✖ Decline")
    await harness.settle()
    fake.send_text(alice, alice_chat, "/play @bob")
    await harness.settle()
    assert len([m for m in fake.messages(bob_chat) if m.message_id > since]) == 2
