"""Training on 2-ply values (:mod:`bot.ai.distil`): a position's label is what the game shows
two rolls ahead, the labels do not depend on how many processes make them and are kept, and
training moves a net towards its targets."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.ai.distil import fit, label, labelled, positions
from bot.ai.evaluator import evaluator
from bot.ai.features import checkers, encode
from bot.ai.network import OUTPUTS, Array, Network
from bot.ai.search import ROLLS
from bot.ai.train import outcome_vector
from bot.engine import Family, Game, Position

SEED = 7


def two_ply_by_the_game(game: Game) -> Array:
    """The label as the game flows: over each of the mover's rolls its best turn by the net,
    over each of the opponent's rolls after it the reply that leaves the mover the least, and
    the net's probabilities of that from the mover (a finished game: its outcome)."""
    net = evaluator(game.variant)
    me = game.turn

    def equities(games: list[Game]) -> list[float]:
        return [float(v) for v in net.equities_for(me, [g.position for g in games], game.rules)]

    total = np.zeros(OUTPUTS, dtype=np.float64)
    for dice, chance in ROLLS[2]:
        rolled = game.with_dice(dice)
        mine = [rolled.play(t) for t in rolled.legal_turns()] or [rolled.pass_turn()]
        values = equities(mine)
        best = mine[values.index(max(values))]
        if best.is_over:
            total += chance * outcome_vector(best, me)
            continue
        for their_dice, their_chance in ROLLS[2]:
            answering = best.with_dice(their_dice)
            answers = [answering.play(t) for t in answering.legal_turns()]
            answers = answers or [answering.pass_turn()]
            values = equities(answers)
            answer = answers[values.index(min(values))]
            if answer.is_over:
                seen = outcome_vector(answer, me)
            else:
                assert answer.turn is me
                seen = net.probabilities([answer.position])[0]
            total += chance * their_chance * seen
    return total.astype(np.float32)


@pytest.mark.parametrize(
    "text",
    [
        "short w / 13:2 8:3 6:5 4:2 3:2 2:1 / 24:2 13:4 8:2 6:4 5:2 4:1",
        "short b / 6:1 2:1 1:2 off:11 / 22:1 13:2 6:4 5:4 3:2 2:2",
    ],
    ids=["contact", "some rolls finish"],
)
def test_a_label_is_the_position_two_rolls_ahead(text: str) -> None:
    game = Game.setup(Position.from_text(text))
    found = label(evaluator("short"), game)
    assert found == pytest.approx(two_ply_by_the_game(game), abs=1e-5)


def test_a_position_every_roll_wins_is_labelled_its_outcome() -> None:
    """White bears off its last two checkers with any roll; black has borne off none and has
    checkers in white's home: a koks, whatever the net thinks."""
    game = Game.setup(Position.from_text("short w / 1:2 off:13 / 19:2 13:5 8:3 6:5"))
    assert label(evaluator("short"), game).tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]


def test_labels_do_not_depend_on_the_processes_and_are_kept(tmp_path: Path) -> None:
    alone = labelled(Family.SHORT, 4, SEED, jobs=1, data=tmp_path, chunk=2)
    shared = labelled(Family.SHORT, 4, SEED, jobs=2, chunk=2)
    assert alone[0].shape == (4, shared[0].shape[1])
    assert alone[1].shape == (4, OUTPUTS)
    for kept, made in zip(alone, shared, strict=True):
        assert np.array_equal(kept, made)
    files = sorted(tmp_path.iterdir())
    assert len(files) == 2
    # a second run reads what was kept: a file changed on disk is what comes back
    with np.load(files[0]) as saved:
        inputs = saved["inputs"]
    np.savez_compressed(files[0], inputs=inputs, targets=np.zeros((2, OUTPUTS), np.float32))
    again = labelled(Family.SHORT, 4, SEED, jobs=1, data=tmp_path, chunk=2)
    assert (again[1][:2] == 0).all() != (again[1][2:] == 0).all()


def test_training_moves_the_net_towards_its_targets() -> None:
    """A fresh net trained on the shipped net's probabilities of 200 self-play positions ends
    much closer to them than it began, the held-out ones included."""
    shipped = evaluator("short")
    states = positions(Family.SHORT, 200, SEED, shipped)
    own, theirs = checkers([g.position for g in states], [g.turn for g in states])
    inputs = encode(Family.SHORT, own, theirs)
    targets = shipped.network.evaluate(inputs)
    fresh = Network.fresh(32, SEED)
    before = np.abs(fresh.evaluate(inputs) - targets).mean()
    trained = fit(
        fresh,
        inputs,
        targets,
        epochs=30,
        rate=0.003,
        batch=32,
        seed=SEED,
        family=Family.SHORT,
        log=False,
    )
    after = np.abs(trained.evaluate(inputs) - targets).mean()
    assert after < before / 2, (before, after)
    held = np.arange(len(inputs)) % 20 == 0
    assert np.abs(trained.evaluate(inputs[held]) - targets[held]).mean() < before


def test_a_net_to_label_with_can_be_given(tmp_path: Path) -> None:
    """``weights`` labels with another net: a fresh one gives other labels than the shipped."""
    fresh = tmp_path / "fresh.npz"
    Network.fresh(16, SEED).save(fresh)
    shipped = labelled(Family.SHORT, 2, SEED, jobs=1, chunk=2)
    other = labelled(Family.SHORT, 2, SEED, jobs=1, weights=fresh, chunk=2)
    assert not np.allclose(shipped[1], other[1], atol=1e-3)
