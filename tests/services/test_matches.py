"""Matches, the cube and stakes through the game service, on a real SQLite file."""

from __future__ import annotations

import pytest

from bot.engine import Outcome, StakeMode
from bot.model import ChipsStatus, User
from bot.services import Games, GameSnapshot, Scores, Services, Terms
from bot.services import errors as e
from bot.services.chips import START_CHIPS
from bot.storage import Store
from tests.support.clock import Clock

from .conftest import World


async def _challenge(
    services: Services, users: list[User], **terms: int | str | bool | StakeMode
) -> GameSnapshot:
    """users[0] challenges users[1] on ``terms`` (see :class:`Terms`); users[1] accepts."""
    if "stake_mode" in terms:
        terms["stake_mode"] = StakeMode(terms["stake_mode"])
    challenge = await services.challenges.open(
        chat_id=-5,
        challenger=users[0],
        target=users[1],
        locale="en",
        terms=Terms(**terms),  # type: ignore[arg-type]
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    return snapshot


async def _turn(service: Games, snapshot: GameSnapshot) -> GameSnapshot:
    """Plays one turn of the player to move: rolls if the cube waits, then the first steps."""
    stored, game = snapshot.stored, snapshot.game
    mover = stored.player(game.turn)
    if game.dice is None:
        snapshot = await service.roll(stored.id, mover, stored.version)
        if snapshot.game.turn is not game.turn or snapshot.game.is_over:
            return snapshot  # a pass or a forced turn played itself
    assert snapshot.turn_input is not None
    while not snapshot.turn_input.is_complete:
        snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
    return await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)


async def _turns(service: Games, snapshot: GameSnapshot, count: int) -> GameSnapshot:
    for _ in range(count):
        snapshot = await _turn(service, snapshot)
    return snapshot


async def _until_double(service: Games, snapshot: GameSnapshot) -> GameSnapshot:
    """Plays on until the player to move may double."""
    for _ in range(100):
        if snapshot.game.can_double:
            return snapshot
        snapshot = await _turn(service, snapshot)
    raise AssertionError("nobody could double")


def _mover(snapshot: GameSnapshot) -> int:
    return snapshot.stored.player(snapshot.game.to_act)


async def test_double_take_redouble_drop_scores_and_pays(world: World, scores: Scores) -> None:
    services, _, users = world
    service = services.games
    snapshot = await _challenge(services, users, cube=True, stake=100, stake_mode="pro")
    assert snapshot.stored.stake == 100 and snapshot.stored.stake_mode is StakeMode.PRO
    snapshot = await _turns(service, snapshot, 6)  # both sides past the early-concession rule
    snapshot = await _until_double(service, snapshot)
    doubler = snapshot.game.turn
    with pytest.raises(e.NotYourTurn):  # the opponent cannot double for them
        await service.double(snapshot.stored.id, _mover(snapshot) ^ 3, snapshot.stored.version)
    offered = await service.double(snapshot.stored.id, _mover(snapshot), snapshot.stored.version)
    assert offered.game.to_act is doubler.other and offered.stored.history[-1].endswith("double 2")
    with pytest.raises(e.NotYourTurn):  # the doubler cannot take their own offer
        await service.take(offered.stored.id, _mover(offered) ^ 3, offered.stored.version)
    taken = await service.take(offered.stored.id, _mover(offered), offered.stored.version)
    assert taken.game.cube is not None
    assert (taken.game.cube.value, taken.game.cube.owner) == (2, doubler.other)
    assert taken.game.dice is not None and taken.game.turn is doubler  # rolled for the doubler
    snapshot = await _until_double(service, taken)  # only the owner may redouble
    assert snapshot.game.turn is doubler.other
    offered = await service.double(snapshot.stored.id, _mover(snapshot), snapshot.stored.version)
    dropped = await service.drop(offered.stored.id, _mover(offered), offered.stored.version)
    result = dropped.game.result
    assert result is not None
    assert (result.winner, result.outcome, result.points) == (doubler.other, Outcome.DROP, 2)
    # PRO: a drop pays as an oin, 1 × 100 × the cube's 2
    assert (dropped.stored.chips, dropped.stored.chips_status) == (200, ChipsStatus.PAID)
    winner, loser = dropped.stored.player(result.winner), dropped.stored.player(doubler)
    assert await scores.balance(winner) == START_CHIPS + 200
    assert await scores.balance(loser) == START_CHIPS - 200
    assert (await scores.rating(winner, "long")).rating > 1500
    assert (await scores.head_to_head(winner, loser)).points_won == 2


async def test_a_match_to_3_with_the_crawford_game(
    world: World,
) -> None:
    services, _, users = world
    service = services.games
    first = await _challenge(services, users, match_length=3, cube=True)
    assert first.match is not None and first.match.match.length == 3
    assert first.game.cube is not None
    # game 1: black resigns at once: 2 points (classic) for white
    over = await service.resign(first.stored.id, users[1].id)
    assert over.match is not None and (over.match.match.white, over.match.match.black) == (2, 0)
    assert over.match.match.crawford  # white is one point from the match: Crawford game next
    with pytest.raises(e.NotAPlayer):
        await service.next_game(first.stored.id, users[2].id)
    crawford = await service.next_game(first.stored.id, users[1].id)
    assert crawford.stored.game_no == 2 and crawford.game.cube is None
    assert crawford.stored.match_id == first.stored.match_id
    with pytest.raises(e.NoNextGame):  # the other player's tap on the same button
        await service.next_game(first.stored.id, users[0].id)
    # game 2 (Crawford): white resigns: 2:2, and game 3 has the cube again
    over = await service.resign(crawford.stored.id, users[0].id)
    assert over.match is not None and (over.match.match.white, over.match.match.black) == (2, 2)
    assert not over.match.match.crawford and over.match.match.crawford_played
    third = await service.next_game(crawford.stored.id, users[0].id)
    assert third.game.cube is not None and third.stored.game_no == 3
    third = await _until_double(service, third)
    offered = await service.double(third.stored.id, _mover(third), third.stored.version)
    dropped = await service.drop(offered.stored.id, _mover(offered), offered.stored.version)
    match = dropped.match
    assert match is not None and match.match.winner is third.game.turn
    assert match.finished_at is not None
    with pytest.raises(e.NoNextGame):
        await service.next_game(third.stored.id, users[0].id)
    rematch = await services.lobby.rematch(third.stored.id, users[1], chat_id=-5, locale="en")
    assert (rematch.terms.match_length, rematch.terms.cube) == (3, True)


async def test_an_early_resignation_moves_no_chips_and_is_not_rated(
    world: World, scores: Scores
) -> None:
    services, _, users = world
    service = services.games
    snapshot = await _challenge(services, users, stake=50)
    over = await service.resign(snapshot.stored.id, users[1].id)
    assert (over.stored.chips, over.stored.chips_status) == (0, ChipsStatus.VOID)
    assert await scores.balance(users[1].id) == START_CHIPS
    assert (await scores.rating(users[0].id, "long")).games == 0
    assert (await scores.head_to_head(users[0].id, users[1].id)).points_won == 2


async def _lost_by(
    services: Services, challenger: User, opponent: User, loser: User, **options: int | str
) -> GameSnapshot:
    """A game from ``challenger`` to ``opponent`` that ``loser`` resigns after a few turns."""
    service = services.games
    snapshot = await _challenge(services, [challenger, opponent], **options)
    snapshot = await _turns(service, snapshot, 6)
    return await service.resign(snapshot.stored.id, loser.id)


async def test_ten_one_way_payments_in_a_day_are_held_and_flagged(
    world: World, scores: Scores
) -> None:
    services, _, users = world
    anna, boris, _vera = users
    settled = [
        (
            (over := await _lost_by(services, anna, boris, boris, stake=10)).stored.chips,
            over.stored.chips_status,
        )
        for _ in range(10)
    ]
    assert settled[:9] == [(20, ChipsStatus.PAID)] * 9  # resigning: 2 × 10
    assert settled[9] == (20, ChipsStatus.HELD)  # the tenth payment one way in 24 h
    assert await scores.balance(anna.id) == START_CHIPS + 180
    assert await scores.balance(boris.id) == START_CHIPS - 180
    [flag] = await scores.flags(-5)
    assert (flag.loser_id, flag.winner_id, flag.amount) == (boris.id, anna.id, 20)
    assert (flag.payments, flag.paid) == (10, 200)


async def test_a_thousand_chips_net_one_way_are_held_and_a_game_back_offsets_only_its_own(
    world: World, scores: Scores, clock: Clock
) -> None:
    services, _, users = world
    anna, boris, _vera = users
    pro: dict[str, int | str] = {
        "stake": 500,
        "stake_mode": "pro",
    }  # resigning pays as a mars: 2 × 500
    first = await _lost_by(services, anna, boris, boris, **pro)
    assert (first.stored.chips, first.stored.chips_status) == (1000, ChipsStatus.HELD)  # limit
    assert await scores.balance(boris.id) == 1000  # held chips stay with the loser
    # anna pays boris 20: the net flow boris → anna is -20, so 980 more may pass, not more
    assert (await _lost_by(services, anna, boris, anna, stake=10)).stored.chips == 20
    second = await _lost_by(services, anna, boris, boris, **pro)
    assert (second.stored.chips, second.stored.chips_status) == (1000, ChipsStatus.PAID)
    third = await _lost_by(services, anna, boris, boris, stake=10)
    assert (third.stored.chips, third.stored.chips_status) == (20, ChipsStatus.HELD)
    # a day later the window starts afresh
    clock.now += 24 * 3600 + 1
    fourth = await _lost_by(services, anna, boris, boris, stake=10)
    assert fourth.stored.chips_status is ChipsStatus.PAID


async def test_a_stake_is_at_most_what_the_challenger_holds(world: World, store: Store) -> None:
    services, _, users = world
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="en"
    )
    seen = []
    for index in (1, 2, 3, 4, 0, 1):
        challenge = await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "stake", index
        )
        seen.append(challenge.terms.stake)
    assert seen == [10, 50, 100, 500, 0, 10]  # the first look grants 1000 chips
    await store.database.write("UPDATE wallets SET chips = 60 WHERE user_id = ?", (users[0].id,))
    with pytest.raises(e.NotEnoughChips):  # 100 above the 60 held: refused, nothing changes
        await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "stake", 3
        )
    for index in (2, 0):
        challenge = await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "stake", index
        )
        seen.append(challenge.terms.stake)
    assert seen[-2:] == [50, 0]


async def test_cube_buttons_out_of_turn_or_out_of_date_change_nothing(
    world: World,
) -> None:
    services, _, users = world
    service = services.games
    snapshot = await _challenge(services, users, cube=True)
    while snapshot.game.dice is None:  # turns were forced: roll for the next one
        snapshot = await service.roll(snapshot.stored.id, _mover(snapshot), snapshot.stored.version)
    stored = snapshot.stored
    mover = _mover(snapshot)
    for action in (service.roll, service.double, service.take, service.drop):
        with pytest.raises(e.StaleAction):  # the dice are rolled: no cube action now
            await action(stored.id, mover, stored.version)
    with pytest.raises(e.NotYourTurn):
        await service.take(stored.id, mover ^ 3, stored.version)
    with pytest.raises(e.NotAPlayer):
        await service.double(stored.id, users[2].id, stored.version)
    assert (await service.snapshot(stored.id)).stored.version == stored.version
    waiting = await _until_double(service, snapshot)
    with pytest.raises(e.StaleAction):  # a button drawn for an older version
        await service.double(waiting.stored.id, _mover(waiting), waiting.stored.version - 1)
    offered = await service.double(waiting.stored.id, _mover(waiting), waiting.stored.version)
    with pytest.raises(e.NotYourTurn):  # the same tap again: it is the opponent's answer now
        await service.double(waiting.stored.id, _mover(waiting), waiting.stored.version)
    with pytest.raises(e.StaleAction):  # the responder cannot roll instead of answering
        await service.roll(offered.stored.id, _mover(offered), offered.stored.version)


async def test_a_challenge_with_terms_checks_the_stake(world: World, store: Store) -> None:
    services, _, users = world
    terms = Terms(variant="short", match_length=7, cube=True, stake=100, stake_mode=StakeMode.PRO)
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="en", terms=terms
    )
    offered = challenge.terms
    assert (offered.variant, offered.match_length, offered.cube) == ("short", 7, True)
    assert (offered.stake, offered.stake_mode) == (100, StakeMode.PRO)
    await store.database.write("UPDATE wallets SET chips = 60 WHERE user_id = ?", (users[0].id,))
    with pytest.raises(e.NotEnoughChips):
        await services.challenges.open(chat_id=-5, challenger=users[0], locale="en", terms=terms)
    with pytest.raises(ValueError, match="not a choice"):
        await services.challenges.open(
            chat_id=-5, challenger=users[0], locale="en", terms=Terms(match_length=4)
        )


async def test_an_unanswered_double_loses_on_time_for_the_player_who_had_to_answer(
    world: World,
) -> None:
    services, clock, users = world
    service = services.games
    snapshot = await _until_double(service, await _challenge(services, users, cube=True))
    doubler = snapshot.game.turn
    offered = await service.double(snapshot.stored.id, _mover(snapshot), snapshot.stored.version)
    assert offered.stored.deadline is not None
    clock.now = offered.stored.deadline + offered.stored.move_seconds  # no board shows it
    [ended] = await services.timeouts.timeouts()
    result = ended.game.result
    assert result is not None and result.outcome is Outcome.TIMEOUT
    assert result.winner is doubler and result.points == 2  # classic: a mars, times the cube 1
    assert ended.stored.history[-1] == f"{doubler.other.value} timeout"
