"""At most one pending invitation from a challenger to a person: a second challenge to them is
refused (nothing stored) until the first is accepted, declined, withdrawn or runs out; to
anyone and to the computer as often as one likes; several at once: exactly one is made."""

from __future__ import annotations

import asyncio

import pytest

from bot.model import ChallengeStatus
from bot.services import errors as e
from bot.services.challenges import CHALLENGE_SECONDS
from bot.storage import Store

from .conftest import World

GROUP = -5


async def _count(store: Store) -> int:
    row = await store.database.fetch_one("SELECT COUNT(*) FROM challenges")
    assert row is not None
    return int(row[0])


async def test_a_second_invitation_waits_for_the_first_to_close(world: World, store: Store) -> None:
    services, clock, (anna, boris, vera) = world
    first = await services.challenges.open(
        chat_id=GROUP, challenger=anna, target=boris, locale="en"
    )
    for chat_id in (GROUP, -6, anna.id):  # here, in another group, privately
        with pytest.raises(e.InvitationPending):
            await services.challenges.open(
                chat_id=chat_id, challenger=anna, target=boris, locale="en"
            )
    with pytest.raises(e.InvitationPending):  # nor by the username while Boris's is open
        await services.challenges.private_invitation(
            challenger=anna, target_username="@Boris", locale="en"
        )
    assert await _count(store) == 1
    # others are not held up: Boris inviting Anna, Anna inviting Vera, anyone, the computer
    await services.challenges.open(chat_id=GROUP, challenger=boris, target=anna, locale="en")
    await services.challenges.open(chat_id=GROUP, challenger=anna, target=vera, locale="en")
    for _ in range(2):
        await services.challenges.open(chat_id=GROUP, challenger=anna, locale="en")
        await services.challenges.against_computer(
            chat_id=GROUP, challenger=anna, level=1, locale="en"
        )
    assert await _count(store) == 7
    # withdrawn: Anna may invite Boris again; that one runs out: again
    await services.challenges.decline(first.id, anna.id)
    await services.challenges.open(chat_id=GROUP, challenger=anna, target=boris, locale="en")
    clock.now += CHALLENGE_SECONDS
    await services.challenges.open(chat_id=GROUP, challenger=anna, target=boris, locale="en")
    assert await _count(store) == 9


async def test_an_invitation_to_a_username_not_seen_yet_counts_once_they_are(
    world: World, store: Store
) -> None:
    services, _, (anna, *_) = world
    await services.challenges.open(
        chat_id=GROUP, challenger=anna, target_username="@Dmitri", locale="en"
    )
    with pytest.raises(e.InvitationPending):
        await services.challenges.open(
            chat_id=GROUP, challenger=anna, target_username="dmitri", locale="en"
        )
    dmitri = await services.users.see(4, username="dmitri", first_name="Dmitri", language_code="ru")
    with pytest.raises(e.InvitationPending):
        await services.challenges.open(chat_id=GROUP, challenger=anna, target=dmitri, locale="en")
    assert await _count(store) == 1


async def test_five_invitations_at_once_make_one(world: World, store: Store) -> None:
    services, _, (anna, boris, _) = world
    made = await asyncio.gather(
        *(
            services.challenges.private_invitation(
                challenger=anna, target_username="boris", locale="en"
            )
            for _ in range(5)
        ),
        return_exceptions=True,
    )
    refused = [r for r in made if isinstance(r, e.InvitationPending)]
    assert (len(refused), await _count(store)) == (4, 1)


async def test_rematch_tapped_twice_makes_one(world: World, store: Store) -> None:
    services, _, (anna, boris, _) = world
    service = services.games
    challenge = await services.challenges.open(
        chat_id=GROUP, challenger=anna, target=boris, locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, boris)
    await service.resign(snapshot.stored.id, boris.id)
    game_id = snapshot.stored.id
    await services.lobby.rematch(game_id, boris, chat_id=GROUP, locale="en")
    with pytest.raises(e.InvitationPending):
        await services.lobby.rematch(game_id, boris, chat_id=GROUP, locale="en")
    await services.lobby.rematch(game_id, anna, chat_id=GROUP, locale="en")  # the other way
    assert await _count(store) == 3


async def test_only_its_challenger_closes_an_open_challenge(
    world: World,
) -> None:
    """An open challenge names nobody: a member's ✖ Decline is refused (it used to close it as
    "? declined the challenge"), the challenger's withdraws it."""
    services, _clock, (anna, boris, _vera) = world
    challenge = await services.challenges.open(chat_id=-5, challenger=anna, locale="en")
    with pytest.raises(e.NotForYou):
        await services.challenges.decline(challenge.id, boris.id)
    assert (await services.challenges.get(challenge.id)).is_open
    withdrawn = await services.challenges.decline(challenge.id, anna.id)
    assert withdrawn.status is ChallengeStatus.CANCELLED
