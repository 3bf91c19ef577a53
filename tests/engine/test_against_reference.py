"""The engine agrees with a slow, literal second reading of the rules (``reference.py``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Dice, Game, Position, RuleSet, legal_turns, resolve_rules

from .reference import reference_turns
from .strategies import dice, played_positions, positions, rule_sets


def _compare(position: Position, roll: Dice, first_turn: bool, rules: RuleSet) -> None:
    engine = [t.position for t in legal_turns(position, roll, first_turn=first_turn, rules=rules)]
    assert len(engine) == len(set(engine)), "the engine returned one position twice"
    expected = reference_turns(position, roll, first_turn, rules)
    missing = {p.to_text() for p in expected - set(engine)}
    extra = {p.to_text() for p in set(engine) - expected}
    assert not missing and not extra, (
        f"{position.to_text()} dice {roll} first_turn={first_turn} rules={rules.name}\n"
        f"missing: {sorted(missing)}\nextra: {sorted(extra)}"
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("long"), dice, st.booleans(), rule_sets)
def test_long_random_positions(position: Position, roll: Dice, first: bool, rules: str) -> None:
    _compare(position, roll, first, resolve_rules("long", rules))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("short"), dice)
def test_short_random_positions(position: Position, roll: Dice) -> None:
    _compare(position, roll, False, resolve_rules("short", None))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_positions())
def test_self_play_positions(played: tuple[Game, RuleSet]) -> None:
    game, rules = played
    assert game.dice is not None
    _compare(game.position, game.dice, game.first_turn, rules)
