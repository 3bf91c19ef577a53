"""Positions where neither side can ever move (:attr:`Game.is_deadlocked`): the short-nardy
shut-out both ways, and a property against every roll of every dice mode and rule set."""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Dice, Game, Position, Side
from bot.engine import game as game_module
from bot.engine.position import FAMILY

from .strategies import MODES, RULE_SETS, positions

TWO_DICE = [Dice(a, b) for a, b in itertools.combinations_with_replacement(range(1, 7), 2)]
THREE_DICE = [Dice(*r) for r in itertools.combinations_with_replacement(range(1, 7), 3)]


@pytest.mark.parametrize(
    ("text", "deadlocked"),
    [
        # both on the bar, facing closed boards: every roll passes, for both, for ever
        ("short w / bar:1 13:2 6:2 5:2 4:2 3:2 2:2 1:2 / bar:1 13:2 6:2 5:2 4:2 3:2 2:2 1:2", True),
        ("short b / bar:2 13:1 6:2 5:2 4:2 3:2 2:2 1:2 / bar:1 13:2 6:2 5:2 4:2 3:2 2:2 1:2", True),
        # white is shut out, but black (not on the bar) moves, and must open its board some day
        ("short w / bar:1 13:2 6:2 5:2 4:2 3:2 2:2 1:2 / 13:3 6:2 5:2 4:2 3:2 2:2 1:2", False),
        # black's board has a gap (its 1, white's 24): white enters with a 1
        ("short w / bar:1 13:2 6:2 5:2 4:2 3:2 2:2 1:2 / bar:1 13:4 6:2 5:2 4:2 3:2 2:2", False),
        # the gap is black's 6 (white's 19): only a 6 lets white in
        ("short w / bar:1 13:2 6:2 5:2 4:2 3:2 2:2 1:2 / bar:1 13:4 5:2 4:2 3:2 2:2 1:2", False),
    ],
)
def test_deadlocked_positions(text: str, deadlocked: bool) -> None:
    position = Position.from_text(text)
    assert Game.setup(position).is_deadlocked is deadlocked
    for mode in MODES["short"]:
        assert Game.setup(position, dice_mode=mode).is_deadlocked is deadlocked


def test_the_shut_out_of_the_issue_is_deadlocked() -> None:
    assert doctest.testmod(game_module).failed == 0  # Game.is_deadlocked's example: LbbYDAAtttgMAC


@st.composite
def shut_outs(draw: st.DrawFn) -> Position:
    """Short-family positions near a shut-out both ways (about a third are): each side's
    home closed but for at most one point, none to two checkers of each on the bar, the rest
    on its 13."""
    variant = draw(st.sampled_from([v for v, family in FAMILY.items() if family == "short"]))
    sides = []
    for _ in Side:
        gap = draw(st.sampled_from([None, None, None, None, 1, 2, 3, 4, 5, 6]))
        slots = [0] * 26
        for point in range(1, 7):
            slots[point] = 0 if point == gap else 2
        slots[25] = draw(st.sampled_from([1, 1, 2, 0]))
        slots[13] = 15 - sum(slots)
        sides.append(tuple(slots))
    return Position(variant, draw(st.sampled_from(list(Side))), sides[0], sides[1])


def _passes_on_every_roll(position: Position, rules: str, mode: str) -> bool:
    """Whether both sides pass on every roll of ``mode`` (a strike leaves two dice), as the
    game itself plays them: the whole turn search, first-turn exceptions included."""
    rolls = THREE_DICE if mode == "three" else TWO_DICE
    for side in Side:
        set_up = Game.setup(position.with_turn(side), rules=rules, dice_mode=mode)
        if any(not set_up.with_dice(roll).turn_input().is_complete for roll in rolls):
            return False
    return True


@settings(max_examples=150, deadline=None)
@given(st.one_of(shut_outs(), st.sampled_from(sorted(MODES)).flatmap(positions)))
def test_deadlocked_means_every_roll_of_every_mode_passes_for_both(position: Position) -> None:
    for mode, rules in itertools.product(MODES[position.variant], RULE_SETS[position.variant]):
        expected = _passes_on_every_roll(position, rules, mode)
        assert Game.setup(position, rules=rules, dice_mode=mode).is_deadlocked is expected
