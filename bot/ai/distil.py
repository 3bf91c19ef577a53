"""Teaching the net what it sees two rolls ahead: supervised training on its own 2-ply values.

    python -m bot.ai.distil --family short --positions 60000 --seed 1 --jobs 2 \\
        --data labels/ --out short-2ply.npz

Each position (before a roll of greedy self-play, as :data:`~bot.ai.train.TRAINING_MIX` mixes
the family's variants) is labelled with its 2-ply value: for each of the 441 pairs of the
mover's roll and the opponent's answer, each side's best turn by the net, and the net's five
probabilities of what is left, averaged. The net is trained towards the labels from the shipped
weights (cross-entropy, Adam, mini-batches, a twentieth held out). ``--jobs`` splits the
labelling into chunks of :data:`CHUNK` positions with seeds of their own; ``--data`` keeps each
chunk, so a run labels only what is missing. Two dice only. Same seed, same arguments: the same
weights.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Final

import numpy as np

from bot.engine import Family, Game, Position, RuleSet, find_variant, resolve_rules

from .evaluator import WEIGHTS, Evaluator, equity, evaluator
from .features import checkers, encode
from .network import OUTPUTS, Array, Network, flip
from .search import ROLLS, by_roll, finished, spans
from .train import TRAINING_MIX, SelfPlay, outcome

CHUNK: Final = 500
"""Positions labelled per seeded chunk (the unit ``--jobs`` shares out)."""
HELD_OUT: Final = 20
"""One position in this many is kept out of training to measure it."""


def label(net: Evaluator, game: Game) -> Array:
    """The 2-ply probabilities of ``game``'s position before its roll, from its side to move
    (see the module docstring)."""
    me = game.turn
    rules = game.rules
    variant = find_variant(game.variant)
    rolls = ROLLS[2]
    chances = np.array([p for _, p in rolls], dtype=np.float64)
    mine, _, bounds = by_roll(game.position, rules, variant, rolls, me not in game.moved)
    their_first = me.other not in game.moved
    values = net.equities_for(me, mine, rules)
    chosen = [mine[low + int(np.argmax(values[low:high]))] for low, high in spans(bounds, values)]
    result = np.zeros(OUTPUTS, dtype=np.float64)
    reached: list[Position] = []
    starts: list[int] = []
    owners: list[int] = []
    for index, position in enumerate(chosen):
        if finished(position):
            result += chances[index] * outcome(net.family, position, me)
            continue
        found, _, found_bounds = by_roll(position, rules, variant, rolls, their_first)
        starts.extend(len(reached) + b for b in found_bounds)
        reached.extend(found)
        owners.append(index)
    if not owners:
        return result.astype(np.float32)
    values = net.equities_for(me, reached, rules)
    probabilities = net.probabilities(reached)
    each_roll = spans(starts, values)
    for number, owner in enumerate(owners):
        # the opponent answers; after a gul-bara double played in full, I move again
        pick = np.argmax if chosen[owner].turn is me else np.argmin
        answer_chances = np.zeros(OUTPUTS, dtype=np.float64)
        for k, (low, high) in enumerate(each_roll[number * len(rolls) : (number + 1) * len(rolls)]):
            best = low + int(pick(values[low:high]))
            answer = reached[best]
            if finished(answer):
                seen = outcome(net.family, answer, me)
            elif answer.turn is me:
                seen = probabilities[best]
            else:  # a gul-bara double played in full: the opponent rolls again
                seen = flip(probabilities[best])
            answer_chances += chances[k] * seen
        result += chances[owner] * answer_chances
    return result.astype(np.float32)


def positions(family: Family, count: int, seed: int, net: Evaluator) -> list[Game]:
    """``count`` states before a roll, from greedy self-play (see the module docstring)."""
    rng = random.Random(seed)
    playing = SelfPlay(net, rng)
    variants = TRAINING_MIX[family]
    found: list[Game] = []
    started = 0
    while len(found) < count:
        while len(playing.games) < 8:
            started += 1
            playing.add(Game.start(variants[started % len(variants)], rng))
        for states, _ in playing.step():
            found.extend(s for s in states if not s.remainder and rng.random() < 0.5)
    return found[:count]


def _chunk(job: tuple[str, int, int, Path | None, Path | None]) -> tuple[Array, Array]:
    """One chunk's encoded positions and their labels, read from ``data`` where it was kept
    there, else made (and kept there, with ``data``)."""
    family_name, seed, size, weights, data = job
    kept = None if data is None else data / f"{family_name}-{seed}-{size}.npz"
    if kept is not None and kept.exists():
        with np.load(kept) as saved:
            return saved["inputs"], saved["targets"]
    family = Family(family_name)
    shipped = evaluator(TRAINING_MIX[family][0])
    net = shipped if weights is None else Evaluator(family, Network.load(weights), shipped.table)
    states = positions(family, size, seed, net)
    labels = np.stack([label(net, game) for game in states])
    own, theirs = checkers([g.position for g in states], [g.turn for g in states])
    inputs = encode(family, own, theirs)
    if kept is not None:
        np.savez_compressed(kept, inputs=inputs, targets=labels)
    return inputs, labels


def labelled(
    family: Family,
    count: int,
    seed: int,
    jobs: int,
    weights: Path | None = None,
    data: Path | None = None,
    chunk: int = CHUNK,
) -> tuple[Array, Array]:
    """``count`` (rounded up to whole chunks of ``chunk``) encoded positions and their 2-ply
    labels; ``data``: a folder that keeps each chunk, so that a run stopped half way, or one
    with other training arguments, labels only what is missing."""
    if data is not None:
        data.mkdir(parents=True, exist_ok=True)
    chunks = [
        (family.value, seed * 100_003 + k, chunk, weights, data) for k in range(-(-count // chunk))
    ]
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(_chunk, chunks, chunksize=1)
    else:
        parts = [_chunk(c) for c in chunks]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def fit(
    network: Network,
    inputs: Array,
    targets: Array,
    *,
    epochs: int,
    rate: float,
    batch: int,
    seed: int,
    family: Family,
    log: bool = True,
) -> Network:
    """Trains ``network`` towards ``targets`` (see the module docstring); prints the held-out
    positions' mean absolute error and equity error after each epoch."""
    rng = np.random.default_rng(seed)
    held = np.arange(len(inputs)) % HELD_OUT == 0
    train_x, train_y = inputs[~held], targets[~held]
    test_x, test_y = inputs[held], targets[held]
    rules = resolve_rules(TRAINING_MIX[family][0], None)  # the equity figures' prices
    if log:
        _report(network, test_x, test_y, rules, "before")
    for epoch in range(epochs):
        order = rng.permutation(len(train_x))
        step = rate * (1.0 - 0.75 * epoch / max(1, epochs))
        for low in range(0, len(order), batch):
            chosen = order[low : low + batch]
            network.train(train_x[chosen], train_y[chosen], step)
        if log:
            _report(network, test_x, test_y, rules, f"epoch {epoch + 1}")
    return network


def _report(network: Network, inputs: Array, targets: Array, rules: RuleSet, when: str) -> None:
    found = network.evaluate(inputs)
    gap = np.abs(equity(found, rules) - equity(targets, rules))
    sys.stdout.write(
        f"{when}: held out {len(inputs)}: mean abs error {np.abs(found - targets).mean():.4f}, "
        f"equity error {gap.mean():.4f}\n"
    )
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.distil", description=__doc__)
    parser.add_argument("--family", choices=[family.value for family in Family], required=True)
    parser.add_argument("--positions", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes for the labelling")
    parser.add_argument("--data", type=Path, help="a folder to keep the labelled chunks in")
    parser.add_argument("--labeller", type=Path, help="weights to label with (default: shipped)")
    parser.add_argument("--start", type=Path, help="weights to train from (default: shipped)")
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--rate", type=float, default=0.0003)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--out", type=Path, help="where to write (default: the shipped file)")
    args = parser.parse_args(argv)
    family = Family(args.family)
    began = time.perf_counter()
    inputs, targets = labelled(
        family, args.positions, args.seed, args.jobs, args.labeller, args.data
    )
    sys.stdout.write(f"{len(inputs)} labelled positions in {time.perf_counter() - began:.0f} s\n")
    start = args.start or WEIGHTS / f"{family}.npz"
    network = Network.load(start)
    before = dict(network.info)
    fit(
        network,
        inputs,
        targets,
        epochs=args.epochs,
        rate=args.rate,
        batch=args.batch,
        seed=args.seed,
        family=family,
    )
    network.info = {
        **before,
        "distilled": f"{len(inputs)} positions at 2-ply, seed {args.seed}, "
        f"{args.epochs} epochs, rate {args.rate}, batch {args.batch}",
    }
    out = args.out or WEIGHTS / f"{family}.npz"
    network.save(out)
    sys.stderr.write(f"wrote {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
