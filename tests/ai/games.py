"""Game states for the computer player's tests: every way a game can be played, and seeded
positions from random self-play."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bot.engine import VARIANTS, Game, Side, find_variant
from bot.engine.position import FAMILY
from tests.engine.strategies import advance

BOTH = frozenset({Side.WHITE, Side.BLACK})
"""``Game.moved`` when both sides have made a turn."""


def modes(variant: str) -> tuple[str, ...]:
    """The dice modes of ``variant``: three dice and anti three for the short board only."""
    return ("two", "three", "anti_three") if FAMILY[variant] == "short" else ("two",)


PLAYS: tuple[tuple[str, str, str], ...] = tuple(
    (variant, mode, rules)
    for variant in VARIANTS
    for mode in modes(variant)
    for rules in find_variant(variant).rule_sets
)
"""Every (variant, dice mode, rule set) a game can be played with, from the engine itself."""


def play_id(play: tuple[str, str, str]) -> str:
    return "/".join(play)


def played(
    variant: str, mode: str, rules: str, seed: int, turns: int
) -> tuple[Game, random.Random]:
    """The game after up to ``turns`` random legal turns from a seeded start (not yet rolled
    for the next turn, or with a remainder to play), and the generator that made it."""
    rng = random.Random(seed)
    game = Game.start(variant, rng, rules=rules, dice_mode=mode)
    for _ in range(turns):
        after = advance(game, rng)
        if after.is_over:
            break
        game = after
    return game, rng


@st.composite
def games(draw: st.DrawFn, play: tuple[str, str, str], most: int = 80) -> Game:
    """A game of ``play`` after a random number of random turns, with something to play: the
    dice rolled (in ``anti_three`` still waiting for the strike) or a remainder handed over."""
    game, rng = played(*play, draw(st.integers(0, 2**32)), draw(st.integers(0, most)))
    if game.needs_roll:
        game = game.roll(rng)
    return game
