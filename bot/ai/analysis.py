"""Analysis of a played game: how much equity each turn and each cube decision gave away,
and each side's summary.

Every turn with a real choice (two or more legal turns) is judged as the strongest level judges
it, by the variant's valuer (:func:`bot.ai.sage.valuer`). A turn's *loss* is the best turn's
equity minus the played one's (cubeless, in points): at least :data:`ERROR` is an error, at
least :data:`BLUNDER` a blunder; the *error rate* is the mean loss per analysed turn, in
thousandths of a point. Where a cube is used, :func:`judge_cube` judges each double, take and
drop by :mod:`bot.ai.cubeful`'s money-game model; :func:`replayed` finds them in a history that
keeps the cube's actions (``w double 2``, ``b take``, ``b drop``). The work is split by turns
(:func:`review`), so a caller can report progress; :func:`summarise` makes each side's summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bot.engine import Game, IllegalTurnError, Side, Turn, TurnRecord

from .cubeful import CubeAction, CubeEquities
from .levels import MAX_LISTED

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from .evaluator import Valuer

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
class CubeRecord:
    """A cube action as a history keeps it (``w double 2``, ``b take``, ``b drop``): ``side``
    did ``action`` (:attr:`~CubeAction.DOUBLE`, :attr:`~CubeAction.TAKE` or
    :attr:`~CubeAction.DROP`)."""

    side: Side
    action: CubeAction


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """A cube decision made in a game: ``before``, the game as the deciding side saw it (for
    the doubler's decision, the side to move before its roll, :attr:`Game.can_double`; for the
    answer, the double offered), what it did, and ``index``, the turn of the replayed game it
    came before (the number of turns for a drop, which ends the game)."""

    index: int
    before: Game
    action: CubeAction

    @property
    def side(self) -> Side:
        return self.before.to_act


@dataclass(frozen=True, slots=True)
class CubeReview:
    """A judged cube decision: its equities by the model (from the doubler's side, per unit
    of the cube), the model's choice, what the choice made lost (per unit of the cube), and
    whether it counts as a decision with a real choice (PR's denominator)."""

    decision: CubeDecision
    equities: CubeEquities
    loss: float
    counted: bool

    @property
    def side(self) -> Side:
        return self.decision.side

    @property
    def index(self) -> int:
        return self.decision.index

    @property
    def action(self) -> CubeAction:
        return self.decision.action

    @property
    def best(self) -> CubeAction:
        return self.equities.best(self.action.doubler)


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
    cube_decisions: int = 0
    """Cube decisions with a real choice (see :attr:`CubeReview.counted`)."""
    cube_errors: tuple[CubeReview, ...] = ()
    """The cube decisions that lost at least an error's worth, worst first (up to three)."""


def states(start: Game, records: Sequence[TurnRecord]) -> list[tuple[Game, Turn]]:
    """Each turn of ``records`` as (the game ready to play it, the turn played)."""
    found = []
    game = start
    for record in records:
        ready, turn = _played(game, record)
        found.append((ready, turn))
        game = ready.play(turn)
    return found


def replayed(
    start: Game, entries: Sequence[TurnRecord | CubeRecord]
) -> tuple[list[tuple[Game, Turn]], list[CubeDecision]]:
    """Each turn of ``entries`` as :func:`states` gives it, and each cube decision made
    between them: a double, a take, a drop as recorded, and a *no double* wherever the side to
    move could have doubled (:attr:`Game.can_double`) and rolled instead.

    :raises: :exc:`~bot.engine.NardyError` if ``entries`` do not fit the game.
    """
    found: list[tuple[Game, Turn]] = []
    cube: list[CubeDecision] = []
    game = start
    for entry in entries:
        if isinstance(entry, CubeRecord):
            if entry.side is not game.to_act:
                raise IllegalTurnError(f"{entry.side} may not {entry.action.value} now")
            cube.append(CubeDecision(len(found), game, entry.action))
            if entry.action is CubeAction.DOUBLE:
                game = game.double()
            elif entry.action is CubeAction.TAKE:
                game = game.take()
            else:
                game = game.drop()
            continue
        if game.can_double:  # it rolled: not doubled
            cube.append(CubeDecision(len(found), game, CubeAction.NO_DOUBLE))
        ready, turn = _played(game, entry)
        found.append((ready, turn))
        game = ready.play(turn)
    return found, cube


def _played(game: Game, record: TurnRecord) -> tuple[Game, Turn]:
    ready = game.rolled_for(record)
    current = ready.turn_input()
    for step in record.steps:
        current = current.play(next(o for o in current.options if o.step == step))
    return ready, current.turn()


def judge_cube(decisions: Sequence[CubeDecision]) -> list[CubeReview]:
    """Judges each cube decision by the valuer's cube model (:mod:`bot.ai.cubeful` from the
    net's cubeless chances of the doubler before its roll, 0-ply: the net's own estimate of
    the position before a roll; Open Sage's own decision for the games it values,
    :mod:`bot.ai.sage`). The valuer is loaded here, as in :func:`review`."""
    from .sage import for_game

    found = []
    for decision in decisions:
        game = decision.before
        cube = game.cube
        assert cube is not None, "a cube decision in a game without a cube"
        judged = for_game(game).cube(game)
        loss = judged.loss(decision.action)
        counted = decision.action is not CubeAction.NO_DOUBLE or judged.close()
        found.append(CubeReview(decision, judged, loss, counted))
    return found


def review(played: Sequence[tuple[Game, Turn]], indices: range) -> list[Review]:
    """Reviews the turns ``played[i]`` for ``i`` in ``indices`` that had a choice (crazy
    gul-bara's cascades, too many turns to list, are left out: see
    :data:`~bot.ai.levels.MAX_LISTED`). The net and numpy are loaded here, in the process
    that reviews: the records and summaries are read where numpy is not loaded."""
    import numpy as np

    from .sage import for_game
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
        net = for_game(before)
        values = ply0(net, before, turns)
        order = list(np.argsort(-values, kind="stable")[:LOOK_AHEAD])
        mine = next(i for i, t in enumerate(turns) if t.position == turn.position)
        if mine not in order:
            order.append(mine)
        deeper = ply1(net, before, [turns[i] for i in order])
        if net.searches(before):
            deeper = _deepest(net, before, [turns[i] for i in order], deeper, order.index(mine))
        best = int(np.argmax(deeper))
        loss = max(0.0, float(deeper[best] - deeper[order.index(mine)]))
        found.append(Review(index, before, turn, turns[order[best]], loss))
    return found


def _deepest(
    net: Valuer, game: Game, turns: list[Turn], values: NDArray[np.float64], played: int
) -> NDArray[np.float64]:
    """``values`` (a roll ahead) with the turns within an error of the best, and the one
    played, valued again two rolls ahead by the valuer's own search, as level 5 plays
    (:data:`~bot.ai.computer.DEEPEST`); unchanged where that would pass level 5's time."""
    import numpy as np

    from .computer import DEEPEST, DEEPEST_BUDGET

    near = [i for i in range(len(turns)) if values[i] >= values.max() - ERROR or i == played]
    if len(near) < 2:
        return values
    found = net.deeper(game, [turns[i] for i in near], DEEPEST, DEEPEST_BUDGET)
    if found is None:
        return values
    refined = values.copy()
    refined[near] = found
    rest = np.setdiff1d(np.arange(len(turns)), near)
    if len(rest):  # below every turn looked at again, as level 5 keeps them
        refined[rest] = np.minimum(values[rest], found.min() - 1e-6)
    return refined


def summarise(reviews: Sequence[Review], cube: Sequence[CubeReview] = ()) -> dict[Side, Summary]:
    """Each side's summary of ``reviews`` (its turns) and ``cube`` (its cube decisions)."""
    result = {}
    for side in (Side.WHITE, Side.BLACK):
        own = [r for r in reviews if r.side is side]
        losses = [r.loss for r in own]
        worst = sorted((r for r in own if r.loss >= ERROR), key=lambda r: -r.loss)[:3]
        mine = [c for c in cube if c.side is side]
        cube_errors = sorted((c for c in mine if c.loss >= ERROR), key=lambda c: -c.loss)[:3]
        result[side] = Summary(
            side,
            len(own),
            sum(ERROR <= loss < BLUNDER for loss in losses),
            sum(loss >= BLUNDER for loss in losses),
            1000.0 * sum(losses) / len(own) if own else 0.0,
            tuple(worst),
            sum(c.counted for c in mine),
            tuple(cube_errors),
        )
    return result


def analyse(start: Game, records: Sequence[TurnRecord]) -> dict[Side, Summary]:
    """The whole game's summaries in one call."""
    played = states(start, records)
    return summarise(review(played, range(len(played))))
