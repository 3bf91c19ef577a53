"""What the net sees (:mod:`bot.ai.features`), the net itself (:mod:`bot.ai.network`) and the
equity arithmetic (:mod:`bot.ai.evaluator`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from bot.ai.evaluator import Evaluator, equity
from bot.ai.features import COUNTED, FEATURES, encode
from bot.ai.network import OUTPUTS, Network, flip
from bot.ai.players import pubeval_inputs
from bot.engine import Family, Position, Side, find_variant, resolve_rules, starting_position
from bot.engine.position import FAMILY
from tests.engine.strategies import positions

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCALARS = FEATURES - 2 - COUNTED - 16
"""Where the 16 numbers after the 192 point columns begin (then the counts, then the
remainder's two)."""
COUNTS = SCALARS + 16
"""Where the counts of :mod:`bot.ai.counts` begin: each the side to move's, then the other's."""
PAIRED = [(0, 1), (2, 3), (4, 5), (7, 8), (9, 10), (12, 13), (14, 15)]
"""Scalar features that are one side's and the other's: bar, off, pips, longest run, home,
head, blots."""


def sides(positions: list[Position]) -> tuple[np.ndarray, np.ndarray]:
    own = np.array([p.checkers(p.turn) for p in positions], dtype=np.int64)
    theirs = np.array([p.checkers(p.turn.other) for p in positions], dtype=np.int64)
    return own, theirs


families = st.sampled_from(["long", "short"])


@SETTINGS
@given(families.flatmap(lambda f: st.lists(positions(f), min_size=1, max_size=8)))
def test_encode_shape_and_range(found: list[Position]) -> None:
    family = Family(found[0].variant)
    own, theirs = sides(found)
    encoded = encode(family, own, theirs)
    assert encoded.shape == (len(found), FEATURES)
    assert encoded.dtype == np.float32
    assert np.isfinite(encoded).all()
    # everything is a count or a share, except the pip difference
    assert (np.delete(encoded, SCALARS + 6, axis=1) >= 0).all()
    assert (encoded[:, -2:] == 0).all()  # no remainder
    # one row at a time gives the same rows as the batch
    for index in range(len(found)):
        alone = encode(family, own[index : index + 1], theirs[index : index + 1])
        assert np.allclose(alone[0], encoded[index])


@SETTINGS
@given(positions())
def test_encode_sees_both_sides_alike(position: Position) -> None:
    """Swapping the sides swaps their features: the features of the side to move seen from the
    other side are the other side's."""
    family = FAMILY[position.variant]
    own, theirs = sides([position])
    mine = encode(family, own, theirs)[0, SCALARS:]
    other = encode(family, theirs, own)[0, SCALARS:]
    for a, b in PAIRED:
        assert mine[a] == other[b]
    assert mine[6] == -other[6]  # the pip difference
    counted_mine = mine[16 : 16 + COUNTED].reshape(-1, 2)
    counted_other = other[16 : 16 + COUNTED].reshape(-1, 2)
    assert np.array_equal(counted_mine, counted_other[:, ::-1])


def test_encode_of_the_openings() -> None:
    for family in (Family.LONG, Family.SHORT):
        start = starting_position(family)
        own, theirs = sides([start])
        encoded = encode(family, own, theirs)[0]
        scalars = encoded[SCALARS:]
        assert scalars[4] == scalars[5] == 1.0  # pips, scaled by the opening's
        assert scalars[6] == 0.0
        for a, b in PAIRED:
            assert scalars[a] == scalars[b]
        assert scalars[11] == 0.0  # not a race
        pairs = encoded[COUNTS : COUNTS + COUNTED].reshape(-1, 2)
        assert (pairs[:, 0] == pairs[:, 1]).all()
    race = Position.from_text("short w / 6:15 / 6:15")
    assert encode(Family.SHORT, *sides([race]))[0, SCALARS + 11] == 1.0


def test_remainder_features() -> None:
    start = starting_position("gulbara")
    own, theirs = sides([start, start])
    pending = np.array([[12 / 36, 2 / 6], [0.0, 0.0]], dtype=np.float32)
    encoded = encode(Family.LONG, own, theirs, pending)
    assert np.allclose(encoded[:, -2:], pending)
    assert np.allclose(encoded[0, :-2], encoded[1, :-2])


@SETTINGS
@given(st.lists(positions("short"), min_size=1, max_size=6))
def test_pubeval_inputs(found: list[Position]) -> None:
    own, theirs = sides(found)
    inputs = pubeval_inputs(own, theirs)
    assert inputs.shape == (len(found), 122)
    assert np.isfinite(inputs).all()
    # each point's (one opponent checker, own: one, two or more, three) are 0/1 flags
    flags = inputs[:, :120].reshape(len(found), 24, 5)[:, :, :4]
    assert set(np.unique(flags)) <= {0.0, 1.0}


probabilities = arrays(np.float32, (7, OUTPUTS), elements=st.floats(0, 1, width=32))


@SETTINGS
@given(probabilities)
def test_flip_is_an_involution(found: np.ndarray) -> None:
    twice = flip(flip(found))
    assert np.array_equal(twice[:, 1:], found[:, 1:])  # mars and koks swap back exactly
    assert np.allclose(twice[:, 0], found[:, 0], atol=1e-7)  # 1 - (1 - p), in float32
    once = flip(found)
    assert np.allclose(once[:, 0], 1.0 - found[:, 0])
    assert np.array_equal(once[:, [1, 2, 3, 4]], found[:, [3, 4, 1, 2]])


@SETTINGS
@given(probabilities, st.sampled_from(sorted(find_variant("long").rule_sets)))
def test_equity_is_antisymmetric_and_bounded(found: np.ndarray, rules: str) -> None:
    rule_set = resolve_rules("long", rules)
    mine = equity(found, rule_set)
    assert ((mine >= -3.0) & (mine <= 3.0)).all()
    assert np.allclose(equity(flip(found), rule_set), -mine, atol=1e-6)


def test_network_save_and_load(tmp_path: Path) -> None:
    net = Network.fresh(16, seed=3)
    net.info = {"family": "short", "games": "0"}
    path = tmp_path / "net.npz"
    net.save(path)
    back = Network.load(path)
    assert back.info == net.info
    assert back.hidden == 16
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(net, name))
    start = starting_position("short")
    inputs = encode(Family.SHORT, *sides([start, start.with_turn(Side.BLACK)]))
    out = back.evaluate(inputs)
    assert out.shape == (2, OUTPUTS)
    assert np.array_equal(out, net.evaluate(inputs))
    assert ((out > 0) & (out < 1)).all()


def test_fresh_nets_are_seeded() -> None:
    assert np.array_equal(Network.fresh(8, 1).w1, Network.fresh(8, 1).w1)
    assert not np.array_equal(Network.fresh(8, 1).w1, Network.fresh(8, 2).w1)


def test_finished_positions_are_scored_exactly() -> None:
    """A position where a side has borne off everything is its game's result, not the net's."""
    net = Evaluator(Family.LONG, Network.fresh(8, 0))
    won = Position.from_text("long b / off:15 / 24:15")
    classic = resolve_rules("long", "classic")
    sheshbesh = resolve_rules("long", "sheshbesh")
    assert net.equities_for(Side.WHITE, [won], classic)[0] == 2.0  # mars
    assert net.equities_for(Side.BLACK, [won], classic)[0] == -2.0
    assert net.equities_for(Side.WHITE, [won], sheshbesh)[0] == 3.0  # koks: still on the head
