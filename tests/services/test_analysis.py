"""The analyses of finished games on a real SQLite file: refusals, parts and progress, one
analysis per game however many ask, the cache."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

import pytest

from bot.ai.analysis import Review, review
from bot.engine import Game, RecordError, Side, Turn, TurnRecord
from bot.model import StoredGame, User
from bot.services import Services
from bot.services import errors as e
from bot.services.analysis import PART, Analyses, replay
from bot.services.computer import Brain
from bot.storage import Store

from .conftest import World

TURNS = 45


class InProcessBrain(Brain):
    """Reviews in the test's process, each part once ``gate`` is open."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.parts: list[range] = []

    async def review(self, played: Sequence[tuple[Game, Turn]], indices: range) -> list[Review]:
        self.parts.append(indices)
        await self.gate.wait()
        return review(played, indices)


async def _group_game(services: Services, users: list[User], turns: int) -> StoredGame:
    """A game of anna and boris in group -5, ``turns`` turns played (the first step offered,
    each time), still going."""
    service = services.games
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    for _ in range(turns):
        mover = snapshot.stored.player(snapshot.game.turn)
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    assert not snapshot.game.is_over
    return snapshot.stored


async def test_an_analysis_in_parts_shared_and_kept(world: World, store: Store) -> None:
    services, _, users = world
    service = services.games
    brain = InProcessBrain()
    analyses = Analyses(store, brain)
    stored = await _group_game(services, users, TURNS)
    with pytest.raises(e.GameNotOver):
        await analyses.analyse(stored.id, user_id=users[0].id, chat_id=users[0].id)
    with pytest.raises(e.GameNotFound):
        await analyses.analyse(999, user_id=users[0].id, chat_id=users[0].id)
    await service.resign(stored.id, users[1].id)
    total = len(_turn_records(await service.stored(stored.id)))  # with passes, forced turns
    assert total >= TURNS
    with pytest.raises(e.NotAPlayer):  # vera, who did not play, in her private chat
        await analyses.analyse(stored.id, user_id=users[2].id, chat_id=users[2].id)

    reports: list[tuple[str, int, int]] = []

    def reporter(name: str) -> Callable[[int, int], Awaitable[None]]:
        async def progress(done: int, total: int) -> None:
            reports.append((name, done, total))

        return progress

    brain.gate.clear()
    first = asyncio.create_task(
        analyses.analyse(
            stored.id, user_id=users[0].id, chat_id=users[0].id, progress=reporter("anna")
        )
    )
    await asyncio.sleep(0.2)
    assert analyses.running(stored.id)
    with pytest.raises(e.AlreadyAnalysing):  # anna again, in the same chat
        await analyses.analyse(stored.id, user_id=users[0].id, chat_id=users[0].id)
    # vera in the game's group joins it; she hears how far it is at once
    second = asyncio.create_task(
        analyses.analyse(stored.id, user_id=users[2].id, chat_id=-5, progress=reporter("vera"))
    )
    await asyncio.sleep(0.1)
    assert ("vera", 0, total) in reports
    brain.gate.set()
    done = await first
    assert await second is done
    assert not analyses.running(stored.id)

    assert done.turns == total == len(replay(done.stored))
    parts = [range(n, min(n + PART, total)) for n in range(0, total, PART)]
    assert brain.parts == parts and len(parts) >= 3
    for name in ("anna", "vera"):
        assert [r for r in reports if r[0] == name] == [
            (name, n, total) for n in (0, *(p.stop for p in parts))
        ]
    for side in (Side.WHITE, Side.BLACK):
        summary = done.summaries[side]
        assert 0 < summary.turns <= (total + 1) // 2
        assert summary.errors + summary.blunders >= len(summary.worst)
        assert all(r.side is side for r in summary.worst)
    assert done.white.id == users[0].id or done.black.id == users[0].id

    # known now: the same analysis at once, nothing reviewed again, no progress reported
    reports.clear()
    again = await analyses.analyse(
        stored.id, user_id=users[1].id, chat_id=users[1].id, progress=reporter("boris")
    )
    assert again is done and brain.parts == parts and reports == []
    with pytest.raises(e.NotAPlayer):  # known, but still not for strangers elsewhere
        await analyses.analyse(stored.id, user_id=users[2].id, chat_id=users[2].id)


async def test_the_replay_skips_what_moves_no_checker(world: World) -> None:
    services, _, users = world
    service = services.games
    stored = await _group_game(services, users, 4)
    await service.resign(stored.id, users[0].id)
    finished = await service.stored(stored.id)
    assert finished.history[-1].endswith(" resign")
    played = replay(finished)
    assert len(played) == len(_turn_records(finished)) >= 4
    game = played[-1][0].play(played[-1][1])
    assert game.position == finished.game.position.with_turn(game.turn)


def _turn_records(stored: StoredGame) -> list[TurnRecord]:
    found = []
    for line in stored.history:
        try:
            found.append(TurnRecord.from_text(line))
        except RecordError:
            continue
    return found
