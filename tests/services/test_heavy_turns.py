"""Heavy turns on both backends: a crazy gul-bara cascade whose first look searches for seconds
(in the planner's process, as the bot runs) does not hold up the other games' taps, and its
turn's plan stays with the game until the turn ends, however many other games are tapped
meanwhile."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import weakref
from collections.abc import Iterator

import pytest

from bot.engine import Dice, Position, TurnInput, stepwise
from bot.model import User
from bot.services import Games, GameSnapshot, Services, Terms
from bot.services.planner import Planner, RemotePlan
from tests.support.cascades import start_heavy_game

from .conftest import World


async def _tap_step(service: Games, snapshot: GameSnapshot, src: int, dst: int) -> GameSnapshot:
    current = snapshot.turn_input
    assert current is not None
    [index] = [i for i, o in enumerate(current.options) if (o.src, o.dst) == (src, dst)]
    mover = snapshot.stored.player(snapshot.game.turn)
    return await service.choose(snapshot.stored.id, mover, snapshot.stored.version, index)


@pytest.fixture
def planner() -> Iterator[Planner]:
    """Heavy turns searched in a process of their own, as the bot's composition root sets up."""
    stepwise._plans.clear()  # searched afresh for each backend
    found = Planner()
    stepwise.set_planner(found.plan)
    yield found
    stepwise.set_planner(None)
    found.close()


async def _ready(services: Services, users: list[User]) -> tuple[GameSnapshot, list[GameSnapshot]]:
    """The heavy game with white's turn tapped, to be confirmed, and three other games."""
    service = services.games
    anna, boris, vera = users
    heavy = await start_heavy_game(
        services.game_starts, chat_id=-5, white_id=anna.id, black_id=boris.id, move_seconds=60
    )
    snapshot = await service.snapshot(heavy.id)
    snapshot = await _tap_step(service, snapshot, 4, 2)
    snapshot = await _tap_step(service, snapshot, 2, 1)
    assert snapshot.turn_input is not None and snapshot.turn_input.is_complete
    others = []
    for chat, (a, b) in enumerate(((anna, vera), (boris, vera), (vera, anna)), start=10):
        challenge = await services.challenges.open(  # by mail: several at once
            chat_id=-chat, challenger=a, target=b, locale="en", terms=Terms(move_seconds=86_400)
        )
        others.append((await services.lobby.accept(challenge.id, b))[1])
    return snapshot, others


def _is_the_cascade(snapshot: GameSnapshot) -> bool:
    current = snapshot.turn_input
    four_of_each = tuple(v for v in range(1, 7) for _ in range(4))
    return current is not None and current.moves.values == four_of_each


async def test_a_cascade_being_searched_holds_up_no_other_game(
    world: World, planner: Planner
) -> None:
    services, _clock, users = world
    service = services.games
    snapshot, others = await _ready(services, users)
    stored = snapshot.stored
    # Confirm: black's forced turn, then white's cascade, searched while it is being shown
    confirm = asyncio.create_task(service.confirm(stored.id, users[0].id, stored.version))
    await asyncio.sleep(0)  # the confirm has begun
    answered = 0  # other taps answered before the confirm (a dozen: the games go on)
    while not confirm.done() and answered < 12:
        index = answered % len(others)
        others[index] = await _tap_other(service, others[index])
        answered += not confirm.done()
    # with the search on the event loop, the tap under way when it began was answered after
    # it at best, and the next not before the confirm's end
    assert answered >= 3, answered
    cascade = await confirm
    assert _is_the_cascade(cascade) and cascade.turn_input is not None
    # searched in the planner's process, which keeps its plan; this one keeps answers only
    plan = cascade.turn_input.plan
    assert plan.nodes == 0
    [key] = [key for key in planner._plans if key[0] == cascade.game.position]
    assert planner.ask(key, "nodes", ()) > 20_000
    # kept there while other games are tapped, dropped when the turn ends
    for index, other in enumerate(others):
        others[index] = await _tap_other(service, other)
    assert planner.ask(key, "nodes", ()) > 20_000
    await service.resign(cascade.stored.id, users[1].id)
    assert planner.ask(key, "nodes", ()) == 0  # a new plan there, nothing searched yet


async def test_a_tapped_games_plan_is_kept_until_its_turn_ends(
    world: World,
) -> None:
    # without a planner the turn is searched on a thread of this process, and the service
    # holds its plan while the engine's cache keeps only 20,000 nodes of plans nobody holds
    services, _clock, users = world
    service = services.games
    stepwise._plans.clear()
    snapshot, others = await _ready(services, users)
    stored = snapshot.stored
    cascade = await service.confirm(stored.id, users[0].id, stored.version)
    assert _is_the_cascade(cascade) and cascade.turn_input is not None
    assert cascade.turn_input.plan.nodes > 20_000
    plan = weakref.ref(cascade.turn_input.plan)
    first, version = cascade.turn_input.options[0], cascade.stored.version
    del cascade  # only the service holds the plan now
    # taps in other games push the cascade's plan out of the engine's cache; the game's next
    # tap finds the plan searched already, the same one
    for index, other in enumerate(others):
        others[index] = await _tap_other(service, other)
    gc.collect()
    assert plan() is not None
    tapped = await service.choose(stored.id, users[0].id, version, 0)
    assert tapped.turn_input is not None and tapped.turn_input.plan is plan()
    assert tapped.turn_input.played[0] == first


async def _tap_other(service: Games, snapshot: GameSnapshot) -> GameSnapshot:
    """The mover of another game taps: its first step, or Confirm once the turn is complete."""
    current = snapshot.turn_input
    assert current is not None
    game, mover = snapshot.stored.id, snapshot.stored.player(snapshot.game.turn)
    if current.is_complete:
        return await service.confirm(game, mover, snapshot.stored.version)
    return await service.choose(game, mover, snapshot.stored.version, 0)


def test_a_planners_answers_are_the_engines(planner: Planner) -> None:
    # a cascade of twelve moves, tapped step by step with the planner's process answering
    # and then with this process's own search: the same options, finishes and turn
    position = Position.from_text(
        "crazy_gulbara b / 24:7 15:1 11:1 5:3 1:3 / 24:6 18:1 16:1 14:2 8:1 5:3 1:1"
    )

    def tapped() -> list[tuple[object, ...]]:
        current = TurnInput.begin(position, Dice(1, 1), first_turn=False, rules=None)
        seen: list[tuple[object, ...]] = []
        while not current.is_complete:
            seen.append((current.options, current.finishes(16), current.current))
            current = current.play(current.options[-1]).with_forced()
        seen.append((str(current.turn()), current.turn().position))
        return seen

    remote = tapped()
    assert isinstance(TurnInput.begin(position, Dice(1, 1), first_turn=False, rules=None).plan,
                      RemotePlan)  # fmt: skip
    stepwise.set_planner(None)
    stepwise._plans.clear()
    assert tapped() == remote
    assert len(remote) > 2


def test_a_cascade_is_tapped_on_after_the_planners_process_dies(
    planner: Planner, caplog: pytest.LogCaptureFixture
) -> None:
    # the planner's process killed twice in the middle of a turn: each next question is asked
    # again of a new process, which searches the turn anew; the turn is the engine's own
    position = Position.from_text(
        "crazy_gulbara b / 24:7 15:1 11:1 5:3 1:3 / 24:6 18:1 16:1 14:2 8:1 5:3 1:1"
    )
    caplog.set_level(logging.WARNING, "bot.services.processes")

    def tapped(kill_at: tuple[int, ...]) -> str:
        current = TurnInput.begin(position, Dice(1, 1), first_turn=False, rules=None)
        taps = 0
        while not current.is_complete:
            if taps in kill_at:
                [pid] = planner.pool.pids
                os.kill(pid, signal.SIGKILL)
            current = current.play(current.options[-1]).with_forced()
            taps += 1
        assert taps > max(kill_at, default=0)
        return str(current.turn())

    remote = tapped((1, 3))
    assert planner.pool.restarts == 2
    assert sum("the planner worker process died" in r.getMessage() for r in caplog.records) == 2
    stepwise.set_planner(None)
    stepwise._plans.clear()
    assert tapped(()) == remote
