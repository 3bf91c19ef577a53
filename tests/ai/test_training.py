"""Self-play training (:mod:`bot.ai.train`): a few hundred games already beat the net they
started from, and the same seed trains the same weights."""

from __future__ import annotations

import numpy as np
import pytest

from bot.ai.arena import duel
from bot.ai.computer import Computer
from bot.ai.evaluator import Evaluator
from bot.ai.network import Network
from bot.ai.train import TRAINING_MIX, train
from bot.engine import Family, find_variant

SEED = 11


@pytest.mark.slow
def test_a_tiny_training_run_beats_its_starting_point() -> None:
    """300 games of short nardy from a fresh net, then 40 pairs of paired-dice games against
    that fresh net (the same seed makes the same start): the trained net scores about 90% of
    the points or more (checked with several seeds); 75% is far beyond luck."""
    trained = train(Family.SHORT, 300, SEED, every=10**9, log=False)
    assert trained.info["games"] == "300"
    assert trained.info["family"] == "short"
    start = Network.fresh(trained.hidden, SEED)
    assert not np.array_equal(start.w1, trained.w1)
    result = duel(
        Computer(4, Evaluator(Family.SHORT, trained)),
        Computer(4, Evaluator(Family.SHORT, start)),
        "short",
        40,
        SEED,
    )
    assert result.games == 80
    assert result.share >= 0.75, result
    assert result.low > 0.6, result


def test_the_same_seed_trains_the_same_weights() -> None:
    first = train(Family.LONG, 6, 5, every=10**9, log=False)
    again = train(Family.LONG, 6, 5, every=10**9, log=False)
    other = train(Family.LONG, 6, 6, every=10**9, log=False)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
    assert not np.array_equal(first.w1, other.w1)


def test_each_family_trains_on_variants_of_its_own() -> None:
    assert set(TRAINING_MIX) == set(Family)
    for family, variants in TRAINING_MIX.items():
        assert all(find_variant(name).family is family for name in variants)
