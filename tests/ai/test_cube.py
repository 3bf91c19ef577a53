"""Cube decisions on hand-made positions whose right decision is not in doubt: each follows
the money-game model of :mod:`bot.ai.cubeful` from the net's chances, at every level, and the
model puts each position on the right side.

If the net misjudges one of these positions after a retraining, that is the net's fault, not
the test's: look at the equity the failure prints before changing a position."""

from __future__ import annotations

import pytest

from bot.ai import LEVELS, offers_double, takes_double
from bot.ai.computer import Computer
from bot.ai.cubeful import Chances, equities
from bot.ai.evaluator import evaluator
from bot.engine import Cube, Game, Position, Side, resolve_rules

from .games import BOTH

# Races: every checker home, so nothing but the dice decides and no side can lose a mars
# (GNU Backgammon's 0-ply figures for the short board, the same race as the long one's, in the
# comments: the side to move's wins and cubeless equity).
AHEAD = "6:3 5:3 4:3 3:2 2:2 1:2"
"""57 pips."""
LEVEL = "6:3 5:3 4:3 3:3 2:2 1:1"
"""59 pips: 2 behind (wins 67%, equity +0.34: no double, a take)."""
BEHIND = "6:5 5:5 4:3 3:2"
"""73 pips: 16 behind (wins 89%, +0.78: a double, a drop)."""
FAR_BEHIND = "6:10 5:5"
"""85 pips: 28 behind (wins 97%, +0.95: a drop; close to too good to double)."""

CASES: list[tuple[str, str, bool | None, bool]] = [
    # (why, position, the side to move doubles (None: no claim), the opponent takes)
    ("short opening", "short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", False, True),
    ("long opening", "long w / 24:15 / 24:15", False, True),
    ("short race 2 ahead", f"short w / {AHEAD} / {LEVEL}", False, True),
    ("long race 2 ahead", f"long w / {AHEAD} / {LEVEL}", False, True),
    ("short race 16 ahead", f"short w / {AHEAD} / {BEHIND}", True, False),
    ("long race 16 ahead", f"long w / {AHEAD} / {BEHIND}", True, False),
    ("short race 28 ahead", f"short w / {AHEAD} / {FAR_BEHIND}", None, False),
    ("long race 28 ahead", f"long w / {AHEAD} / {FAR_BEHIND}", None, False),
    ("short race 28 behind", f"short b / {AHEAD} / {FAR_BEHIND}", False, True),
    ("long race 28 behind", f"long b / {AHEAD} / {FAR_BEHIND}", False, True),
]


def game_of(text: str, cube: Cube | None = None) -> Game:
    """The game in ``text``'s position, both sides past their first turn, before the roll,
    with a centred cube by default."""
    position = Position.from_text(text)
    variant = position.variant
    return Game(variant, resolve_rules(variant, None), position, moved=BOTH, cube=cube or Cube())


@pytest.mark.parametrize(("why", "text", "doubles", "takes"), CASES, ids=[c[0] for c in CASES])
def test_cube_decisions_follow_the_model(
    why: str, text: str, doubles: bool | None, takes: bool
) -> None:
    game = game_of(text)
    out = evaluator(game.variant).probabilities([game.position])[0]
    model = equities(
        Chances.from_outputs(out.tolist(), game.rules),
        centred=True,
        drop=float(game.rules.drop),
    )
    for number in (lv.number for lv in LEVELS):  # the same at every level
        computer = Computer(number)
        assert computer.wants_double(game) == model.should_double, model
        assert computer.takes(game) == model.should_take, model
    assert offers_double(game) == Computer().wants_double(game)
    assert takes_double(game) == Computer().takes(game)


@pytest.mark.parametrize(("why", "text", "doubles", "takes"), CASES, ids=[c[0] for c in CASES])
def test_clear_cube_decisions(why: str, text: str, doubles: bool | None, takes: bool) -> None:
    """The model, from the net's chances, decides each position as it should be."""
    game = game_of(text)
    model = Computer().cube(game)
    if doubles is not None:
        assert offers_double(game) == doubles, f"{why}: {model}"
    assert takes_double(game) == takes, f"{why}: {model}"


def test_no_double_without_the_cube_or_with_the_opponents() -> None:
    text = f"short w / {AHEAD} / {BEHIND}"
    assert not Computer().wants_double(game_of(text, Cube(2, Side.BLACK)))
    position = Position.from_text(text)
    cubeless = Game("short", resolve_rules("short", None), position, moved=BOTH)
    assert not cubeless.can_double
    assert not Computer().wants_double(cubeless)
