"""What a player counts at the board, for a batch of positions at once: shots, escapes,
mobility and the pips still in contact.

Each count is a function of one side's checkers (the *mover*, whichever side that is) and the
other side's checkers on the mover's points, so :mod:`bot.ai.features` asks each twice, once
from each side. Rows are positions, in the arrays of :func:`bot.ai.features.checkers`: ``mine``
``(n, 26)``, the mover's checkers in its own numbering (0 off, 1..24, 25 the bar), and
``blockers`` ``(n, 24)``, the other side's on the mover's points 1..24. A point is *closed* to
the mover when the other side holds it: two checkers or more on the short board, any on the
long board. The dice are read as a player reads them, not by the rules' full search: features
for the net, never a rule.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

import numpy as np
from numpy.typing import NDArray

Counts = NDArray[np.int64]
Shares = NDArray[np.float32]

ROLLS: Final = tuple(
    (high, low, 1 if high == low else 2)
    for high, low in combinations_with_replacement(range(6, 0, -1), 2)
)
"""The 21 rolls of two dice, each with its weight out of 36."""

WINDOW: Final = 12
"""How far ahead of a checker :func:`escapes` looks: two dice travel at most 12 pips, except a
double's four steps, which count points beyond the window as open."""

_BITS: Final = np.int64(1) << np.arange(26, dtype=np.int64)
"""Bit ``k`` stands for point ``k``: a row's points as one integer (:func:`_mask`)."""


def _mask(flags: NDArray[np.bool_], first: int) -> Counts:
    """Each row's flags as one integer, column ``j`` at bit ``first + j``."""
    bits = _BITS[first : first + flags.shape[1]]
    out: Counts = flags.astype(np.int64) @ bits
    return out


def _escape_table() -> NDArray[np.float32]:
    """For each 12-bit pattern of closed points ahead (bit k: the point k + 1 pips ahead), the
    share of the 36 rolls that carry a checker its roll's whole distance."""
    table = np.zeros(1 << WINDOW, dtype=np.float32)
    for mask in range(1 << WINDOW):

        def open_at(pips: int, mask: int = mask) -> bool:
            return pips > WINDOW or not mask >> (pips - 1) & 1

        ways = 0
        for high, low, weight in ROLLS:
            if high == low:
                travels = all(open_at(high * k) for k in range(1, 5))
            else:
                travels = open_at(high + low) and (open_at(high) or open_at(low))
            ways += weight * travels
        table[mask] = ways / 36.0
    return table


_ESCAPES: Final = _escape_table()


def closed(blockers: Counts, *, blot_hits: bool) -> NDArray[np.bool_]:
    """``(n, 24)``: the mover's points the other side holds (see the module docstring);
    ``blot_hits``: the short board, where one checker does not hold a point."""
    return blockers >= 2 if blot_hits else blockers >= 1


_HIGH: Final = np.array([h for h, low, _ in ROLLS if h != low], dtype=np.int64)
_LOW: Final = np.array([low for h, low, _ in ROLLS if h != low], dtype=np.int64)
_DOUBLE: Final = np.arange(1, 7, dtype=np.int64)
_BAR: Final = np.int64(1) << 25


def shots(mine: Counts, blockers: Counts) -> Shares:
    """The share of the 36 rolls with which the mover can hit at least one blot of the other
    side (short board), moving as the module docstring says: from the bar first, each stop
    open, a double's four steps.

    Points are bits (:func:`_mask`): a checker on point ``p`` reaches ``p - d`` with a die
    ``d``, so shifting the blots ``d`` bits up lines each up with the checkers that hit it.
    Each row is shifted by every roll at once: columns are the 15 non-doubles, then the 6
    doubles."""
    blots = _mask(blockers == 1, 1)[:, None]
    free = _mask(blockers < 2, 1)[:, None]
    board = _mask(mine[:, 1:25] > 0, 1)[:, None]
    on_bar = mine[:, 25][:, None]
    alone = on_bar == 1

    # non-doubles: one die, or both with either stop open
    direct = (blots << _HIGH) | (blots << _LOW)
    both = (blots << (_HIGH + _LOW)) & ((free << _HIGH) | (free << _LOW))
    from_board = (board & (direct | both)) != 0
    # from the bar: enter onto a blot, or (alone there) enter and go on with the other die, or
    # (alone there) enter with one die while another checker hits with the other
    entering = ((direct & _BAR) != 0) | (alone & ((both & _BAR) != 0))
    after_entry = alone & (
        (((free << _HIGH) & _BAR) != 0) & ((board & (blots << _LOW)) != 0)
        | (((free << _LOW) & _BAR) != 0) & ((board & (blots << _HIGH)) != 0)
    )
    mixed = np.where(on_bar > 0, entering | after_entry, from_board)

    # doubles: reach[k - 1], the sources that hit with k steps, each stop before it open
    reach = []
    path = np.full((blots.shape[0], len(_DOUBLE)), -1, dtype=np.int64)
    for k in range(1, 5):
        reach.append(path & (blots << (_DOUBLE * k)))
        path &= free << (_DOUBLE * k)
    from_board = (board & (reach[0] | reach[1] | reach[2] | reach[3])) != 0
    enters = ((free << _DOUBLE) & _BAR) != 0
    # each checker on the bar takes a step to enter: `left` steps remain, which the last one
    # to enter may go on with, or a checker on the board may take
    left = np.clip(4 - on_bar, 0, 3)
    chain = np.zeros_like(enters)
    others = np.zeros_like(enters)
    for k in range(1, 5):
        chain |= ((reach[k - 1] & _BAR) != 0) & (k <= left + 1)
        if k < 4:
            others |= ((board & reach[k - 1]) != 0) & (k <= left)
    doubled = np.where(on_bar > 0, enters & (chain | others), from_board)

    out: Shares = ((2 * mixed.sum(axis=1) + doubled.sum(axis=1)) / 36.0).astype(np.float32)
    return out


def escapes(mine: Counts, shut: NDArray[np.bool_]) -> Shares:
    """The share of the 36 rolls that carry the mover's rearmost checker (the bar's first) its
    roll's whole distance through the points ``shut`` (``(n, 24)``, see :func:`closed`); 1
    when it has no checker on the board."""
    occupied = mine[:, 1:26] > 0
    has = occupied.any(axis=1)
    rearmost = np.where(has, 25 - occupied[:, ::-1].argmax(axis=1), 0)
    # bit j of `window` is the point rearmost - 12 + j (points off the board: open), so the
    # point k pips ahead is bit 12 - k: reversed, bit k - 1, as the table reads it
    shut_bits = _mask(shut, 1)
    shift = rearmost - WINDOW
    window = np.where(shift >= 0, shut_bits >> shift.clip(0), shut_bits << (-shift).clip(0))
    ahead = _REVERSED[window & ((1 << WINDOW) - 1)]
    out: Shares = np.where(has, _ESCAPES[ahead], 1.0).astype(np.float32)
    return out


def _reverse_table() -> Counts:
    table = np.zeros(1 << WINDOW, dtype=np.int64)
    for value in range(1 << WINDOW):
        table[value] = int(format(value, f"0{WINDOW}b")[::-1], 2)
    return table


_REVERSED: Final = _reverse_table()
"""Each 12-bit value with its bits in the other order."""


def mobility(mine: Counts, shut: NDArray[np.bool_]) -> Shares:
    """How many (point, die) pairs let one of the mover's checkers step onto an open point of
    the board, over 6 dice and 15 checkers' worth of points (bearing off is not counted)."""
    free = _mask(~shut, 1)[:, None]
    sources = _mask(mine[:, 1:26] > 0, 1)[:, None]
    steps = np.bitwise_count(sources & (free << _DOUBLE)).sum(axis=1)
    out: Shares = (steps / 90.0).astype(np.float32)
    return out


def contact_pips(mine: Counts, blockers: Counts, their_bar: Counts) -> Shares:
    """The pips the mover's checkers must travel to pass the other side's rearmost checker
    (the lowest of the mover's points it holds; its bar is below point 1), over 100: 0 once
    the sides are past each other (short board)."""
    held = blockers > 0
    lowest = np.where(held.any(axis=1), held.argmax(axis=1) + 1, 0)
    lowest = np.where(their_bar > 0, 0, lowest)
    slots = np.arange(26)
    behind = np.maximum(slots[None, :] - lowest[:, None], 0) * mine
    behind[:, 0] = 0
    out: Shares = (behind.sum(axis=1) / 100.0).astype(np.float32)
    return out


def entry(blockers: Counts) -> Shares:
    """The other side's closed points in its home (the points 19..24 of the mover's numbering,
    where the mover's bar checkers enter), over 6."""
    out: Shares = ((blockers[:, 18:24] >= 2).sum(axis=1) / 6.0).astype(np.float32)
    return out
