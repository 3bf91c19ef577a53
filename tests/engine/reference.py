"""A slow, literal second reading of the rules, to check the engine against.

Written apart from the engine and as plainly as possible: every order of the dice, every step
sequence, every rule checked on the whole board after every step, no transpositions, no
incremental bookkeeping. Only its answers are shared with the engine's tests, never its code.

Variants: long, short, abkhaz (short with the home-hit restrictions), gulbara and crazy_gulbara
(long with remainders and a double's cascade); two or three dice; a remainder played from its
beginning.
"""

from __future__ import annotations

from itertools import permutations

from bot.engine import Dice, Position, RuleSet, Side

LONG_FAMILY = ("long", "gulbara", "crazy_gulbara")

Step = tuple[int, int, int, bool]
"""A step played: from, to, the die, whether it hit."""


class TooBig(Exception):
    """The literal search would visit more sequences than its budget (a long cascade)."""


def _opp(variant: str, point: int) -> int:
    if point in (0, 25):
        return point
    return (point + 11) % 24 + 1 if variant in LONG_FAMILY else 25 - point


def _forbidden_run(me: list[int], theirs: list[int], rules: RuleSet) -> bool:
    """Long nardy's blocking rule on the whole board, in the opponent's numbering."""
    owned = [False] * 25  # index: the opponent's point number
    for p in range(1, 25):
        if me[p]:
            owned[_opp("long", p)] = True
    karzar = rules.karzar_block and sum(theirs[0:7]) == 0
    q = 24
    while q >= 1:
        if not owned[q]:
            q -= 1
            continue
        top = q
        while q >= 1 and owned[q]:
            q -= 1
        bottom = q + 1  # the run is top..bottom in the opponent's numbering
        if top - bottom + 1 >= 6:
            if karzar:
                return True
            if not any(theirs[r] for r in range(1, bottom)):
                return True
    return False


def move_values(variant: str, dice: Dice, rules: RuleSet) -> tuple[tuple[int, ...], bool]:
    """The moves a roll gives, read from rules.md, and whether they are ordered."""
    values = [d for d in (dice.first, dice.second, dice.third) if d is not None]
    if len(values) == 3:
        if values[0] == values[1] == values[2]:
            return (values[0],) * 6, False  # a triple: six moves
        return tuple(values), False
    a, b = values
    if a != b:
        return (a, b), False
    if variant == "crazy_gulbara":
        each = 4 if rules.four_per_value else 2
        cascade: list[int] = []
        for value in range(a, 7):
            cascade += [value] * each
        return tuple(cascade), True
    return (a, a, a, a), False


class _State:
    """One node of the literal search: both sides' checkers and the turn's history."""

    def __init__(
        self, me: list[int], theirs: list[int], heads: int, hitters: list[int], off_before: int
    ) -> None:
        self.me, self.theirs, self.heads = me, theirs, heads
        self.hitters = hitters  # Abkhaz: own points where a checker that hit in home stands
        self.off_before = off_before


def _step(
    variant: str, state: _State, src: int, die: int, head_limit: int, rules: RuleSet
) -> tuple[_State, Step] | None:
    """Returns (state, played) after the step, or None if it is illegal."""
    me, theirs = state.me, state.theirs
    short = variant in ("short", "abkhaz")
    if not me[src]:
        return None
    if short and me[25] and src != 25:
        return None
    if not short and src == 24 and state.heads >= head_limit:
        return None
    dst = src - die
    me2, theirs2 = list(me), list(theirs)
    hit = False
    if dst >= 1:
        there = theirs[_opp(variant, dst)]
        if not short and there:
            return None
        if short:
            if there >= 2:
                return None
            if there == 1:
                theirs2[_opp(variant, dst)] = 0
                theirs2[25] += 1
                hit = True
    else:
        if sum(me[0:7]) != 15:
            return None
        if dst < 0 and any(me[p] for p in range(src + 1, 7)):
            return None
        dst = 0
    me2[src] -= 1
    me2[dst] += 1
    if not short and _forbidden_run(me2, theirs2, rules):
        return None
    hitters = list(state.hitters)
    if variant == "abkhaz":
        home_hit_before = bool(state.hitters)
        bore_off_before = me[0] > state.off_before
        moving_hitter = src in hitters
        if moving_hitter:
            hitters.remove(src)
            hitters.append(dst)
        home_hit = hit and 1 <= dst <= 6
        if home_hit and not moving_hitter:
            hitters.append(dst)
        # a turn with a home hit bears off nothing, before or after the hit
        if dst == 0 and (home_hit_before or moving_hitter):
            return None
        if home_hit and bore_off_before:
            return None
        # every hitter stands alone after every move
        if any(p == 0 or me2[p] != 1 for p in hitters):
            return None
    after = _State(me2, theirs2, state.heads + (src == 24), hitters, state.off_before)
    return after, (src, dst, die, hit)


def reference_moves(
    position: Position,
    values: tuple[int, ...],
    ordered: bool,
    first_turn: bool,
    double: bool,
    rules: RuleSet,
    budget: int = 400_000,
) -> dict[Position, set[tuple[int, ...]]]:
    """Every position reachable by a legal complete turn playing ``values`` (opponent to move),
    with the moves each leaves unplayed (in the list's order).

    :raises: :exc:`TooBig` past ``budget`` sequences.
    """
    variant, mover = position.variant, position.turn
    me0 = list(position.checkers(mover))
    theirs0 = list(position.checkers(mover.other))
    head_limit = _head_limit(position, values, first_turn, double)
    sequences: list[tuple[list[Step], _State, tuple[int, ...]]] = []  # (path, state, order)
    visited = [0]

    def walk(
        state: _State, left: tuple[int, ...], path: list[Step], order: tuple[int, ...]
    ) -> None:
        visited[0] += 1
        if visited[0] > budget:
            raise TooBig()
        sequences.append((path, state, order))
        if state.me[0] == 15 or not left:
            return
        die, rest = left[0], left[1:]
        for src in range(25, 0, -1):
            after = _step(variant, state, src, die, head_limit, rules)
            if after:
                walk(after[0], rest, [*path, after[1]], order)

    orders = [values] if ordered else sorted(set(permutations(values)))
    for order in orders:
        walk(_State(me0, theirs0, 0, [], me0[0]), order, [], order)

    def bad_order(path: list[Step]) -> bool:
        two = len(values) == 2 and values[0] != values[1]
        return (
            rules.higher_die_first
            and two
            and not ordered
            and path[0][2] == min(values)
            and any(s[1] == 0 for s in path)
        )

    def rank(path: list[Step]) -> tuple[int, list[int]]:
        played = sorted((s[2] for s in path), reverse=True)
        return (len(path), played) if not ordered else (len(path), [])

    kept = [(p, s, o) for p, s, o in sequences if not (p and bad_order(p))]
    best = max(rank(p) for p, _, _ in kept)
    out: dict[Position, set[tuple[int, ...]]] = {}
    for path, state, _ in kept:
        if rank(path) != best:
            continue
        me, theirs = state.me, state.theirs
        white, black = (me, theirs) if mover is Side.WHITE else (theirs, me)
        if ordered:
            left = tuple(values[len(path) :])
        else:
            left_list = list(values)
            for step in path:
                left_list.remove(step[2])
            left = tuple(left_list)
        out.setdefault(Position(variant, mover.other, tuple(white), tuple(black)), set()).add(left)
    return out


def _head_limit(position: Position, values: tuple[int, ...], first_turn: bool, double: bool) -> int:
    """How many checkers may leave the head: two on a long-family first turn whose double one
    head checker cannot play in full (every point it would stop on on the board and free)."""
    if position.variant not in LONG_FAMILY or not (first_turn and double):
        return 1
    theirs = position.checkers(position.turn.other)
    point = 24
    for value in values:
        point -= value
        if point < 1 or theirs[_opp("long", point)]:
            return 2
    return 1


def reference_legal_sequence(
    position: Position,
    values: tuple[int, ...],
    ordered: bool,
    first_turn: bool,
    double: bool,
    rules: RuleSet,
    steps: list[tuple[int, int]],
) -> bool:
    """Whether ``steps`` (``(src, dst)`` in playing order) can be played one after another by
    the side to move, the n-th playing the n-th move of ``values`` (of some order of them when
    not ``ordered``), each legal after the ones before it. Says nothing of the full-use rules:
    only that every single step of the sequence is allowed where it stands."""
    variant = position.variant
    me0 = list(position.checkers(position.turn))
    theirs0 = list(position.checkers(position.turn.other))
    head_limit = _head_limit(position, values, first_turn, double)
    orders = [values] if ordered else sorted(set(permutations(values)))
    for order in orders:
        if len(steps) > len(order):
            continue
        state = _State(me0, theirs0, 0, [], me0[0])
        for (src, dst), die in zip(steps, order[: len(steps)], strict=True):
            after = _step(variant, state, src, die, head_limit, rules)
            if after is None or after[1][1] != dst:
                break
            state = after[0]
        else:
            return True
    return False


def reference_turns(
    position: Position, dice: Dice, first_turn: bool, rules: RuleSet
) -> set[Position]:
    """Returns the set of positions reachable by a legal complete turn (opponent to move);
    empty when the side cannot move."""
    return set(reference_remainders(position, dice, first_turn, rules))


def reference_remainders(
    position: Position, dice: Dice, first_turn: bool, rules: RuleSet, budget: int = 400_000
) -> dict[Position, set[tuple[int, ...]]]:
    """As :func:`reference_turns`, with the moves each turn leaves unplayed; empty when the
    side cannot move."""
    values, ordered = move_values(position.variant, dice, rules)
    found = reference_moves(
        position, values, ordered, first_turn, dice.is_double, rules, budget=budget
    )
    return {} if position in found or _unmoved(position) in found else found


def reference_remainder_turns(
    position: Position, remainder: tuple[int, ...], rules: RuleSet, budget: int = 400_000
) -> set[Position]:
    """The positions reachable by playing the longest beginning of ``remainder`` (gul-bara);
    empty when not even its first move can be played."""
    found = reference_moves(position, remainder, True, False, False, rules, budget=budget)
    return set() if _unmoved(position) in found else set(found)


def _unmoved(position: Position) -> Position:
    return Position(position.variant, position.turn.other, position.white, position.black)
