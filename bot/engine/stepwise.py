"""Turn input tap by tap, for players who build a turn on a keyboard.

A :class:`TurnInput` holds the taps made so far in this turn, each one or more steps. It offers
only the next steps that lead on to at least one legal complete turn, so a player can never build
an illegal turn or walk into a dead end. Besides single steps it offers the *finishes*: every
distinct way to complete the turn from here, each playable as one tap (a keyboard shows them as
whole-turn buttons when there are few). :meth:`TurnInput.with_forced` plays a remainder that
can be completed one way only, as part of the tap before it, and :meth:`TurnInput.undo` takes
back a whole tap. Nothing here is committed: the finished turn is handed to
:meth:`bot.engine.game.Game.play` like any other.

It works for every variant and move list: two or three dice, a crazy gul-bara cascade of up to
24 moves, a gul-bara remainder, the Abkhaz restrictions. No tap lists every legal turn: the
answers come from a :class:`~bot.engine.rules.plan.TurnPlan` (a search with early exit that keeps
what it learns), shared by the inputs of one turn, so each tap costs a few searches of the
nodes it has not met yet, even when the turn has thousands of distinct results.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

from .dice import Dice, MoveList
from .errors import IllegalTurnError
from .lazy import lazy
from .moves import Played, Turn
from .position import Position
from .rules import RuleSet, SearchBoard, find_variant, resolve_rules, turns_for
from .rules.plan import TurnPlan

PLANS_KEPT: Final = 256
"""How many turns' searches :func:`plan_for` keeps at most (the latest used): one for each game
a bot has being tapped at once, so that each game's next tap finds its turn's search again
(with fewer than the games in play every tap searched afresh)."""
PLAN_NODES_KEPT: Final = 20_000
"""How many searched nodes the kept plans may hold together (about 0.7 kB each, so about
14 MB): a long nardy turn searches a few dozen, but one crazy gul-bara cascade can search tens
of thousands (one searched 107,306 nodes in 2.8 s). The latest plan is kept whatever its size;
a plan pushed out is still found while anyone holds it (a bot holds each game's until its turn
ends), so only plans nobody holds count against this."""

PlanKey = tuple[Position, MoveList, bool, RuleSet]


class _Plans:
    """The kept plans, the latest used last, each with its nodes as counted when it was last
    looked up (plans grow as they are asked, after the look-up that hands them out), so that
    keeping them within :data:`PLAN_NODES_KEPT` costs no walk over all of them; and, by weak
    reference, every plan still alive, kept or not: one that a holder keeps alive (a game whose
    turn is being tapped) is found again after the budget pushed it out, and kept again."""

    def __init__(self) -> None:
        self._kept: OrderedDict[PlanKey, tuple[TurnPlan, int]] = OrderedDict()
        self._alive: weakref.WeakValueDictionary[PlanKey, TurnPlan] = weakref.WeakValueDictionary()
        self._nodes = 0
        self._lock = threading.Lock()

    def get(self, key: PlanKey, new: Callable[[], TurnPlan]) -> TurnPlan:
        """The plan kept for ``key``, else the one still alive for it, else a new one
        (``new()``), kept from now on."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is None:
                found, counted = self._alive.get(key), 0
                plan = found if found is not None else new()
                self._alive[key] = plan
            else:
                plan, counted = kept
                self._kept.move_to_end(key)
            nodes = plan.nodes
            self._kept[key] = (plan, nodes)
            self._nodes += nodes - counted
            while len(self._kept) > 1 and (
                len(self._kept) > PLANS_KEPT or self._nodes > PLAN_NODES_KEPT
            ):
                _, (_, dropped) = self._kept.popitem(last=False)
                self._nodes -= dropped
            return plan

    def values(self) -> list[TurnPlan]:
        """The kept plans, the least recently used first."""
        with self._lock:
            return [plan for plan, _ in self._kept.values()]

    def drop(self, key: PlanKey) -> None:
        """Lets go of the plan kept for ``key``, if any."""
        with self._lock:
            kept = self._kept.pop(key, None)
            if kept is not None:
                self._nodes -= kept[1]

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._alive.clear()
            self._nodes = 0


_plans = _Plans()

Planner = Callable[[PlanKey], "TurnPlan | None"]
"""Where :func:`plan_for` finds a turn's plan before its own cache: a plan for the key (one
searched elsewhere, say), or None to search it here."""
_planner: Planner | None = None


def set_planner(planner: Planner | None) -> None:
    """Makes :func:`plan_for` ask ``planner`` first (None: nobody). A bot searches its heavy
    turns in another process this way (:mod:`bot.services.planner`): the engine itself does no
    I/O."""
    global _planner
    _planner = planner


PLANS_ANSWERED: Final = 16
"""How many turns' plans :func:`answer` keeps at most (the latest asked), whatever their size,
until they are forgotten (:func:`forget`): in a process that searches heavy turns for a bot,
every cascade being tapped at once."""
_answered: OrderedDict[PlanKey, TurnPlan] = OrderedDict()


def forget(key: PlanKey) -> None:
    """Drops the plan :func:`answer` keeps for ``key`` (its turn has ended), from the cache of
    :func:`plan_for` too."""
    _answered.pop(key, None)
    _plans.drop(key)


def answer(key: PlanKey, question: str, args: tuple[Any, ...]) -> Any:
    """The answer of the plan of turn ``key`` to ``question`` (the name of one of its methods
    or properties) with ``args``: what a process that searches turns for another computes
    (:mod:`bot.services.planner`), from plans it keeps (:data:`PLANS_ANSWERED`)."""
    plan = _answered.get(key)
    if plan is None:
        plan = _answered[key] = plan_for(*key)
        while len(_answered) > PLANS_ANSWERED:
            _answered.popitem(last=False)
    _answered.move_to_end(key)
    found = getattr(plan, question)
    return found(*args) if callable(found) else found


def plan_for(position: Position, moves: MoveList, first_turn: bool, rules: RuleSet) -> TurnPlan:
    """The search of one turn, shared by every :class:`TurnInput` of it, also across separate
    :meth:`TurnInput.begin` calls: a bot that rebuilds the input from the stored taps on each
    tap then finds what the previous taps learnt. A plan is a cache of answers that depend on
    nothing but its key, so sharing it changes no result; the latest used are kept, at most
    :data:`PLANS_KEPT` and :data:`PLAN_NODES_KEPT`, and any other still held elsewhere is found
    too (the list is guarded by a lock, and threads that share a plan ask it one at a time)."""

    if _planner is not None:
        found = _planner((position, moves, first_turn, rules))
        if found is not None:
            return found

    def new_plan() -> TurnPlan:
        variant = find_variant(position.variant)

        def new_board() -> SearchBoard:
            return variant.board(position, moves, first_turn=first_turn, rules=rules)

        return TurnPlan(new_board, moves, rules)

    return _plans.get((position, moves, first_turn, rules), new_plan)


@dataclass(frozen=True)
class TurnInput:
    """The taps made so far towards a legal complete turn of ``moves`` (the moves of ``dice``,
    or a remainder when ``dice`` is None); ``taps`` holds the steps of each tap (one step, or a
    finish, or a step with its forced remainder).

    >>> from bot.engine import Dice, Position
    >>> start = TurnInput.begin(Position.from_text("long w / 24:15 / 24:15"), Dice(6, 5),
    ...                         first_turn=True, rules=None)
    >>> [str(o.step) for o in start.options]
    ['24/18', '24/19']
    >>> after = start.play(start.options[0])
    >>> [str(o.step) for o in after.options], after.is_complete
    (['18/13'], False)
    >>> str(after.play(after.options[0]).turn())
    '24/18 18/13'
    """

    position: Position
    dice: Dice | None
    first_turn: bool
    rules: RuleSet
    moves: MoveList
    taps: tuple[tuple[Played, ...], ...] = ()
    plan: TurnPlan = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    """The search behind the answers, shared by every input of this turn (a cache)."""

    def __post_init__(self) -> None:
        if self.plan is None:
            plan = plan_for(self.position, self.moves, self.first_turn, self.rules)
            object.__setattr__(self, "plan", plan)

    @classmethod
    def begin(
        cls,
        position: Position,
        dice: Dice | None,
        *,
        first_turn: bool,
        rules: RuleSet | str | None,
        moves: MoveList | None = None,
    ) -> TurnInput:
        """Starts a turn's input with no step chosen: for ``dice`` (the moves the variant reads
        from them), or for ``moves`` given (a gul-bara remainder, with ``dice`` None).

        :raises: :exc:`~bot.engine.errors.InvalidDiceError` for dice the variant does not roll;
            :exc:`ValueError` with neither dice nor moves.
        """
        rule_set = resolve_rules(position.variant, rules)
        if moves is None:
            if dice is None:
                raise ValueError("a turn plays dice or a remainder")
            moves = find_variant(position.variant).move_list(dice, rule_set)
        return cls(position, dice, first_turn, rule_set, moves)

    @property
    def played(self) -> tuple[Played, ...]:
        """Every step chosen so far, in order."""
        return tuple(step for tap in self.taps for step in tap)

    @lazy
    def turns(self) -> tuple[Turn, ...]:
        """Every legal complete turn (listed on first use: a cascade can have thousands)."""
        return turns_for(self.position, self.moves, first_turn=self.first_turn, rules=self.rules)

    @lazy
    def options(self) -> tuple[Played, ...]:
        """The next steps (each with the die it plays) that lead to a legal complete turn."""
        return self.plan.options(self.played)

    @lazy
    def is_complete(self) -> bool:
        """True when the chosen steps make a legal complete turn (a pass is complete at once)."""
        return self.plan.is_complete(self.played)

    @property
    def left(self) -> tuple[int, ...]:
        """The moves not played yet, in the list's order (for showing which dice are left)."""
        return self.moves.left_after(tuple(p.die for p in self.played))

    @property
    def current(self) -> Position:
        """The position after the chosen steps, the same side still to move."""
        return self.plan.current(self.played).with_turn(self.position.turn)

    def play(self, option: Played) -> TurnInput:
        """Returns the input with ``option`` (one of :attr:`options`) chosen next, as a tap.

        :raises: :exc:`IllegalTurnError` if ``option`` is not offered.
        """
        if option not in self.options:
            offered = " ".join(str(o.step) for o in self.options) or "none"
            raise IllegalTurnError(
                f"step {option.step} (die {option.die}) is not offered now (offered: {offered})"
            )
        return replace(self, taps=(*self.taps, (option,)))

    def finishes(self, limit: int) -> tuple[tuple[Played, ...], ...] | None:
        """The distinct ways to complete the turn from here: the remaining steps of each,
        one per resulting position, ordered by their steps from the highest point down; None
        when there are more than ``limit`` (the search stops there, so a turn with thousands of
        completions costs no more than ``limit`` of them). Empty when the input is complete.

        >>> from bot.engine import Dice, Position
        >>> start = TurnInput.begin(Position.from_text("long w / 24:14 13:1 / 24:15"),
        ...                         Dice(6, 5), first_turn=False, rules=None)
        >>> [" ".join(str(p.step) for p in steps) for steps in start.finishes(8)]
        ['24/18 18/13', '24/18 13/8', '13/7 24/19', '13/7 7/2']
        >>> start.finishes(3) is None
        True
        """
        if self.is_complete:
            return ()
        found = self.plan.finishes(self.played, limit)
        if found is None:
            return None
        return tuple(sorted(found.values(), key=lambda steps: [(-p.src, -p.dst) for p in steps]))

    def finish(self, steps: tuple[Played, ...]) -> TurnInput:
        """Returns the input with ``steps`` (one of the :meth:`finishes`) played as one tap.

        :raises: :exc:`IllegalTurnError` if ``steps`` do not complete the turn legally.
        """
        if not steps or self.plan.check((*self.played, *steps)) is None:
            raise IllegalTurnError("those steps do not complete the turn")
        return replace(self, taps=(*self.taps, steps))

    def with_forced(self) -> TurnInput:
        """Returns the input with a forced remainder played: when the turn can be completed in
        one way only, its steps join the last tap (so one Undo takes back both). Unchanged when
        the input is complete, has no tap yet, or can be completed in more than one way."""
        if not self.taps or self.is_complete:
            return self
        only = self.finishes(1)
        if only is None or len(only) != 1:
            return self
        return replace(self, taps=(*self.taps[:-1], self.taps[-1] + only[0]))

    def replay(self, taps: tuple[tuple[Played, ...], ...]) -> TurnInput:
        """Returns the input with ``taps`` made after its own, each step checked as :meth:`play`
        checks it (a stored input read back).

        :raises: :exc:`IllegalTurnError` if a step is not offered when its turn comes.
        """
        current = self
        for tap in taps:
            for step in tap:
                current = current.play(step)
        return replace(self, taps=(*self.taps, *taps))

    def undo(self) -> TurnInput:
        """Returns the input without its last tap (unchanged when there is none)."""
        return replace(self, taps=self.taps[:-1]) if self.taps else self

    def turn(self) -> Turn:
        """Returns the finished turn (with its remainder in gul-bara).

        :raises: :exc:`IllegalTurnError` if the input is not complete.
        """
        if not self.is_complete:
            raise IllegalTurnError("the turn is not complete yet")
        played = self.played
        remainder = self.left if self.moves.hands_on else ()
        if not played:
            return Turn((), self.position.with_turn(self.position.turn.other), remainder)
        return Turn(played, self.plan.current(played), remainder)
