"""Learning to play on a real database: each player's place in the course (a right answer
moves it on, a wrong one changes nothing, a lesson left is resumed where it was), the offers
of /learn (once at a newcomer's first /start, once after a big loss in their first games, never
after "no, thanks"), and practice positions (the daily positions of earlier days, then new ones
the computer finds; the easiest first by players' answers; one answer each; a streak)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import replace

import pytest

from bot.course.lessons import COURSE, AskStep, PlayStep
from bot.course.tasks import accepted
from bot.engine import Dice, Game, Position, Side
from bot.model import RankedTurn, StoredGame, User
from bot.services import Services, compose
from bot.services import errors as e
from bot.services.daily import day_of, replay_taps, tap_letter
from bot.services.lessons import FIRST_GAMES, Lessons
from bot.services.practice import Practice
from bot.storage import Store
from tests.services.conftest import Clock
from tests.services.test_daily import InProcessBrain

NOON = dt.datetime(2026, 12, 3, 12, 0, tzinfo=dt.UTC).timestamp()


@pytest.fixture
async def learning(store: Store, clock: Clock) -> tuple[Services, Clock, list[User]]:
    clock.now = NOON
    services = compose(store, random.Random(3), InProcessBrain(), clock=clock)
    users = [
        await services.users.see(i, username=name, first_name=name, language_code="en")
        for i, name in ((1, "anna"), (2, "boris"), (3, "vera"))
    ]
    return services, clock, users


def _taps_for(step: PlayStep, right: bool) -> str:
    """The letters of a right (or wrong) answer to ``step``: the way to finish the turn that
    reaches one of its accepted (or refused) turns."""
    wanted = {t.position for t in accepted(step.game, step.task)}
    tapped = replay_taps(step.game, "")
    assert tapped.finishes is not None
    for index, steps in enumerate(tapped.finishes):
        reached = tapped.input.finish(steps).turn().position
        if (reached in wanted) == right:
            return tap_letter(index, finish=True)
    raise AssertionError(f"no such answer to {step.key}")


async def test_progress_moves_on_with_right_answers_and_is_resumed(
    learning: tuple[Services, Clock, list[User]],
) -> None:
    services, _, (anna, boris, _vera) = learning
    lessons = services.lessons
    overview = await lessons.overview(anna.id)
    assert overview.next == 0 and overview.done == 0
    first = COURSE[0].steps[0]
    assert isinstance(first, PlayStep)
    wrong = await lessons.answer_turn(
        anna.id, 0, 0, await lessons.tapped(0, 0, _taps_for(first, False))
    )
    assert not wrong.right and not wrong.finished
    assert await lessons.resume(anna.id, 0) == 0  # a wrong answer moves nothing
    right = await lessons.answer_turn(
        anna.id, 0, 0, await lessons.tapped(0, 0, _taps_for(first, True))
    )
    assert right.right and right.turn is not None
    assert await lessons.resume(anna.id, 0) == 1  # left after step 1: resumed at step 2
    assert await lessons.resume(boris.id, 0) == 0  # everyone's own progress
    # the head lesson's questions: the engine's answer is right, the other options wrong
    head = next(i for i, lesson in enumerate(COURSE) if lesson.key == "long.head")
    for index, step in enumerate(COURSE[head].steps):
        if isinstance(step, PlayStep):
            await lessons.answer_turn(
                anna.id, head, index, await lessons.tapped(head, index, _taps_for(step, True))
            )
            continue
        assert isinstance(step, AskStep)
        answer = step.question.answer(step.game)
        other = next(o for o in step.question.options(step.game) if o != answer)
        assert not (await lessons.answer_question(anna.id, head, index, other)).right
        verdict = await lessons.answer_question(anna.id, head, index, answer)
        assert verdict.right and verdict.finished == (index + 1 == len(COURSE[head].steps))
    overview = await lessons.overview(anna.id)
    assert overview.finished(COURSE[head]) and overview.done == 1 and overview.next == 0
    assert await lessons.resume(anna.id, head) == 0  # a finished lesson is taken from its start


async def test_forged_steps_and_answers_are_refused(
    learning: tuple[Services, Clock, list[User]],
) -> None:
    services, _, (anna, _boris, _vera) = learning
    lessons = services.lessons
    with pytest.raises(e.StaleAction):
        await lessons.tapped(len(COURSE), 0, "")
    with pytest.raises(e.StaleAction):
        await lessons.tapped(0, 99, "")
    with pytest.raises(e.StaleAction):
        await lessons.tapped(0, 0, "zz")  # letters that name no step
    ask = next(
        (i, j)
        for i, lesson in enumerate(COURSE)
        for j, step in enumerate(lesson.steps)
        if isinstance(step, AskStep)
    )
    with pytest.raises(e.StaleAction):
        await lessons.tapped(*ask, "")  # an ask step has no turn
    with pytest.raises(e.StaleAction):
        await lessons.answer_question(anna.id, *ask, 99)
    with pytest.raises(e.StaleAction):
        await lessons.answer_question(anna.id, 0, 0, 1)  # a play step has no options
    assert (await lessons.overview(anna.id)).progress == {}


def _finished(variant_text: str, dice: tuple[int, int]) -> Game:
    game = Game.setup(Position.from_text(variant_text)).with_dice(Dice(*dice))
    finished = game.play(game.legal_turns()[0])
    assert finished.result is not None
    return finished


async def _record(store: Store, clock: Clock, winner: User, loser: User, game: Game) -> StoredGame:
    """A finished game that ``winner`` (white) won from ``loser``."""
    return await store.games.create(
        chat_id=0,
        white_id=winner.id,
        black_id=loser.id,
        game=game,
        move_seconds=60,
        deadline=None,
        locale="en",
        boards=[],
        now=clock(),
    )


MARS = "long w / 1:1 off:14 / 24:15"
"""White bears off its last checker; black has borne off none: a mars."""
OIN = "long w / 1:1 off:14 / 3:5 2:5 1:2 off:3"


async def test_the_offers_of_learn(
    learning: tuple[Services, Clock, list[User]], store: Store
) -> None:
    services, clock, (anna, boris, vera) = learning
    lessons: Lessons = services.lessons
    assert await lessons.offer_at_start(anna.id)
    assert not await lessons.offer_at_start(anna.id)  # once
    won = await _record(store, clock, boris, vera, _finished(OIN, (3, 1)))
    assert not await lessons.offer_at_start(vera.id)  # she has played a game: no newcomer
    assert await lessons.offer_after_loss(won) is None  # an oin is no big loss
    lost = await _record(store, clock, boris, vera, _finished(MARS, (3, 1)))
    assert lost.game.result is not None and lost.game.result.winner is Side.WHITE
    assert await lessons.offer_after_loss(lost) == vera.id
    again = await _record(store, clock, boris, vera, _finished(MARS, (3, 1)))
    assert await lessons.offer_after_loss(again) is None  # once
    # the winner is never offered it; a resignation is no big loss
    assert await lessons.offer_after_loss(replace(lost, white_id=vera.id, black_id=boris.id)) == (
        boris.id
    )
    resigned = await _record(store, clock, anna, boris, Game.setup(Position.from_text(MARS)))
    resigned = replace(resigned, game=resigned.game.resign(Side.BLACK))
    assert await lessons.offer_after_loss(resigned) is None
    # no, thanks: never again
    await lessons.decline(anna.id)
    big = await _record(store, clock, boris, anna, _finished(MARS, (3, 1)))
    assert await lessons.offer_after_loss(big) is None
    # only in the first games
    later = await services.users.see(4, username="gleb", first_name="Gleb", language_code="en")
    for _ in range(FIRST_GAMES):
        await _record(store, clock, later, boris, _finished(OIN, (3, 1)))
    late = await _record(store, clock, boris, later, _finished(MARS, (3, 1)))
    assert await lessons.offer_after_loss(late) is None


def _ranking(game: Game, best: str) -> tuple[RankedTurn, ...]:
    """Every legal turn of ``game``, ``best`` first (0.3), the others below a blunder."""
    turns = sorted(game.legal_turns(), key=lambda t: str(t) != best)
    return tuple(
        RankedTurn(str(t), t.position.to_text(), 0.3 if str(t) == best else -0.2) for t in turns
    )


PUZZLES = (
    ("long w / 24:14 13:1 / 24:15", "13/7 7/2"),
    ("long w / 24:13 20:1 13:1 / 24:15", "24/18 13/8"),
)


async def _seed(store: Store, clock: Clock, day: str, text: str, best: str) -> Game:
    game = Game.setup(Position.from_text(text)).with_dice(Dice(6, 5))
    await store.daily.add_position(
        variant="long",
        day=day,
        key=f"{text} 6-5",
        game=game,
        ranking=_ranking(game, best),
        source_game_id=None,
        now=clock(),
    )
    return game


async def test_practice_positions_by_difficulty_with_a_streak(
    learning: tuple[Services, Clock, list[User]], store: Store, clock: Clock
) -> None:
    services, _, (anna, boris, vera) = learning
    practice: Practice = services.practice
    today = day_of(clock())
    await _seed(store, clock, "2026-12-01", *PUZZLES[0])
    await _seed(store, clock, "2026-12-02", *PUZZLES[1])
    await _seed(store, clock, today, "long w / 24:12 20:2 13:1 / 24:15", "24/18 13/8")
    first = await practice.next(anna.id, "long")
    assert first.game.position.to_text() == PUZZLES[0][0]  # the older first, both untried
    turns = {str(t): t for t in first.game.legal_turns()}
    wrong = await practice.answer(first, anna, turns["24/18 18/13"])
    assert not wrong.answer.correct and wrong.streak == 0
    with pytest.raises(e.AlreadyAnswered):
        await practice.answer(first, anna, turns["13/7 7/2"])
    # the first is now harder (a wrong answer), so boris gets the second first
    second = await practice.next(boris.id, "long")
    assert second.game.position.to_text() == PUZZLES[1][0]
    right = await practice.answer(second, boris, _turn(second.game, "24/18 13/8"))
    assert right.answer.correct and (right.streak, right.best_streak) == (1, 1)
    assert (right.answers, right.right, right.percent) == (1, 1, 100)
    # anna's next is the second; today's daily position is never served (it is today's puzzle)
    nxt = await practice.next(anna.id, "long")
    assert nxt.id == second.id
    await practice.answer(nxt, anna, _turn(nxt.game, "24/18 13/8"))
    outcome = await practice.outcome(nxt, anna)
    assert outcome is not None and (outcome.streak, outcome.best_streak) == (1, 1)
    # with every kept position answered, the computer finds a new one (self-play on a bot
    # without finished games), never one kept already
    keys = await store.learning.practice_keys("long")
    found = await practice.next(anna.id, "long")
    assert found.key not in keys and "24:12 20:2" not in found.key
    with pytest.raises(e.NoDailyPosition):
        await practice.next(vera.id, "abkhaz")
    with pytest.raises(e.StaleAction):  # a turn that is not one of the position's
        await practice.answer(found, vera, _turn(first.game, "13/7 7/2"))


def _turn(game: Game, text: str):  # type: ignore[no-untyped-def]
    return next(t for t in game.legal_turns() if str(t) == text)
