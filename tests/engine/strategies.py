"""Hypothesis strategies: valid positions of every variant, dice, and self-play positions."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bot.engine import Dice, Game, Position, RuleSet, Side, Turn, opponent_point
from bot.engine.position import FAMILY

dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))
three_dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))
remainders = st.lists(st.integers(1, 6), min_size=1, max_size=6).map(tuple)

MODES: dict[str, tuple[str, ...]] = {
    "long": ("two",),
    "short": ("two", "three", "anti_three"),
    "abkhaz": ("two", "three", "anti_three"),
    "gulbara": ("two",),
    "crazy_gulbara": ("two",),
}
"""The dice modes of each variant."""
RULE_SETS: dict[str, tuple[str, ...]] = {
    "long": ("classic", "sheshbesh", "karzar"),
    "short": ("standard",),
    "abkhaz": ("standard",),
    "gulbara": ("classic",),
    "crazy_gulbara": ("classic", "international"),
}
"""The rule sets (presets) of each variant."""
PLAYS: tuple[tuple[str, str, str], ...] = tuple(
    (variant, mode, rules)
    for variant, modes in MODES.items()
    for mode in modes
    for rules in RULE_SETS[variant]
)
"""Every (variant, dice mode, rule set) a game can be played with."""


@st.composite
def _side(draw: st.DrawFn, variant: str, taken: set[int], home_only: bool) -> list[int]:
    slots = [0] * 26
    free = [p for p in (range(1, 7) if home_only else range(1, 25)) if p not in taken]
    off = draw(st.integers(0, 14)) if home_only else draw(st.sampled_from([0, 0, 0, 3]))
    short = FAMILY[variant] == "short"
    bar = draw(st.integers(0, 2)) if short and not home_only else 0
    slots[0], slots[25] = off, bar
    left = 15 - off - bar
    points = draw(st.lists(st.sampled_from(free), min_size=1, max_size=7, unique=True))
    for index in range(left):
        slots[
            points[index % len(points)] if index < len(points) else draw(st.sampled_from(points))
        ] += 1
    return slots


@st.composite
def positions(draw: st.DrawFn, variant: str | None = None) -> Position:
    """Valid positions: spread out, or one side bearing off, with either side to move."""
    variant = variant or draw(st.sampled_from(["long", "short"]))
    white = draw(_side(variant, set(), draw(st.booleans())))
    taken = {opponent_point(variant, p) for p in range(1, 25) if white[p]}
    # black bears off only where white leaves it a point of its home (white's spread can hold
    # all six: then sampling black's points had nothing to sample from)
    home_free = any(p not in taken for p in range(1, 7))
    black = draw(_side(variant, taken, draw(st.booleans()) and home_free))
    turn = draw(st.sampled_from([Side.WHITE, Side.BLACK]))
    return Position(variant, turn, tuple(white), tuple(black))


def random_turn(game: Game, rng: random.Random) -> Turn:
    """A random legal turn: uniform over the legal turns where listing them is cheap, else
    built tap by tap with random steps (crazy gul-bara's cascades can have thousands)."""
    if game.variant != "crazy_gulbara":
        turns = game.legal_turns()
        return rng.choice(turns) if turns else game.turn_input().turn()
    current = game.turn_input()
    while not current.is_complete:
        current = current.play(rng.choice(current.options))
    return current.turn()


def ready(game: Game, rng: random.Random) -> Game:
    """The game with something to play: rolled (and a die struck) if it is waiting for that."""
    if game.needs_roll:
        game = game.roll(rng)
    if game.strike_pending:
        assert game.dice is not None
        game = game.strike(rng.choice(game.dice.values))
    return game


def advance(game: Game, rng: random.Random) -> Game:
    """The game after one random turn (the roll and strike made first where needed)."""
    game = ready(game, rng)
    turn = random_turn(game, rng)
    return game.play(turn) if turn.played else game.pass_turn()


@st.composite
def played_positions(
    draw: st.DrawFn, variant: str | None = None, dice_mode: str | None = None
) -> tuple[Game, RuleSet]:
    """A game after a random number of random legal turns from a random seed, with something
    to play (dice rolled, a die struck, or a remainder handed over)."""
    variant = variant or draw(st.sampled_from(["long", "short"]))
    mode = dice_mode or draw(st.sampled_from(MODES[variant]))
    rule_name = draw(st.sampled_from(RULE_SETS[variant]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = Game.start(variant, rng, rules=rule_name, dice_mode=mode)
    for _ in range(draw(st.integers(0, 120))):
        after = advance(game, rng)
        if after.is_over:
            break
        game = after
    return ready(game, rng), game.rules


rule_sets = st.sampled_from(["classic", "sheshbesh", "karzar"])


def walk(game: Game, rng: random.Random, turns: int) -> list[Game]:
    """Every state of ``game`` played on with random choices for up to ``turns`` turns: the
    rolls, strikes and turns (remainders, chains and cascades as they come), and where the
    game has a cube, doubles now and then, taken or dropped; a game not over by then is
    resigned or lost on time half the time. The states a stored game can be in, in order."""
    states = [game]
    for _ in range(turns):
        if game.is_over:
            return states
        if game.can_double and rng.random() < 0.15:
            game = game.double()
            states.append(game)
            game = game.drop() if rng.random() < 0.2 else game.take()
        elif game.needs_roll:
            game = game.roll(rng)
        elif game.strike_pending:
            assert game.dice is not None
            game = game.strike(rng.choice(game.dice.values))
        else:
            turn = random_turn(game, rng)
            game = game.play(turn) if turn.played else game.pass_turn()
        states.append(game)
    if not game.is_over and rng.random() < 0.5:
        states.append(game.resign(rng.choice(list(Side))) if rng.random() < 0.5 else game.timeout())
    return states
