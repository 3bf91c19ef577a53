"""Long nardy's benchmark of decisions, each scored by rollouts: the yardstick of
``bench/ai.py --only rollouts`` (a player's mean loss per decision against the rollouts).

    python bench/long_rollouts.py [--decisions 1000] [--trials 36] [--depth 8] [--seed 1]
                                  [--out bench/data/long_rollouts.jsonl] [--stop-after N]

Long nardy has no outside engine to judge ours, so its decisions are judged by playing them out:

- *Decisions*: long-nardy positions with a choice (two or more legal turns), a quarter of those
  met in seeded games between levels 2 to 4 (each game's two levels drawn from them, so the
  positions are the varied ones people reach, errors included), ``--decisions`` of them.
- *Candidates*: level 5's three best turns, in its own order (its 2-ply where close).
- *Rollouts*: each candidate's position played on ``--trials`` times (a multiple of 36: the
  opponent's first roll goes through the 36 ordered rolls in turn), both sides playing the
  net's best turn (0-ply), for ``--depth`` half-moves, then valued by the net (0-ply); a game
  that ends before counts its result (oin 1, mars 2: the classic rules), and as soon as both
  sides are home (each with a checker off) the exact bear-off table's value stands
  (:mod:`bot.ai.bearoff`) and the trial ends there.
- *Common dice*: trial k of every candidate of a decision rolls the same dice, so the
  differences between the candidates, which are what a decision is judged by, vary far less
  than the equities themselves.
- *Variance reduction*: each roll's luck (the net's value of the best turn for the roll that
  came, less the mean of that value over the 21 rolls: :mod:`bot.ai.luck`'s luck at 0-ply) is
  taken off the trial's result, from the side of the turn rolled out; its mean is 0 whatever
  the net's errors, so the estimate keeps its mean and sheds most of the dice's noise.

A candidate's equity is the mean over its trials, with the standard error of that mean. The
decisions are appended to ``--out`` one JSON line each as they are done, and a run resumes
where the file ends (``--stop-after N`` stops after N more: a run in steps); the decisions are
fixed by ``--seed`` and each one's dice by its index, so the file does not depend on how many
steps made it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.ai  # noqa: F401  (before numpy: it limits numpy's BLAS threads)
from bot.ai.computer import Computer
from bot.ai.evaluator import Evaluator, evaluator
from bot.ai.search import ROLLS, after
from bot.engine import Game, Side, Turn

OUT = Path(__file__).resolve().parent / "data" / "long_rollouts.jsonl"
CANDIDATES = 3
KEPT = 4
"""One position with a choice in this many is kept."""


def decisions(count: int, seed: int) -> list[Game]:
    """``count`` long-nardy games ready to play a roll with a choice (see the module
    docstring), in a fixed order."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        players = {side: Computer(rng.randint(2, 4)) for side in Side}
        game = Game.start("long", rng)
        while not game.is_over and len(found) < count:
            if game.needs_roll:
                game = game.roll(rng)
            if len(game.legal_turns()) > 1 and rng.randrange(KEPT) == 0:
                found.append(game)
            turn = players[game.turn].choose(game, rng)
            game = game.pass_turn() if turn is None else game.play(turn)
    return found


def _best(net: Evaluator, game: Game) -> tuple[Turn | None, float]:
    """The net's best turn for ``game``'s roll (None: a pass) and its equity for the mover."""
    turns = game.legal_turns()
    if not turns:
        left = game.position.with_turn(game.turn.other)
        return None, float(net.equities_for(game.turn, [left], game.rules)[0])
    values = net.equities_for(game.turn, after(game, turns), game.rules)
    index = int(values.argmax())
    return turns[index], float(values[index])


def _roll_values(
    net: Evaluator, game: Game
) -> dict[tuple[int, ...], tuple[Game, Turn | None, float]]:
    """For each of the 21 rolls of ``game`` (waiting for a roll): the game with it rolled, the
    net's best turn and its equity for the roller, all the rolls' turns valued in one batch."""
    rolled = [game.with_dice(dice) for dice, _ in ROLLS[2]]
    reached = []
    starts = []
    listed: list[tuple[Game, tuple[Turn, ...]]] = []
    for ready in rolled:
        turns = ready.legal_turns()
        listed.append((ready, turns))
        starts.append(len(reached))
        if turns:
            reached.extend(after(ready, turns))
        else:
            reached.append(ready.position.with_turn(ready.turn.other))
    values = net.equities_for(game.turn, reached, game.rules)
    found = {}
    for (ready, turns), start in zip(listed, starts, strict=True):
        assert ready.dice is not None
        key = tuple(sorted(ready.dice.values, reverse=True))
        if not turns:
            found[key] = (ready, None, float(values[start]))
            continue
        mine = values[start : start + len(turns)]
        index = int(mine.argmax())
        found[key] = (ready, turns[index], float(mine[index]))
    return found


def _answered(net: Evaluator, game: Game) -> bool:
    """Whether the bear-off table answers ``game``'s position (both sides home, neither done)."""
    from bot.ai.features import checkers

    assert net.table is not None
    own, theirs = checkers([game.position], [game.turn])
    return bool(net.table.answers(own, theirs)[0])


def trial(net: Evaluator, start: Game, me: Side, dice: random.Random, depth: int) -> float:
    """One trial of the rollout of ``start`` (the game after the candidate turn, waiting for a
    roll): the result for ``me`` less the luck of every roll (see the module docstring)."""
    chances = {tuple(sorted(d.values, reverse=True)): p for d, p in ROLLS[2]}
    game = start
    luck = 0.0
    for _ in range(depth):
        if game.is_over:
            break
        if _answered(net, game):
            break
        valued = _roll_values(net, game)
        mean = sum(chances[key] * value for key, (_, _, value) in valued.items())
        key = tuple(sorted((dice.randint(1, 6), dice.randint(1, 6)), reverse=True))
        rolled, turn, value = valued[key]
        luck += (value - mean) if game.turn is me else (mean - value)
        game = rolled.pass_turn() if turn is None else rolled.play(turn)
    if game.is_over:
        assert game.result is not None
        points = float(game.result.points)
        return (points if game.result.winner is me else -points) - luck
    value = float(net.equities_for(me, [game.position], game.rules)[0])
    return value - luck


class _Dice(random.Random):
    """A trial's dice: the first roll fixed (the trial's place among the 36 ordered rolls),
    then a seeded stream."""

    def __init__(self, first: tuple[int, int], seed: int) -> None:
        super().__init__(seed)
        self._first = list(first)

    def randint(self, a: int, b: int) -> int:
        if self._first:
            return self._first.pop(0)
        return super().randint(a, b)


def roll_out(game: Game, index: int, trials: int, depth: int) -> dict[str, Any]:
    """Decision ``index`` (``game``) rolled out: its candidates with their equities."""
    net = evaluator("long")
    ranked = Computer(5).rank(game)
    me = game.turn
    candidates = []
    ordered = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    for turn, level_value in list(zip(ranked.turns, ranked.equities, strict=True))[:CANDIDATES]:
        start = game.play(turn)
        results = []
        for k in range(trials):
            dice = _Dice(ordered[k % 36], index * 1_000_003 + k)
            results.append(trial(net, start, me, dice, depth))
        candidates.append(
            {
                "after": turn.position.to_text(),
                "equity": statistics.fmean(results),
                "error": statistics.stdev(results) / math.sqrt(len(results)),
                "level5": level_value,
            }
        )
    return {
        "index": index,
        "game": game.to_text(),
        "turns": len(game.legal_turns()),
        "candidates": candidates,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=36, help="per candidate, a multiple of 36")
    parser.add_argument("--depth", type=int, default=8, help="half-moves before the net values")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--stop-after", type=int, help="decisions to add in this run")
    args = parser.parse_args()
    if args.trials % 36:
        parser.error("--trials must be a multiple of 36")
    done = set()
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            entry = json.loads(line)
            done.add(entry["index"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    games = decisions(args.decisions, args.seed)
    todo = [i for i in range(len(games)) if i not in done]
    if args.stop_after is not None:
        todo = todo[: args.stop_after]
    print(
        f"{len(done)} decisions done, {len(todo)} to do this run ({args.trials} trials of "
        f"{args.depth} half-moves per candidate)",
        flush=True,
    )
    for count, index in enumerate(todo, 1):
        started = time.perf_counter()
        entry = roll_out(games[index], index, args.trials, args.depth)
        entry.update(trials=args.trials, depth=args.depth, seed=args.seed)
        with args.out.open("a") as out:
            out.write(json.dumps(entry) + "\n")
        errors = ", ".join(f"{c['equity']:+.3f} ± {c['error']:.3f}" for c in entry["candidates"])
        print(
            f"  {count}/{len(todo)} decision {index}: {errors} "
            f"({time.perf_counter() - started:.1f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
