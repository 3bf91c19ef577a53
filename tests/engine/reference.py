"""A slow, literal second reading of the rules, to check the engine against.

Written apart from the engine and as plainly as possible: every order of the dice, every step
sequence, every rule checked on the whole board after every step, no transpositions, no
incremental bookkeeping. Only its answers are shared with the engine's tests, never its code.
"""

from __future__ import annotations

from itertools import permutations

from bot.engine import Dice, Position, RuleSet, Side


def _opp(variant: str, point: int) -> int:
    if point in (0, 25):
        return point
    return (point + 11) % 24 + 1 if variant == "long" else 25 - point


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


def _step(variant, me, theirs, src, die, heads, head_limit, rules):
    """Returns (me, theirs, heads, hit) after the step, or None if it is illegal."""
    if not me[src]:
        return None
    if variant == "short" and me[25] and src != 25:
        return None
    if variant == "long" and src == 24 and heads >= head_limit:
        return None
    dst = src - die
    me2, theirs2 = list(me), list(theirs)
    hit = False
    if dst >= 1:
        there = theirs[_opp(variant, dst)]
        if variant == "long" and there:
            return None
        if variant == "short":
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
    if variant == "long" and _forbidden_run(me2, theirs2, rules):
        return None
    return me2, theirs2, heads + (src == 24), (src, dst, die, hit)


def reference_turns(
    position: Position, dice: Dice, first_turn: bool, rules: RuleSet
) -> set[Position]:
    """Returns the set of positions reachable by a legal complete turn (opponent to move)."""
    variant, mover = position.variant, position.turn
    me0 = list(position.checkers(mover))
    theirs0 = list(position.checkers(mover.other))
    values = dice.moves
    head_limit = 1
    if variant == "long" and first_turn and dice.is_double:
        stops = [24 - dice.first * k for k in range(1, 5)]
        one_can = stops[-1] >= 1 and not any(theirs0[_opp("long", s)] for s in stops)
        head_limit = 1 if one_can else 2
    sequences = []  # (path, me, theirs)

    def walk(me, theirs, heads, left, path):
        sequences.append((path, me, theirs))
        if me[0] == 15 or not left:
            return
        die, rest = left[0], left[1:]
        for src in range(25, 0, -1):
            after = _step(variant, me, theirs, src, die, heads, head_limit, rules)
            if after:
                walk(after[0], after[1], after[2], rest, [*path, after[3]])

    for order in set(permutations(values)):
        walk(me0, theirs0, 0, order, [])

    def bad_order(path):
        return (
            rules.higher_die_first
            and not dice.is_double
            and path[0][2] == dice.low
            and any(s[1] == 0 for s in path)
        )

    def length(path, me):
        return len(values) if me[0] == 15 else len(path)

    kept = [(p, m, t) for p, m, t in sequences if p and not bad_order(p)]
    if not kept:
        return set()
    best = max(length(p, m) for p, m, _ in kept)
    kept = [(p, m, t) for p, m, t in kept if length(p, m) == best]
    if best == 1 and not dice.is_double and any(p[0][2] == dice.high for p, _, _ in kept):
        kept = [(p, m, t) for p, m, t in kept if p[0][2] == dice.high]
    out = set()
    for _, me, theirs in kept:
        white, black = (me, theirs) if mover is Side.WHITE else (theirs, me)
        out.add(Position(variant, mover.other, tuple(white), tuple(black)))
    return out
