"""Game states for the computer player's tests: every way a game can be played, and seeded
positions from random self-play."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bot.ai.analysis import CubeRecord
from bot.ai.cubeful import CubeAction
from bot.engine import VARIANTS, Game, Side, TurnRecord, find_variant
from bot.engine.position import FAMILY
from tests.engine.strategies import advance, random_turn, ready

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


def cube_game(
    variant: str, seed: int, turns: int, *, doubles: float = 0.3, takes: float = 0.7
) -> tuple[Game, list[TurnRecord | CubeRecord], Game]:
    """A game with the cube: from a seeded start, up to ``turns`` random legal turns, where
    before each roll the side that may double does so with chance ``doubles`` and the answer
    is a take with chance ``takes``. Returns the start, the history as the bot keeps it (turn
    records and cube actions, each read back from its text) and the game at the end."""
    rng = random.Random(seed)
    start = Game.start(variant, rng, cube=True)
    game = start
    entries: list[TurnRecord | CubeRecord] = []
    for _ in range(turns):
        if game.is_over:
            break
        if game.can_double and rng.random() < doubles:
            entries.append(CubeRecord(game.turn, CubeAction.DOUBLE))
            game = game.double()
            take = rng.random() < takes
            entries.append(CubeRecord(game.to_act, CubeAction.TAKE if take else CubeAction.DROP))
            game = game.take() if take else game.drop()
            continue
        game = ready(game, rng)
        turn = random_turn(game, rng)
        entries.append(TurnRecord.from_text(game.record(turn).to_text()))
        game = game.play(turn)
    return start, entries, game
