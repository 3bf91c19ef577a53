"""Luck of each roll and a game's (or a match's) luck and PR per side.

Beside :mod:`bot.ai.analysis`, which judges decisions, this judges rolls. Equities are cubeless,
per unit of the cube, from the roller's side, by the variant's valuer (:func:`bot.ai.sage.valuer`).
A roll's *value* is its best play's equity at the ply asked for (:data:`LUCK_PLY` by default);
its *luck* is its value minus the probability-weighted mean over every roll the position could
have got (21 of two dice, 56 of three), so the mean luck at any position is exactly 0. A roll is
each time a side rolls (:attr:`~bot.engine.Game.needs_roll`): not the opening roll, a remainder
turn, a strike or a cube decision; in ``anti_three`` it is the three dice, valued after the
striker's best strike. Each roll knows the cube's value (:attr:`RollLuck.cube`).

A side's luck over a game (:attr:`SideLuck.luck`) is its own rolls' luck minus its opponent's
(zero-sum); :attr:`SideLuck.adjusted` is its result in points minus its luck in points
(:attr:`SideLuck.luck_points`). PR is 500 × the mean equity lost per decision with a real
choice: the turns the analysis reviews and the cube decisions
:func:`bot.ai.analysis.judge_cube` judges; :attr:`SideLuck.error_rate` is twice it. A match's
figures are the sums of its games'.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, TypeVar

from bot.engine import DiceMode, Family, Game, Position, Result, Side, Turn, find_variant

from .analysis import LOOK_AHEAD, CubeReview, Review
from .levels import MAX_LISTED

if TYPE_CHECKING:
    from .evaluator import Valuer

LUCK_PLY: Final = 0
"""The ply the bot values rolls at: 0, the net's best play (see the module docstring for why
not 1, the review's own depth, which ``ply=1`` still gives)."""

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RollLuck:
    """The luck of one roll: ``played[index]``'s, made by ``side``; ``value``, the best play's
    equity for the roll that came, ``mean``, the mean over every roll (both per unit of the
    cube); ``forced``: the roll had one legal turn or none; ``cube``: the cube's value when it
    was rolled."""

    index: int
    side: Side
    value: float
    mean: float
    forced: bool
    cube: int = 1

    @property
    def luck(self) -> float:
        return self.value - self.mean

    def luck_for(self, side: Side) -> float:
        """The roll's luck from ``side``'s point of view: its roller's luck, its opponent's
        negated."""
        return self.luck if side is self.side else -self.luck


@dataclass(frozen=True, slots=True)
class SideLuck:
    """One side's figures over a game (or a match): its luck (zero-sum, per unit of the cube:
    see the module docstring), PR and the error rate, and the luck-adjusted result (None
    without a result)."""

    rolls: int
    """Its own rolls."""
    luck: float
    """Its own rolls' luck less its opponent's rolls' luck, per unit of the cube."""
    decisions: int
    """Decisions with a real choice: turns and cube decisions."""
    lost: float
    """The equity lost over the decisions, summed, per unit of the cube."""
    result: float | None = None
    """Points won (+) or lost (-), the cube's value included."""
    luck_points: float = 0.0
    """Its luck in points: each roll's luck (from this side's point of view) times the cube's
    value when it was rolled."""

    @property
    def pr(self) -> float:
        """500 × the mean equity lost per decision with a real choice (0 with none)."""
        return 500.0 * self.lost / self.decisions if self.decisions else 0.0

    @property
    def error_rate(self) -> float:
        """1000 × the mean loss per decision with a real choice."""
        return 2.0 * self.pr

    @property
    def adjusted(self) -> float | None:
        """The luck-adjusted result: the result less the luck in points."""
        if self.result is None:
            return None
        return self.result - self.luck_points


def roll_values(
    game: Game, ply: int = LUCK_PLY
) -> tuple[tuple[tuple[int, ...], float, float], ...]:
    """Every roll ``game`` (waiting for a roll) could get: (its dice, sorted high first, its
    probability, its value for the side to roll at ``ply``)."""
    from .sage import for_game
    from .search import ROLLS

    net = for_game(game)
    three = game.dice_mode is not DiceMode.TWO
    if game.dice_mode is DiceMode.ANTI_THREE:
        twos = ROLLS[2]
        valued = _values(net, [game.with_dice(dice) for dice, _ in twos], ply)
        pairs = {dice.values: value for (dice, _), value in zip(twos, valued, strict=True)}
        found = []
        for dice, p in ROLLS[3]:
            left = {_pair(dice.values, v) for v in set(dice.values)}
            found.append((dice.values, p, min(pairs[k] for k in left)))
        return tuple(found)
    rolls = ROLLS[3 if three else 2]
    valued = _values(net, [game.with_dice(dice) for dice, _ in rolls], ply)
    return tuple((dice.values, p, value) for (dice, p), value in zip(rolls, valued, strict=True))


def _values(net: Valuer, rolled: Sequence[Game], ply: int) -> list[float]:
    """:func:`_value` of each game (one position, each with another roll): at 0-ply the turns
    of all the rolls are valued in one batch."""
    import numpy as np

    from .search import after

    if ply >= 1:
        return [_value(net, g, ply) for g in rolled]
    found: dict[int, float] = {}
    reached: list[Position] = []
    pending: list[tuple[int, ...]] = []
    starts: list[int] = []
    listed: list[int] = []
    for index, game in enumerate(rolled):
        moves = game.moves
        assert moves is not None
        if len(moves.values) > MAX_LISTED:  # a cascade, played step by step
            found[index] = _value(net, game, ply)
            continue
        turns = _turns_or_pass(game)
        listed.append(index)
        starts.append(len(reached))
        reached.extend(after(game, turns))
        pending.extend(t.remainder for t in turns)
    if listed:
        first = rolled[listed[0]]
        mine = net.equities_after(
            first.turn, [first.position] * len(reached), reached, first.rules, pending
        )
        for index, best in zip(listed, np.maximum.reduceat(mine, starts), strict=True):
            found[index] = float(best)
    return [found[index] for index in range(len(rolled))]


def _turns_or_pass(game: Game) -> Sequence[Turn]:
    """The roll's legal turns, or the pass that leaves the position to the other side (handing
    a gul-bara roll over whole); a cascade too long to list counts as a pass here (its turns
    are played step by step, see :func:`_value`)."""
    moves = game.moves
    assert moves is not None
    turns: Sequence[Turn] = game.legal_turns() if len(moves.values) <= MAX_LISTED else ()
    if not turns:
        remainder = moves.values if moves.hands_on else ()
        turns = (Turn((), game.position.with_turn(game.turn.other), remainder),)
    return turns


def _pair(values: tuple[int, ...], struck: int) -> tuple[int, ...]:
    rest = list(values)
    rest.remove(struck)
    return tuple(sorted(rest, reverse=True))


def _value(net: Valuer, game: Game, ply: int) -> float:
    """The best play's equity for ``game``'s roll, at ``ply``."""
    import numpy as np

    from .computer import _stepwise
    from .search import ply0, ply1

    moves = game.moves
    assert moves is not None
    if len(moves.values) > MAX_LISTED:
        ranked = _stepwise(net, game)
        if ranked.turns:
            return ranked.equities[0]
    turns = _turns_or_pass(game)
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
        found.append(RollLuck(index, ready.turn, value, mean, forced, ready.cube_value))
    return found


def game_luck(
    rolls: Sequence[RollLuck],
    reviews: Sequence[Review],
    result: Result | None = None,
    cube: Sequence[CubeReview] = (),
) -> dict[Side, SideLuck]:
    """Each side's luck (zero-sum), PR over its turns ``reviews`` and its counted ``cube``
    decisions, and (with the game's ``result``) its luck-adjusted result."""
    found = {}
    for side in (Side.WHITE, Side.BLACK):
        mine = [r for r in reviews if r.side is side]
        cubed = [c for c in cube if c.side is side and c.counted]
        points = None
        if result is not None:
            points = float(result.points if result.winner is side else -result.points)
        found[side] = SideLuck(
            sum(r.side is side for r in rolls),
            sum(r.luck_for(side) for r in rolls),
            len(mine) + len(cubed),
            sum(r.loss for r in mine) + sum(c.loss for c in cubed),
            points,
            sum(r.luck_for(side) * r.cube for r in rolls),
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
                known.luck_points + one.luck_points,
            )
    return totals


def luck_and_review(
    played: Sequence[tuple[Game, Turn]], indices: range, ply: int = LUCK_PLY
) -> tuple[list[RollLuck], list[Review]]:
    """The luck of the rolls and the reviews of the turns ``played[i]`` for ``i`` in
    ``indices``: one part of a game's automatic analysis, in one call to a worker process
    (its cube decisions are judged apart: :func:`bot.ai.analysis.judge_cube`)."""
    from .analysis import review

    return luck(played, indices, ply), review(played, indices)
