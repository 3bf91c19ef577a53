"""The engine agrees with a slow, literal second reading of the rules (``reference.py``), for
every variant, dice mode and rule set, on random positions and on self-play positions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Dice,
    Game,
    Position,
    RuleSet,
    legal_turns,
    remainder_turns,
    resolve_rules,
)

from .reference import (
    TooBig,
    reference_remainder_turns,
    reference_remainders,
)
from .strategies import PLAYS, dice, played_positions, positions, remainders, rule_sets, three_dice

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""For the gul-bara cases, whose literal search is slow."""
BUDGET = 8_000
"""Sequences the reference may walk for one case; longer cascades are left to the properties."""


def _report(position: Position, what: str, expected: set[str], got: set[str]) -> str:
    return (
        f"{position.to_text()} {what}\n"
        f"missing: {sorted(expected - got)}\nextra: {sorted(got - expected)}"
    )


def _compare(position: Position, roll: Dice, first_turn: bool, rules: RuleSet) -> None:
    try:  # first: a case too long for the reference is one the engine need not list either
        expected = reference_remainders(position, roll, first_turn, rules, budget=BUDGET)
    except TooBig:
        assume(False)
        return
    engine = legal_turns(position, roll, first_turn=first_turn, rules=rules)
    got = [t.position for t in engine]
    assert len(got) == len(set(got)), "the engine returned one position twice"
    what = f"dice {roll} first_turn={first_turn} rules={rules}"
    assert set(got) == set(expected), _report(
        position, what, {p.to_text() for p in expected}, {p.to_text() for p in got}
    )
    if position.variant in ("gulbara", "crazy_gulbara"):
        for turn in engine:
            # the moves the turn leaves to the opponent: what every best sequence there leaves
            assert expected[turn.position] == {turn.remainder}, (
                f"{what}: {turn} leaves {turn.remainder}, expected {expected[turn.position]}"
            )


@pytest.mark.slow
@SETTINGS
@given(positions("long"), dice, st.booleans(), rule_sets)
def test_long_random_positions(position: Position, roll: Dice, first: bool, rules: str) -> None:
    _compare(position, roll, first, resolve_rules("long", rules))


@pytest.mark.slow
@SETTINGS
@given(positions("short"), dice)
def test_short_random_positions(position: Position, roll: Dice) -> None:
    _compare(position, roll, False, resolve_rules("short", None))


@SETTINGS
@given(positions("abkhaz"), dice)
def test_abkhaz_random_positions(position: Position, roll: Dice) -> None:
    _compare(position, roll, False, resolve_rules("abkhaz", None))


@pytest.mark.slow
@SETTINGS
@given(st.sampled_from(["short", "abkhaz"]).flatmap(positions), three_dice)
def test_three_dice_random_positions(position: Position, roll: Dice) -> None:
    _compare(position, roll, False, resolve_rules(position.variant, {"three_dice": True}))


@FEWER
@given(
    st.sampled_from(["gulbara", "crazy_gulbara"]).flatmap(positions),
    dice,
    st.booleans(),
    st.booleans(),
)
def test_gulbara_random_positions(position: Position, roll: Dice, first: bool, four: bool) -> None:
    switches = {"four_per_value": True} if four and position.variant == "crazy_gulbara" else None
    _compare(position, roll, first, resolve_rules(position.variant, switches))


@FEWER
@given(st.sampled_from(["gulbara", "crazy_gulbara"]).flatmap(positions), remainders)
def test_remainders_on_random_positions(position: Position, remainder: tuple[int, ...]) -> None:
    rules = resolve_rules(position.variant, None)
    try:
        expected = reference_remainder_turns(position, remainder, rules, budget=BUDGET // 2)
    except TooBig:
        assume(False)
        return
    engine = remainder_turns(position, remainder, rules=rules)
    assert all(t.remainder == () for t in engine)
    got = {t.position for t in engine}
    assert got == expected, _report(
        position,
        f"remainder {remainder}",
        {p.to_text() for p in expected},
        {p.to_text() for p in got},
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PLAYS).flatmap(lambda play: played_positions(play[0], play[1])))
def test_self_play_positions(played: tuple[Game, RuleSet]) -> None:
    game, rules = played
    moves = game.moves
    assert moves is not None
    if game.remainder:
        engine = {t.position for t in game.legal_turns()}
        try:
            expected = reference_remainder_turns(game.position, game.remainder, rules, BUDGET)
        except TooBig:
            assume(False)
            return
        assert engine == expected
        return
    assert game.dice is not None
    _compare(game.position, game.dice, game.first_turn, rules)
