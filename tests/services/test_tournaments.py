"""Tournaments at the service level, on both backends: sign-up with the entry taken and given
back, who may make one, each format played out by resignations and timeouts, a restart
between rounds (a round never started twice, a result never counted twice), a withdrawal (a
match forfeited whole), two workers racing over the start of a round, over the pinned
message and over one picker's ✅ Create, and a tournament game's result in both players'
ratings."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.engine import Side
from bot.model import Rating, Terms, TournamentFormat, TournamentPairing, TournamentState, User
from bot.services import Services, chips, compose
from bot.services.errors import (
    NoPrivateChat,
    NotAnAdmin,
    NotEnoughChips,
    NotEntered,
    NotTheCreator,
    TooFewPlayers,
    TournamentClosed,
    TournamentMade,
)
from bot.storage import Store, open_database
from tests.support.clock import Clock
from tests.support.postgres import PostgresServer

GROUP = -100123


async def _players(services: Services, count: int, *, first: int = 1) -> list[User]:
    return [
        await services.users.see(
            i,
            username=f"p{i}",
            first_name=f"P{i}",
            language_code="en",
            private_chat=True,
        )
        for i in range(first, first + count)
    ]


async def _play_round(services: Services, tournament_id: int, *, loser_of: dict[int, int]) -> int:
    """Resigns every game of the current round: the player named in ``loser_of`` (by the
    other's id), else the second player; returns how many games it ended."""
    overview = await services.tournaments.overview(tournament_id)
    ended = 0
    for board in overview.round_fixtures(overview.tournament.round):
        p = board.pairing
        if p.decided or p.game_id is None:
            continue
        assert p.second_id is not None
        loser = loser_of.get(p.first_id, p.second_id)
        await services.games.resign(p.game_id, loser)
        ended += 1
    return ended


async def _chips(services: Services, user_id: int) -> int:
    return await chips.balance(services.store, user_id, 0.0)


async def test_sign_up_takes_the_entry_and_leaving_or_calling_off_gives_it_back(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(3), move_seconds=60, clock=clock)
    creator, second, third = await _players(services, 3)
    tournaments = services.tournaments
    with pytest.raises(NotAnAdmin):  # admins only, by default
        await tournaments.create(
            GROUP, second, format=TournamentFormat.SWISS, terms=Terms(), locale="en", is_admin=False
        )
    await tournaments.set_anyone_creates(GROUP, True)
    made = await tournaments.create(
        GROUP,
        second,
        format=TournamentFormat.SWISS,
        terms=Terms(),
        entry=100,
        locale="en",
        is_admin=False,
    )
    assert made.state is TournamentState.SIGNUP
    for player in (creator, second, third):
        await tournaments.join(made.id, player)
    await tournaments.join(made.id, creator)  # twice: paid once
    assert await _chips(services, creator.id) == 900
    await tournaments.leave(made.id, third.id)
    assert await _chips(services, third.id) == 1000
    stranger = await services.users.see(
        99, username="x", first_name="X", language_code="en", private_chat=False
    )
    with pytest.raises(NoPrivateChat):
        await tournaments.join(made.id, stranger)
    poor = (await _players(services, 1, first=50))[0]
    rich = [
        await tournaments.create(
            GROUP,
            creator,
            format=TournamentFormat.KNOCKOUT,
            terms=Terms(),
            entry=500,
            locale="en",
            is_admin=True,
        )
        for _ in range(3)
    ]
    await tournaments.join(rich[0].id, poor)
    await tournaments.join(rich[1].id, poor)
    with pytest.raises(NotEnoughChips):
        await tournaments.join(rich[2].id, poor)
    assert await _chips(services, poor.id) == 0  # the refusal took nothing, nor signed up
    assert [e.user_id for e in await store.tournaments.entrants(rich[2].id)] == []
    with pytest.raises(NotTheCreator):
        await tournaments.cancel(made.id, creator.id)
    with pytest.raises(TooFewPlayers):
        await tournaments.start(rich[2].id, creator.id)
    cancelled = await tournaments.cancel(made.id, second.id)
    assert cancelled.state is TournamentState.CANCELLED
    assert await _chips(services, creator.id) == await _chips(services, second.id) == 1000
    with pytest.raises(TournamentClosed):
        await tournaments.join(made.id, third)


async def test_a_group_that_becomes_a_supergroup_keeps_its_tournaments_and_settings(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(4), move_seconds=60, clock=clock)
    creator, second = await _players(services, 2)
    tournaments = services.tournaments
    await tournaments.set_anyone_creates(GROUP, True)
    made = await tournaments.create(
        GROUP, second, format=TournamentFormat.SWISS, terms=Terms(), locale="en", is_admin=False
    )
    await tournaments.join(made.id, creator)
    supergroup, other = GROUP * 10, GROUP * 10 - 1
    await tournaments.set_anyone_creates(other, False)  # a setting made in the supergroup wins
    await services.chats.move_chat(GROUP, supergroup)
    await services.chats.move_chat(GROUP - 1, other)  # nothing there: nothing moves
    assert [t.id for t in await tournaments.in_chat(supergroup)] == [made.id]
    assert await tournaments.in_chat(GROUP) == []
    moved_setting = await tournaments.anyone_creates(supergroup)
    assert (moved_setting, await tournaments.anyone_creates(GROUP)) == (True, False)
    assert not await tournaments.anyone_creates(other)
    moved = await store.tournaments.get(made.id)
    assert moved is not None and moved.chat_id == supergroup
    assert [e.user_id for e in await store.tournaments.entrants(made.id)] == [creator.id]


async def test_a_knockout_of_five_with_byes_survives_a_restart_and_names_the_winner(
    migrated_database: Path | str, clock: Clock
) -> None:
    db = await open_database(migrated_database)
    store = Store(db)
    services = compose(store, random.Random(5), move_seconds=60, clock=clock)
    players = await _players(services, 5)
    for number, player in enumerate(players):  # seeds by rating: p1 the top seed
        await store.ratings.set(player.id, "long", _rated(1800 - 50 * number))
    made = await services.tournaments.create(
        GROUP,
        players[0],
        format=TournamentFormat.KNOCKOUT,
        terms=Terms(),
        entry=10,
        locale="en",
        is_admin=True,
    )
    for player in players:
        await services.tournaments.join(made.id, player)
    started = await services.tournaments.start(made.id, players[0].id)
    assert started.tournament.rounds == 3 and started.tournament.round == 1
    assert len(started.started) == 1  # 8 places, 3 byes: seeds 4 v 5 only
    game = started.started[0].stored
    assert {game.white_id, game.black_id} == {4, 5}
    assert game.chat_id == 0 and {b.chat_id for b in await store.games.boards(game.id)} == {4, 5}
    assert await services.tournaments.due() == []  # the round is being played
    await services.games.resign(game.id, 5)
    # the bot stops here and starts again: a new store, new services over the same database
    await db.close()
    db = await open_database(migrated_database)
    store = Store(db)
    services = compose(store, random.Random(5), move_seconds=60, clock=clock)
    with pytest.raises(Exception):  # noqa: B017 - the result is saved: no second one
        await services.games.resign(game.id, 4)
    [second] = await services.tournaments.due()
    assert second.tournament.round == 2 and len(second.started) == 2
    assert await services.tournaments.due() == []  # not started twice
    assert len(await store.tournaments.pairings(made.id)) == 4 + 2
    await _play_round(services, made.id, loser_of={})  # the better seed wins
    [final] = await services.tournaments.due()
    assert final.tournament.round == 3
    await _play_round(services, made.id, loser_of={})
    [over] = await services.tournaments.due()
    assert over.tournament.state is TournamentState.FINISHED
    assert over.tournament.winner_id == 1
    assert await services.tournaments.due() == []
    # the games count in the group's league; resigned at once, they are early concessions:
    # they decide the boards, but change no rating and pay no prize (the anti-dumping rule:
    # every entry went back; test_tournament_chips pays one)
    assert [await _chips(services, p.id) for p in players] == [1000] * 5
    assert over.tournament.prize == 0
    top = await store.games.top(GROUP)
    assert top[0].user.id == 1 and top[0].wins == 2
    assert (await store.ratings.get(1, "long")).games == 0
    await db.close()


async def test_a_round_robin_of_four_and_a_withdrawal_forfeits_the_rest(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(7), move_seconds=60, clock=clock)
    players = await _players(services, 4)
    made = await services.tournaments.create(
        GROUP,
        players[0],
        format=TournamentFormat.ROUND_ROBIN,
        terms=Terms(),
        locale="en",
        is_admin=True,
    )
    for player in players:
        await services.tournaments.join(made.id, player)
    progress = await services.tournaments.start(made.id, players[0].id)
    assert progress.tournament.rounds == 3 and len(progress.started) == 2
    await _play_round(services, made.id, loser_of={})
    await services.tournaments.due()
    withdrawn = await services.tournaments.leave(made.id, 4)
    assert len(withdrawn.started) == 1  # player 4's game of round 2 resigned
    await _play_round(services, made.id, loser_of={})
    [third] = await services.tournaments.due()
    assert third.tournament.round == 3
    forfeited = [
        p for p in await store.tournaments.pairings(made.id) if p.round == 3 and 4 in p.players
    ]
    assert forfeited[0].decided and forfeited[0].game_id is None and forfeited[0].winner_id != 4
    await _play_round(services, made.id, loser_of={})
    [over] = await services.tournaments.due()
    overview = await services.tournaments.overview(made.id)
    pairs = {frozenset(p.players) for p in overview.pairings}
    assert len(pairs) == 6  # every pair once
    assert over.tournament.winner_id == overview.standings[0].player
    assert overview.standings[-1].player == 4 and overview.standings[-1].score == 0


async def test_a_swiss_of_seven_timeouts_included(store: Store, clock: Clock) -> None:
    services = compose(store, random.Random(9), move_seconds=60, clock=clock)
    players = await _players(services, 7)
    made = await services.tournaments.create(
        GROUP,
        players[0],
        format=TournamentFormat.SWISS,
        terms=Terms(),
        locale="en",
        is_admin=True,
        starts_at=clock.now + 60,
    )
    for player in players:
        await services.tournaments.join(made.id, player)
    assert await services.tournaments.due() == []
    clock.now += 61  # the timers start it
    [started] = await services.tournaments.due()
    assert started.tournament.rounds == 3 and len(started.started) == 3
    byes = []
    for number in (1, 2, 3):
        overview = await services.tournaments.overview(made.id)
        byes += [b.pairing.first_id for b in overview.round_fixtures(number) if b.second is None]
        if number == 1:  # nobody moves: the player to move loses on time
            for board in overview.round_fixtures(1):
                if board.pairing.game_id is not None:
                    await _show_boards(store, board.pairing.game_id)
            clock.now += 61
            assert len(await services.timeouts.timeouts()) == 3
        else:
            await _play_round(services, made.id, loser_of={})
        [progress] = await services.tournaments.due()
    assert progress.tournament.state is TournamentState.FINISHED
    assert len(set(byes)) == 3  # a fair bye: nobody had two
    overview = await services.tournaments.overview(made.id)
    met = [frozenset(p.players) for p in overview.pairings if p.second_id is not None]
    assert len(met) == len(set(met)) == 9  # no repeats


async def _show_boards(store: Store, game_id: int) -> None:
    stored = await store.games.get(game_id)
    assert stored is not None
    for board in await store.games.boards(game_id):
        await store.games.set_board_shown(game_id, board.chat_id, stored.version, 1)


def _rated(rating: float) -> Rating:
    return Rating(rating=rating)


async def test_two_workers_racing_start_one_round(postgres: PostgresServer) -> None:
    url = await postgres.new_migrated_database()
    clock = Clock()
    opened = [await open_database(url) for _ in range(2)]
    workers = [compose(Store(db), random.Random(n), clock=clock) for n, db in enumerate(opened)]
    players = await _players(workers[0], 6)
    made = await workers[0].tournaments.create(
        GROUP,
        players[0],
        format=TournamentFormat.SWISS,
        terms=Terms(),
        locale="en",
        is_admin=True,
        starts_at=clock.now + 1,
    )
    for player in players:
        await workers[0].tournaments.join(made.id, player)
    clock.now += 2
    done = await asyncio.gather(*(w.tournaments.due() for w in workers))
    assert sorted(len(d) for d in done) == [0, 1]
    assert len(await workers[1].store.games.active_for(1)) == 1
    await _play_round(workers[1], made.id, loser_of={})
    done = await asyncio.gather(*(w.tournaments.due() for w in workers))
    assert sorted(len(d) for d in done) == [0, 1]
    rounds = {p.round for p in await workers[0].store.tournaments.pairings(made.id)}
    assert rounds == {1, 2}
    active = [len(await workers[0].store.games.active_for(p.id)) for p in players]
    assert active == [1] * 6  # one game each: round 2 was started once
    for db in opened:
        await db.close()


async def test_a_match_plays_its_next_games_by_itself_until_it_is_won(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(13), move_seconds=60, clock=clock)
    players = await _players(services, 2)
    made = await services.tournaments.create(
        GROUP,
        players[0],
        format=TournamentFormat.KNOCKOUT,
        terms=Terms(match_length=3),
        locale="en",
        is_admin=True,
    )
    for player in players:
        await services.tournaments.join(made.id, player)
    started = await services.tournaments.start(made.id, players[0].id)
    game = started.started[0].stored
    assert game.match_id is not None
    played = 0
    while True:
        await services.games.resign(game.id, 2)  # each resignation gives 1 point
        played += 1
        done = await services.tournaments.due()
        if done[0].tournament.is_over:
            break
        [next_game] = done[0].started
        assert next_game.stored.match_id == game.match_id and next_game.stored.game_no == played + 1
        assert done[0].moved_on == (game.id,)  # its boards lose ▶ Next game (the messages')
        assert await services.tournaments.due() == []  # started once
        game = next_game.stored
    assert played >= 2 and done[0].tournament.winner_id == 1  # a resignation scores 1 or 2


async def test_a_withdrawal_forfeits_a_whole_knockout_match_at_once(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(17), move_seconds=60, clock=clock)
    players = await _players(services, 4)
    for number, player in enumerate(players):  # seeds 1..4: 1 v 4 and 2 v 3
        await store.ratings.set(player.id, "long", _rated(1800 - 50 * number))
    tournaments = services.tournaments
    made = await tournaments.create(
        GROUP,
        players[0],
        format=TournamentFormat.KNOCKOUT,
        terms=Terms(match_length=5),
        locale="en",
        is_admin=True,
    )
    for player in players:
        await tournaments.join(made.id, player)
    started = await tournaments.start(made.id, players[0].id)
    games = {frozenset((s.stored.white_id, s.stored.black_id)): s.stored for s in started.started}
    assert set(games) == {frozenset((1, 4)), frozenset((2, 3))}

    def board_of(pairings: list[TournamentPairing], user_id: int) -> TournamentPairing:
        return next(p for p in pairings if p.round == 1 and user_id in p.players)

    # 4 withdraws in the middle of the match's first game: the match is 1's at once
    withdrawn = await tournaments.leave(made.id, 4)
    assert [s.stored.id for s in withdrawn.started] == [games[frozenset((1, 4))].id]
    board = board_of(await store.tournaments.pairings(made.id), 4)
    assert board.decided and board.winner_id == 1
    match = await store.matches.get(games[frozenset((1, 4))].match_id or 0)
    assert match is not None and match.match.winner is not None and match.finished_at
    # 3 loses a game of the match, then withdraws before the next one starts
    await services.games.resign(games[frozenset((2, 3))].id, 3)
    between = await tournaments.leave(made.id, 3)
    assert between.started == ()  # no game being played: the match alone ends
    board = board_of(await store.tournaments.pairings(made.id), 3)
    assert board.decided and board.winner_id == 2
    with pytest.raises(NotEntered):
        await tournaments.leave(made.id, 3)
    [final] = await tournaments.due()  # the final, and no later game of either match
    assert final.tournament.round == 2 and len(final.started) == 1
    assert {final.started[0].stored.white_id, final.started[0].stored.black_id} == {1, 2}
    for out in (3, 4):
        assert await services.games.active_games(out) == []
    assert await tournaments.due() == []
    await tournaments.leave(made.id, 2)  # the final's match forfeited too: 1 wins
    [over] = await tournaments.due()
    assert over.tournament.state is TournamentState.FINISHED and over.tournament.winner_id == 1


async def test_a_pinned_message_is_marked_shown_only_after_it_shows_and_by_one_worker(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_migrated_database()
    clock = Clock()
    opened = [await open_database(url) for _ in range(2)]
    workers = [compose(Store(db), random.Random(n), clock=clock) for n, db in enumerate(opened)]
    try:
        players = await _players(workers[0], 2)
        made = await workers[0].tournaments.create(
            GROUP,
            players[0],
            format=TournamentFormat.KNOCKOUT,
            terms=Terms(),
            locale="en",
            is_admin=True,
        )
        for player in players:
            await workers[0].tournaments.join(made.id, player)
        await workers[0].tournaments.start(made.id, players[0].id)
        first, second = (w.tournaments for w in workers)
        assert await first.behind() == [made.id]
        async with first.showing(made.id) as held:
            assert held is not None
            async with second.showing(made.id) as other:
                assert other is None  # the first worker shows it now
        assert await second.behind() == [made.id]  # held, never marked: still behind
        async with second.showing(made.id) as held:  # a worker that died showing it: again
            assert held is not None
            await second.mark_shown(held)
        assert await first.behind() == []
        async with first.showing(made.id) as held:
            assert held is None  # up to date
    finally:
        for db in opened:
            await db.close()


async def test_a_tournament_games_result_changes_both_players_ratings(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(19), move_seconds=60, clock=clock)
    players = await _players(services, 2)
    made = await services.tournaments.create(
        GROUP,
        players[0],
        format=TournamentFormat.KNOCKOUT,
        terms=Terms(),
        locale="en",
        is_admin=True,
    )
    for player in players:
        await services.tournaments.join(made.id, player)
    [snapshot] = (await services.tournaments.start(made.id, players[0].id)).started
    service = services.games
    while min(chips.turns_played(snapshot.stored.history, side) for side in Side) < 3:
        mover = snapshot.stored.player(snapshot.game.turn)  # past the early concessions
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    loser = snapshot.stored.player(snapshot.game.turn)
    winner = players[0].id + players[1].id - loser
    ended = await service.resign(snapshot.stored.id, loser)
    assert not chips.is_early_concession(ended.stored)
    won, lost = [await store.ratings.get(u, "long") for u in (winner, loser)]
    assert (won.games, lost.games) == (1, 1)
    assert won.rating > 1500 > lost.rating
    [over] = await services.tournaments.due()
    assert over.tournament.winner_id == winner
    assert [(s.user.id, s.wins) for s in await store.games.top(GROUP)][0] == (winner, 1)


async def test_one_picker_makes_one_tournament_on_two_workers(postgres: PostgresServer) -> None:
    url = await postgres.new_migrated_database()
    clock = Clock()
    opened = [await open_database(url) for _ in range(2)]
    workers = [compose(Store(db), random.Random(n), clock=clock) for n, db in enumerate(opened)]
    try:
        [creator] = await _players(workers[0], 1)

        async def create(services: Services) -> int:
            made = await services.tournaments.create(
                GROUP,
                creator,
                format=TournamentFormat.SWISS,
                terms=Terms(),
                locale="en",
                is_admin=True,
                picker_id=77,
            )
            return made.id

        done = await asyncio.gather(*(create(w) for w in workers), return_exceptions=True)
        [made] = [d for d in done if isinstance(d, int)]
        [refused] = [d for d in done if not isinstance(d, int)]
        assert isinstance(refused, TournamentMade) and refused.tournament == made
        [listed] = await workers[1].tournaments.in_chat(GROUP)
        assert (listed.id, listed.message_id) == (made, 77)
        with pytest.raises(TournamentMade):  # later, too
            await create(workers[1])
    finally:
        for db in opened:
            await db.close()


async def test_boards_decided_on_time_are_known_for_a_game_and_for_a_matchs_last(
    store: Store, clock: Clock
) -> None:
    """A knock-out of four: one game lost on time, the other resigned; then a match whose
    games are lost on time until it is over: the boards decided by a clock, and only they."""
    services = compose(store, random.Random(9), move_seconds=60, clock=clock)
    players = await _players(services, 4)
    made = await services.tournaments.create(
        GROUP, players[0], format=TournamentFormat.KNOCKOUT, terms=Terms(), locale="en",
        is_admin=True,
    )  # fmt: skip
    for player in players:
        await services.tournaments.join(made.id, player)
    await services.tournaments.start(made.id, players[0].id)
    first, second = (await services.tournaments.overview(made.id)).round_fixtures(1)
    assert first.pairing.game_id is not None and second.pairing.game_id is not None
    await services.games.resign(second.pairing.game_id, second.pairing.first_id)
    await _show_boards(store, first.pairing.game_id)
    clock.now += 61
    assert len(await services.timeouts.timeouts()) == 1
    overview = await services.tournaments.overview(made.id)
    assert overview.on_time == {(1, first.pairing.board)}
    pair = await _players(services, 2, first=11)
    match = await services.tournaments.create(
        GROUP, pair[0], format=TournamentFormat.KNOCKOUT, terms=Terms(match_length=3),
        locale="en", is_admin=True,
    )  # fmt: skip
    for player in pair:
        await services.tournaments.join(match.id, player)
    game = (await services.tournaments.start(match.id, pair[0].id)).started[0].stored
    await services.games.resign(game.id, game.white_id)  # the match goes on
    [after] = [p for p in await services.tournaments.due() if p.tournament.id == match.id]
    assert (await services.tournaments.overview(match.id)).on_time == set()
    game = after.started[0].stored
    while True:  # now each game is lost on time until the match is over
        await _show_boards(store, game.id)
        clock.now += 61
        await services.timeouts.timeouts()
        [progress] = [p for p in await services.tournaments.due() if p.tournament.id == match.id]
        if progress.tournament.is_over:
            break
        game = progress.started[0].stored
    [board] = (await services.tournaments.overview(match.id)).round_fixtures(1)
    assert (await services.tournaments.overview(match.id)).on_time == {(1, board.pairing.board)}
