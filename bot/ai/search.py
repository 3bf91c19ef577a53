"""Looking at a roll's turns: by the net alone (0-ply), a roll ahead (1-ply) or two (2-ply).

"The net" is whatever values the variant (:class:`~bot.ai.evaluator.Valuer`): the shipped net
or Open Sage's 1-ply (:mod:`.sage`); where Open Sage searches itself, 1-ply is its 2-ply.
0-ply values each turn by the equity of the position it reaches. 1-ply, for the few turns
0-ply likes best, plays every roll the opponent can get next (21 for two dice, 56 for three),
the opponent's best answer by the net, and averages what is left for the mover. 2-ply (GNU
Backgammon's) values each of those answers at 1-ply from the mover's side, for the two or three
turns 1-ply likes best, with two dice only. Where the opponent's next move is not an ordinary
roll (gul-bara's remainders and chains) the look-ahead falls back to 0-ply; a roll that gives
the opponent more than six moves (crazy gul-bara's cascades) is valued by the net's value of
the position before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import factorial
from typing import Final

import numpy as np
from numpy.typing import NDArray

from bot.engine import (
    Dice,
    DiceMode,
    Game,
    Position,
    RuleSet,
    Side,
    Turn,
    Variant,
    find_variant,
    turns_for,
)

from .evaluator import Valuer


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


def ply0(evaluator: Valuer, game: Game, turns: Sequence[Turn]) -> NDArray[np.float64]:
    """The mover's equity after each turn, by the net (or the valuer)."""
    return evaluator.equities_after(
        game.turn,
        [game.position] * len(turns),
        after(game, turns),
        game.rules,
        [t.remainder for t in turns],
    )


def ply1(evaluator: Valuer, game: Game, turns: Sequence[Turn]) -> NDArray[np.float64]:
    """The mover's equity after each turn, a roll ahead (see the module docstring); by the
    valuer's own search where it has one (Open Sage's 2-ply, :mod:`.sage`)."""
    if evaluator.searches(game):
        ahead = evaluator.deeper(game, turns, 2)
        assert ahead is not None  # no budget: always an answer
        return ahead
    me = game.turn
    rules = game.rules
    variant = find_variant(game.variant)
    rolls = _rolls_of(game)
    chances = [p for _, p in rolls]
    their_first = me.other not in game.moved
    values = ply0(evaluator, game, turns)
    for index, (turn, left) in enumerate(zip(turns, after(game, turns), strict=True)):
        if turn.remainder or left.turn is me or finished(left):
            continue  # a remainder or the mover's roll comes next, or the game is over: 0-ply
        reached, pending, bounds = by_roll(left, rules, variant, rolls, their_first)
        mine = evaluator.equities_after(me, [left] * len(reached), reached, rules, pending)
        worst = np.minimum.reduceat(mine, bounds)
        values[index] = float(np.dot(worst, chances))
    return values


def ply2(
    evaluator: Valuer, game: Game, turns: Sequence[Turn], budget: int | None = None
) -> NDArray[np.float64] | None:
    """The mover's equity after each turn, two rolls ahead (see the module docstring): the
    opponent's best answer to each of its rolls by the net, as 1-ply chooses it, then the
    position it leaves valued at 1-ply for the mover. Where 1-ply stays at 0-ply, so does this;
    so does an answer after which the mover does not simply roll (a gul-bara remainder or
    chain, a finished game).

    ``budget``: the most positions the mover's answers may number, all turns together; None
    (nothing valued) when they would be more. Counted, not timed, so that the same position
    always gets the same answer."""
    me = game.turn
    rules = game.rules
    variant = find_variant(game.variant)
    rolls = _rolls_of(game)
    chances = np.array([p for _, p in rolls])
    their_first = me.other not in game.moved
    values = ply0(evaluator, game, turns)
    looked: list[tuple[int, NDArray[np.float64]]] = []  # (turn, each answer's 0-ply value)
    answers: list[Position | None] = []  # each roll's answer, None where the mover won't roll
    for index, (turn, left) in enumerate(zip(turns, after(game, turns), strict=True)):
        if turn.remainder or left.turn is me or finished(left):
            continue
        reached, pending, bounds = by_roll(left, rules, variant, rolls, their_first)
        mine = evaluator.equities_after(me, [left] * len(reached), reached, rules, pending)
        worst = np.minimum.reduceat(mine, bounds)
        picks = [low + int(np.argmin(mine[low:high])) for low, high in spans(bounds, mine)]
        looked.append((index, worst))
        answers.extend(
            reached[i] if _rolls_next(reached[i], pending[i], me) else None for i in picks
        )
    if not looked:
        return values
    ahead = _one_roll_ahead(evaluator, answers, me, rules, variant, rolls, budget)
    if ahead is None:
        return None
    for number, (index, worst) in enumerate(looked):
        mine_now = ahead[number * len(rolls) : (number + 1) * len(rolls)]
        # an answer the mover does not simply roll after keeps its 0-ply value (NaN there)
        settled = np.where(np.isnan(mine_now), worst, mine_now)
        values[index] = float(np.dot(settled, chances))
    return values


def _rolls_of(game: Game) -> tuple[tuple[Dice, float], ...]:
    return ROLLS[3 if game.dice_mode is DiceMode.THREE else 2]


def by_roll(
    position: Position,
    rules: RuleSet,
    variant: Variant,
    rolls: tuple[tuple[Dice, float], ...],
    first: bool,
) -> tuple[list[Position], list[tuple[int, ...]], list[int]]:
    """The positions the side to move in ``position`` can reach with each roll, the remainder
    each hands over, and where each roll's positions begin: a pass leaves the position with the
    other side to move (handing a gul-bara roll over whole), a gul-bara double played in full
    leaves the same side to roll again, and a roll of more moves than the look-ahead plays
    through (a cascade) leaves the position as it is."""
    mover = position.turn
    reached: list[Position] = []
    pending: list[tuple[int, ...]] = []
    bounds: list[int] = []
    for dice, _ in rolls:
        moves = variant.move_list(dice, rules)
        bounds.append(len(reached))
        if len(moves.values) > MAX_LOOKED_AT:  # a cascade: the position before it stands
            reached.append(position)
            pending.append(())
            continue
        replies = turns_for(position, moves, first_turn=first, rules=rules)
        if replies:
            chains = moves.double and variant.chains
            reached.extend(
                r.position.with_turn(mover)
                if chains and r.played and not r.remainder
                else r.position
                for r in replies
            )
            pending.extend(r.remainder for r in replies)
        else:
            reached.append(position.with_turn(mover.other))
            pending.append(moves.values if moves.hands_on else ())
    return reached, pending, bounds


def spans(bounds: list[int], values: NDArray[np.float64]) -> list[tuple[int, int]]:
    """Each roll's (first, past-the-last) index into ``values``, from where each begins."""
    ends = [*bounds[1:], len(values)]
    return list(zip(bounds, ends, strict=True))


def _rolls_next(position: Position, pending: tuple[int, ...], me: Side) -> bool:
    """Whether ``me`` simply rolls next in ``position``: its turn, no remainder, not over."""
    return position.turn is me and not pending and not finished(position)


def _one_roll_ahead(
    evaluator: Valuer,
    positions: list[Position | None],
    me: Side,
    rules: RuleSet,
    variant: Variant,
    rolls: tuple[tuple[Dice, float], ...],
    budget: int | None = None,
) -> NDArray[np.float64] | None:
    """Each position's equity for ``me``, who rolls next in it, a roll ahead: over each roll,
    ``me``'s best turn by the net; NaN for None (the caller keeps its 0-ply value). The
    positions' answers are valued in one batch; None when they number more than ``budget``."""
    chances = np.array([p for _, p in rolls])
    result = np.full(len(positions), np.nan)
    reached: list[Position] = []
    before: list[Position] = []
    pending: list[tuple[int, ...]] = []
    starts: list[int] = []
    owners: list[int] = []
    for index, position in enumerate(positions):
        if position is None:
            continue
        found, left, bounds = by_roll(position, rules, variant, rolls, False)
        starts.extend(len(reached) + b for b in bounds)
        reached.extend(found)
        before.extend([position] * len(found))
        pending.extend(left)
        owners.append(index)
        if budget is not None and len(reached) > budget:
            return None
    if not owners:
        return result
    mine = evaluator.equities_after(me, before, reached, rules, pending)
    best = np.maximum.reduceat(mine, starts).reshape(len(owners), len(rolls))
    result[owners] = best @ chances
    return result


def finished(position: Position) -> bool:
    """Whether a side has borne off every checker."""
    return position.white[0] == 15 or position.black[0] == 15
