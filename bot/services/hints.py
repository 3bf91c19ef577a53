"""What 💡 says, in the board's own buttons (:class:`Advice`): the best turn as the taps that
play it from the board as it stands, the next best turns and the turn tapped so far, each with
what it gives away against the best.

A board offers a turn as whole-turn buttons when there are at most
:data:`~.snapshots.WHOLE_TURN_BUTTONS` ways to finish it, else as steps, one tap each (a
remainder that can be played one way only goes with the step before it): :func:`taps_to` walks
that same path to the best turn, so the hint names exactly the buttons the player taps. The
other turns are named as their whole-turn buttons would be. Pure functions of a turn's input
and the computer's ranking; run on a thread (a turn's first look can search for seconds).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from bot.ai import Hint
from bot.engine import Played, Position, Turn, TurnInput

from .snapshots import WHOLE_TURN_BUTTONS

OTHERS: Final = 2
"""The next best turns a hint names after the best."""
SEARCHED: Final = 4096
"""How many ways to finish a turn are searched for the best turn's when the taps made so far
are not its own steps (beyond them the hint says to undo first)."""


@dataclass(frozen=True, slots=True)
class Tap:
    """One button to tap: a whole-turn button (``whole``: it plays ``steps``, its label names
    them all) or a step button (its label names its one step; ``ambiguous`` when two dice make
    that step, so the label adds the die)."""

    steps: tuple[Played, ...]
    whole: bool
    ambiguous: bool = False


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint as the board's buttons say it.

    ``passes``: the roll cannot be played. ``best``: the taps that play the best turn from
    the board as it stands (none when the turn tapped is the best already), or, when the taps
    made so far lead elsewhere (``undo_first``), from the start of the turn. ``others``: the
    next best turns (their steps as their whole-turn buttons name them) with what each gives
    away against the best, in points. ``tapped``: the turn tapped so far when it is complete,
    with what it gives away."""

    passes: bool
    best: tuple[Tap, ...]
    undo_first: bool
    others: tuple[tuple[tuple[Played, ...], float], ...]
    tapped: tuple[tuple[Played, ...], float] | None


def advise(hint: Hint, current: TurnInput) -> Advice:
    """The advice of ``hint`` (the computer's ranking of the roll) for the turn being tapped,
    ``current``."""
    best = hint.best
    start = replace(current, taps=())
    tapped = None
    if current.is_complete and current.taps:
        loss = hint.loss(current.turn())
        if loss is not None:
            tapped = (current.played, loss)
    if best is None or not best.played:
        return Advice(True, (), False, (), tapped)
    taps = taps_to(current, best)
    undo_first = taps is None
    if taps is None:
        taps = taps_to(start, best) or (Tap(best.played, whole=True),)
    named = _finish_steps(start)
    ranked = zip(hint.ranked.turns, hint.ranked.equities, strict=True)
    others = tuple(
        (named.get(turn.position, turn.played), max(0.0, hint.ranked.equities[0] - value))
        for turn, value in list(ranked)[1 : 1 + OTHERS]
    )
    return Advice(False, taps, undo_first, others, tapped)


def taps_to(current: TurnInput, turn: Turn) -> tuple[Tap, ...] | None:
    """The buttons that play ``turn`` (its position) from ``current``, in order, as the board
    offers them (see the module docstring); None when the taps made so far do not lead there.
    Empty when ``current`` is complete and there already."""
    taps: list[Tap] = []
    while not current.is_complete:
        finishes = current.finishes(WHOLE_TURN_BUTTONS)
        if finishes is not None:
            for steps in finishes:
                if current.finish(steps).turn().position == turn.position:
                    return (*taps, Tap(steps, whole=True))
            return None
        rest = _rest(current, turn)
        options = current.options
        if not rest or rest[0] not in options:
            return None
        step = rest[0]
        ambiguous = sum((o.src, o.dst) == (step.src, step.dst) for o in options) > 1
        taps.append(Tap((step,), whole=False, ambiguous=ambiguous))
        current = current.play(step).with_forced()
    return tuple(taps) if current.turn().position == turn.position else None


def _rest(current: TurnInput, turn: Turn) -> tuple[Played, ...] | None:
    """Steps that complete ``current`` to ``turn``'s position: the turn's own steps not made
    yet, in its order, where they do; else a way to finish found among the first
    :data:`SEARCHED` (a checker the player sent to the same place by another way)."""
    wanted = list(turn.played)
    for made in current.played:
        if made not in wanted:
            break
        wanted.remove(made)
    else:
        if current.plan.check((*current.played, *wanted)) == turn.position:
            return tuple(wanted)
    found = current.plan.finishes(current.played, SEARCHED)
    return None if found is None else found.get(turn.position)


def _finish_steps(start: TurnInput) -> dict[Position, tuple[Played, ...]]:
    """The steps of each whole-turn button at the start of the turn, by the position it
    reaches (none when the turn is tapped step by step)."""
    finishes = start.finishes(WHOLE_TURN_BUTTONS)
    if not finishes:
        return {}
    return {start.finish(steps).turn().position: steps for steps in finishes}
