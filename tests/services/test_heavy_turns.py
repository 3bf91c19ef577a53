"""Heavy turns on both backends: a crazy gul-bara cascade whose first look searches for seconds
does not hold up the other games' taps, and its turn's plan stays with the game until the turn
ends, however many other games are tapped meanwhile."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.engine import Position, Side, StakeMode, stepwise
from bot.services import GameService, GameSnapshot
from bot.storage import User
from tests.support.cascades import CLIENT, HEAVY_BEFORE, heavy_seed


async def _tap_step(
    service: GameService, snapshot: GameSnapshot, src: int, dst: int
) -> GameSnapshot:
    current = snapshot.turn_input
    assert current is not None
    [index] = [i for i, o in enumerate(current.options) if (o.src, o.dst) == (src, dst)]
    mover = snapshot.stored.player(snapshot.game.turn)
    return await service.choose(snapshot.stored.id, mover, snapshot.stored.version, index)


async def test_a_cascade_being_searched_holds_up_no_other_game_and_keeps_its_plan(
    world: tuple[GameService, object, list[User]],
) -> None:
    service, _clock, (anna, boris, vera) = world
    stepwise._plans.clear()  # searched afresh for each backend
    heavy = await service.start(
        chat_id=-5,
        white_id=anna.id,
        black_id=boris.id,
        variant="crazy_gulbara",
        rule_set="international",
        cube=False,
        move_seconds=60,
        locale="en",
        boards=[(-5, Side.WHITE)],
        stake=0,
        stake_mode=StakeMode.RULES,
        match_id=None,
        dice_client=CLIENT,
        dice_seed=heavy_seed(),
        start=Position.from_text(HEAVY_BEFORE),
    )
    snapshot = await service.snapshot(heavy.id)
    snapshot = await _tap_step(service, snapshot, 4, 2)
    snapshot = await _tap_step(service, snapshot, 2, 1)
    assert snapshot.turn_input is not None and snapshot.turn_input.is_complete
    others = []
    for chat, (a, b) in enumerate(((anna, vera), (boris, vera), (vera, anna)), start=10):
        challenge = await service.challenges.open(
            chat_id=-chat, challenger=a, target=b, locale="en"
        )
        others.append((await service.challenges.accept(challenge.id, b))[1])

    # Confirm: black's forced turn, then white's cascade, searched while it is being shown
    confirm = asyncio.create_task(service.confirm(heavy.id, anna.id, snapshot.stored.version))
    await asyncio.sleep(0)  # the confirm has begun
    answered = 0  # other taps answered before the confirm
    while not confirm.done():
        index = answered % len(others)
        others[index] = await _tap_other(service, others[index])
        answered += not confirm.done()
    # with the search on the event loop, the tap under way when it began was answered after
    # it at best, and the next not before the confirm's end
    assert answered >= 3, answered
    cascade = confirm.result()
    current = cascade.turn_input
    assert current is not None and cascade.game.turn is Side.WHITE
    assert current.moves.values == tuple(v for v in range(1, 7) for _ in range(4))
    assert current.plan.nodes > 20_000  # more than the engine keeps of plans nobody holds
    plan = weakref.ref(current.plan)
    first, version = current.options[0], cascade.stored.version
    del current, cascade, confirm  # only the service holds the plan now

    # taps in other games push the cascade's plan out of the engine's cache; the game's next
    # tap finds the plan searched already, the same one
    for index, other in enumerate(others):
        others[index] = await _tap_other(service, other)
    gc.collect()
    assert plan() is not None
    tapped = await service.choose(heavy.id, anna.id, version, 0)
    assert tapped.turn_input is not None and tapped.turn_input.plan is plan()
    assert tapped.turn_input.played[0] == first


async def _tap_other(service: GameService, snapshot: GameSnapshot) -> GameSnapshot:
    """The mover of another game taps: its first step, or Confirm once the turn is complete."""
    current = snapshot.turn_input
    assert current is not None
    game, mover = snapshot.stored.id, snapshot.stored.player(snapshot.game.turn)
    if current.is_complete:
        return await service.confirm(game, mover, snapshot.stored.version)
    return await service.choose(game, mover, snapshot.stored.version, 0)
