"""Training the evaluator by self-play: temporal-difference learning, as TD-Gammon learned.

    python -m bot.ai.train --family long --games 30000 --seed 1 --out bot/ai/weights/long.npz

The net plays both sides, greedily by its own 0-ply equity. After each game every position it
met (before each roll, from the side to move) is moved towards its TD(lambda) return: the net's
value of the positions that followed, and at the end the game's real outcome. One Adam step per
game; the step size falls linearly to a quarter of ``--rate`` by the last game. ``--batch``
games are played at once (:class:`SelfPlay`), their candidates evaluated as one batch.
``--from`` continues from a file's weights; ``--grow`` from a smaller net
(:meth:`~bot.ai.network.Network.grown`). The long family learns from long nardy and gul-bara,
the short from short and Abkhaz nardy; every ``--every`` games it prints the net's points share
against the heuristic player. Same seed, same arguments: the same weights.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np

from bot.engine import CHECKERS, Family, Game, Position, Side, find_variant

from .arena import duel
from .computer import Computer
from .evaluator import WEIGHTS, Evaluator
from .features import checkers, encode, remainders
from .network import OUTPUTS, WIN, WIN_KOKS, WIN_MARS, Array, Network, flip
from .players import HeuristicPlayer
from .search import after

TRAINING_MIX: Final = {
    Family.LONG: ("long", "long", "gulbara"),
    Family.SHORT: ("short", "short", "abkhaz"),
}
"""The variants each family's self-play games cycle through: a mix chosen for training (the
family's first variant twice as often; crazy gul-bara's positions are gul-bara's), not a list
of the family's variants, which :data:`bot.engine.VARIANTS` has."""


def outcome_vector(game: Game, side: Side) -> Array:
    """The finished game's outcome as the net's five targets, from ``side``."""
    assert game.result is not None
    family = find_variant(game.variant).family
    return outcome(family, game.position, side, winner=game.result.winner)


def outcome(family: Family, position: Position, side: Side, winner: Side | None = None) -> Array:
    """A finished position's outcome as the net's five targets, from ``side``; ``winner``:
    the side that won, by default the one that has borne off every checker. Mars and koks
    are read off the board whether or not the rule set prices them (long: a checker still on
    the head; short: on the bar or in the winner's home), so that one net serves every rule
    set of its family."""
    if winner is None:
        winner = Side.WHITE if position.borne_off(Side.WHITE) == CHECKERS else Side.BLACK
    loser = position.checkers(winner.other)
    mars = loser[0] == 0
    back = loser[24] if family is Family.LONG else loser[25] + sum(loser[19:25])
    target = np.zeros(OUTPUTS, dtype=np.float32)
    target[WIN] = 1.0
    target[WIN_MARS] = mars
    target[WIN_KOKS] = mars and back > 0
    return target if winner is side else flip(target)


class SelfPlay:
    """Greedy self-play of several games at once (see the module docstring): each
    :meth:`step` makes one decision in every game, after rolling where a roll is due."""

    def __init__(self, net: Evaluator, rng: random.Random) -> None:
        self.net = net
        self.rng = rng
        self.games: list[Game] = []
        self.seen: list[list[Game]] = []
        """Per game, its states before each roll (or remainder), from the side to move."""

    def add(self, game: Game) -> None:
        self.games.append(game)
        self.seen.append([])

    def step(self) -> list[tuple[list[Game], Game]]:
        """One decision in each game; returns the games that ended, with their states."""
        for index, game in enumerate(self.games):
            seen = self.seen[index]
            if game.needs_roll:
                seen.append(game)
                self.games[index] = game.roll(self.rng)
            elif game.remainder and (not seen or seen[-1] is not game):
                seen.append(game)
        self.games = self._decide(self.games)
        ended = [(s, g) for s, g in zip(self.seen, self.games, strict=True) if g.is_over]
        going = [i for i, g in enumerate(self.games) if not g.is_over]
        self.games = [self.games[i] for i in going]
        self.seen = [self.seen[i] for i in going]
        return ended

    def _decide(self, games: list[Game]) -> list[Game]:
        """Each game after its greedy turn (or pass), all candidates valued in one batch."""
        listed = [g.legal_turns() for g in games]
        reached: list[Position] = []
        pending: list[tuple[int, ...]] = []
        bounds = [0]
        for game, turns in zip(games, listed, strict=True):
            if len(turns) > 1:
                reached.extend(after(game, turns))
                pending.extend(t.remainder for t in turns)
            bounds.append(len(reached))
        if reached:
            probabilities = self.net.probabilities(reached, pending)
        moved: list[Game] = []
        for index, (game, turns) in enumerate(zip(games, listed, strict=True)):
            if len(turns) <= 1:
                moved.append(game.play(turns[0]) if turns else game.pass_turn())
                continue
            low, high = bounds[index], bounds[index + 1]
            values = self.net.equities_of(
                game.turn, reached[low:high], game.rules, probabilities[low:high]
            )
            moved.append(game.play(turns[int(np.argmax(values))]))
        return moved


def encode_states(family: Family, states: Sequence[Game]) -> Array:
    own, theirs = checkers([g.position for g in states], [g.turn for g in states])
    return encode(family, own, theirs, remainders([g.remainder for g in states]))


def returns(values: Array, movers: list[Side], end: Game, lam: float) -> Array:
    """TD(lambda) returns of a game's states, each from its own side to move."""
    targets = np.empty_like(values)
    following = outcome_vector(end, movers[-1])
    targets[-1] = following
    for t in range(len(movers) - 2, -1, -1):
        same = movers[t + 1] is movers[t]
        value_next = values[t + 1] if same else flip(values[t + 1])
        return_next = targets[t + 1] if same else flip(targets[t + 1])
        targets[t] = (1.0 - lam) * value_next + lam * return_next
    return targets


def train(
    family: Family,
    games: int,
    seed: int,
    *,
    hidden: int = 64,
    rate: float = 0.002,
    lam: float = 0.7,
    every: int = 1000,
    check_pairs: int = 50,
    start: Network | None = None,
    log: bool = True,
    save: Path | None = None,
    batch: int = 32,
) -> Network:
    """Trains a net of ``family`` for ``games`` self-play games (see the module docstring);
    with ``save``, the weights are also written there at every checkpoint."""
    rng = random.Random(seed)
    network = start if start is not None else Network.fresh(hidden, seed)
    earlier = _earlier(start)
    net = Evaluator(family, network)
    variants = TRAINING_MIX[family]
    began = time.perf_counter()
    errors: list[float] = []
    playing = SelfPlay(net, rng)
    started = finished = 0
    while finished < games:
        while len(playing.games) < batch and started < games:
            started += 1
            playing.add(Game.start(variants[started % len(variants)], rng))
        for states, end in playing.step():
            finished += 1
            if states:
                inputs = encode_states(family, states)
                values = network.evaluate(inputs)
                targets = returns(values, [g.turn for g in states], end, lam)
                step = rate * (1.0 - 0.75 * finished / games)
                errors.append(network.train(inputs, targets, step))
            if log and (finished % every == 0 or finished == games):
                strength = duel(
                    Computer(4, net), HeuristicPlayer(), variants[0], check_pairs, seed + finished
                )
                sys.stdout.write(
                    f"{family}: {finished} games in {time.perf_counter() - began:.0f} s, "
                    f"TD error {np.mean(errors[-every:]):.4f}; vs heuristic: {strength}\n"
                )
                sys.stdout.flush()
                if save is not None:
                    _describe(network, family, finished, seed, rate, lam, began, earlier).save(save)
    return _describe(network, family, games, seed, rate, lam, began, earlier)


def _earlier(start: Network | None) -> str:
    """What a net trained further had been trained on, for its file's ``info``."""
    if start is None:
        return ""
    info = start.info
    before = f"; after {info['after']}" if info.get("after") else ""
    return (
        f"{info.get('games', '?')} games, seed {info.get('seed', '?')}, "
        f"rate {info.get('rate', '?')}{before}"
    )


def _describe(
    network: Network,
    family: Family,
    games: int,
    seed: int,
    rate: float,
    lam: float,
    began: float,
    earlier: str,
) -> Network:
    network.info = {
        "family": str(family),
        "games": str(games),
        "seed": str(seed),
        "hidden": str(network.hidden),
        "rate": str(rate),
        "lambda": str(lam),
        "variants": ",".join(TRAINING_MIX[family]),
        "seconds": f"{time.perf_counter() - began:.0f}",
        **({"after": earlier} if earlier else {}),
    }
    return network


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.train", description=__doc__)
    parser.add_argument("--family", choices=[family.value for family in Family], required=True)
    parser.add_argument("--games", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--rate", type=float, default=0.002)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=32, help="games played at once")
    parser.add_argument("--from", dest="start", type=Path, help="continue from these weights")
    parser.add_argument(
        "--grow", type=Path, help="start from these weights, grown to --hidden units"
    )
    parser.add_argument("--out", type=Path, help="where to write (default: the shipped file)")
    args = parser.parse_args(argv)
    start = Network.load(args.start) if args.start else None
    if args.grow:
        start = Network.load(args.grow).grown(args.hidden, args.seed)
    network = train(
        Family(args.family),
        args.games,
        args.seed,
        hidden=args.hidden,
        rate=args.rate,
        lam=args.lam,
        every=args.every,
        start=start,
        save=args.out or WEIGHTS / f"{args.family}.npz",
        batch=args.batch,
    )
    out = args.out or WEIGHTS / f"{args.family}.npz"
    network.save(out)
    sys.stderr.write(f"wrote {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
