"""The game service on a real SQLite file: challenges, taps, confirm, refusals, timeouts."""

from __future__ import annotations

import pytest

from bot.engine import Outcome, Side
from bot.services import GameService
from bot.services import errors as e
from bot.storage import ChallengeStatus, User


async def _start(service: GameService, users: list[User]):  # type: ignore[no-untyped-def]
    challenge = await service.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="ru"
    )
    return await service.challenges.accept(challenge.id, users[1])


async def _play_turn(service: GameService, snapshot):  # type: ignore[no-untyped-def]
    mover = snapshot.stored.player(snapshot.game.turn)
    while not snapshot.turn_input.is_complete:
        snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
    return await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)


async def test_refusals_change_nothing(world) -> None:  # type: ignore[no-untyped-def]
    service, _, users = world
    with pytest.raises(e.SelfChallenge):
        await service.challenges.open(
            chat_id=-5, challenger=users[0], target_username="anna", locale="en"
        )
    with pytest.raises(e.BotChallenge):
        await service.challenges.open(
            chat_id=-5, challenger=users[0], target_username="helperbot", locale="en"
        )
    challenge = await service.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="ru"
    )
    with pytest.raises(e.OwnChallenge):
        await service.challenges.accept(challenge.id, users[0])
    with pytest.raises(e.NotForYou):
        await service.challenges.accept(challenge.id, users[2])
    changed = await service.challenges.change_option(
        challenge.id, users[0].id, challenge.version, "variant"
    )
    assert changed.variant == "short"
    with pytest.raises(e.StaleAction):  # an option button drawn for the old version
        await service.challenges.change_option(challenge.id, users[0].id, challenge.version, "time")
    with pytest.raises(e.NotChallenger):
        await service.challenges.change_option(challenge.id, users[1].id, changed.version, "time")
    closed, snapshot = await service.challenges.accept(challenge.id, users[1])
    assert closed.status is ChallengeStatus.ACCEPTED and snapshot.game.variant == "short"
    with pytest.raises(e.ChallengeClosed):
        await service.challenges.accept(challenge.id, users[1])

    game_id, version = snapshot.stored.id, snapshot.stored.version
    mover = snapshot.stored.player(snapshot.game.turn)
    other = snapshot.stored.player(snapshot.game.turn.other)
    with pytest.raises(e.NotAPlayer):
        await service.choose(game_id, users[2].id, version, 0)
    with pytest.raises(e.NotYourTurn):
        await service.choose(game_id, other, version, 0)
    with pytest.raises(e.StaleAction):
        await service.choose(game_id, mover, version, 999)  # forged index
    with pytest.raises(e.StaleAction):
        await service.confirm(game_id, mover, version)  # nothing tapped yet
    tapped = await service.choose(game_id, mover, version, 0)
    with pytest.raises(e.StaleAction):  # the same tap delivered twice
        await service.choose(game_id, mover, version, 0)
    assert (await service.snapshot(game_id)).stored.version == tapped.stored.version


async def test_a_whole_game_to_the_end_and_its_score(world, scores) -> None:  # type: ignore[no-untyped-def]
    service, _, users = world
    _, snapshot = await _start(service, users)
    for _ in range(1000):
        if snapshot.game.is_over:
            break
        snapshot = await _play_turn(service, snapshot)
    result = snapshot.game.result
    assert result is not None
    assert snapshot.stored.deadline is None and snapshot.stored.finished_at is not None
    winner = snapshot.stored.player(result.winner)
    loser = snapshot.stored.player(result.winner.other)
    tally = await scores.head_to_head(winner, loser)
    assert (tally.games, tally.wins, tally.points_won) == (1, 1, result.points)
    assert (await scores.stats(loser)).points_lost == result.points
    top = await scores.top(-5)
    assert [s.user.id for s in top] == [winner, loser]
    assert top[0].points == result.points and top[1].points == -result.points
    with pytest.raises(e.GameFinished):
        await service.resign(snapshot.stored.id, winner)


async def test_undo_and_resign(world) -> None:  # type: ignore[no-untyped-def]
    service, _, users = world
    _, snapshot = await _start(service, users)
    game_id = snapshot.stored.id
    mover = snapshot.stored.player(snapshot.game.turn)
    tapped = await service.choose(game_id, mover, snapshot.stored.version, 0)
    assert len(tapped.stored.input) == 1
    undone = await service.undo(game_id, mover, tapped.stored.version)
    assert undone.stored.input == () and undone.game == snapshot.game
    resigned = await service.resign(game_id, users[1].id)
    assert resigned.game.result is not None
    assert resigned.game.result.winner is Side.WHITE
    assert resigned.game.result.outcome is Outcome.RESIGN


async def test_timeout_loses_for_the_player_to_move(world) -> None:  # type: ignore[no-untyped-def]
    service, clock, users = world
    _, snapshot = await _start(service, users)
    assert await service.timeouts() == []
    clock.now += 61
    ended = await service.timeouts()
    assert len(ended) == 1
    result = ended[0].game.result
    assert result is not None and result.outcome is Outcome.TIMEOUT
    assert result.winner is snapshot.game.turn.other
    assert await service.timeouts() == []


async def test_challenges_expire(world) -> None:  # type: ignore[no-untyped-def]
    service, clock, users = world
    challenge = await service.challenges.open(chat_id=-5, challenger=users[0], locale="en")
    clock.now += 15 * 60 + 1
    with pytest.raises(e.ChallengeClosed):
        await service.challenges.accept(challenge.id, users[2])
    expired = await service.challenges.expire()
    assert [c.id for c in expired] == [challenge.id]
    assert expired[0].status is ChallengeStatus.EXPIRED


async def test_unseen_username_can_accept_once_seen(world) -> None:  # type: ignore[no-untyped-def]
    service, _, users = world
    challenge = await service.challenges.open(
        chat_id=-5, challenger=users[0], target_username="@Gleb", locale="en"
    )
    assert challenge.target_username == "gleb" and challenge.target_id is None
    with pytest.raises(e.NotForYou):
        await service.challenges.accept(challenge.id, users[2])
    gleb = await service.users.see(4, username="Gleb", first_name="Gleb", language_code=None)
    closed, snapshot = await service.challenges.accept(challenge.id, gleb)
    assert closed.target_id == 4 and snapshot.stored.black_id == 4
