"""Hypothesis strategies: valid positions of both variants, dice, and self-play positions."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bot.engine import Dice, Game, Position, RuleSet, Side, opponent_point, resolve_rules

dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


@st.composite
def _side(draw: st.DrawFn, variant: str, taken: set[int], home_only: bool) -> list[int]:
    slots = [0] * 26
    free = [p for p in (range(1, 7) if home_only else range(1, 25)) if p not in taken]
    off = draw(st.integers(0, 14)) if home_only else draw(st.sampled_from([0, 0, 0, 3]))
    bar = draw(st.integers(0, 2)) if variant == "short" and not home_only else 0
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
    black = draw(_side(variant, taken, draw(st.booleans())))
    turn = draw(st.sampled_from([Side.WHITE, Side.BLACK]))
    return Position(variant, turn, tuple(white), tuple(black))


@st.composite
def played_positions(draw: st.DrawFn, variant: str | None = None) -> tuple[Game, RuleSet]:
    """A game after a random number of random legal turns from a random seed, dice rolled."""
    variant = variant or draw(st.sampled_from(["long", "short"]))
    rule_name = (
        draw(st.sampled_from(["classic", "sheshbesh", "karzar"])) if variant == "long" else None
    )
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = Game.start(variant, rng, rules=rule_name)
    for _ in range(draw(st.integers(0, 120))):
        if game.dice is None:
            game = game.roll(rng)
        turns = game.legal_turns()
        after = game.play(rng.choice(turns)) if turns else game.pass_turn()
        if after.is_over:
            break
        game = after
    if game.dice is None:
        game = game.roll(rng)
    return game, resolve_rules(variant, rule_name)


rule_sets = st.sampled_from(["classic", "sheshbesh", "karzar"])
