"""One game at one sitting (issue 37), on both backends with two workers' services: whatever
path starts a game (a challenge accepted, an inline invitation joined, a rematch, ``/find``,
the computer three ways, a position played on, a tournament's round, a match's next game),
a player never has two running clocks at one sitting; correspondence games go on beside. A
refusal names the running game; a tournament board whose player is busy waits, starts when
both are free, and is forfeited by whoever is still busy when its wait runs out."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Position
from bot.i18n import create_i18n
from bot.model import Terms, TournamentFormat, User
from bot.services import GameError, GameSnapshot, Services, compose
from bot.services import errors as e
from bot.services.deadlines import REMIND_FROM_SECONDS
from bot.services.inline import seal
from bot.services.tournament_values import TournamentOverview
from bot.services.tournaments import WAIT_SECONDS
from bot.storage import Store, open_database
from bot.views.common import translator
from bot.views.tournaments import pinned_caption
from tests.conftest import BACKENDS
from tests.support.clock import Clock
from tests.support.postgres import PostgresServer

from .conftest import World
from .staked import fresh_databases

GROUP: Final = -100
PLAYERS: Final = (1, 2, 3, 4)
SITTING = Terms(move_seconds=60)
BY_MAIL = Terms(move_seconds=86_400)
FROM_HERE = Position.from_text("short w / 1:2 off:13 / 6:2 off:13")


async def _people(services: Services) -> list[User]:
    return [
        await services.users.see(
            i, username=f"p{i}", first_name=f"P{i}", language_code="en", private_chat=True
        )
        for i in PLAYERS
    ]


_EN = translator(create_i18n(), "en")


def _caption(overview: TournamentOverview) -> str:
    return pinned_caption(overview, {}, _EN)


async def _sitting_games(services: Services, player: int) -> list[int]:
    return [
        g.id
        for g in await services.games.active_games(player)
        if g.move_seconds < REMIND_FROM_SECONDS
    ]


# --- the refusals, one by one ----------------------------------------------------------------


async def test_every_path_is_refused_naming_the_running_game(
    world: World,
) -> None:
    services, _clock, (anna, boris, vera) = world
    lobby, challenges = services.lobby, services.challenges
    first = await challenges.open(chat_id=-5, challenger=anna, target=boris, locale="en")
    _, running = await lobby.accept(first.id, boris)
    game = running.stored.id
    # a challenge accepted by a player who plays: about their own game
    to_anna = await challenges.open(chat_id=-5, challenger=vera, target=anna, locale="en")
    with pytest.raises(e.AlreadyPlaying) as own:
        await lobby.accept(to_anna.id, anna)
    assert own.value.params == {"game": game}
    # a challenge of a player who plays, accepted by another: naming them and their game
    from_boris = await challenges.open(chat_id=-5, challenger=boris, locale="en")
    with pytest.raises(e.OpponentPlaying) as other:
        await lobby.accept(from_boris.id, vera)
    assert other.value.params == {"name": "@boris", "game": game}
    assert (await challenges.get(from_boris.id)).is_open  # left open, nothing started
    # an inline invitation joined
    invitation = await services.inline_games.invite(
        inline_message_id="AAA1", challenger=anna, target_username=None, locale="en", terms=Terms()
    )
    with pytest.raises(e.OpponentPlaying):
        await lobby.join("AAA1", anna.id, vera, chat_instance="ci", shown_seal=seal(invitation))
    # the computer: a challenge started, the pool's offer after a wait, from a position
    for terms in (Terms(), Terms(start=FROM_HERE)):
        computer = await challenges.against_computer(
            chat_id=anna.id, challenger=anna, level=3, locale="en", terms=terms
        )
        with pytest.raises(e.AlreadyPlaying):
            await lobby.accept(computer.id, anna)
    with pytest.raises(e.AlreadyPlaying):
        await lobby.play_computer(anna, 0, Terms(), locale="en")
    with pytest.raises(e.AlreadyPlaying):
        await lobby.find(anna, 0, Terms(), locale="en")
    assert await _sitting_games(services, anna.id) == [game]
    assert await _sitting_games(services, vera.id) == []
    # a game by correspondence goes on beside it
    by_mail = await challenges.open(
        chat_id=-5, challenger=anna, target=vera, locale="en", terms=BY_MAIL
    )
    await lobby.accept(by_mail.id, vera)
    # once it is over, a rematch is accepted as any challenge
    await services.games.resign(game, boris.id)
    rematch = await lobby.rematch(game, anna, chat_id=-5, locale="en")
    _, again = await lobby.accept(rematch.id, boris)
    assert await _sitting_games(services, anna.id) == [again.stored.id]


async def test_a_tournament_board_waits_for_a_busy_player_then_starts_or_is_forfeited(
    world: World,
) -> None:
    services, clock, _users = world
    anna, boris, vera, dan = await _people(services)  # with private chats
    tournaments, lobby = services.tournaments, services.lobby
    busy = await services.challenges.open(chat_id=-5, challenger=anna, target=dan, locale="en")
    _, running = await lobby.accept(busy.id, dan)

    async def knockout(players: list[User]) -> int:
        made = await tournaments.create(
            GROUP,
            anna,
            format=TournamentFormat.KNOCKOUT,
            terms=SITTING,
            locale="en",
            is_admin=True,
        )
        for player in players:
            await tournaments.join(made.id, player)
        return made.id

    # Anna plays Dan: her board against Boris waits, and Boris may start nothing else
    first = await knockout([anna, boris])
    progress = await tournaments.start(first, anna.id)
    assert progress.started == ()
    [waiting] = progress.waiting
    assert [b.user_id for b in waiting.busy] == [anna.id]
    assert waiting.board.waits_until == clock.now + WAIT_SECONDS
    with pytest.raises(e.TournamentGameWaits):
        await lobby.find(boris, 0, Terms(), locale="en")
    to_boris = await services.challenges.open(
        chat_id=-5, challenger=vera, target=boris, locale="en"
    )
    with pytest.raises(e.TournamentGameWaits):
        await lobby.accept(to_boris.id, boris)
    from_boris = await services.challenges.open(chat_id=-5, challenger=boris, locale="en")
    with pytest.raises(e.OpponentTournamentGameWaits) as refused:
        await lobby.accept(from_boris.id, vera)
    assert refused.value.params == {"name": "@p2", "tournament": first}
    assert await tournaments.due() == []  # still busy: it waits on
    # her game ends: the board's game starts at the next look, its clock with it
    await services.games.resign(running.stored.id, dan.id)
    [started] = await tournaments.due()
    [snapshot] = started.started
    assert {snapshot.stored.white_id, snapshot.stored.black_id} == {anna.id, boris.id}
    assert snapshot.stored.deadline is not None
    # Vera plays Dan; a second tournament's board waits for both, still busy at its end
    game = await services.challenges.open(chat_id=-5, challenger=vera, target=dan, locale="en")
    _, beside = await lobby.accept(game.id, dan)
    second = await knockout([vera, boris])
    [waiting] = (await tournaments.start(second, anna.id)).waiting
    assert {b.user_id for b in waiting.busy} == {boris.id, vera.id}
    assert "waits for a game to end" in _caption(await tournaments.overview(second))
    clock.now += WAIT_SECONDS
    [forfeited] = [p for p in await tournaments.due() if p.forfeited]
    [forfeit] = forfeited.forfeited
    assert set(forfeit.losers) == {boris.id, vera.id}  # a double forfeit
    [board] = (await tournaments.overview(second)).pairings
    assert board.decided and board.winner_id is None
    assert await _sitting_games(services, boris.id) == [snapshot.stored.id]
    assert await _sitting_games(services, vera.id) == [beside.stored.id]


async def test_two_workers_starting_two_games_of_one_player_start_one(
    postgres: PostgresServer,
) -> None:
    """The review's case: a challenge accepted on one worker while the other pairs the same
    player by ``/find``, and a second challenge accepted there at the same moment."""
    url = await postgres.new_migrated_database()
    clock = Clock()
    stores = [Store(await open_database(url)) for _ in range(2)]
    try:
        one, two = (compose(s, random.Random(n), clock=clock) for n, s in enumerate(stores))
        anna, boris, vera, dan = await _people(one)
        for _round in range(3):
            assert await one.lobby.find(boris, 0, SITTING, locale="en") is None
            challenges = [
                await one.challenges.open(
                    chat_id=GROUP, challenger=p, target=anna, locale="en", terms=SITTING
                )
                for p in (vera, dan)
            ]
            tried = await asyncio.gather(
                one.lobby.accept(challenges[0].id, anna),
                two.lobby.find(anna, 0, SITTING, locale="en"),
                two.lobby.accept(challenges[1].id, anna),
                return_exceptions=True,
            )
            assert all(not isinstance(t, Exception) or isinstance(t, GameError) for t in tried)
            [game] = await _sitting_games(two, anna.id)  # one started, the others refused
            assert sum(not isinstance(t, Exception) for t in tried) <= 2  # a wait, a game
            await two.games.resign(game, anna.id)
            for player in (anna, boris):  # whoever still waits stops
                if await one.pool.seeker(player.id) is not None:
                    await one.lobby.cancel_seeking(player.id)
            for made in challenges:
                if (await one.challenges.get(made.id)).is_open:
                    await one.challenges.decline(made.id, anna.id)
    finally:
        for store in stores:
            await store.close()


# --- the property: random paths, two workers, never two clocks -------------------------------


@dataclass
class _World:
    workers: list[Services]
    clock: Clock
    users: list[User]
    games: list[int] = field(default_factory=list)
    inline: int = 0


Step = tuple[object, ...]

_player = st.integers(0, len(PLAYERS) - 1)
_worker = st.integers(0, 1)
_steps: st.SearchStrategy[Step] = st.one_of(
    st.tuples(st.just("challenge"), _worker, _player, _player, st.sampled_from([0, 3, -1])),
    st.tuples(st.just("inline"), _worker, _player, _player),
    st.tuples(st.just("rematch"), _worker, st.integers(0, 20)),
    st.tuples(st.just("find"), _worker, _player),
    st.tuples(st.just("computer"), _worker, _player, st.integers(0, 2)),
    st.tuples(st.just("tournament"), _worker, st.sets(_player, min_size=2, max_size=4)),
    st.tuples(st.just("next"), _worker, st.integers(0, 20)),
    st.tuples(st.just("resign"), _worker, st.integers(0, 20)),
    st.tuples(st.just("tick"), _worker, st.sampled_from([1, 600, WAIT_SECONDS])),
)
_batches = st.lists(st.lists(_steps, min_size=1, max_size=2), min_size=3, max_size=10)
"""Batches of one or two steps: two steps of a batch run at once (on their workers)."""


def _pick(items: list[int], index: object) -> int | None:
    assert isinstance(index, int)
    return items[index % len(items)] if items else None


async def _step(world: _World, step: Step) -> None:
    kind, worker_no, *args = step
    assert isinstance(worker_no, int)
    services = world.workers[worker_no]
    lobby, users, games = services.lobby, world.users, services.games

    def user(index: object) -> User:
        assert isinstance(index, int)
        return users[index]

    async def started(starting: Awaitable[GameSnapshot | tuple[object, GameSnapshot]]) -> None:
        snapshot = await starting
        if isinstance(snapshot, tuple):
            snapshot = snapshot[1]
        world.games.append(snapshot.stored.id)

    if kind == "challenge":
        a, b, length = args
        assert isinstance(length, int)
        terms = BY_MAIL if length == -1 else Terms(move_seconds=60, match_length=length)
        if a == b:
            return
        challenge = await services.challenges.open(
            chat_id=GROUP, challenger=user(a), target=user(b), locale="en", terms=terms
        )
        await started(lobby.accept(challenge.id, user(b)))
    elif kind == "inline":
        a, b = args
        world.inline += 1
        message = f"INL{world.inline}"
        invitation = await services.inline_games.invite(
            inline_message_id=message,
            challenger=user(a),
            target_username=None,
            locale="en",
            terms=SITTING,
        )
        join = lobby.join(
            message, user(a).id, user(b), chat_instance="c", shown_seal=seal(invitation)
        )
        await started(join)
    elif kind == "rematch":
        game_id = _pick(world.games, args[0])
        if game_id is not None:
            stored = await games.stored(game_id)
            white = next((u for u in users if u.id == stored.white_id), None)
            black = next((u for u in users if u.id == stored.black_id), None)
            if stored.game.is_over and white is not None and black is not None:
                challenge = await lobby.rematch(game_id, white, chat_id=GROUP, locale="en")
                await started(lobby.accept(challenge.id, black))
    elif kind == "find":
        found = await lobby.find(user(args[0]), 0, SITTING, locale="en")
        if found is not None:
            world.games.append(found.snapshot.stored.id)
    elif kind == "computer":
        who, how = args
        if how == 2:
            await started(lobby.play_computer(user(who), 0, SITTING, locale="en"))
            return
        terms = SITTING if how == 0 else Terms(move_seconds=60, start=FROM_HERE)
        challenge = await services.challenges.against_computer(
            chat_id=user(who).id, challenger=user(who), level=1, locale="en", terms=terms
        )
        await started(lobby.accept(challenge.id, user(who)))
    elif kind == "tournament":
        [players] = args
        assert isinstance(players, set)
        made = await services.tournaments.create(
            GROUP,
            users[0],
            format=TournamentFormat.KNOCKOUT,
            terms=SITTING,
            locale="en",
            is_admin=True,
        )
        for index in sorted(players):
            await services.tournaments.join(made.id, user(index))
        progress = await services.tournaments.start(made.id, users[0].id)
        world.games += [s.stored.id for s in progress.started]
    elif kind == "next":
        game_id = _pick(world.games, args[0])
        if game_id is not None:
            stored = await games.stored(game_id)
            await started(games.next_game(game_id, stored.white_id))
    elif kind == "resign":
        running = [g for g in world.games if not (await games.stored(g)).game.is_over]
        game_id = _pick(running, args[0])
        if game_id is not None:
            stored = await games.stored(game_id)
            person = stored.white_id if stored.white_id > 0 else stored.black_id
            await games.resign(game_id, person)
    else:
        assert isinstance(args[0], int)
        world.clock.now += args[0]
        for progress in await services.tournaments.due():
            world.games += [s.stored.id for s in progress.started]


async def _scenario(database: Path | str, batches: list[list[Step]]) -> None:
    stores = [Store(await open_database(database))]
    if not isinstance(database, Path):  # PostgreSQL: a second worker, its own connections
        stores.append(Store(await open_database(database)))
    clock = Clock()
    try:
        workers = [
            compose(stores[n % len(stores)], random.Random(n), move_seconds=60, clock=clock)
            for n in range(2)
        ]
        world = _World(workers, clock, await _people(workers[0]))
        for batch in batches:
            done = await asyncio.gather(*(_step(world, s) for s in batch), return_exceptions=True)
            for outcome in done:
                if isinstance(outcome, BaseException) and not isinstance(outcome, GameError):
                    raise outcome
            for player in PLAYERS:
                sitting = await _sitting_games(workers[0], player)
                assert len(sitting) <= 1, f"player {player} has clocks running in {sitting}"
    finally:
        for store in stores:
            await store.close()


EXAMPLES: Final = {"sqlite": 20, "postgresql": 6}


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_no_sequence_of_paths_gives_a_player_two_running_clocks(
    backend: str, request: pytest.FixtureRequest
) -> None:
    new_database = fresh_databases(backend, request)

    @settings(
        max_examples=EXAMPLES[backend],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(batches=_batches)
    def check(batches: list[list[Step]]) -> None:
        with new_database() as database:
            asyncio.run(_scenario(database, batches))

    check()
