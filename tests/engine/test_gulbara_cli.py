"""The CLI's answers in the gul-bara variants against the literal reference (``reference.py``):
remainder requests and cascades, every rule set, entry by entry.

Each answer is checked four ways: its positions are the reference's, each position carries the
remainders the reference gives it, each entry's ``moves``, replayed checker by checker from the
request's position, reach that entry's position (a check of its own, which knows nothing of the
engine's search), and each of those steps is legal where it stands, playing the next move of the
list (of some order of a non-double's dice) by the reference's rules. A remainder of which nothing
can be played is one entry with no moves, the unchanged position and ``"remainder": []``
(``shared/engine-cli.md``).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.engine import Dice, Game, Position, RuleSet, Side, resolve_rules
from bot.engine.cli import answer_line, request
from bot.engine.rules.crazy_gulbara import cascade

from .reference import (
    TooBig,
    move_values,
    reference_legal_sequence,
    reference_remainder_turns,
    reference_remainders,
)
from .strategies import dice, played_positions, positions

BUDGET = 6_000
"""Sequences the reference may walk for one case (longer ones are assumed away)."""
CASES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_SWITCHES = st.sampled_from([{}, {"four_per_value": True}])


@st.composite
def _remainders(draw: st.DrawFn) -> tuple[int, ...]:
    """What a gul-bara turn hands over: one die of a non-double, the end of a double (plain or
    a cascade, four per value too), or any short list."""
    kind = draw(st.sampled_from(["die", "double", "cascade", "any"]))
    if kind == "die":
        return (draw(st.integers(1, 6)),)
    if kind == "double":
        return (draw(st.integers(1, 6)),) * draw(st.integers(1, 3))
    if kind == "cascade":
        whole = cascade(draw(st.integers(1, 6)), draw(st.sampled_from([2, 4])))
        return whole[draw(st.integers(0, len(whole) - 1)) :]
    return tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=8)))


def _side(entry: dict[str, Any], name: str) -> list[int]:
    slots = [0] * 26
    for point, count in entry[name].items():
        slots[int(point)] = count
    slots[25], slots[0] = entry["bar"][name], entry["off"][name]
    return slots


def _position(variant: str, turn: Side, entry: dict[str, Any]) -> Position:
    return Position(variant, turn, tuple(_side(entry, "white")), tuple(_side(entry, "black")))


def _replayed(req: dict[str, Any], entry: dict[str, Any]) -> Position:
    """The request's position after the entry's moves, each moving one of the mover's checkers
    from ``from`` to ``to`` (0 is off): the gul-bara variants never hit."""
    mover = req["turn"]
    me = _side(req, mover)
    for src, dst in entry["moves"]:
        assert me[src] > 0, f"{entry['moves']}: no checker on {src} for [{src}, {dst}]"
        assert 0 <= dst < src, f"{entry['moves']}: [{src}, {dst}] does not move forward"
        me[src] -= 1
        me[dst] += 1
    other = "black" if mover == "white" else "white"
    sides = {mover: tuple(me), other: tuple(_side(req, other))}
    turn = Side.BLACK if mover == "white" else Side.WHITE
    return Position(req["variant"], turn, sides["white"], sides["black"])


def _check(line: str) -> None:
    req = json.loads(line)
    mover = Side.WHITE if req["turn"] == "white" else Side.BLACK
    start = _position(req["variant"], mover, req)
    rules = resolve_rules(req["variant"], req.get("rules"))
    try:
        if "remainder" in req:
            values, ordered, first, double = tuple(req["remainder"]), True, False, False
            expected: dict[Position, set[tuple[int, ...]]] = {
                p: {()} for p in reference_remainder_turns(start, values, rules, BUDGET)
            }
        else:
            roll = Dice(*req["dice"])
            values, ordered = move_values(req["variant"], roll, rules)
            first, double = req["first_turn"], roll.is_double
            expected = reference_remainders(start, roll, first, rules, BUDGET)
    except TooBig:
        assume(False)
        return
    answer, good = answer_line(line)
    assert good, answer
    entries = json.loads(answer)["turns"]
    assert entries, "a gul-bara request is never answered with no entry"
    got: dict[Position, set[tuple[int, ...]]] = {}
    for entry in entries:
        reached = _position(req["variant"], mover.other, entry)
        assert _replayed(req, entry) == reached, f"{entry['moves']} do not reach their position"
        steps = [(src, dst) for src, dst in entry["moves"]]
        assert reference_legal_sequence(start, values, ordered, first, double, rules, steps), (
            f"{entry['moves']}: a step is not legal where it stands"
        )
        got.setdefault(reached, set()).add(tuple(entry["remainder"]))
    if not expected:  # nothing can be played: one entry, no moves, the position unchanged
        (entry,) = entries
        assert entry["moves"] == []
        assert _position(req["variant"], mover, entry) == start
        whole = [] if "remainder" in req else list(entries[0]["remainder"])
        assert entry["remainder"] == whole
        if "dice" in req:
            assert whole, "a roll that cannot be played is handed over whole"
        return
    assert set(got) == set(expected), (
        f"extra: {sorted(p.to_text() for p in set(got) - set(expected))}\n"
        f"missing: {sorted(p.to_text() for p in set(expected) - set(got))}"
    )
    assert got == expected
    assert len(entries) == len({(p, r) for p, rs in got.items() for r in rs})


@CASES
@given(st.sampled_from(["gulbara", "crazy_gulbara"]).flatmap(positions), _remainders(), _SWITCHES)
def test_remainder_requests(position: Position, remainder: tuple[int, ...], switches: Any) -> None:
    rules = switches if position.variant == "crazy_gulbara" else {}
    _check(json.dumps(request(position, None, rules=rules, remainder=remainder)))


@CASES
@given(
    st.sampled_from(["gulbara", "crazy_gulbara"]).flatmap(positions),
    dice,
    st.booleans(),
    _SWITCHES,
)
def test_roll_requests(position: Position, roll: Dice, first: bool, switches: Any) -> None:
    rules = switches if position.variant == "crazy_gulbara" else {}
    _check(json.dumps(request(position, roll, first_turn=first, rules=rules)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["gulbara", "crazy_gulbara"]).flatmap(lambda v: played_positions(v, "two")))
def test_self_play_requests(played: tuple[Game, RuleSet]) -> None:
    game, rules = played
    switches = {"four_per_value": True} if rules.four_per_value else {}
    if game.remainder:
        line = request(game.position, None, rules=switches, remainder=game.remainder)
    else:
        line = request(game.position, game.dice, first_turn=game.first_turn, rules=switches)
    _check(json.dumps(line))


UNPLAYABLE = [
    '{"variant": "crazy_gulbara", "turn": "black", "white": {"19": 1, "18": 3, "4": 1, "3": 1, '
    '"2": 4, "1": 5}, "black": {"18": 2, "4": 2, "3": 1, "2": 2, "1": 8}, "bar": {"white": 0, '
    '"black": 0}, "off": {"white": 0, "black": 0}, "first_turn": false, "rules": {}, '
    '"remainder": [4, 5, 5, 6, 6]}',
]


def test_an_unplayable_remainder_is_one_entry_with_nothing_left() -> None:
    for line in UNPLAYABLE:
        _check(line)
        (entry,) = json.loads(answer_line(line)[0])["turns"]
        assert entry["moves"] == [] and entry["remainder"] == []
