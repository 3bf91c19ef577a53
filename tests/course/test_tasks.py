"""Tasks are predicates on the engine's legal turns: for random positions, rolls and tasks of
every kind, the answers a lesson's taps can build and judge right are exactly the legal turns
whose result satisfies the task, no more (no illegal turn) and no fewer (no legal right turn
refused); and every question's answer is one of its options."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.course.lessons import PlayStep
from bot.course.tasks import (
    All,
    BearsOff,
    Hits,
    Leaves,
    Makes,
    Not,
    OneChecker,
    Reaches,
    Run,
    Task,
    Wins,
    accepted,
    longest_run,
)
from bot.engine import Dice, Game, Position, Side
from bot.services.daily import STEP_LETTERS, tap_letter
from bot.services.lessons import tapped_step, verdict_of
from tests.engine.strategies import dice, positions

MAX_WALKED = 3_000
"""Tap paths walked at most per example (a double's four steps multiply them)."""

points = st.integers(1, 24)
simple_tasks: st.SearchStrategy[Task] = st.one_of(
    st.just(OneChecker()),
    st.builds(Leaves, st.integers(1, 25), st.integers(1, 4)),
    st.builds(Reaches, points, st.integers(1, 3)),
    st.builds(BearsOff, st.integers(0, 4)),
    st.builds(Hits, st.integers(1, 2)),
    st.builds(Makes, points),
    st.builds(Run, st.integers(2, 7)),
    st.just(Wins()),
)
tasks: st.SearchStrategy[Task] = st.one_of(
    simple_tasks,
    st.builds(Not, simple_tasks),
    st.builds(All, st.tuples(simple_tasks, simple_tasks)),
)


def built_by_taps(step: PlayStep) -> tuple[set[Position], set[Position]]:
    """Every turn the step's buttons can build, tapped as a player taps them (a whole-turn
    button per way to finish when they are few, else step by step), split by the verdict: the
    positions the judged-right turns reach, and the judged-wrong ones'."""
    right: set[Position] = set()
    wrong: set[Position] = set()
    frontier = [""]
    walked = 0
    while frontier:
        taps = frontier.pop()
        walked += 1
        assert walked < MAX_WALKED
        tapped = tapped_step(step, taps)
        verdict = verdict_of(step, tapped.input) if taps or tapped.input.is_complete else None
        if verdict is not None:
            assert verdict.turn is not None
            (right if verdict.right else wrong).add(verdict.turn.position)
            continue
        if tapped.finishes:
            frontier += [taps + tap_letter(i, finish=True) for i in range(len(tapped.finishes))]
        else:
            count = len(tapped.input.options)
            assert count <= len(STEP_LETTERS)
            frontier += [taps + tap_letter(i, finish=False) for i in range(count)]
    return right, wrong


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), dice, tasks)
def test_a_step_accepts_exactly_the_legal_turns_its_task_accepts(
    position: Position, roll: Dice, task: Task
) -> None:
    game = Game.setup(position).with_dice(roll)
    legal = game.legal_turns()
    assume(legal)  # a pass has no answer to build
    step = PlayStep("test", game, task)
    right, wrong = built_by_taps(step)
    assert right == {t.position for t in accepted(game, task)}
    assert right | wrong == {t.position for t in legal}
    assert not right & wrong


@settings(max_examples=50)
@given(positions(), st.sampled_from([Side.WHITE, Side.BLACK]))
def test_the_longest_run_is_the_longest_row_of_held_points(position: Position, side: Side) -> None:
    own = position.checkers(side)
    need = 2 if position.variant == "short" else 1
    held = [own[p] >= need for p in range(24, 0, -1)]
    rows = [held[i:] + held[:i] if position.variant == "long" else held for i in range(24)]
    best = 0
    for row in rows:
        run = 0
        for value in row:
            run = run + 1 if value else 0
            best = max(best, run)
    assert longest_run(position, side) == best
