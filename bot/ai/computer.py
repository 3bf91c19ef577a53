"""The computer at a level (:mod:`.levels`), and every decision it makes in a game.

All levels value turns with the same valuer (:func:`bot.ai.sage.valuer`); they differ in how
far they look and how much they err. Levels 1 to 4 choose at 0-ply with human-like mistakes: a
turn is drawn with probability growing with its equity (a softmax at the level's temperature).
Level 5 looks a roll ahead at the best few turns 0-ply finds, two where its two best are close;
where Open Sage values the game, its 3-ply at the turns within an error of the best, unless that
would take more than :data:`DEEPEST_BUDGET` of the worker's processor time.

Cube decisions, the same at every level, follow :mod:`.cubeful`'s money-game model (Open Sage's
own decision where it values the game). In ``anti_three`` the striker strikes the die that
leaves the mover the worst best turn. A roll of more than :data:`MAX_LISTED` moves (crazy
gul-bara's cascades) is played step by step, each step the one the net likes best.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

import numpy as np
from numpy.typing import NDArray

from bot.engine import DiceMode, Game, Turn

from .answers import Ranked
from .cubeful import CubeEquities
from .evaluator import Valuer
from .levels import MAX_LISTED, STRONGEST, level
from .sage import for_game
from .search import ply0, ply1, ply2

TWO_PLY_BUDGET: Final = 40_000
"""The most positions 2-ply may value for the mover's answers in one decision (about 0.4 s on
one core of the 2-core machine the figures come from); a decision that would need more stays
at 1-ply, which keeps the strongest level within the engine CLI's second."""
CLOSE: Final = 0.08
"""2-ply is asked only when 1-ply's two best turns are within an error (0.08, as the analysis
calls one) of each other: a wider lead is almost never overturned a roll further."""
DEEPEST: Final = 3
"""The depth of Open Sage's search (:mod:`.sage`, its count: 3 is two rolls ahead, our 2-ply)
level 5 plays where the valuer searches itself."""
DEEPEST_BUDGET: Final = 0.7
"""Seconds of the worker's processor time Open Sage's 3-ply may take for one decision; past
that the decision stays at its 2-ply (a roll ahead), so that a decision keeps within the
engine CLI's second with the rest of its work."""


class Computer:
    """The computer player at one level (a :class:`bot.ai.players.Player`)."""

    def __init__(self, number: int = STRONGEST, evaluator_for: Valuer | None = None) -> None:
        self.level = level(number)
        self.name = f"level {number}"
        self._evaluator = evaluator_for

    def _net(self, game: Game) -> Valuer:
        return self._evaluator if self._evaluator is not None else for_game(game)

    def rank(self, game: Game, lookahead: int | None = None) -> Ranked:
        """Every legal turn of the roll (or remainder), best first for this level's search;
        ``lookahead`` overrides how many are looked at a roll ahead."""
        net = self._net(game)
        moves = game.moves
        if moves is not None and len(moves.values) > MAX_LISTED:
            return _stepwise(net, game)
        turns = game.legal_turns()
        if not turns:
            return Ranked((), ())
        values = ply0(net, game, turns)
        ahead = self.level.lookahead if lookahead is None else lookahead
        if ahead and len(turns) > 1:
            values = _refined(values, turns, ahead, lambda chosen: ply1(net, game, chosen))
            deeper = self.level.deeper if lookahead is None else 0
            if deeper and net.searches(game):
                values = _refined(
                    values,
                    turns,
                    ahead,
                    lambda chosen: net.deeper(game, chosen, DEEPEST, DEEPEST_BUDGET),
                    CLOSE,
                )
            elif deeper and game.dice_mode is DiceMode.TWO and _close(values, CLOSE):
                values = _refined(
                    values, turns, deeper, lambda chosen: ply2(net, game, chosen, TWO_PLY_BUDGET)
                )
        order = np.argsort(-values, kind="stable")
        return Ranked(tuple(turns[i] for i in order), tuple(float(values[i]) for i in order))

    def choose(self, game: Game, rng: random.Random) -> Turn | None:
        """This level's turn for the roll, None for a pass."""
        picked = self.pick(game, rng)
        return None if picked is None else picked[0]

    def pick(self, game: Game, rng: random.Random) -> tuple[Turn, float] | None:
        """This level's turn for the roll with its equity as the level judged it; None for a
        pass."""
        ranked = self.rank(game)
        if not ranked.turns:
            return None
        temperature = self.level.temperature_for(self._net(game).open_sage)
        index = _draw(ranked.equities, temperature, rng)
        return ranked.turns[index], ranked.equities[index]

    def strike(self, game: Game, rng: random.Random) -> int:
        """The die to strike from the three the opponent rolled (``anti_three``)."""
        assert game.dice is not None and game.strike_pending
        values = sorted(set(game.dice.values), reverse=True)
        mover_best = []
        for value in values:
            left = game.strike(value)
            turns = left.legal_turns()
            if not turns:
                mover_best.append(_pass_value(self._net(game), left))
                continue
            mover_best.append(float(ply0(self._net(game), left, turns).max()))
        # the striker's equity is minus the mover's
        temperature = self.level.temperature_for(self._net(game).open_sage)
        return values[_draw(tuple(-v for v in mover_best), temperature, rng)]

    def equity(self, game: Game) -> float:
        """The side to move's cubeless equity before its roll."""
        net = self._net(game)
        pending = [game.remainder] if game.remainder else None
        return float(net.equities_for(game.turn, [game.position], game.rules, pending)[0])

    def cube(self, game: Game) -> CubeEquities:
        """The cube decision's equities for the side to move before its roll: the valuer's
        (:meth:`~bot.ai.evaluator.Valuer.cube`: the net's chances in the model of
        :mod:`.cubeful`, or Open Sage's own decision)."""
        return self._net(game).cube(game)

    def wants_double(self, game: Game) -> bool:
        """Whether the side to move (the computer) offers a double now."""
        return game.can_double and self.cube(game).should_double

    def takes(self, game: Game) -> bool:
        """Whether the computer, offered a double by the side to move, takes it."""
        return self.cube(game).should_take


def _close(values: NDArray[np.float64], margin: float) -> bool:
    """Whether the two best values are within ``margin`` of each other."""
    if len(values) < 2:
        return False
    top = np.partition(-values, 1)[:2]
    return bool(top[1] - top[0] < margin)


def _refined(
    values: NDArray[np.float64],
    turns: tuple[Turn, ...],
    count: int,
    deeper: Callable[[list[Turn]], NDArray[np.float64] | None],
    within: float | None = None,
) -> NDArray[np.float64]:
    """``values`` with the ``count`` best turns (of those ``within`` that much of the best, and
    never fewer than two) valued again by ``deeper`` (unchanged where it gives nothing); the
    turns not looked at keep their value, below every looked-at one."""
    best = np.argsort(-values, kind="stable")[:count]
    if within is not None:
        near = values[best] >= values[best[0]] - within
        near[:2] = True
        best = best[near]
    looked = deeper([turns[i] for i in best])
    if looked is None:
        return values
    refined = values.copy()
    refined[best] = looked
    rest = np.setdiff1d(np.arange(len(turns)), best)
    if len(rest):
        refined[rest] = np.minimum(values[rest], looked.min() - 1e-6)
    return refined


def _stepwise(net: Valuer, game: Game) -> Ranked:
    """The one turn found by playing each step that leaves the best position (see the module
    docstring), with its 0-ply equity."""
    me = game.turn
    current = game.turn_input()
    while current.options:
        options = current.options
        if len(options) == 1:
            current = current.play(options[0])
            continue
        after = [current.play(o) for o in options]
        values = net.equities_for(me, [a.current.with_turn(me.other) for a in after], game.rules)
        current = after[int(np.argmax(values))]
    turn = current.turn()
    if not turn.played:  # no step can be played at all: a pass, as legal_turns() says
        return Ranked((), ())
    return Ranked((turn,), (float(ply0(net, game, [turn])[0]),))


def _pass_value(net: Valuer, game: Game) -> float:
    after = game.position.with_turn(game.turn.other)
    return float(net.equities_for(game.turn, [after], game.rules)[0])


def _draw(equities: tuple[float, ...], temperature: float, rng: random.Random) -> int:
    """The index of the best equity at temperature 0 (the first of equal ones), else drawn by
    a softmax at ``temperature``."""
    if temperature <= 0.0 or len(equities) == 1:
        return max(range(len(equities)), key=lambda i: (equities[i], -i))
    top = max(equities)
    weights = [math.exp((e - top) / temperature) for e in equities]
    return rng.choices(range(len(equities)), weights=weights)[0]
