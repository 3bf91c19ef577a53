"""Luck and PR (:mod:`bot.ai.luck`): the mean luck over every roll at a position is zero, a
forced roll's luck is its real value, the engine's own best play has PR 0, and luck is
zero-sum: a side's luck is the other's negated, in any game, and so are the luck-adjusted
results. 0-ply, short games, few examples."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.analysis import judge_cube, replayed, review, states
from bot.ai.computer import Computer
from bot.ai.luck import game_luck, is_roll, luck, match_luck, roll_values
from bot.ai.sage import for_game
from bot.ai.search import ply0
from bot.engine import Game, Side, Turn
from tests.ai.games import cube_game, games
from tests.ai.test_analysis import AnalysisBest, self_played

Played = list[tuple[Game, Turn]]

PLAYS = [
    ("short", "two", "standard"),
    ("short", "three", "standard"),
    ("short", "anti_three", "standard"),
    ("long", "two", "classic"),
    ("gulbara", "two", "classic"),
    ("crazy_gulbara", "two", "classic"),
]


@pytest.mark.parametrize("play", PLAYS, ids="/".join)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mean_luck_over_every_roll_is_zero(play: tuple[str, str, str], data: st.DataObject) -> None:
    game = data.draw(games(play, most=30))
    if game.remainder:
        return
    before = replace(game, dice=None, struck=None)
    values = roll_values(before, ply=0)
    assert len(values) == (21 if play[1] == "two" else 56)
    assert sum(p for _, p, _ in values) == pytest.approx(1.0)
    mean = sum(p * v for _, p, v in values)
    assert sum(p * (v - mean) for _, p, v in values) == pytest.approx(0.0, abs=1e-9)
    assert all(-3.0 <= v <= 3.0 for _, _, v in values)


@pytest.fixture(scope="module")
def short_game() -> Played:
    start, records = self_played("short", "two", AnalysisBest(), Computer(1), seed=4)
    return states(start, records)


def test_each_roll_and_forced_rolls(short_game: Played) -> None:
    rolls = luck(short_game, range(len(short_game)), ply=0)
    assert [r.index for r in rolls] == [i for i in range(len(short_game)) if is_roll(short_game, i)]
    assert 0 not in [r.index for r in rolls]  # the short board's opening roll
    for r in rolls:
        ready, _ = short_game[r.index]
        assert r.side is ready.turn
        assert r.luck == pytest.approx(r.value - r.mean)
    forced = [r for r in rolls if r.forced]
    assert forced
    for r in forced:  # the one turn's (or the pass's) real value against the mean
        ready, turn = short_game[r.index]
        assert r.value == pytest.approx(float(ply0(for_game(ready), ready, [turn])[0]))
        before = replace(ready, dice=None, struck=None)
        values = roll_values(before, ply=0)
        assert r.mean == pytest.approx(sum(p * v for _, p, v in values))
    assert any(abs(r.luck) > 1e-3 for r in forced)  # not zero by convention


def test_pr_of_the_engines_best_play_is_zero(short_game: Played) -> None:
    reviews = review(short_game, range(len(short_game)))
    rolls = luck(short_game, range(len(short_game)), ply=0)
    figures = game_luck(rolls, reviews)
    white = figures[Side.WHITE]  # it plays the analysis's own best
    assert white.decisions > 0 and white.pr < 1e-6
    black = figures[Side.BLACK]
    assert black.pr >= 0.0 and black.error_rate == pytest.approx(2 * black.pr)


def test_luck_is_the_other_sides_negated(short_game: Played) -> None:
    last, turn = short_game[-1]
    result = last.play(turn).result
    assert result is not None
    rolls = luck(short_game, range(len(short_game)), ply=0)
    figures = game_luck(rolls, review(short_game, range(0)), result)
    white, black = figures[Side.WHITE], figures[Side.BLACK]
    own = {s: sum(r.luck for r in rolls if r.side is s) for s in Side}
    assert white.luck == pytest.approx(own[Side.WHITE] - own[Side.BLACK])
    assert white.luck == pytest.approx(-black.luck)
    assert white.luck_points == pytest.approx(white.luck)  # no cube: its luck in points is the same
    assert white.result == -black.result  # type: ignore[operator]
    assert white.adjusted == pytest.approx(-black.adjusted)  # type: ignore[operator]
    assert white.adjusted == pytest.approx(white.result - white.luck)  # type: ignore[operator]
    # a match of the same game twice, the players swapping sides
    totals = match_luck(
        [
            (figures, {Side.WHITE: "a", Side.BLACK: "b"}),
            (figures, {Side.WHITE: "b", Side.BLACK: "a"}),
        ]
    )
    assert totals["a"].luck == pytest.approx(white.luck + black.luck) == pytest.approx(0.0)
    assert totals["a"].rolls == white.rolls + black.rolls
    assert totals["a"].adjusted == pytest.approx(-totals["b"].adjusted)  # type: ignore[operator]


@pytest.mark.parametrize("variant", ["short", "long"])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), turns=st.integers(1, 40), doubles=st.floats(0.0, 0.5))
def test_luck_sums_to_zero_between_the_sides(
    variant: str, seed: int, turns: int, doubles: float
) -> None:
    """For any game, with or without the cube's turns, finished or not: the two sides' lucks
    add up to 0, so do their lucks in points and their luck-adjusted results."""
    start, entries, end = cube_game(variant, seed, turns, doubles=doubles)
    played, decisions = replayed(start, entries)
    rolls = luck(played, range(len(played)), ply=0)
    figures = game_luck(rolls, [], end.result, judge_cube(decisions))
    white, black = figures[Side.WHITE], figures[Side.BLACK]
    assert white.luck + black.luck == pytest.approx(0.0, abs=1e-9)
    assert white.luck_points + black.luck_points == pytest.approx(0.0, abs=1e-9)
    assert white.rolls + black.rolls == len(rolls)
    if end.result is None:
        assert white.adjusted is None and black.adjusted is None
    else:
        assert white.adjusted + black.adjusted == pytest.approx(0.0, abs=1e-9)  # type: ignore[operator]
        assert white.result == (
            end.result.points if end.result.winner is Side.WHITE else -end.result.points
        )


def test_a_roll_ahead_the_mean_is_zero_too(short_game: Played) -> None:
    """At the review's own ply (1), which the bot does not run: one position."""
    before = replace(short_game[6][0], dice=None, struck=None)
    values = roll_values(before, ply=1)
    mean = sum(p * v for _, p, v in values)
    assert sum(p * (v - mean) for _, p, v in values) == pytest.approx(0.0, abs=1e-9)
    rolls = luck(short_game, range(6, 7), ply=1)
    assert rolls[0].mean == pytest.approx(mean)
