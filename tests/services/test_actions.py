"""The one vocabulary of game actions: what :func:`allowed` offers a reader is exactly what
:meth:`GameActions.perform` does for them, whatever the state (a random walk through games
with the cube, matches and a struck die, tried for both players and a stranger at every step);
and 💡's allowance and cache."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import DiceMode
from bot.model import User
from bot.services import Services, Terms
from bot.services import errors as e
from bot.services.actions import (
    GameAction,
    GameActions,
    Hinted,
    Moved,
    RematchOffered,
    Request,
    allowed,
    strikes,
)
from bot.services.snapshots import GameSnapshot

TERMS = (
    Terms(variant="short", cube=True, match_length=3, hints=True),
    Terms(variant="short", dice_mode=DiceMode.ANTI_THREE),
    Terms(variant="long"),
)


async def _game(services: Services, users: list[User], terms: Terms) -> GameSnapshot:
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="en", terms=terms
    )
    return (await services.lobby.accept(challenge.id, users[1]))[1]


def _request(snapshot: GameSnapshot, user_id: int, action: GameAction) -> Request:
    """A request for ``action`` as a client would send it for the state it shows."""
    stored = snapshot.stored
    arg, steps = 0, ()
    if action is GameAction.STRIKE:
        arg = (strikes(snapshot) or (6,))[0]
    if action is GameAction.TURN and snapshot.turn_input is not None:
        current = snapshot.turn_input
        while not current.is_complete and current.options:
            current = current.play(current.options[0]).with_forced()
        steps = tuple((p.src, p.dst, p.die) for p in current.played)
    return Request(stored.id, user_id, action, stored.version, arg, steps)


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), terms=st.sampled_from(TERMS))
async def test_what_is_allowed_is_exactly_what_is_done(
    world: tuple[Services, object, list[User]], seed: int, terms: Terms
) -> None:
    services, _clock, _users = world
    actions = GameActions(services.game_service, services.lobby, hint_allowance=(100.0, 100.0))
    rng = random.Random(seed)
    users = [  # new players each example: a rematch left open would refuse the next challenge
        await services.users.see(
            rng.randrange(10**6, 10**9), username=None, first_name=name, language_code="en"
        )
        for name in ("Anna", "Boris", "Vera")
    ]
    snapshot = await _game(services, users, terms)
    game_id = snapshot.stored.id
    for _ in range(30):
        stored = snapshot.stored
        readers = {
            users[0].id: stored.side_of(users[0].id),
            users[1].id: stored.side_of(users[1].id),
        }
        readers[users[2].id] = None  # a stranger may do nothing
        chosen: tuple[int, GameAction] | None = None
        for user_id, side in readers.items():
            can = allowed(snapshot, side)
            for action in set(GameAction) - can:
                with pytest.raises(e.GameError):
                    await actions.perform(_request(snapshot, user_id, action))
                current = await services.game_service.snapshot(snapshot.stored.id)
                assert current.stored.version == stored.version, (action, side)
            playing = sorted(can - {GameAction.HINT}, key=lambda a: a.value)
            if playing and (chosen is None or rng.random() < 0.5):
                resign_rarely = [a for a in playing if a is not GameAction.RESIGN] or playing
                chosen = (user_id, rng.choice(resign_rarely if rng.random() < 0.95 else playing))
        if chosen is None:
            break  # over, nothing more to play
        user_id, action = chosen
        outcome = await actions.perform(_request(snapshot, user_id, action))
        if isinstance(outcome, RematchOffered):
            break
        assert isinstance(outcome, Moved)
        snapshot = outcome.snapshot
        if snapshot.stored.id != game_id:  # a match's next game
            game_id = snapshot.stored.id
        while snapshot.stored.computer_to_act:  # never: people only
            raise AssertionError("no computer here")


async def test_a_hint_is_kept_for_its_version_and_asked_within_an_allowance(
    world: tuple[Services, object, list[User]],
) -> None:
    """A second 💡 on the same version (another tab, a repeated tap) costs no allowance; a
    new version's hint beyond the allowance is refused (TooSoon) and changes nothing; a refused
    request (not a player) takes nothing from anyone's allowance."""
    services, _clock, users = world
    actions = GameActions(services.game_service, services.lobby, hint_allowance=(1.0, 1 / 3600))
    snapshot = await _game(services, users, Terms(variant="short", hints=True))
    while GameAction.HINT not in allowed(snapshot, snapshot.game.turn):
        mover = snapshot.stored.player(snapshot.game.turn)
        snapshot = (await actions.perform(_request(snapshot, mover, GameAction.TURN))).snapshot  # type: ignore[union-attr]
    mover = snapshot.stored.player(snapshot.game.turn)
    with pytest.raises(e.NotAPlayer):
        await actions.perform(_request(snapshot, users[2].id, GameAction.HINT))
    first = await actions.perform(_request(snapshot, mover, GameAction.HINT))
    again = await actions.perform(_request(snapshot, mover, GameAction.HINT))
    assert isinstance(first, Hinted) and isinstance(again, Hinted)
    assert again.hint is first.hint  # kept, not asked for again
    # the next version: beyond the allowance
    moved = await actions.perform(_request(snapshot, mover, GameAction.STEP))
    assert isinstance(moved, Moved)
    with pytest.raises(e.TooSoon):
        await actions.perform(_request(moved.snapshot, mover, GameAction.HINT))
    current = await services.game_service.snapshot(snapshot.stored.id)
    assert current.stored.version == moved.snapshot.stored.version
