"""Cube decisions in the analysis (:mod:`bot.ai.cubeful`, :func:`bot.ai.analysis.judge_cube`):
the model's take point is Janowski's, a decision equal to the model's own choice loses 0 and
no decision loses less than 0 (properties of the model, and of real games' decisions), the
replay finds every cube decision a history holds, and PR counts them."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.analysis import (
    CubeDecision,
    CubeRecord,
    judge_cube,
    replayed,
    review,
    states,
    summarise,
)
from bot.ai.cubeful import (
    CLOSE,
    CUBE_LIFE,
    Chances,
    CubeAction,
    Ownership,
    cubeful,
    equities,
)
from bot.ai.luck import game_luck, luck
from bot.engine import Cube, Game, Position, Side, TurnRecord, resolve_rules

from .games import cube_game

chances = st.builds(
    Chances,
    st.floats(0.0, 1.0),
    st.floats(1.0, 3.0),
    st.floats(1.0, 3.0),
)


@given(chances, st.booleans(), st.sampled_from(list(CubeAction)), st.floats(0.0, 1.0))
def test_the_models_choice_loses_nothing_and_no_choice_loses_less(
    found: Chances, centred: bool, action: CubeAction, life: float
) -> None:
    judged = equities(found, centred=centred, life=life)
    best = judged.best(action.doubler)
    assert judged.loss(best) == 0.0
    assert judged.loss(action) >= 0.0
    assert judged.value(best) >= judged.value(action)
    if action is not best:
        assert judged.loss(action) == pytest.approx(judged.value(best) - judged.value(action))


@given(
    st.floats(1.0, 3.0),
    st.floats(1.0, 3.0),
)
def test_the_take_point_is_janowskis(won: float, lost: float) -> None:
    """The doubler's chance where take and drop cost the taker the same: the taker's take
    point is (L - 1/2) / (W + L + x/2) in the taker's own W and L (the doubler's L and W)."""
    low, high = 0.0, 1.0
    for _ in range(80):
        p = (low + high) / 2
        judged = equities(Chances(p, won, lost), centred=True)
        if judged.should_take:
            low = p
        else:
            high = p
    take_point = (won - 0.5) / (won + lost + CUBE_LIFE / 2)
    assert 1.0 - low == pytest.approx(take_point, abs=1e-9)


def test_the_cube_at_its_ends() -> None:
    """A dead or a sure game is valued cubeless; a fully dead cube (life 0) is cubeless."""
    for p in (0.0, 1.0):
        sure = Chances(p, 2.0, 1.5)
        for cube in Ownership:
            assert cubeful(sure, cube) == pytest.approx(sure.cubeless)
    middle = Chances(0.6, 1.2, 1.1)
    for cube in Ownership:
        assert cubeful(middle, cube, life=0.0) == pytest.approx(middle.cubeless)
    # owning the cube is worth something, the opponent's owning it costs something
    assert cubeful(middle, Ownership.OWN) > cubeful(middle, Ownership.CENTRED)
    assert cubeful(middle, Ownership.THEIRS) < cubeful(middle, Ownership.CENTRED)
    # far ahead with gammons to win: too good to double, playing on is worth more than a drop
    judged = equities(Chances(0.9, 2.0, 1.0), centred=True)
    assert judged.no_double > judged.double_drop and not judged.should_double


@pytest.mark.parametrize("variant", ["short", "long"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), turns=st.integers(4, 50))
def test_the_replay_finds_every_cube_decision_and_judges_it(
    variant: str, seed: int, turns: int
) -> None:
    start, entries, end = cube_game(variant, seed, turns)
    played, decisions = replayed(start, entries)
    records = [e for e in entries if isinstance(e, TurnRecord)]
    assert [(g.position, t) for g, t in played] == [
        (g.position, t) for g, t in states(start, records)
    ]
    cubed = [e for e in entries if isinstance(e, CubeRecord)]
    assert [(d.side, d.action) for d in decisions if d.action is not CubeAction.NO_DOUBLE] == [
        (e.side, e.action) for e in cubed
    ]
    for decision in decisions:
        before = decision.before
        if decision.action.doubler:
            assert before.can_double and decision.side is before.turn
        else:
            assert before.cube is not None and before.cube.offered
        if decision.index < len(played):  # the turn after it: the cube as the decision left it
            ready, _ = played[decision.index]
            assert ready.turn is before.turn
    if played:  # every roll's game has the cube as it stood
        assert played[-1][0].cube_value <= end.cube_value
    judged = judge_cube(decisions)
    assert [j.decision for j in judged] == decisions
    for one in judged:
        assert one.loss >= 0.0
        if one.action is one.best:
            assert one.loss == 0.0
        if one.action is not CubeAction.NO_DOUBLE:
            assert one.counted
        else:
            assert one.counted == (one.equities.no_double - one.equities.double < CLOSE)
    assert pickle.loads(pickle.dumps(judged)) == judged  # they cross a process boundary


def test_pr_counts_the_cube_decisions() -> None:
    """A game with doubles: PR's decisions are the turns with a choice and the counted cube
    decisions, its loss theirs together; the summary lists the cube errors."""
    start, entries, end = cube_game("short", seed=7, turns=60, doubles=0.5, takes=1.0)
    played, decisions = replayed(start, entries)
    judged = judge_cube(decisions)
    assert any(j.action is CubeAction.DOUBLE for j in judged)
    assert any(j.action is CubeAction.TAKE for j in judged)
    reviews = review(played, range(len(played)))
    rolls = luck(played, range(len(played)), ply=0)
    figures = game_luck(rolls, reviews, end.result, judged)
    summaries = summarise(reviews, judged)
    for side in (Side.WHITE, Side.BLACK):
        turns = [r for r in reviews if r.side is side]
        cube = [j for j in judged if j.side is side and j.counted]
        assert figures[side].decisions == len(turns) + len(cube)
        assert figures[side].lost == pytest.approx(
            sum(r.loss for r in turns) + sum(j.loss for j in cube)
        )
        assert summaries[side].cube_decisions == len(cube)
        errors = summaries[side].cube_errors
        assert all(e.loss >= 0.08 and e.side is side for e in errors)
        assert [e.loss for e in errors] == sorted((e.loss for e in errors), reverse=True)
    # the rolls carry the cube's value as it stood: doubled after each take
    assert max(r.cube for r in rolls) == 2 ** sum(j.action is CubeAction.TAKE for j in judged)


RACE_AHEAD = "6:3 5:3 4:3 3:2 2:2 1:2"
CLEAR: list[tuple[str, str, CubeAction, CubeAction]] = [
    # (why, position with white to move, white's best, black's best answer)
    (
        "short opening",
        "short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5",
        CubeAction.NO_DOUBLE,
        CubeAction.TAKE,
    ),
    (
        "short race 2 ahead",
        f"short w / {RACE_AHEAD} / 6:3 5:3 4:3 3:3 2:2 1:1",
        CubeAction.NO_DOUBLE,
        CubeAction.TAKE,
    ),
    (
        "long race 16 ahead",
        f"long w / {RACE_AHEAD} / 6:5 5:5 4:3 3:2",
        CubeAction.DOUBLE,
        CubeAction.DROP,
    ),
    (
        "short race 16 ahead",
        f"short w / {RACE_AHEAD} / 6:5 5:5 4:3 3:2",
        CubeAction.DOUBLE,
        CubeAction.DROP,
    ),
]


@pytest.mark.parametrize(("why", "text", "double", "answer"), CLEAR, ids=[c[0] for c in CLEAR])
def test_clear_decisions_by_the_model(
    why: str, text: str, double: CubeAction, answer: CubeAction
) -> None:
    """Positions whose cube decisions are not in doubt (races, GNU Backgammon's figures in
    tests/ai/test_cube.py): the model on the net's chances gets them right."""
    position = Position.from_text(text)
    game = Game(
        position.variant,
        resolve_rules(position.variant, None),
        position,
        moved=frozenset(Side),
        cube=Cube(),
    )
    doubler, answering = judge_cube(
        [CubeDecision(0, game, double), CubeDecision(0, game.double(), answer)]
    )
    assert doubler.best is double and doubler.loss == 0.0, doubler.equities
    assert answering.best is answer and answering.loss == 0.0, answering.equities
    wrong = CubeAction.NO_DOUBLE if double is CubeAction.DOUBLE else CubeAction.DOUBLE
    missed = judge_cube([CubeDecision(0, game, wrong)])[0]
    assert missed.loss > 0.0 and missed.counted
