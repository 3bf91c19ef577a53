"""The bear-off table (:mod:`bot.ai.bearoff`): the shipped table satisfies the equation it was
built by, for homes the tests pick, through each family's own legal turns (long and short
nardy bear off alike); the win chance reads it as the race does; the evaluator answers from it
where it applies."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai.bearoff import HOMES, VARIANT, homes, rank, table
from bot.ai.evaluator import evaluator
from bot.engine import (
    CHECKERS,
    Dice,
    Family,
    Position,
    Side,
    find_variant,
    resolve_rules,
    turns_for,
)

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAMILIES = [Family.SHORT, Family.LONG]

EVERY = homes()
home = st.integers(1, HOMES - 1).map(lambda index: [int(c) for c in EVERY[index]])
"""Any home with a checker left to bear off."""


def test_homes_are_ranked_one_to_one() -> None:
    every = EVERY
    assert every.shape == (HOMES, 6)
    assert (rank(every) == np.arange(HOMES)).all()
    assert len({tuple(h) for h in every}) == HOMES
    assert (every.sum(axis=1) <= CHECKERS).all()


def _mover(family: Family, counts: list[int]) -> Position:
    mine = (CHECKERS - sum(counts), *counts, *[0] * 19)
    theirs = (0, CHECKERS, *[0] * 24)
    return Position.unchecked(VARIANT[family], Side.WHITE, mine, theirs)


@pytest.mark.parametrize("family", FAMILIES, ids=str)
@SETTINGS
@given(counts=home)
def test_each_home_needs_one_roll_more_than_its_best_turns(
    family: Family, counts: list[int]
) -> None:
    """The distribution of a home is, over the 21 rolls, the distribution of the home its
    best turn reaches (the fewest rolls on average) a roll later: checked against the engine's
    legal turns, not the ones the table was built with."""
    shipped = table()
    variant = find_variant(VARIANT[family])
    rules = resolve_rules(VARIANT[family], None)
    position = _mover(family, counts)
    expected = np.zeros(shipped.whole.shape[1])
    for high, low in combinations_with_replacement(range(6, 0, -1), 2):
        moves = variant.move_list(Dice(high, low), rules)
        turns = turns_for(position, moves, first_turn=False, rules=rules)
        reached = rank(np.array([t.position.white[1:7] for t in turns]))
        best = reached[int(np.argmin(shipped.expected(reached)))]
        expected[1:] += (1 if high == low else 2) / 36 * shipped.whole[best, :-1]
    found = shipped.whole[rank(np.array([counts]))[0]]
    assert np.abs(found - expected).max() < 1e-3  # 16-bit storage


def test_the_race_reads_the_table() -> None:
    shipped = table()
    one = np.array([[1, 0, 0, 0, 0, 0]])
    assert shipped.win(one, one)[0] == pytest.approx(1.0)  # on roll, one roll is enough
    six = np.array([[0, 0, 0, 0, 0, 2]])
    # two on the six point bear off in one roll with 3-3, 4-4, 5-5 or 6-6 (each checker takes
    # two of the four moves), else the other side, one checker on its one point, is off first
    assert shipped.win(six, one)[0] == pytest.approx(4 / 36, abs=1e-4)
    # equal homes: the side to move is ahead by a roll
    middle = np.array([[2, 2, 2, 2, 2, 2]])
    assert 0.5 < shipped.win(middle, middle)[0] < 1.0


def test_the_evaluator_answers_bear_offs_from_the_table() -> None:
    net = evaluator("short")
    assert net.table is not None
    race = Position.from_text("short w / 6:3 5:3 4:3 off:6 / 6:4 3:4 off:7")
    rules = resolve_rules("short", None)
    own = np.array([race.white])
    theirs = np.array([race.black])
    win = net.table.win(own[:, 1:7], theirs[:, 1:7])[0]
    assert net.equities_for(Side.WHITE, [race], rules)[0] == pytest.approx(2 * win - 1, abs=1e-6)
    assert net.equities_for(Side.BLACK, [race], rules)[0] == pytest.approx(1 - 2 * win, abs=1e-6)
    # one side with nothing off yet: the chance to win is the table's, a mars the net's
    early = Position.from_text("short b / 6:5 5:5 4:5 / 6:4 3:4 off:7")
    own, theirs = np.array([early.black]), np.array([early.white])
    probabilities = net.probabilities([early])[0]
    assert probabilities[0] == pytest.approx(net.table.win(own[:, 1:7], theirs[:, 1:7])[0])
    assert 0 < probabilities[1] <= probabilities[0]  # white may still win a mars: black, none
    assert probabilities[3] == 0 and probabilities[2] == probabilities[4] == 0
