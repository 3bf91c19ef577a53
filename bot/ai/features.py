"""What the evaluator sees of a position: a fixed vector of numbers, from the side to move.

Positions arrive as rows of checker counts: ``own``, the 26 slots of the side to move in its own
numbering (0 off, 1..24 the board, 25 the bar), ``theirs`` the opponent's in the opponent's
numbering. :func:`encode` turns a batch into an ``(n, FEATURES)`` array in one pass of numpy
operations. The features: TD-Gammon's raw board encoding (each side's checkers on each point as
"at least 1, 2, 3" and half those beyond three); the bar and the checkers off; pip counts and
their difference; each side's longest run of occupied points; checkers at home, on the head and
alone (blots); whether the sides are past each other (short family); what a player counts
(:mod:`bot.ai.counts`, zeros for hitting on the long board); and a gul-bara remainder the side
to move must play first, its pips and length.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

from bot.engine import Family, Position, Side, opponent_point

from . import counts

COUNTED: Final = 10
"""The columns of :mod:`bot.ai.counts`, before the remainder's two."""
FEATURES: Final = 210 + COUNTED
"""The length of one encoded position."""

_POINTS: Final = np.arange(1, 25)
_PIP_SCALE: Final = {Family.LONG: 360.0, Family.SHORT: 167.0}
"""The pips of the starting position: pip counts are scaled by them."""
_BITS: Final = (1 << np.arange(24, dtype=np.int64)).astype(np.int64)


def _mapping(family: Family) -> NDArray[np.intp]:
    """The opponent's own point number for each of the mover's points 1..24."""
    return np.array([opponent_point(family, p) for p in range(1, 25)], dtype=np.intp)


_MAPS: Final = {family: _mapping(family) for family in Family}


def checkers(
    positions: Sequence[Position], sides: Sequence[Side]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The rows :func:`encode` reads: each position's checkers of ``sides[i]`` (the side it is
    seen from) and of its opponent, each in its own numbering."""
    white = np.array([p.white for p in positions], np.int64).reshape(len(positions), 26)
    black = np.array([p.black for p in positions], np.int64).reshape(len(positions), 26)
    seen_white = np.array([s is Side.WHITE for s in sides])[:, None]
    return np.where(seen_white, white, black), np.where(seen_white, black, white)


def remainders(pending: Sequence[tuple[int, ...]]) -> NDArray[np.float32]:
    """The ``pending`` columns of :func:`encode` for remainders to play first: pips / 36 and
    moves / 6 (zeros for none)."""
    return np.array([[sum(r) / 36.0, len(r) / 6.0] for r in pending], dtype=np.float32)


def _unary(counts: NDArray[np.int64]) -> NDArray[np.float32]:
    """TD-Gammon's encoding of a point's checkers: (>=1, >=2, >=3, (n-3)/2 beyond three)."""
    n = counts.shape[0]
    out = np.empty((n, counts.shape[1], 4), dtype=np.float32)
    out[:, :, 0] = counts >= 1
    out[:, :, 1] = counts >= 2
    out[:, :, 2] = counts >= 3
    out[:, :, 3] = np.maximum(counts - 3, 0) * 0.5
    return out.reshape(n, -1)


def _longest_run(board: NDArray[np.int64]) -> NDArray[np.float32]:
    """The longest run of consecutive occupied points of each row's 24 points (own numbering)."""
    mask = (board > 0).astype(np.int64) @ _BITS
    run = np.zeros(board.shape[0], dtype=np.float32)
    while mask.any():
        run += mask != 0
        mask &= mask >> 1
    return run


def encode(
    family: Family,
    own: NDArray[np.int64],
    theirs: NDArray[np.int64],
    pending: NDArray[np.float32] | None = None,
) -> NDArray[np.float32]:
    """Encodes positions of ``family`` (see the module docstring).

    :param own: ``(n, 26)`` checker counts of the side to move, its own numbering.
    :param theirs: ``(n, 26)`` the opponent's, in the opponent's numbering.
    :param pending: ``(n, 2)``: the pips and the number of moves of a remainder the side to
        move must play first, or None for none.
    """
    n = own.shape[0]
    theirs_mine = theirs[:, _MAPS[family]]  # the opponent's checkers on the mover's points 1..24
    mine = own[:, 1:25]
    scale = _PIP_SCALE[family]
    own_pips = (own * np.arange(26)).sum(axis=1) / scale
    their_pips = (theirs * np.arange(26)).sum(axis=1) / scale
    columns = [
        _unary(mine),
        _unary(theirs_mine),
        np.stack(
            [
                own[:, 25] * 0.5,
                theirs[:, 25] * 0.5,
                own[:, 0] / 15.0,
                theirs[:, 0] / 15.0,
                own_pips,
                their_pips,
                (own_pips - their_pips) * 2.0,
                _longest_run(mine) / 6.0,
                _longest_run(theirs[:, 1:25]) / 6.0,
                own[:, 1:7].sum(axis=1) / 15.0,
                theirs[:, 1:7].sum(axis=1) / 15.0,
                _race(family, own, theirs),
                own[:, 24] / 15.0,
                theirs[:, 24] / 15.0,
                (mine == 1).sum(axis=1) / 15.0,
                (theirs[:, 1:25] == 1).sum(axis=1) / 15.0,
            ],
            axis=1,
        ).astype(np.float32),
        _counted(family, own, theirs, theirs_mine),
        np.zeros((n, 2), dtype=np.float32) if pending is None else pending,
    ]
    return np.concatenate(columns, axis=1)


def _counted(
    family: Family,
    own: NDArray[np.int64],
    theirs: NDArray[np.int64],
    theirs_mine: NDArray[np.int64],
) -> NDArray[np.float32]:
    """The :data:`COUNTED` columns: (shots, escapes, mobility, contact pips, entry), the side
    to move's then the other's for each."""
    short = family == Family.SHORT
    mine_theirs = own[:, _MAPS[family]]  # the mover's checkers on the other's points 1..24
    shut_mine = counts.closed(theirs_mine, blot_hits=short)
    shut_theirs = counts.closed(mine_theirs, blot_hits=short)
    zeros = np.zeros(own.shape[0], dtype=np.float32)
    return np.stack(
        [
            counts.shots(own, theirs_mine) if short else zeros,
            counts.shots(theirs, mine_theirs) if short else zeros,
            counts.escapes(own, shut_mine),
            counts.escapes(theirs, shut_theirs),
            counts.mobility(own, shut_mine),
            counts.mobility(theirs, shut_theirs),
            counts.contact_pips(own, theirs_mine, theirs[:, 25]) if short else zeros,
            counts.contact_pips(theirs, mine_theirs, own[:, 25]) if short else zeros,
            counts.entry(theirs_mine) if short else zeros,
            counts.entry(mine_theirs) if short else zeros,
        ],
        axis=1,
    ).astype(np.float32)


def _race(family: Family, own: NDArray[np.int64], theirs: NDArray[np.int64]) -> NDArray[np.float32]:
    """1 where no checker can meet an opponent's again (short family: each side's rearmost
    checker is past the other's), else 0; always 0 in the long family, where sides pass by
    blocking rather than hitting."""
    if family == Family.LONG:
        return np.zeros(own.shape[0], dtype=np.float32)
    slots = np.arange(26)
    own_back = ((own > 0) * slots)[:, 1:].max(axis=1)
    their_back = ((theirs > 0) * slots)[:, 1:].max(axis=1)
    race: NDArray[np.float32] = (own_back + their_back <= 25).astype(np.float32)
    return race
