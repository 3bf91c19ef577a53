"""Luck of each roll and a game's (or a match's) luck and PR per side.

A module of its own beside :mod:`bot.ai.analysis`: the review judges *turns* (what was played
against what was best), luck judges *rolls* (what came against what could have come), and its
unit of work, every roll a position could get, costs many times a turn's review, so a caller
can ask for either alone. PR is built on the review's losses, unchanged.

Definitions (all equities cubeless, in points at the cube's value 1, from the roller's side):

- A roll's *value* is the equity of its best play at :data:`LUCK_PLY`, the analysis' own: the
  turns 0-ply likes best (:data:`~bot.ai.analysis.LOOK_AHEAD` of them) looked at a roll ahead,
  the best of those (ply 0: the best turn by the net). A forced roll's value is its one turn's,
  a roll with no legal turn the pass's (in gul-bara the pass hands the whole roll over). A
  crazy gul-bara cascade (more than :data:`~bot.ai.levels.MAX_LISTED` moves) is valued by the
  turn the computer plays for it step by step, at 0-ply, as every level plays it.
- The *luck* of a roll is its value minus the probability-weighted mean of the values of every
  roll the position could have got: 21 distinct rolls of two dice, 56 of three. So at any
  position the mean luck over all rolls is exactly 0 (the invariant the tests check); a forced
  roll's luck is its real value against the mean, not 0.
- What is a roll: every time a side rolls its dice (:attr:`~bot.engine.Game.needs_roll` before
  it). A gul-bara chain roll (after a double played in full) is a roll. A remainder turn has no
  dice and no luck. The opening roll decides who starts and is not counted: in short and
  Abkhaz nardy the first turn plays the opening dice (and the third die in the ``three`` mode),
  so that turn has no luck; in long nardy and gul-bara the starter's first roll of two dice is
  an ordinary roll and counts.
- ``anti_three``: a roll is the three dice; its value is the best play's after the striker's
  best strike (the strike that leaves the roller the worst best play), whatever was struck; the
  mean is over the 56 rolls of three dice. The strike itself is a decision of the striker, not
  luck (and is not reviewed).
- Cube decisions have no luck. The bot's histories keep no cube actions as turns, so the
  replayed games have the cube at 1: luck is per unit of the cube.

Totals: a side's luck over a game is the sum over its rolls; its luck from the other side's
point of view is minus that (a roll's luck is the roller's, and the game is zero-sum). The
*luck-adjusted result* is the side's result in points per unit of the cube (+ for the winner,
- for the loser) minus its net luck, its own less the other side's: result - (own - theirs),
so that the two sides' adjusted results are again opposite.

PR (performance rating): 500 × the mean equity lost per decision with a real choice, the
decisions the analysis reviews (two or more legal turns; forced turns, passes and crazy
cascades are not counted). Cube decisions are not counted: the histories do not keep them and
the analysis does not evaluate them. This is half the analysis's error rate (1000 × the mean
loss), which :attr:`SideLuck.error_rate` gives as today.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, TypeVar

from bot.engine import DiceMode, Family, Game, Result, Side, Turn, find_variant

from .analysis import LOOK_AHEAD, Review

if TYPE_CHECKING:
    from .evaluator import Evaluator

LUCK_PLY: Final = 1
"""The ply rolls are valued at: the analysis's (1-ply over 0-ply's best few)."""

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RollLuck:
    """The luck of one roll: ``played[index]``'s, made by ``side``; ``value``, the best play's
    equity for the roll that came, ``mean``, the mean over every roll; ``forced``: the roll had
    one legal turn or none."""

    index: int
    side: Side
    value: float
    mean: float
    forced: bool

    @property
    def luck(self) -> float:
        return self.value - self.mean


@dataclass(frozen=True, slots=True)
class SideLuck:
    """One side's figures over a game (or a match): luck in points per unit of the cube, PR
    and the analysis' error rate, and the luck-adjusted result (None without a result)."""

    rolls: int
    luck: float
    decisions: int
    lost: float
    """The equity lost over the decisions, summed."""
    result: float | None = None
    opponent_luck: float = 0.0

    @property
    def pr(self) -> float:
        """500 × the mean equity lost per decision with a real choice (0 with none)."""
        return 500.0 * self.lost / self.decisions if self.decisions else 0.0

    @property
    def error_rate(self) -> float:
        """The analysis' figure: 1000 × the mean loss per decision."""
        return 2.0 * self.pr

    @property
    def adjusted(self) -> float | None:
        """The result minus the luck of both sides (own luck less the opponent's), points."""
        if self.result is None:
            return None
        return self.result - (self.luck - self.opponent_luck)


def roll_values(
    game: Game, ply: int = LUCK_PLY
) -> tuple[tuple[tuple[int, ...], float, float], ...]:
    """Every roll ``game`` (waiting for a roll) could get: (its dice, sorted high first, its
    probability, its value for the side to roll at ``ply``)."""
    from .evaluator import evaluator
    from .search import ROLLS

    net = evaluator(game.variant)
    three = game.dice_mode is not DiceMode.TWO
    found = []
    if game.dice_mode is DiceMode.ANTI_THREE:
        pairs = {dice.values: _value(net, game.with_dice(dice), ply) for dice, _ in ROLLS[2]}
        for dice, p in ROLLS[3]:
            left = {_pair(dice.values, v) for v in set(dice.values)}
            found.append((dice.values, p, min(pairs[k] for k in left)))
        return tuple(found)
    for dice, p in ROLLS[3 if three else 2]:
        found.append((dice.values, p, _value(net, game.with_dice(dice), ply)))
    return tuple(found)


def _pair(values: tuple[int, ...], struck: int) -> tuple[int, ...]:
    rest = list(values)
    rest.remove(struck)
    return tuple(sorted(rest, reverse=True))


def _value(net: Evaluator, game: Game, ply: int) -> float:
    """The best play's equity for ``game``'s roll, at ``ply``."""
    import numpy as np

    from .computer import _stepwise
    from .levels import MAX_LISTED
    from .search import ply0, ply1

    moves = game.moves
    assert moves is not None
    if len(moves.values) > MAX_LISTED:
        ranked = _stepwise(net, game)
        if ranked.turns:
            return ranked.equities[0]
    turns: Sequence[Turn] = game.legal_turns() if len(moves.values) <= MAX_LISTED else ()
    if not turns:
        remainder = moves.values if moves.hands_on else ()
        turns = (Turn((), game.position.with_turn(game.turn.other), remainder),)
    values = ply0(net, game, turns)
    if ply < 1:
        return float(values.max())
    order = list(np.argsort(-values, kind="stable")[:LOOK_AHEAD])
    return float(ply1(net, game, [turns[i] for i in order]).max())


def is_roll(played: Sequence[tuple[Game, Turn]], index: int) -> bool:
    """Whether ``played[index]`` was played on a roll that counts for luck (see the module
    docstring): not a remainder turn, not the short board's opening."""
    ready, _ = played[index]
    if ready.remainder:
        return False
    return not (index == 0 and ready.opening is not None and ready.ply == 0 and _short(ready))


def _short(game: Game) -> bool:
    return find_variant(game.variant).family is Family.SHORT


def luck(
    played: Sequence[tuple[Game, Turn]], indices: range, ply: int = LUCK_PLY
) -> list[RollLuck]:
    """The luck of each roll ``played[i]`` for ``i`` in ``indices`` (``played`` as
    :func:`bot.ai.analysis.states` gives it); turns on no roll are left out."""
    found = []
    for index in indices:
        if not is_roll(played, index):
            continue
        ready, _ = played[index]
        before = replace(ready, dice=None, struck=None)
        assert ready.dice is not None
        rolled = ready.dice.values
        if ready.struck is not None:
            rolled = (*rolled, ready.struck)
        key = tuple(sorted(rolled, reverse=True))
        values = roll_values(before, ply)
        mean = sum(p * v for _, p, v in values)
        value = next(v for dice, _, v in values if dice == key)
        forced = ready.only_turn() is not None
        found.append(RollLuck(index, ready.turn, value, mean, forced))
    return found


def game_luck(
    rolls: Sequence[RollLuck], reviews: Sequence[Review], result: Result | None = None
) -> dict[Side, SideLuck]:
    """Each side's luck, PR and (with the game's ``result``) luck-adjusted result; the
    result is counted per unit of the cube as the luck is: pass the result's points divided by
    the cube's value in ``result`` if a cube was used."""
    own = {s: sum(r.luck for r in rolls if r.side is s) for s in (Side.WHITE, Side.BLACK)}
    found = {}
    for side in (Side.WHITE, Side.BLACK):
        mine = [r for r in reviews if r.side is side]
        points = None
        if result is not None:
            points = float(result.points if result.winner is side else -result.points)
        found[side] = SideLuck(
            sum(r.side is side for r in rolls),
            own[side],
            len(mine),
            sum(r.loss for r in mine),
            points,
            own[side.other],
        )
    return found


def match_luck(
    games: Iterable[tuple[Mapping[Side, SideLuck], Mapping[Side, K]]],
) -> dict[K, SideLuck]:
    """Totals per player over a match's games: each game's figures by side and who played
    which side in it (the sides may change from game to game). A player's result is None if a
    game lacked one."""
    totals: dict[K, SideLuck] = {}
    for figures, players in games:
        for side, player in players.items():
            one = figures[side]
            known = totals.get(player)
            if known is None:
                totals[player] = one
                continue
            result = (
                None if known.result is None or one.result is None else known.result + one.result
            )
            totals[player] = SideLuck(
                known.rolls + one.rolls,
                known.luck + one.luck,
                known.decisions + one.decisions,
                known.lost + one.lost,
                result,
                known.opponent_luck + one.opponent_luck,
            )
    return totals


def luck_and_review(
    played: Sequence[tuple[Game, Turn]], indices: range, ply: int = LUCK_PLY
) -> tuple[list[RollLuck], list[Review]]:
    """The luck of the rolls and the reviews of the turns ``played[i]`` for ``i`` in
    ``indices``: one part of a game's automatic analysis, in one call to a worker process."""
    from .analysis import review

    return luck(played, indices, ply), review(played, indices)
