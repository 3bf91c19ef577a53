"""Looking at a roll's turns: by the net alone (0-ply) or a roll ahead (1-ply).

0-ply values each turn by the net's equity of the position it reaches. 1-ply plays every roll
the opponent can get next (21 for two dice, 56 for three), lets the opponent answer each with
its best turn by the net, and averages what is left for the mover; it is done for the few
turns 0-ply likes best (pruning), because the others almost never win the comparison.

Where the opponent's next move is not an ordinary roll the look-ahead falls back to 0-ply:
after a turn that hands a gul-bara remainder over, after a gul-bara double played in full (the
mover rolls again), after a gul-bara remainder turn (the mover then rolls its own dice). An
opponent's reply that plays a gul-bara double in full is valued with the opponent to roll
again. In ``anti_three`` the opponent is assumed to play the two dice a strike leaves as an
ordinary two-dice roll. A roll that gives the opponent more than six moves (crazy gul-bara's
cascades, thousands of turns each) is not played through: the net's value of the position
before that roll stands for it, which keeps a decision within a second.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import factorial
from typing import Final

import numpy as np
from numpy.typing import NDArray

from bot.engine import Dice, DiceMode, Game, Position, Turn, find_variant, turns_for

from .evaluator import Evaluator


def _rolls(count: int) -> tuple[tuple[Dice, float], ...]:
    """Every distinct roll of ``count`` dice with its probability."""
    found = []
    for values in combinations_with_replacement(range(6, 0, -1), count):
        ways = factorial(count)
        for value in set(values):
            ways //= factorial(values.count(value))
        found.append((Dice(*values), ways / 6**count))
    return tuple(found)


ROLLS: Final = {2: _rolls(2), 3: _rolls(3)}
"""The 21 rolls of two dice and the 56 of three, with their probabilities."""
MAX_LOOKED_AT: Final = 6
"""The most moves a roll may give for the look-ahead to play it through (three dice give
six with a triple; crazy gul-bara's cascades more)."""


def after(game: Game, turns: Sequence[Turn]) -> list[Position]:
    """The position each turn leaves, with the side that moves next as :meth:`Game.play`
    has it: the opponent, except after a gul-bara remainder turn (the mover then rolls its own
    dice) and after a gul-bara double played in full (the mover rolls again). A turn's own
    :attr:`~bot.engine.Turn.position` always has the opponent to move."""
    me = game.turn
    moves = game.moves
    if game.remainder:
        return [t.position.with_turn(me) for t in turns]
    if moves is None or not moves.double or not find_variant(game.variant).chains:
        return [t.position for t in turns]
    return [t.position.with_turn(me) if t.played and not t.remainder else t.position for t in turns]


def ply0(evaluator: Evaluator, game: Game, turns: Sequence[Turn]) -> NDArray[np.float64]:
    """The mover's equity after each turn, by the net."""
    return evaluator.equities_for(
        game.turn, after(game, turns), game.rules, [t.remainder for t in turns]
    )


def ply1(evaluator: Evaluator, game: Game, turns: Sequence[Turn]) -> NDArray[np.float64]:
    """The mover's equity after each turn, a roll ahead (see the module docstring)."""
    me = game.turn
    rules = game.rules
    variant = find_variant(game.variant)
    dice_count = 3 if game.dice_mode is DiceMode.THREE else 2
    rolls = ROLLS[dice_count]
    their_first = me.other not in game.moved
    values = ply0(evaluator, game, turns)
    for index, (turn, left) in enumerate(zip(turns, after(game, turns), strict=True)):
        if turn.remainder or left.turn is me or _finished(left):
            continue  # a remainder or the mover's roll comes next, or the game is over: 0-ply
        reached: list[Position] = []
        pending: list[tuple[int, ...]] = []
        bounds: list[int] = []
        for dice, _ in rolls:
            moves = variant.move_list(dice, rules)
            bounds.append(len(reached))
            if len(moves.values) > MAX_LOOKED_AT:  # a cascade: the position before it stands
                reached.append(left)
                pending.append(())
                continue
            replies = turns_for(left, moves, first_turn=their_first, rules=rules)
            if replies:
                chains = moves.double and variant.chains
                reached.extend(
                    r.position.with_turn(me.other)
                    if chains and r.played and not r.remainder
                    else r.position
                    for r in replies
                )
                pending.extend(r.remainder for r in replies)
            else:
                reached.append(left.with_turn(me))
                pending.append(moves.values if moves.hands_on else ())
        mine = evaluator.equities_for(me, reached, rules, pending)
        worst = np.minimum.reduceat(mine, bounds)
        values[index] = float(np.dot(worst, [p for _, p in rolls]))
    return values


def _finished(position: Position) -> bool:
    return position.white[0] == 15 or position.black[0] == 15
