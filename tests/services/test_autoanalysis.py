"""The automatic analysis's queue on real databases: rated games queued as they end (and only
they), the queue surviving a restart with a worker's claim left behind (not lost, not done
twice), two workers of one PostgreSQL database racing for the claims, the backlog's cap."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.ai.analysis import CubeDecision, CubeReview, Review, judge_cube, review
from bot.ai.cubeful import CubeAction
from bot.ai.luck import RollLuck, luck_and_review
from bot.engine import Game, Side, Turn
from bot.i18n import create_i18n
from bot.model import PlayerLuck, StoredGame, Terms, User
from bot.services import GameSnapshot, Services, compose
from bot.services.analysis import replayed
from bot.services.autoanalysis import CLAIM_SECONDS
from bot.services.choices import VARIANTS
from bot.services.computer import Brain
from bot.storage import Store, open_database
from bot.views.board_buttons import keyboard
from bot.views.boards import caption
from bot.views.common import translator
from tests.support.clock import Clock
from tests.support.postgres import PostgresServer

TURNS = 8

_EN = translator(create_i18n(), "en")


class InProcessBrain(Brain):
    """Works the analysis's parts in the test's process (the pool's function, called here),
    counting them."""

    def __init__(self) -> None:
        super().__init__()
        self.parts = 0

    async def luck_and_review(
        self, played: Sequence[tuple[Game, Turn]], indices: range, ply: int
    ) -> tuple[list[RollLuck], list[Review]]:
        self.parts += 1
        return luck_and_review(played, indices, ply)

    async def judge_cube(self, decisions: Sequence[CubeDecision]) -> list[CubeReview]:
        return judge_cube(decisions)


async def _people(services: Services) -> list[User]:
    return [
        await services.users.see(i, username=name, first_name=name.title(), language_code="en")
        for i, name in ((1, "anna"), (2, "boris"))
    ]


async def _finished(
    services: Services, users: list[User], *, variant: str = "short", hints: bool = False
) -> StoredGame:
    """A game of anna and boris in group -5, :data:`TURNS` turns (the first step offered each
    time), then resigned by the side to move: rated (unless with hints)."""
    service = services.games
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="en"
    )
    if challenge.terms.variant != variant:
        challenge = await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "variant", VARIANTS.index(variant)
        )
    if hints:
        challenge = await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "hints"
        )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    for _ in range(TURNS):
        mover = snapshot.stored.player(snapshot.game.turn)
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    snapshot = await service.resign(snapshot.stored.id, snapshot.stored.player(snapshot.game.turn))
    assert snapshot.game.is_over
    return snapshot.stored


async def test_the_queue_survives_a_restart_and_does_each_game_once(tmp_path: Path) -> None:
    path, clock = tmp_path / "nardy.sqlite3", Clock()
    db = await open_database(path)
    store = Store(db)
    services = compose(store, random.Random(3), InProcessBrain(), clock=clock)
    users = await _people(services)
    services.auto_analyses.backlog = 2
    dropped = await _finished(services, users)  # the oldest, dropped when the queue is full
    first = await _finished(services, users)
    assert services.auto_analyses.dropped == 0
    second = await _finished(services, users)
    assert services.auto_analyses.dropped == 1
    await _finished(services, users, hints=True)  # hints on: not rated, not queued
    assert await store.luck.backlog() == 2
    # a worker claims the first game and dies with the process
    dead = await store.luck.claim("dead", clock(), timeout=CLAIM_SECONDS)
    assert dead is not None and dead.game_id == first.id
    await db.close()

    db = await open_database(path)  # the restart
    store = Store(db)
    brain = InProcessBrain()
    services = compose(store, random.Random(4), brain, clock=clock)
    auto = services.auto_analyses
    try:
        done = await auto.work_one()  # the first is still claimed: the second
        assert done is not None and done.game_id == second.id and len(done.figures) == 2
        assert await auto.work_one() is None
        clock.now += CLAIM_SECONDS + 1  # the dead claim runs out: taken over
        done = await auto.work_one()
        assert done is not None and done.game_id == first.id and done.stored is not None
        parts = brain.parts
        assert await auto.work_one() is None and await store.luck.backlog() == 0
        assert await store.luck.of_game(dropped.id) == []
        # the dead worker, had it lived, records nothing: the game is counted once
        assert not await store.luck.finish(dead, done.figures)
        figures = await store.luck.of_game(first.id)
        assert figures == list(done.figures) and brain.parts == parts
        assert [f.side for f in figures] == [Side.WHITE, Side.BLACK]
        assert {f.user_id for f in figures} == {1, 2}
        for one in figures:
            assert one.decisions > 0 and one.rolls > 0 and one.pr >= 0
            assert abs(one.error_rate - 2 * one.pr) < 1e-9
        snapshot = await services.games.snapshot(first.id)
        assert snapshot.luck == done.figures
        trend = await auto.trend(1)
        assert [f.game_id for f in trend] == [first.id, second.id]  # as they ended
    finally:
        await db.close()


async def test_two_workers_race_for_the_claims(postgres: PostgresServer) -> None:
    url = await postgres.new_migrated_database()
    stores = [Store(await open_database(url)) for _ in range(2)]
    try:
        services = compose(stores[0], random.Random(5), InProcessBrain())
        await _people(services)
        ids = []
        for n in range(24):  # games stored, not played: the queue needs only their ids
            started = await services.game_starts.start(
                chat_id=-5,
                white_id=1,
                black_id=2,
                terms=Terms(variant="short", move_seconds=86_400),  # by mail: 24 at once
                locale="en",
                boards=[],
                match_id=None,
            )
            ids.append(started.id)
            await stores[0].luck.enqueue(started.id, float(n), cap=100)

        everyone_once = asyncio.Barrier(3)  # no second claim before each worker's first

        async def worker(store: Store, name: str) -> list[int]:
            got: list[int] = []
            while True:
                job = await store.luck.claim(f"{name}-{len(got)}", 1e9, timeout=60)
                if len(got) == 0:
                    await everyone_once.wait()
                if job is None:
                    return got
                got.append(job.game_id)
                await asyncio.sleep(0)

        a, b, c = await asyncio.gather(
            worker(stores[0], "a"), worker(stores[1], "b"), worker(stores[1], "c")
        )
        assert not set(a) & set(b) and not set(b) & set(c) and not set(a) & set(c)
        assert sorted(a + b + c) == ids
        assert a and b and c  # each took some

        # claimed jobs are never dropped for the cap, whatever it is
        assert await stores[0].luck.enqueue(ids[0], 1e9, cap=10) == 0
        assert await stores[1].luck.backlog() == 24
    finally:
        for store in stores:
            await store.close()


async def _cube_game(services: Services, users: list[User], match: int = 0) -> StoredGame:
    """A rated game of anna and boris with the cube (in a match to ``match``, if any): six
    turns, then the side to move doubles at its next chance and is taken, two more turns,
    and the side to move resigns."""
    challenge = await services.challenges.open(
        chat_id=-5,
        challenger=users[0],
        target=users[1],
        locale="en",
        terms=Terms(variant="short", cube=True, match_length=match),
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    return await _play_with_a_double(services, snapshot)


async def _play_with_a_double(services: Services, snapshot: GameSnapshot) -> StoredGame:
    service = services.games

    async def turn(snapshot: GameSnapshot) -> GameSnapshot:
        stored, game = snapshot.stored, snapshot.game
        mover = stored.player(game.turn)
        if game.dice is None:
            snapshot = await service.roll(stored.id, mover, stored.version)
            if snapshot.game.turn is not game.turn or snapshot.game.is_over:
                return snapshot
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        return await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)

    for _ in range(6):
        snapshot = await turn(snapshot)
    while not snapshot.game.can_double:
        snapshot = await turn(snapshot)
    stored = snapshot.stored
    snapshot = await service.double(stored.id, stored.player(snapshot.game.turn), stored.version)
    stored = snapshot.stored
    snapshot = await service.take(stored.id, stored.player(snapshot.game.to_act), stored.version)
    for _ in range(2):
        snapshot = await turn(snapshot)
    snapshot = await service.resign(snapshot.stored.id, snapshot.stored.player(snapshot.game.turn))
    assert snapshot.game.is_over and snapshot.game.cube_value == 2
    return snapshot.stored


async def _play_and_resign(services: Services, snapshot: GameSnapshot, loser: int) -> StoredGame:
    """Six turns (the first step offered each time), then user ``loser`` resigns."""
    service = services.games
    for _ in range(6):
        mover = snapshot.stored.player(snapshot.game.turn)
        if snapshot.game.dice is None:
            snapshot = await service.roll(snapshot.stored.id, mover, snapshot.stored.version)
            continue
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    snapshot = await service.resign(snapshot.stored.id, loser)
    assert snapshot.game.is_over
    return snapshot.stored


async def test_a_cube_games_figures_count_its_cube_decisions(tmp_path: Path) -> None:
    """PR counts the doubles, takes and close no-doubles with the turns; luck is zero-sum and
    the luck-adjusted results are opposite, kept with the figures."""
    db = await open_database(tmp_path / "nardy.sqlite3")
    try:
        services = compose(Store(db), random.Random(8), InProcessBrain())
        users = await _people(services)
        stored = await _cube_game(services, users)
        assert any(line.endswith("take") for line in stored.history)
        done = await services.auto_analyses.work_one()
        assert done is not None and done.stored is not None
        white, black = done.figures
        played, decisions = replayed(stored)
        reviews = review(played, range(len(played)))
        judged = judge_cube(decisions)
        actions = [(j.side, j.action) for j in judged if j.action is not CubeAction.NO_DOUBLE]
        assert len(actions) == 2  # the double and the take
        for one in (white, black):
            turns = sum(r.side is one.side for r in reviews)
            cube = sum(j.counted for j in judged if j.side is one.side)
            assert cube >= 1 and one.decisions == turns + cube
        assert white.luck == pytest.approx(-black.luck)
        assert white.result is not None and black.result == -white.result
        assert abs(white.result) == stored.game.result.points  # type: ignore[union-attr]
        assert white.adjusted == pytest.approx(-black.adjusted)  # type: ignore[operator]
        assert done.figures == await services.auto_analyses.figures(stored.id)
    finally:
        await db.close()


async def test_a_match_games_board_edited_after_its_next_game_started_keeps_no_next_game(
    tmp_path: Path,
) -> None:
    """The luck line comes to a finished game's board after its analysis, which may be after
    the match's next game has started: that edit shows 📊 and 🎞 only, and no call to start
    the next game (a stale ▶ Next game would answer every tap with a refusal)."""
    db = await open_database(tmp_path / "nardy.sqlite3")
    try:
        services = compose(Store(db), random.Random(9), InProcessBrain())
        users = await _people(services)
        service = services.games
        first = await _cube_game(services, users, match=5)

        def buttons(snapshot: GameSnapshot) -> list[str]:
            return [b.text for row in keyboard(snapshot, None, _EN).inline_keyboard for b in row]

        before = await service.snapshot(first.id)
        assert buttons(before) == ["▶ Next game", "📊 Analysis", "🎞 Replay"]
        assert "Next game: either player taps the button." in caption(before, _EN)
        await service.next_game(first.id, users[0].id)
        done = await services.auto_analyses.work_one()
        assert done is not None and done.game_id == first.id
        after = await service.snapshot(first.id)
        assert after.luck and after.match is not None and after.match.games == 2
        assert buttons(after) == ["📊 Analysis", "🎞 Replay"]
        assert "Next game" not in caption(after, _EN)
    finally:
        await db.close()


async def test_a_finished_matchs_luck_on_its_last_board(tmp_path: Path) -> None:
    """Once a match is over, its last game's snapshot carries each player's luck over the
    match's analysed games: the sums of the games', zero-sum; its caption shows it."""
    db = await open_database(tmp_path / "nardy.sqlite3")
    try:
        services = compose(Store(db), random.Random(9), InProcessBrain())
        users = await _people(services)
        service, auto = services.games, services.auto_analyses
        first = await _cube_game(services, users, match=5)  # a resignation: 2 × 2 points
        snapshot = await service.next_game(first.id, users[0].id)  # the Crawford game
        trailing = first.player(first.game.result.winner.other)  # type: ignore[union-attr]
        last = await _play_and_resign(services, snapshot, trailing)
        assert (await service.snapshot(last.id)).match_luck is None  # nothing analysed yet
        figures: list[PlayerLuck] = []
        for _ in range(2):
            done = await auto.work_one()
            assert done is not None and len(done.figures) == 2
            figures += done.figures
        snapshot = await service.snapshot(last.id)
        assert snapshot.match is not None and snapshot.match.match.is_over
        match = snapshot.match_luck
        assert match is not None and match.games == 2
        for user in users:
            mine = [f for f in figures if f.user_id == user.id]
            assert match.players[user.id].luck == pytest.approx(sum(f.luck for f in mine))
            adjusted = sum(f.adjusted or 0.0 for f in mine)
            assert all(f.adjusted is not None for f in mine)
            assert match.players[user.id].adjusted == pytest.approx(adjusted)
        assert sum(p.luck for p in match.players.values()) == pytest.approx(0.0, abs=1e-9)
        text = caption(snapshot, _EN)
        assert "wins the match" in text and "🍀 match luck, 2 games analysed: ⚪ " in text
        assert "luck-adjusted result" in text
    finally:
        await db.close()
