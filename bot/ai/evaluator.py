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

from bot.engine import CHECKERS, Family, Position, RuleSet, Side, find_variant, score

from .features import checkers, encode, remainders
from .network import LOSE_KOKS, LOSE_MARS, WIN, WIN_KOKS, WIN_MARS, Array, Network, flip

WEIGHTS: Final = Path(__file__).with_name("weights")
"""The shipped weights: ``long.npz`` and ``short.npz``."""


class Evaluator:
    """One family's net and the arithmetic around it."""

    def __init__(self, family: Family, network: Network) -> None:
        self.family = family
        self.network = network

    def probabilities(
        self, positions: Sequence[Position], pending: Sequence[tuple[int, ...]] | None = None
    ) -> Array:
        """``(n, 5)`` probabilities, each from its position's side to move before its roll;
        ``pending``: per position, the remainder that side must play first (gul-bara)."""
        own, theirs = checkers(positions, [p.turn for p in positions])
        extra = remainders(pending) if pending is not None and any(pending) else None
        return self.network.evaluate(encode(self.family, own, theirs, extra))

    def equities_for(
        self,
        side: Side,
        positions: Sequence[Position],
        rules: RuleSet,
        pending: Sequence[tuple[int, ...]] | None = None,
    ) -> NDArray[np.float64]:
        """The equity of each position for ``side`` (whoever is to move in it): exact where a
        side has borne off all its checkers."""
        result = np.empty(len(positions), dtype=np.float64)
        asked: list[int] = []
        for i, position in enumerate(positions):
            done = _finished(position, rules)
            if done is None:
                asked.append(i)
            else:
                winner, points = done
                result[i] = points if winner is side else -points
        if asked:
            chosen = [positions[i] for i in asked]
            probs = self.probabilities(
                chosen, None if pending is None else [pending[i] for i in asked]
            )
            theirs = np.array([p.turn is not side for p in chosen])
            probs[theirs] = flip(probs[theirs])
            result[asked] = equity(probs, rules)
        return result


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
    """The shipped evaluator for ``variant``'s family (loaded once per process)."""
    family = find_variant(variant).family
    return Evaluator(family, Network.load(WEIGHTS / f"{family}.npz"))
