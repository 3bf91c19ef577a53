"""Training games on a real database: a challenge to the computer made a training game (one
game of two dice, no cube, long, short or Abkhaz nardy), each of the player's turns judged by
the strongest level with the analysis's grades, and a turn taken back to the very state before
it (the same roll, the dice's log and history cut there, so the fair dice still verify)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot import ai
from bot.ai.analysis import BLUNDER, ERROR
from bot.engine import Game, Side, Turn
from bot.model import StoredGame, Terms, User
from bot.services import GameSnapshot, Services, compose
from bot.services import errors as e
from bot.services.computer import Brain
from bot.services.takeback import latest_choice
from bot.services.training import Grade, grade, player_side
from bot.storage import Store
from tests.services.conftest import change
from tests.support.clock import Clock


class InProcessBrain(Brain):
    """The computer thinking in the test's process (the functions the workers run)."""

    async def decide(self, game: Game, level: int, seed: int) -> ai.Decision:
        return ai.decide(game, level, seed)

    async def hint(self, game: Game) -> ai.Hint:
        return ai.hint(game)


@pytest.fixture
async def trainee(store: Store, clock: Clock) -> tuple[Services, Clock, User]:
    services = compose(store, random.Random(7), InProcessBrain(), move_seconds=60, clock=clock)
    user = await services.users.see(1, username="anna", first_name="Anna", language_code="ru")
    return services, clock, user


async def _training(services: Services, user: User, terms: Terms) -> GameSnapshot:
    challenge = await services.challenges.against_computer(
        chat_id=user.id, challenger=user, level=1, locale="en", terms=terms
    )
    _, snapshot = await services.lobby.accept(challenge.id, user, dice_client="4242")
    return snapshot


async def _until_player(services: Services, clock: Clock, snapshot: GameSnapshot) -> GameSnapshot:
    """Lets the computer act until the person is to move (or the game is over)."""
    while not snapshot.game.is_over and snapshot.stored.computer_to_act:
        clock.now += 2
        moved = await services.timeouts.computer_move(snapshot.stored.id)
        snapshot = moved if moved is not None else await services.games.snapshot(snapshot.stored.id)
    return snapshot


async def _play_first(services: Services, user: User, snapshot: GameSnapshot) -> GameSnapshot:
    """The person plays the first way to finish their turn offered, and confirms."""
    games, game_id = services.games, snapshot.stored.id
    while True:
        current = snapshot.turn_input
        assert current is not None
        if current.is_complete:
            return await games.confirm(game_id, user.id, snapshot.stored.version)
        if snapshot.finishes:
            snapshot = await games.finish(game_id, user.id, snapshot.stored.version, 0)
        else:
            snapshot = await games.choose(game_id, user.id, snapshot.stored.version, 0)


def _state(stored: StoredGame) -> tuple[object, ...]:
    """What a take-back must restore."""
    rolls = stored.dice_proof.rolls if stored.dice_proof else ()
    return (stored.game, stored.history, stored.last_turn, rolls, stored.input)


@pytest.mark.parametrize("variant", ["long", "short"])
async def test_a_turn_taken_back_restores_the_game_before_it_exactly(
    trainee: tuple[Services, Clock, User], variant: str
) -> None:
    services, clock, user = trainee
    snapshot = await _until_player(
        services, clock, await _training(services, user, Terms(variant=variant, training=True))
    )
    assert snapshot.stored.training and snapshot.stored.hints
    side = player_side(snapshot.stored)
    assert side is not None and snapshot.stored.level(side) is None
    for _turn in range(3):  # a few turns in, with the computer's answers between
        snapshot = await _until_player(services, clock, await _play_first(services, user, snapshot))
    before = snapshot.stored
    played = await _play_first(services, user, snapshot)
    latest = latest_choice(played.stored, side)
    assert latest is not None and latest.line == len(before.history)
    answered = await _until_player(services, clock, played)
    assert len(answered.stored.history) > len(played.stored.history)  # the computer answered

    back = await services.games.take_back(before.id, user.id, latest.line)
    assert _state(back.stored) == _state(before)
    assert back.stored.version > answered.stored.version
    assert back.game.turn is side and back.game.dice == before.game.dice
    # the take-back is spent: the same line again is stale, and nothing changes
    with pytest.raises(e.StaleAction):
        await services.games.take_back(before.id, user.id, latest.line)
    # the roll is played again, another way when there is one, and the game goes on
    again = await _play_first(services, user, back)
    assert again.stored.history[: len(before.history)] == before.history


async def test_take_backs_refused_where_there_is_nothing_to_take_back(
    trainee: tuple[Services, Clock, User], store: Store
) -> None:
    services, clock, user = trainee
    snapshot = await _until_player(
        services, clock, await _training(services, user, Terms(training=True))
    )
    game_id = snapshot.stored.id
    with pytest.raises(e.StaleAction):  # no turn of the player's yet
        await services.games.take_back(game_id, user.id, 0)
    played = await _play_first(services, user, snapshot)
    side = player_side(played.stored)
    assert side is not None
    latest = latest_choice(played.stored, side)
    assert latest is not None
    stranger = await services.users.see(9, username="vera", first_name="Vera", language_code="ru")
    with pytest.raises(e.NotAPlayer):
        await services.games.take_back(game_id, stranger.id, latest.line)
    with pytest.raises(e.StaleAction):  # not the player's latest turn
        await services.games.take_back(game_id, user.id, latest.line - 1)
    over = replace(played.stored, game=played.game.resign(side))
    await store.games.save(over, expected_version=played.stored.version, now=clock())
    with pytest.raises(e.GameFinished):
        await services.games.take_back(game_id, user.id, latest.line)


async def test_an_ordinary_game_with_the_computer_has_no_take_back(
    trainee: tuple[Services, Clock, User],
) -> None:
    services, clock, user = trainee
    snapshot = await _until_player(services, clock, await _training(services, user, Terms()))
    assert not snapshot.stored.training and player_side(snapshot.stored) is None
    played = await _play_first(services, user, snapshot)
    side = played.stored.side_of(user.id)
    assert side is not None
    latest = latest_choice(played.stored, side)
    assert latest is not None
    with pytest.raises(e.StaleAction):
        await services.games.take_back(played.stored.id, user.id, latest.line)


async def test_training_terms_are_one_game_of_two_dice_without_the_cube(
    trainee: tuple[Services, Clock, User],
) -> None:
    services, _clock, user = trainee
    terms = Terms(variant="gulbara", match_length=5, cube=True, training=True)
    challenge = await services.challenges.against_computer(
        chat_id=user.id, challenger=user, level=2, locale="en", terms=terms
    )
    made = challenge.terms
    assert made.training and made.variant == "long"
    assert (made.match_length, made.cube) == (0, False)
    for option in ("match", "cube", "dice"):
        with pytest.raises(e.StaleAction):
            await services.challenges.change_option(
                challenge.id, user.id, challenge.version, option
            )
    seen = set()
    current = challenge
    for _ in range(4):  # the variant's list is the training variants only
        current = await change(services, current, "variant")
        seen.add(current.terms.variant)
    assert seen == {"long", "short", "abkhaz"}
    off = await services.challenges.change_option(current.id, user.id, current.version, "training")
    assert not off.terms.training
    on = await services.challenges.change_option(off.id, user.id, off.version, "training")
    assert on.terms.training
    # between people there is no training game
    boris = await services.users.see(2, username="boris", first_name="Boris", language_code="ru")
    human = await services.challenges.open(
        chat_id=0, challenger=user, target=boris, locale="en", terms=Terms(training=True)
    )
    assert not human.terms.training
    with pytest.raises(e.StaleAction):
        await services.challenges.change_option(human.id, user.id, human.version, "training")


async def test_a_turn_is_judged_with_the_analysis_grades(
    trainee: tuple[Services, Clock, User],
) -> None:
    services, clock, user = trainee
    snapshot = await _until_player(
        services, clock, await _training(services, user, Terms(training=True))
    )
    played = await _play_first(services, user, snapshot)
    latest = await services.training.latest(played.stored)
    assert latest is not None
    verdict = await services.training.judge(latest)
    hint = ai.hint(latest.before)
    assert verdict.loss == hint.loss(latest.turn)
    assert verdict.best == hint.best
    assert verdict.grade is grade(verdict.loss)
    assert isinstance(verdict.played, Turn)
    assert verdict.side is Side.WHITE or verdict.side is Side.BLACK


def test_grades_follow_the_analysis_thresholds() -> None:
    assert grade(0.0) is Grade.BEST
    assert grade(0.004) is Grade.BEST
    assert grade(0.006) is Grade.INACCURACY
    assert grade(ERROR - 1e-9) is Grade.INACCURACY
    assert grade(ERROR) is Grade.MISTAKE
    assert grade(BLUNDER - 1e-9) is Grade.MISTAKE
    assert grade(BLUNDER) is Grade.BLUNDER


async def test_the_first_turn_of_short_nardy_is_taken_back_to_the_opening_roll(
    trainee: tuple[Services, Clock, User],
) -> None:
    """In short nardy the starter plays the opening's two dice: its first turn has no roll of
    its own, and taking it back keeps the opening's dice in the log."""
    services, _clock, user = trainee
    for client in range(40):  # a game whose opening the person wins
        challenge = await services.challenges.against_computer(
            chat_id=user.id,
            challenger=user,
            level=1,
            locale="en",
            terms=Terms(variant="short", training=True),
        )
        _, snapshot = await services.lobby.accept(challenge.id, user, dice_client=f"c{client}")
        if not snapshot.stored.history and not snapshot.stored.computer_to_act:
            break
        await services.games.resign(snapshot.stored.id, user.id)
    else:
        pytest.fail("the computer won every opening")
    before = snapshot.stored
    await _play_first(services, user, snapshot)
    back = await services.games.take_back(before.id, user.id, 0)
    assert _state(back.stored) == _state(before)
