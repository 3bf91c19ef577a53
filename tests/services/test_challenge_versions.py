"""You get what you accepted: whatever the challenger changes, and in whatever order, an Accept
drawn for some version of a challenge starts a game on exactly the terms that version showed,
or is refused (naming both versions) and changes nothing."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.model import Challenge, ChallengeStatus
from bot.services import compose
from bot.services import errors as e
from bot.services.snapshots import GameSnapshot
from bot.storage import Store, open_database

OPTIONS = ("variant", "rules", "time", "match", "cube", "dice", "stake", "stake_mode", "hints")


def _offered(challenge: Challenge) -> tuple[object, ...]:
    """The terms a challenge offers, as a game started from it must have them."""
    return (
        challenge.terms.variant,
        challenge.terms.rule_set,
        challenge.move_seconds,
        challenge.terms.match_length,
        challenge.terms.cube,
        challenge.terms.stake,
        challenge.terms.stake_mode,
        challenge.terms.dice_mode,
        challenge.terms.hints,
    )


async def _played(store: Store, snapshot: GameSnapshot) -> tuple[object, ...]:
    """The terms a game is played on."""
    stored = snapshot.stored
    match = await store.matches.get(stored.match_id) if stored.match_id else None
    return (
        stored.game.variant,
        stored.game.rules.name,
        stored.move_seconds,
        match.match.length if match else 0,
        match.cube if match else stored.game.cube is not None,
        stored.stake,
        stored.stake_mode,
        stored.game.dice_mode,
        stored.hints,
    )


async def _scenario(path: Path, changes: list[str], drawn_at: int) -> None:
    db = await open_database(path)
    store = Store(db)
    try:
        services = compose(store, random.Random(5), move_seconds=60)
        anna, boris = [
            await services.users.see(i, username=name, first_name=name, language_code="en")
            for i, name in ((1, "anna"), (2, "boris"))
        ]
        challenge = await services.challenges.open(
            chat_id=-5, challenger=anna, target=boris, locale="en"
        )
        versions = [challenge]
        for option in changes:
            try:
                challenge = await services.challenges.change_option(
                    challenge.id, anna.id, challenge.version, option
                )
            except e.StaleAction:
                continue  # not offered for these terms (the cube of long nardy...)
            versions.append(challenge)
        drawn = versions[drawn_at % len(versions)]
        try:
            closed, snapshot = await services.lobby.accept(challenge.id, boris, drawn.version)
        except e.TermsChanged as refused:
            assert _offered(drawn) != _offered(challenge)
            assert _offered(refused.drawn) == _offered(drawn)
            assert refused.current == challenge
            assert await services.challenges.get(challenge.id) == challenge  # nothing changed
            return
        assert closed.status is ChallengeStatus.ACCEPTED
        assert await _played(store, snapshot) == _offered(drawn) == _offered(challenge)
    finally:
        await db.close()


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    changes=st.lists(st.sampled_from(OPTIONS), max_size=10),
    drawn_at=st.integers(min_value=0, max_value=10),
)
def test_an_accept_gets_the_terms_its_button_showed_or_nothing(
    changes: list[str], drawn_at: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_scenario(Path(folder) / "challenges.sqlite3", changes, drawn_at))
