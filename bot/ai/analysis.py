"""Analysis of a played game: how much equity each turn gave away, and each side's summary.

Every turn with a real choice (two or more legal turns) is judged as the strongest level
judges it: all turns at 0-ply, then the best few and the turn played a roll ahead (1-ply).
The *loss* of a turn is the best turn's equity minus the played one's (cubeless, in points).
A loss of at least :data:`ERROR` is an error, of at least :data:`BLUNDER` a blunder (GNU
Backgammon's "bad" and "very bad" thresholds). The *error rate* is the mean loss per analysed
turn, in thousandths of a point.

The work is split by turns (:func:`review`), so that a caller can report progress between
parts; :func:`summarise` turns the reviews into each side's summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.engine import Game, Side, Turn, TurnRecord

from .levels import MAX_LISTED

ERROR: Final = 0.08
BLUNDER: Final = 0.16
LOOK_AHEAD: Final = 4
"""How many of 0-ply's best turns are also looked at a roll ahead, besides the one played."""


@dataclass(frozen=True, slots=True)
class Review:
    """One analysed turn: the game before it (rolled), what was played, what was best."""

    index: int
    before: Game
    played: Turn
    best: Turn
    loss: float

    @property
    def side(self) -> Side:
        return self.before.turn


@dataclass(frozen=True, slots=True)
class Summary:
    """One side's figures over a game."""

    side: Side
    turns: int
    errors: int
    blunders: int
    error_rate: float
    """Mean loss per analysed turn, thousandths of a point."""
    worst: tuple[Review, ...]
    """Up to three turns with the largest losses (at least an error each), worst first."""


def states(start: Game, records: Sequence[TurnRecord]) -> list[tuple[Game, Turn]]:
    """Each turn of ``records`` as (the game ready to play it, the turn played)."""
    found = []
    game = start
    for record in records:
        ready = game.rolled_for(record)
        current = ready.turn_input()
        for step in record.steps:
            current = current.play(next(o for o in current.options if o.step == step))
        turn = current.turn()
        found.append((ready, turn))
        game = ready.play(turn)
    return found


def review(played: Sequence[tuple[Game, Turn]], indices: range) -> list[Review]:
    """Reviews the turns ``played[i]`` for ``i`` in ``indices`` that had a choice (crazy
    gul-bara's cascades, too many turns to list, are left out: see
    :data:`~bot.ai.levels.MAX_LISTED`). The net and numpy are loaded here, in the process
    that reviews: the records and summaries are read where numpy is not loaded."""
    import numpy as np

    from .evaluator import evaluator
    from .search import ply0, ply1

    found = []
    for index in indices:
        before, turn = played[index]
        moves = before.moves
        if moves is not None and len(moves.values) > MAX_LISTED:
            continue
        turns = before.legal_turns()
        if len(turns) < 2:
            continue
        net = evaluator(before.variant)
        values = ply0(net, before, turns)
        order = list(np.argsort(-values, kind="stable")[:LOOK_AHEAD])
        mine = next(i for i, t in enumerate(turns) if t.position == turn.position)
        if mine not in order:
            order.append(mine)
        deeper = ply1(net, before, [turns[i] for i in order])
        best = int(np.argmax(deeper))
        loss = max(0.0, float(deeper[best] - deeper[order.index(mine)]))
        found.append(Review(index, before, turn, turns[order[best]], loss))
    return found


def summarise(reviews: Sequence[Review]) -> dict[Side, Summary]:
    """Each side's summary of ``reviews``."""
    result = {}
    for side in (Side.WHITE, Side.BLACK):
        own = [r for r in reviews if r.side is side]
        losses = [r.loss for r in own]
        worst = sorted((r for r in own if r.loss >= ERROR), key=lambda r: -r.loss)[:3]
        result[side] = Summary(
            side,
            len(own),
            sum(ERROR <= loss < BLUNDER for loss in losses),
            sum(loss >= BLUNDER for loss in losses),
            1000.0 * sum(losses) / len(own) if own else 0.0,
            tuple(worst),
        )
    return result


def analyse(start: Game, records: Sequence[TurnRecord]) -> dict[Side, Summary]:
    """The whole game's summaries in one call."""
    played = states(start, records)
    return summarise(review(played, range(len(played))))
