"""What a player counts (:mod:`bot.ai.counts`): each batched count equals a plain reading of
its definition, one position and one roll at a time, and the shots agree with the engine's own
legal turns wherever the rules' "play as many dice as you can" does not come into it."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings

from bot.ai import counts
from bot.ai.features import _MAPS, checkers
from bot.engine import Dice, Family, Position, find_variant, resolve_rules, turns_for
from bot.engine.position import FAMILY
from tests.ai.games import played
from tests.engine.strategies import positions

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROLLS = [(high, low) for high, low, _ in counts.ROLLS]


def _sides(position: Position) -> tuple[np.ndarray, np.ndarray]:
    own, theirs = checkers([position], [position.turn])
    return own, theirs[:, _MAPS[FAMILY[position.variant]]]


def _reaches(mine: list[int], blockers: list[int], high: int, low: int) -> bool:
    """Whether the mover hits a blot with this roll, read step by step from the definition."""

    def free(point: int) -> bool:
        return 1 <= point <= 24 and blockers[point - 1] < 2

    def blot(point: int) -> bool:
        return 1 <= point <= 24 and blockers[point - 1] == 1

    bar = mine[25]
    board = [p for p in range(1, 25) if mine[p]]
    if high != low:
        if bar == 0:
            for source in board:
                if blot(source - high) or blot(source - low):
                    return True
                if blot(source - high - low) and (free(source - high) or free(source - low)):
                    return True
            return False
        if blot(25 - high) or blot(25 - low):
            return True
        if bar > 1:
            return False
        if blot(25 - high - low) and (free(25 - high) or free(25 - low)):
            return True
        return any(
            free(25 - first) and any(blot(p - second) for p in board)
            for first, second in ((high, low), (low, high))
        )
    step = high
    if bar == 0:
        for source in board:
            for k in range(1, 5):
                if blot(source - k * step):
                    return True
                if not free(source - k * step):
                    break
        return False
    if not free(25 - step):
        return False
    left = max(0, min(3, 4 - bar))
    for k in range(1, left + 2):  # the last checker to enter goes on
        if blot(25 - k * step):
            return True
        if not free(25 - k * step):
            break
    for source in board:
        for k in range(1, left + 1):
            if blot(source - k * step):
                return True
            if not free(source - k * step):
                break
    return False


@SETTINGS
@given(positions("short"))
def test_shots_read_the_definition_roll_by_roll(position: Position) -> None:
    own, blockers = _sides(position)
    ways = sum(
        (1 if high == low else 2) * _reaches(list(own[0]), list(blockers[0]), high, low)
        for high, low in ROLLS
    )
    assert counts.shots(own, blockers)[0] == np.float32(ways / 36)


def test_shots_agree_with_the_engine_on_most_positions() -> None:
    """The engine's legal turns hit with exactly the rolls the count finds, except where the
    rules forbid a hitting play because another plays more dice: in self-play positions that
    is rare."""
    variant = find_variant("short")
    rules = resolve_rules("short", None)
    agreed = compared = 0
    for seed in range(60):
        position = played("short", "two", "standard", seed, 4 + seed % 30)[0].position
        own, blockers = _sides(position)
        counted = counts.shots(own, blockers)[0]
        ways = 0
        for high, low in ROLLS:
            moves = variant.move_list(Dice(high, low), rules)
            found = turns_for(position, moves, first_turn=False, rules=rules)
            if any(p.hit for turn in found for p in turn.played):
                ways += 1 if high == low else 2
        compared += 1
        agreed += abs(counted - ways / 36) < 1e-6
    assert compared == 60 and agreed >= 0.9 * compared, (agreed, compared)


@SETTINGS
@given(positions())
def test_escapes_read_the_definition(position: Position) -> None:
    family = FAMILY[position.variant]
    own, blockers = _sides(position)
    shut = counts.closed(blockers, blot_hits=family == Family.SHORT)
    occupied = [p for p in range(1, 26) if own[0, p]]
    if not occupied:
        expected = 1.0
    else:
        rearmost = max(occupied)

        def open_at(pips: int) -> bool:
            point = rearmost - pips
            return pips > counts.WINDOW or point < 1 or not shut[0, point - 1]

        ways = 0
        for high, low in ROLLS:
            if high == low:
                ways += all(open_at(high * k) for k in range(1, 5))
            else:
                ways += 2 * (open_at(high + low) and (open_at(high) or open_at(low)))
        expected = ways / 36
    assert counts.escapes(own, shut)[0] == np.float32(expected)


@SETTINGS
@given(positions())
def test_mobility_and_contact_read_their_definitions(position: Position) -> None:
    family = FAMILY[position.variant]
    own, blockers = _sides(position)
    shut = counts.closed(blockers, blot_hits=family == Family.SHORT)
    steps = sum(
        1
        for point in range(1, 26)
        if own[0, point]
        for die in range(1, 7)
        if 1 <= point - die <= 24 and not shut[0, point - die - 1]
    )
    assert counts.mobility(own, shut)[0] == np.float32(steps / 90)
    theirs_bar = position.checkers(position.turn.other)[25]
    held = [q for q in range(1, 25) if blockers[0, q - 1]]
    lowest = 0 if theirs_bar or not held else min(held)
    pips = sum(own[0, p] * max(p - lowest, 0) for p in range(1, 26))
    assert counts.contact_pips(own, blockers, np.array([theirs_bar]))[0] == np.float32(pips / 100)


def test_the_opening_counts() -> None:
    start = Position.from_text("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5")
    own, blockers = _sides(start)
    assert counts.shots(own, blockers)[0] == 0.0  # no blots
    assert counts.entry(blockers)[0] == np.float32(1 / 6)  # the other's six point
    # the back checkers on 24 have the other's 6, 8 and 13 points 5, 7 and 12 pips ahead: the
    # non-doubles 2-1 3-1 5-1 4-2 6-2 5-3 6-3 5-4 6-4 6-5 and the doubles 1-1 2-2 travel their
    # whole distance, 22 of the 36 rolls
    assert counts.escapes(own, counts.closed(blockers, blot_hits=True))[0] == np.float32(22 / 36)
