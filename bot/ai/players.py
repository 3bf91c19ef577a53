"""Players: anything that chooses a turn for a game waiting for one.

The computer at each level (:class:`bot.ai.computer.Computer`) and the yardsticks it is measured
against: a uniformly random player, a one-ply heuristic from pip count and structure, and
Tesauro's public benchmark evaluator pubeval (short family: it was made for backgammon).
"""

from __future__ import annotations

import random
from typing import Final, Protocol

import numpy as np
from numpy.typing import NDArray

from bot.engine import Family, Game, Turn, find_variant

from .features import _MAPS, _longest_run, checkers


class Player(Protocol):
    """Chooses a turn in ``game`` (rolled, a turn to play), or None to pass when there is none."""

    name: str

    def choose(self, game: Game, rng: random.Random) -> Turn | None: ...


def _sides(game: Game, turns: tuple[Turn, ...]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The mover's and the opponent's checkers after each turn, each in its own numbering."""
    return checkers([t.position for t in turns], [game.turn] * len(turns))


class RandomPlayer:
    """Any legal turn, each as likely."""

    name = "random"

    def choose(self, game: Game, rng: random.Random) -> Turn | None:
        turns = game.legal_turns()
        return rng.choice(turns) if turns else None


class HeuristicPlayer:
    """Greedy over the roll's turns by a hand-made score of the position after them: the pip
    lead, checkers borne off, the longest block each side holds, points made, and (short
    family) the opponent's checkers hit and one's own blots left where they can be hit."""

    name = "heuristic"

    def choose(self, game: Game, rng: random.Random) -> Turn | None:
        turns = game.legal_turns()
        if not turns:
            return None
        scores = self.scores(game, turns)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return turns[int(best[rng.randrange(len(best))])]

    def scores(self, game: Game, turns: tuple[Turn, ...]) -> NDArray[np.float64]:
        own, theirs = _sides(game, turns)
        family = find_variant(game.variant).family
        slots = np.arange(26)
        pip_lead = (theirs * slots).sum(axis=1) - (own * slots).sum(axis=1)
        board = own[:, 1:25]
        made = (board >= 2).sum(axis=1)
        score = (
            pip_lead
            + 3.0 * own[:, 0]
            + 4.0 * _longest_run(board)
            - 3.0 * _longest_run(theirs[:, 1:25])
        ).astype(np.float64)
        if family is Family.LONG:
            occupied = (board >= 1).sum(axis=1)
            long_score: NDArray[np.float64] = (
                score + 1.5 * occupied - 1.0 * np.maximum(own[:, 24] - 2, 0)
            )
            return long_score
        # short: hits and blots. An own blot is exposed when an opponent checker is behind it
        # (lower on the mover's numbering, where the opponent comes from).
        theirs_mine = theirs[:, _MAPS[Family.SHORT]]
        their_back = np.where(theirs[:, 25] > 0, 0, _lowest(theirs_mine))
        points = np.arange(1, 25)
        exposed = ((board == 1) & (points[None, :] > their_back[:, None])).sum(axis=1)
        short_score: NDArray[np.float64] = score + 2.0 * made + 8.0 * theirs[:, 25] - 5.0 * exposed
        return short_score


def _lowest(board: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each row's lowest occupied point (1..24), 25 for none."""
    occupied = board > 0
    first = occupied.argmax(axis=1) + 1
    return np.where(occupied.any(axis=1), first, 25)


# Tesauro's pubeval weights (public domain, published with pubeval.c): 5 inputs per point
# (24 points, the mover's 24 first), then the opponent's checkers on the bar and the mover's
# checkers off. One set for contact positions, one for races.
_CONTACT: Final = np.array([
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
])  # fmt: skip
_RACE: Final = np.array([
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
])  # fmt: skip


class PubEvalPlayer:
    """Tesauro's pubeval (short family only): a linear score of the position after the turn,
    with the race weights when the position before it had no contact."""

    name = "pubeval"

    def choose(self, game: Game, rng: random.Random) -> Turn | None:
        if find_variant(game.variant).family is not Family.SHORT:
            raise ValueError("pubeval plays the short board only")
        turns = game.legal_turns()
        if not turns:
            return None
        own, theirs = _sides(game, turns)
        if (own[:, 0] == 15).any():
            return turns[int(np.flatnonzero(own[:, 0] == 15)[0])]
        weights = _RACE if _is_race(game) else _CONTACT
        scores = pubeval_inputs(own, theirs) @ weights
        return turns[int(np.argmax(scores))]


def pubeval_inputs(own: NDArray[np.int64], theirs: NDArray[np.int64]) -> NDArray[np.float64]:
    """pubeval's 122 inputs for each row: per point from the mover's 24 down to 1, (one
    opponent checker, one own, two or more own, exactly three own, (n-3)/2 beyond three own),
    then the opponent's checkers on the bar, halved, and the mover's checkers off / 15."""
    n = own.shape[0]
    theirs_mine = theirs[:, _MAPS[Family.SHORT]]  # opponent on the mover's points 1..24
    mine = own[:, 1:25][:, ::-1]  # points 24..1
    their = theirs_mine[:, ::-1]
    x = np.zeros((n, 24, 5), dtype=np.float64)
    x[:, :, 0] = their == 1
    x[:, :, 1] = mine == 1
    x[:, :, 2] = mine >= 2
    x[:, :, 3] = mine == 3
    x[:, :, 4] = np.maximum(mine - 3, 0) / 2.0
    tail = np.stack([theirs[:, 25] / 2.0, own[:, 0] / 15.0], axis=1)
    return np.concatenate([x.reshape(n, -1), tail], axis=1)


def _is_race(game: Game) -> bool:
    position = game.position
    own = position.checkers(game.turn)
    theirs = position.checkers(game.turn.other)
    own_back = max((p for p in range(1, 26) if own[p]), default=0)
    their_back = max((p for p in range(1, 26) if theirs[p]), default=0)
    return own_back + their_back <= 25
