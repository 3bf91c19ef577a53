"""Equity of positions: the shipped nets, read through the features, priced by the rule set.

An :class:`Evaluator` holds one family's net (long nardy and the gul-bara variants share the
long board, short and Abkhaz nardy the short one) and answers, for a batch of positions, the
five probabilities of :mod:`bot.ai.network` from each position's side to move, and from them
the *equity*: the points that side expects, cubeless, by the rule set's prices (oin, mars,
koks), between -3 and 3.

A position where a side has borne off all its checkers is not asked of the net: its value is
the game's exact result.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

from bot.engine import (
    CHECKERS,
    Family,
    Game,
    Position,
    RuleSet,
    Side,
    Turn,
    find_variant,
    score,
)

from .bearoff import Table, table
from .cubeful import Chances, CubeEquities, equities
from .features import checkers, encode, remainders
from .network import LOSE_KOKS, LOSE_MARS, WIN, WIN_KOKS, WIN_MARS, Array, Network, flip

WEIGHTS: Final = Path(__file__).with_name("weights")
CHUNK: Final = 4096
"""The most positions the net is asked at once: a 2-ply decision asks up to 40,000, and their
features, hidden units and the arrays between (about 2.5 KB a position) would add 100 MB to a
worker's peak in one batch; in chunks of this size they add 10 MB, for no time that shows."""
"""The shipped weights: ``long.npz`` and ``short.npz``."""


class Valuer:
    """What the search asks of whatever values positions for one family: each position's five
    probabilities (:mod:`bot.ai.network`'s order) from its side to move before its roll, and
    the equities priced from them. :class:`Evaluator` is the shipped net; another valuer (Open
    Sage's, :mod:`bot.ai.sage`) answers the same questions, and may answer the cube decision
    and the look-ahead its own way."""

    family: Family
    open_sage: bool = False
    """Whether these are Open Sage's values (:mod:`.sage`): the levels err at their own
    temperatures there (:attr:`~bot.ai.levels.Level.sage_temperature`)."""

    def probabilities(
        self, positions: Sequence[Position], pending: Sequence[tuple[int, ...]] | None = None
    ) -> Array:
        """``(n, 5)`` probabilities, each from its position's side to move before its roll;
        ``pending``: per position, the remainder that side must play first (gul-bara)."""
        raise NotImplementedError

    def equities_for(
        self,
        side: Side,
        positions: Sequence[Position],
        rules: RuleSet,
        pending: Sequence[tuple[int, ...]] | None = None,
    ) -> NDArray[np.float64]:
        """The equity of each position for ``side`` (whoever is to move in it): exact where a
        side has borne off all its checkers."""
        if not positions:
            return np.empty(0, dtype=np.float64)
        return self.equities_of(side, positions, rules, self.probabilities(positions, pending))

    def equities_after(
        self,
        side: Side,
        before: Sequence[Position],
        positions: Sequence[Position],
        rules: RuleSet,
        pending: Sequence[tuple[int, ...]] | None = None,
    ) -> NDArray[np.float64]:
        """:meth:`equities_for` of ``positions``, each reached by a turn from ``before[i]``
        (the position its mover played from): a valuer that looks at where a turn began (Open
        Sage's chooses its net by it) is told; the net does not look."""
        return self.equities_for(side, positions, rules, pending)

    def searches(self, game: Game) -> bool:
        """Whether the valuer looks ahead itself in ``game`` (:meth:`deeper`); the net does
        not: :mod:`.search` does it for the net."""
        return False

    def deeper(
        self, game: Game, turns: Sequence[Turn], plies: int, budget: float | None = None
    ) -> NDArray[np.float64] | None:
        """The mover's equity after each turn, looked ahead by the valuer's own search
        (``plies`` rolls counted as Open Sage counts them: 2 a roll ahead); None when
        ``budget`` seconds would not do. Only where :meth:`searches` says so."""
        raise NotImplementedError

    def cube(self, game: Game) -> CubeEquities:
        """The cube decision's equities for ``game``'s side to move before its roll (see
        :mod:`.cubeful`): Janowski's money-game model from these chances, the cube centred or
        the mover's own."""
        pending = [game.remainder] if game.remainder else None
        out = self.probabilities([game.position], pending)[0]
        chances = Chances.from_outputs(out.tolist(), game.rules)
        owner = game.cube.owner if game.cube is not None else None
        return equities(chances, centred=owner is None, drop=float(game.rules.drop))

    def equities_of(
        self,
        side: Side,
        positions: Sequence[Position],
        rules: RuleSet,
        probabilities: Array,
        own_off: NDArray[np.int64] | None = None,
        their_off: NDArray[np.int64] | None = None,
    ) -> NDArray[np.float64]:
        """:meth:`equities_for` from probabilities already asked (one row a position, from its
        side to move; a finished position's row is not read), with each side's checkers off
        where the caller has them."""
        result = _equities(side, positions, rules, probabilities.copy())
        if own_off is None or their_off is None:
            done = [i for i, p in enumerate(positions) if CHECKERS in (p.white[0], p.black[0])]
        else:
            done = np.flatnonzero((own_off == CHECKERS) | (their_off == CHECKERS)).tolist()
        for i in done:
            finished = _finished(positions[i], rules)
            assert finished is not None
            winner, points = finished
            result[i] = points if winner is side else -points
        return result


class Evaluator(Valuer):
    """One family's net and the arithmetic around it; with a bear-off ``table``
    (:mod:`bot.ai.bearoff`), the positions it answers are its, not the net's."""

    def __init__(self, family: Family, network: Network, table: Table | None = None) -> None:
        self.family = family
        self.network = network
        self.table = table

    def probabilities(
        self, positions: Sequence[Position], pending: Sequence[tuple[int, ...]] | None = None
    ) -> Array:
        own, theirs = checkers(positions, [p.turn for p in positions])
        extra = remainders(pending) if pending is not None and any(pending) else None
        return self._asked(own, theirs, extra)

    def _asked(
        self,
        own: NDArray[np.int64],
        theirs: NDArray[np.int64],
        extra: NDArray[np.float32] | None,
    ) -> Array:
        """The net's probabilities of the rows, the bear-off table's where it answers (never
        with a remainder to play first: that is a roll the table does not know)."""
        found = self.network.evaluate(encode(self.family, own, theirs, extra))
        if self.table is not None:
            answered = self.table.answers(own, theirs)
            if extra is not None:
                answered &= ~extra.any(axis=1)
            if answered.any():
                found[answered] = self.table.exact(own[answered], theirs[answered], found[answered])
        return found

    def equities_for(
        self,
        side: Side,
        positions: Sequence[Position],
        rules: RuleSet,
        pending: Sequence[tuple[int, ...]] | None = None,
    ) -> NDArray[np.float64]:
        if not positions:
            return np.empty(0, dtype=np.float64)
        if len(positions) > CHUNK:
            return np.concatenate(
                [
                    self.equities_for(
                        side,
                        positions[low : low + CHUNK],
                        rules,
                        None if pending is None else pending[low : low + CHUNK],
                    )
                    for low in range(0, len(positions), CHUNK)
                ]
            )
        own, theirs = checkers(positions, [p.turn for p in positions])
        extra = remainders(pending) if pending is not None and any(pending) else None
        probabilities = self._asked(own, theirs, extra)
        return self.equities_of(side, positions, rules, probabilities, own[:, 0], theirs[:, 0])


def _equities(
    side: Side, positions: Sequence[Position], rules: RuleSet, probabilities: Array
) -> NDArray[np.float64]:
    """The equities for ``side`` of ``probabilities`` (changed in place: flipped where the other
    side is to move)."""
    theirs = np.array([p.turn is not side for p in positions])
    probabilities[theirs] = flip(probabilities[theirs])
    return equity(probabilities, rules)


def equity(probabilities: Array, rules: RuleSet) -> NDArray[np.float64]:
    """Cubeless equity in points from the five probabilities: an oin's price for each win or
    loss, a mars's extra for each mars, a koks's extra for each koks (none where the rule set
    does not count koks). Home mars is priced as a mars."""
    p = np.clip(probabilities.astype(np.float64), 0.0, 1.0)
    win = p[..., WIN]
    win_mars = np.minimum(p[..., WIN_MARS], win)
    lose_mars = np.minimum(p[..., LOSE_MARS], 1.0 - win)
    win_koks = np.minimum(p[..., WIN_KOKS], win_mars)
    lose_koks = np.minimum(p[..., LOSE_KOKS], lose_mars)
    koks = rules.koks if rules.koks is not None else rules.mars
    value: NDArray[np.float64] = (
        rules.oin * (2.0 * win - 1.0)
        + (rules.mars - rules.oin) * (win_mars - lose_mars)
        + (koks - rules.mars) * (win_koks - lose_koks)
    )
    return value


def _finished(position: Position, rules: RuleSet) -> tuple[Side, int] | None:
    for side in (Side.WHITE, Side.BLACK):
        if position.borne_off(side) == CHECKERS:
            return side, score(position.variant, rules, position, side).points
    return None


@cache
def evaluator(variant: str) -> Evaluator:
    """The shipped evaluator for ``variant``'s family (loaded once per process), with its
    bear-off table."""
    family = find_variant(variant).family
    return Evaluator(family, Network.load(WEIGHTS / f"{family}.npz"), table())
