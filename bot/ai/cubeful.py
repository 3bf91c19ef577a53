"""Cube decisions judged by a money-game model: Janowski's cubeful equity from the net's
cubeless chances.

The net's chances for the side to move before its roll, priced by the rule set, make
:class:`Chances`: ``p`` the chance to win, ``W`` and ``L`` the mean points of a win and of a
loss, in units of the rule set's ``drop``. The equity with the cube is::

    E = (1 - x) * E_dead + x * E_live

``E_dead = p * W - (1 - p) * L`` is the cubeless equity; ``E_live`` is piecewise linear in
``p`` from ``-L`` at 0 to ``W`` at 1 through the take point ``TP = (L - 1/2) / (W + L + 1/2)``
and the cash point ``CP = (L + 1) / (W + L + 1/2)`` (centred: through both; owned: ``-L``
straight to ``CP``; the opponent's: ``TP`` straight to ``W``); ``x`` is :data:`CUBE_LIFE`.
:func:`equities` gives a decision's :class:`CubeEquities`: *no double* ``ND``, *double, take*
``DT = 2 * E`` and *double, drop* ``DP = 1``; double when ``min(DT, DP) > ND``, take when
``DT <= DP``. :meth:`CubeEquities.loss` is the best choice's equity minus the chosen one's, per
unit of the cube. A dead cube is valued cubeless.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.engine import RuleSet

CUBE_LIFE: Final = 0.68
"""Janowski's cube-life index ``x``: GNU Backgammon's default for contact positions."""
CLOSE: Final = 0.16
"""A doubler's decision not to double is counted in PR (as a decision with a real choice)
only when doubling was within this much of not doubling, per unit of the cube: GNU
Backgammon's rule for "close" cube decisions (its threshold 0.16). Doubles and every answer to
a double count always."""
EPSILON: Final = 1e-7


class CubeAction(enum.Enum):
    """What a side did with the cube: the side that could double (``NO_DOUBLE``, ``DOUBLE``)
    or the side doubled (``TAKE``, ``DROP``)."""

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"

    @property
    def doubler(self) -> bool:
        """True for the doubler's choices, False for the answers to a double."""
        return self in (CubeAction.NO_DOUBLE, CubeAction.DOUBLE)


class Ownership(enum.Enum):
    """Where the cube is, for the side whose equity is asked."""

    CENTRED = "centred"
    OWN = "own"
    THEIRS = "theirs"


@dataclass(frozen=True, slots=True)
class Chances:
    """The cubeless chances of one side: ``win``, its chance to win; ``won`` (``W``), the mean
    points of its wins; ``lost`` (``L``), the mean points of its losses."""

    win: float
    won: float
    lost: float

    @property
    def cubeless(self) -> float:
        """The cubeless equity, ``p * W - (1 - p) * L``."""
        return self.win * self.won - (1.0 - self.win) * self.lost

    @classmethod
    def from_outputs(cls, outputs: Sequence[float], rules: RuleSet) -> Chances:
        """:meth:`from_probabilities` of the net's five outputs in their order (win, win a
        mars, win a koks, lose a mars, lose a koks)."""
        win, win_mars, win_koks, lose_mars, lose_koks = (float(o) for o in outputs)
        return cls.from_probabilities(win, win_mars, win_koks, lose_mars, lose_koks, rules)

    @classmethod
    def from_probabilities(
        cls,
        win: float,
        win_mars: float,
        win_koks: float,
        lose_mars: float,
        lose_koks: float,
        rules: RuleSet,
    ) -> Chances:
        """The chances from the net's five outputs, priced as :func:`bot.ai.evaluator.equity`
        prices them (oin, the mars's extra, the koks's extra; home mars as mars), so that
        :attr:`cubeless` is the evaluator's equity."""
        p = min(max(win, 0.0), 1.0)
        wm = min(max(win_mars, 0.0), p)
        lm = min(max(lose_mars, 0.0), 1.0 - p)
        wk = min(max(win_koks, 0.0), wm)
        lk = min(max(lose_koks, 0.0), lm)
        koks = rules.koks if rules.koks is not None else rules.mars
        extra_mars, extra_koks = rules.mars - rules.oin, koks - rules.mars
        won = rules.oin + (extra_mars * wm + extra_koks * wk) / p if p > EPSILON else rules.oin
        lost = (
            rules.oin + (extra_mars * lm + extra_koks * lk) / (1.0 - p)
            if p < 1.0 - EPSILON
            else rules.oin
        )
        return cls(p, won, lost)


def cubeful(
    chances: Chances, cube: Ownership, *, drop: float = 1.0, life: float = CUBE_LIFE
) -> float:
    """Janowski's cubeful equity of ``chances`` with the cube where ``cube`` says, in units of
    the cube's value (see the module docstring); ``drop``: the points a dropped double scores
    at a cube of 1 (the rule set's ``drop``)."""
    p, won, lost = chances.win, chances.won / drop, chances.lost / drop
    dead = p * won - (1.0 - p) * lost
    if p <= EPSILON or p >= 1.0 - EPSILON:
        return dead * drop  # nothing left to decide: the cube is dead
    return ((1.0 - life) * dead + life * _live(p, won, lost, cube)) * drop


def _live(p: float, won: float, lost: float, cube: Ownership) -> float:
    """The fully live cube's equity (Janowski; GNU Backgammon's ``MoneyLive``, no Jacoby)."""
    take = (lost - 0.5) / (won + lost + 0.5)
    cash = (lost + 1.0) / (won + lost + 0.5)
    if cube is Ownership.OWN:
        if p < cash:
            return -lost + (1.0 + lost) * p / cash
        return 1.0 + (won - 1.0) * (p - cash) / (1.0 - cash)
    if cube is Ownership.THEIRS:
        if p < take:
            return -lost + (lost - 1.0) * p / take
        return -1.0 + (won + 1.0) * (p - take) / (1.0 - take)
    if p < take:
        return -lost + (lost - 1.0) * p / take
    if p < cash:
        return -1.0 + 2.0 * (p - take) / (cash - take)
    return 1.0 + (won - 1.0) * (p - cash) / (1.0 - cash)


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """A cube decision's three equities from the side that may double, per unit of the cube
    as it stands: no double, double and take, double and drop."""

    no_double: float
    double_take: float
    double_drop: float

    @property
    def double(self) -> float:
        """What doubling gives the doubler: the opponent answers with its better choice."""
        return min(self.double_take, self.double_drop)

    @property
    def should_double(self) -> bool:
        return self.double > self.no_double

    @property
    def should_take(self) -> bool:
        """The opponent's better answer: take when it costs no more than a drop."""
        return self.double_take <= self.double_drop

    def best(self, doubler: bool) -> CubeAction:
        """The model's choice: the doubler's (``doubler``) or the answer to a double."""
        if doubler:
            return CubeAction.DOUBLE if self.should_double else CubeAction.NO_DOUBLE
        return CubeAction.TAKE if self.should_take else CubeAction.DROP

    def value(self, action: CubeAction) -> float:
        """The equity of ``action`` for the side that takes it (the taker's is the doubler's
        negated)."""
        if action is CubeAction.NO_DOUBLE:
            return self.no_double
        if action is CubeAction.DOUBLE:
            return self.double
        if action is CubeAction.TAKE:
            return -self.double_take
        return -self.double_drop

    def loss(self, action: CubeAction) -> float:
        """What ``action`` gave away against the model's choice, per unit of the cube: never
        negative, 0 for the model's own choice."""
        best = self.best(action.doubler)
        return max(0.0, self.value(best) - self.value(action))

    def close(self) -> bool:
        """Whether not doubling is a close call (see :data:`CLOSE`)."""
        return self.no_double - self.double < CLOSE


def equities(
    chances: Chances, *, centred: bool, drop: float = 1.0, life: float = CUBE_LIFE
) -> CubeEquities:
    """The cube decision's equities for the side to move with ``chances`` (before its roll),
    the cube centred or its own (``centred=False``): see the module docstring."""
    held = Ownership.CENTRED if centred else Ownership.OWN
    return CubeEquities(
        cubeful(chances, held, drop=drop, life=life),
        2.0 * cubeful(chances, Ownership.THEIRS, drop=drop, life=life),
        drop,
    )
