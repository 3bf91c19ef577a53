"""The computer player (bot/ai): its strength against yardsticks and the level below, and its
speed.

    python bench/ai.py [--variant V] [--rules R] [--dice-mode M] [--pairs N] [--seed S]
                       [--jobs J] [--positions P] [--judge-ply K] [--matches M] [--record F]
                       [--judged J] [--bench F]
                       [--only strength|speed|judge|analysis|parity|memory|rollouts ...]

strength: points share of the first player over N pairs of paired-dice games (``bot.ai.arena``:
the same dice with the colours swapped), with a 95% confidence interval over the pairs:
the strongest level against the random and the heuristic player, each level against the one
below (2 vs 1 ... 5 vs 4), the strongest level against ``reference`` (level 5 as it was
shipped at commit REFERENCE, its weights read from git: a 64-unit net looking a roll ahead at
six turns, no 2-ply, no bear-off table), and on the short board (``--variant short``) against
Tesauro's pubeval and against GNU Backgammon's 0-ply net (the optional ``gnubg`` package,
``pip install -e '.[bench]'``; skipped with a note without it). Short nardy is backgammon (the
same start, bar, hits, oin 1, mars 2, koks 3), so gnubg judges it as it is. ``--matches
"level 5:gnubg,level 5:reference"`` plays only those (players by name: see :func:`player`;
``level 5 net`` is level 5 on the shipped net where Open Sage plays). ``--jobs J`` splits the
pairs over J processes; the figures do not depend on J. ``--record F`` keeps every pair in F
as it ends and resumes from it: a long match in steps.

speed: seconds per decision of each level, p50, p95 and max, over P positions with a choice
(two or more legal turns) met in seeded self-play of the variant (level 4 against level 1), by
the clock and in the process's processor time (which a busy machine changes less).

judge (short only, needs gnubg): GNU Backgammon at ``--judge-ply`` (default 2) values every
legal turn of P positions met in seeded games of level 3 against gnubg 0-ply (half of the
positions with a choice, taken at random); each player's mean equity loss per decision against
gnubg's best, in thousandths of a point (mppg), with its standard error: gnubg 0-ply, the
shipped level 5 (Open Sage's 3-ply), level 5 at 2-ply (a roll ahead), the analysis's choices
(what a review calls the best turn), level 4 and level 5 on the shipped net (before Open Sage);
``--judged`` names others. The judge's values are what the shipped nets' checkpoints were
chosen by.

parity: our legal turns against Open Sage's move generator (``bgsage.possible_moves``) on P
positions of random short-nardy self-play, each with its roll (see :func:`parity`).

memory: a computer worker's memory (spawned as the bot spawns them) after a game's
decisions, hints and analysis, short and long.

rollouts: each player's mean loss per decision on long nardy's rollout benchmark
(``bench/long_rollouts.py``, ``--bench F``; the first P decisions with ``--positions``).

analysis: seconds to analyse one long-nardy game (``bot.ai.analysis.analyse``) of level 4
against level 2, for three seeded games, whatever ``--variant`` says.

No assertions: the figures go into the issue notes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bot.ai  # noqa: F401  (before numpy: it limits numpy's BLAS threads)
from bot.ai import LEVELS, STRONGEST
from bot.ai.analysis import ERROR, analyse, review
from bot.ai.arena import play
from bot.ai.computer import Computer
from bot.ai.evaluator import Evaluator, evaluator
from bot.ai.network import Network
from bot.ai.players import (
    HeuristicPlayer,
    Player,
    PubEvalPlayer,
    RandomPlayer,
    _is_race,
)
from bot.ai.sage import board as sage_board
from bot.ai.sage import for_game, sage
from bot.ai.search import ply0
from bot.engine import (
    CHECKERS,
    Dice,
    Game,
    Position,
    Side,
    Turn,
    TurnRecord,
    resolve_rules,
    score,
)
from bot.engine.position import FAMILY

try:
    import gnubg
except ImportError:  # the optional extra `bench`
    gnubg = None


class GnubgPlayer:
    """GNU Backgammon's 0-ply choice among our legal turns (short nardy only): each turn's
    position is handed to gnubg's evaluator with the opponent on roll, and the turn with the
    best cubeless equity for the mover is played. A turn that bears off the last checker is
    judged by its result instead (gnubg does not evaluate finished positions)."""

    name = "gnubg 0-ply"

    def __init__(self) -> None:
        if gnubg is None:
            raise RuntimeError("the gnubg package is not installed")
        self._context = gnubg.eval_context(0, 0, 1, 0, 0.0)  # cubeless, 0-ply, no noise
        self._cube = gnubg.cube_info()  # money game, centred cube

    def choose(self, game: Game, rng: random.Random) -> Turn | None:
        if game.variant != "short":
            raise ValueError("gnubg plays short nardy (backgammon) only")
        turns = game.legal_turns()
        if not turns:
            return None
        mover = game.turn
        values = []
        for turn in turns:
            after = turn.position
            if after.borne_off(mover) == CHECKERS:  # won: above any equity, by its points
                values.append(10.0 + score("short", game.rules, after, mover).points)
            else:
                values.append(-self.equity(after))
        return turns[max(range(len(turns)), key=values.__getitem__)]

    def equity(self, position: Position) -> float:
        """The cubeless equity of the side to move in ``position``, before its roll."""
        return float(gnubg.evaluate(board(position), self._cube, self._context)[5])


def board(position: Position) -> tuple[list[int], list[int]]:
    """gnubg's board: (the opponent's, the side on roll's) 25 slots, each side in its own
    numbering, points 1..24 then the bar; ours are (off, 1..24, bar)."""
    on_roll = position.checkers(position.turn)
    other = position.checkers(position.turn.other)
    return list(other[1:26]), list(on_roll[1:26])


def check_gnubg() -> None:
    """Prints what shows that the perspective is right: gnubg's equity for the side on roll at
    the opening (slightly positive) and in a race it leads by 28 pips (close to +1), and the
    turn GnubgPlayer and gnubg itself pick for an opening 3-1 (8/5 6/5)."""
    player = GnubgPlayer()
    opening = Position.from_text("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5")
    ahead = Position.from_text("short b / 6:10 5:5 / 6:3 5:3 4:3 3:2 2:2 1:2")
    both = frozenset({Side.WHITE, Side.BLACK})
    game = Game("short", resolve_rules("short", None), opening, Dice(3, 1), moved=both)
    ours = player.choose(game, random.Random(0))
    own = gnubg.find_best_move(board(game.position), player._cube, player._context, (3, 1))
    print(
        f"gnubg check: equity for the side on roll at the opening {player.equity(opening):+.3f},"
        f" 28 pips ahead in a race {player.equity(ahead):+.3f}; opening 3-1: GnubgPlayer "
        f"{ours}, gnubg {own}"
    )


REFERENCE = "4fcb888"
"""The commit whose level 5 ``reference`` plays: the last before the 2-ply search and the
nets of 220 inputs and 128 units."""


def reference(variant: str) -> Computer:
    """Level 5 as shipped at :data:`REFERENCE`: its net (grown to today's inputs at weight 0,
    which computes the same), 1-ply at six turns, no 2-ply, no bear-off table."""
    family = FAMILY[variant]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "net.npz"
        path.write_bytes(
            subprocess.run(
                ["git", "show", f"{REFERENCE}:bot/ai/weights/{family}.npz"],
                cwd=Path(__file__).resolve().parent.parent,
                check=True,
                capture_output=True,
            ).stdout
        )
        old = Network.load(path)
    computer = Computer(5, Evaluator(family, old.grown(old.hidden, 0)))
    computer.level = replace(computer.level, lookahead=6, deeper=0)
    computer.name = f"level 5 at {REFERENCE}"
    return computer


def player(name: str, variant: str = "short") -> Player:
    """The player called ``name``: ``level N`` (as shipped: Open Sage's values where it plays,
    :mod:`bot.ai.sage`), ``level N net`` (the same level on the shipped net), ``level N sage``
    (on Open Sage's 1-ply, with our own look-ahead where its own cannot search), ``level N at
    2-ply`` (no 3-ply), ``reference``, ``random``, ``heuristic``, ``pubeval``, ``gnubg``."""
    if name == "reference":
        return reference(variant)
    if name.startswith("level "):
        words = name.split()
        made = Computer(int(words[1]))
        if words[2:] == ["net"]:
            made = Computer(int(words[1]), evaluator(variant))
        elif words[2:] == ["sage"]:
            made = Computer(int(words[1]), sage())
        elif words[2:] == ["at", "2-ply"] or words[2:] == ["at", "1-ply"]:
            made.level = replace(made.level, deeper=0)
        elif words[2:]:
            raise ValueError(f"no player {name!r}")
        made.name = name
        return made
    found: dict[str, Any] = {
        "random": RandomPlayer,
        "heuristic": HeuristicPlayer,
        "pubeval": PubEvalPlayer,
        "gnubg": GnubgPlayer,
    }
    made: Player = found[name]()
    return made


Job = tuple[str, str, str, str | None, str, int, int]
"""(first, second, variant, rules, dice mode, seed, pair index)."""


def play_pair(job: Job) -> tuple[int, int, int, int]:
    """One pair, exactly as :func:`bot.ai.arena.duel` plays its pair ``index``: the index,
    the first player's points, the second's, and the first's wins."""
    first_name, second_name, variant, rules, mode, seed, index = job
    first, second = _players(first_name, second_name, variant)
    points_for = points_against = wins = 0
    for first_white in (True, False):
        dice = random.Random(seed * 1_000_003 + index)
        choices = random.Random(seed * 7_919 + index * 2 + first_white)
        white, black = (first, second) if first_white else (second, first)
        result = play(white, black, variant, dice, choices, rules=rules, dice_mode=mode).result
        assert result is not None
        if (result.winner is Side.WHITE) == first_white:
            wins += 1
            points_for += result.points
        else:
            points_against += result.points
    return index, points_for, points_against, wins


_CACHE: dict[tuple[str, str, str], tuple[Player, Player]] = {}


def _players(first: str, second: str, variant: str) -> tuple[Player, Player]:
    """The players of a match, made once per process."""
    if (first, second, variant) not in _CACHE:
        _CACHE[(first, second, variant)] = (player(first, variant), player(second, variant))
    return _CACHE[(first, second, variant)]


def match(first: str, second: str, args: argparse.Namespace, pool: Any | None) -> tuple[str, float]:
    """Plays ``args.pairs`` pairs; returns the figures as a line and the seconds taken. With
    ``args.record``, each pair is appended to that file as it ends, and the pairs already there
    (for the same players, variant, rules, dice mode and seed) are not played again: a long
    match can be stopped and resumed, and its figures are those of every pair in the file."""
    key = [first, second, args.variant, args.rules, args.dice_mode, args.seed]
    done: dict[int, tuple[int, int, int, int]] = {}
    if args.record and Path(args.record).exists():
        for line in Path(args.record).read_text().splitlines():
            entry = json.loads(line)
            if entry["match"] == key:
                done[entry["pair"][0]] = tuple(entry["pair"])
    jobs: list[Job] = [
        (first, second, args.variant, args.rules, args.dice_mode, args.seed, index)
        for index in range(args.pairs)
        if index not in done
    ]
    started = time.perf_counter()
    results: Iterator[tuple[int, int, int, int]]
    if pool is None:
        results = map(play_pair, jobs)
    else:
        results = pool.imap_unordered(play_pair, jobs, chunksize=max(1, len(jobs) // 64))
    for result in results:
        done[result[0]] = result
        if args.record:
            with open(args.record, "a") as out:
                out.write(json.dumps({"match": key, "pair": list(result)}) + "\n")
    pairs = sorted(p for p in done.values() if p[0] < args.pairs)
    seconds = time.perf_counter() - started
    points_for = sum(p[1] for p in pairs)
    points_against = sum(p[2] for p in pairs)
    wins = sum(p[3] for p in pairs)
    share = points_for / max(1, points_for + points_against)
    shares = [p[1] / (p[1] + p[2]) for p in pairs]
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else 1.0
    games = 2 * len(pairs)
    line = (
        f"{first} vs {second}: {games} games, points share {share:.1%} "
        f"(95% CI {max(0.0, share - half):.1%}..{min(1.0, share + half):.1%}), "
        f"wins {wins / max(1, games):.1%}, {points_for}:{points_against} points"
    )
    return line, seconds


def strength(args: argparse.Namespace) -> None:
    strongest = f"level {STRONGEST}"
    matches = [(strongest, "random"), (strongest, "heuristic")]
    matches += [(f"level {n + 1}", f"level {n}") for n in range(1, STRONGEST)]
    matches.append((strongest, "reference"))
    if args.variant == "short":
        matches.append((strongest, "pubeval"))
        if gnubg is None:
            print("gnubg is not installed (pip install -e '.[bench]'): no match against it")
        else:
            matches.append((strongest, "gnubg"))
    if args.matches:
        matches = [
            (first.strip(), second.strip())
            for first, second in (pair.split(":") for pair in args.matches.split(","))
        ]
    if any("gnubg" in pair for pair in matches):
        check_gnubg()
    print(
        f"strength, {args.variant} ({args.rules or 'default rules'}, {args.dice_mode} dice): "
        f"{args.pairs} pairs per match, seed {args.seed}, {args.jobs} process(es)"
    )
    pool = Pool(args.jobs) if args.jobs > 1 else None
    try:
        for first, second in matches:
            line, seconds = match(first, second, args, pool)
            print(f"  {line}  [{seconds:.0f} s]", flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def self_play_states(
    variant: str, rules: str | None, mode: str, count: int, seed: int
) -> list[Game]:
    """``count`` game states with a choice (two or more legal turns), from seeded games of
    level 4 against level 1."""
    rng = random.Random(seed)
    players = {Side.WHITE: Computer(4), Side.BLACK: Computer(1)}
    found: list[Game] = []
    while len(found) < count:
        game = Game.start(variant, rng, rules=rules, dice_mode=mode)
        while not game.is_over and len(found) < count:
            if game.needs_roll:
                game = game.roll(rng)
            if game.strike_pending:
                game = game.strike(players[game.turn.other].strike(game, rng))
            if game.only_turn() is None:
                found.append(game)
            turn = players[game.turn].choose(game, rng)
            game = game.pass_turn() if turn is None else game.play(turn)
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def speed(args: argparse.Namespace) -> None:
    states = self_play_states(args.variant, args.rules, args.dice_mode, args.positions, args.seed)
    sizes = [len(g.legal_turns()) for g in states]
    print(
        f"speed, {args.variant}: seconds per decision over {len(states)} self-play positions "
        f"with a choice ({statistics.median(sizes):.0f} legal turns at the median, "
        f"{max(sizes)} at most)"
    )
    for level in LEVELS:
        computer = Computer(level.number)
        rng = random.Random(args.seed)
        computer.choose(states[0], rng)  # loads the net
        times, cpu = [], []
        for game in states:
            started, used = time.perf_counter(), time.process_time()
            computer.choose(game, rng)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
        print(
            f"  level {level.number}: p50 {percentile(times, 0.5):.4f} s, "
            f"p95 {percentile(times, 0.95):.4f} s, max {max(times):.4f} s "
            f"(processor time p50 {percentile(cpu, 0.5):.4f} s, p95 {percentile(cpu, 0.95):.4f} s,"
            f" max {max(cpu):.4f} s)",
            flush=True,
        )


def judged_positions(count: int, seed: int) -> list[Game]:
    """``count`` short-nardy states with a choice, each kept with probability one half, from
    seeded games of level 3 against gnubg 0-ply (colours alternating with each find)."""
    rng = random.Random(seed)
    players: list[Player] = [Computer(3), GnubgPlayer()]
    found: list[Game] = []
    while len(found) < count:
        game = Game.start("short", rng)
        while not game.is_over and len(found) < count:
            if game.needs_roll:
                game = game.roll(rng)
            if len(game.legal_turns()) > 1 and rng.random() < 0.5:
                found.append(game)
            mover = players[(game.turn is Side.WHITE) ^ (len(found) % 2)]
            turn = mover.choose(game, rng)
            game = game.pass_turn() if turn is None else game.play(turn)
    return found


class AnalysisChoice:
    """The turn the analysis names best (:func:`bot.ai.analysis.review`: the best four at
    0-ply looked at a roll ahead), as a player."""

    name = "the analysis's choice"

    def choose(self, game: Game, rng: random.Random) -> Turn | None:
        turns = game.legal_turns()
        if len(turns) < 2:
            return turns[0] if turns else None
        first = turns[int(ply0(for_game(game), game, turns).argmax())]
        return review([(game, first)], range(1))[0].best


def judge(args: argparse.Namespace) -> None:
    if gnubg is None:
        print("judge: gnubg is not installed (pip install -e '.[bench]')")
        return
    context = gnubg.eval_context(0, args.judge_ply, 1, 1, 0.0)
    cube = gnubg.cube_info()
    started = time.perf_counter()
    states = judged_positions(args.positions, args.seed)
    kept: dict[str, dict[str, float]] = {}
    cache = Path(args.judge_cache) if args.judge_cache else None
    if cache is not None and cache.exists():
        kept = json.loads(cache.read_text())
    values: list[dict[Position, float]] = []
    for game in states:
        mover = game.turn
        valued: dict[Position, float] = {}
        known = kept.get(f"{args.judge_ply} {game.to_text()}", {})
        for turn in game.legal_turns():
            after = turn.position
            if after.to_text() in known:
                valued[after] = known[after.to_text()]
            elif after.borne_off(mover) == CHECKERS:
                valued[after] = score("short", game.rules, after, mover).points
            else:
                valued[after] = -float(gnubg.evaluate(board(after), cube, context)[5])
        values.append(valued)
        kept[f"{args.judge_ply} {game.to_text()}"] = {p.to_text(): v for p, v in valued.items()}
    if cache is not None:
        cache.write_text(json.dumps(kept))
    print(
        f"judge: gnubg {args.judge_ply}-ply values every turn of {len(states)} short-nardy "
        f"positions ({time.perf_counter() - started:.0f} s); mean loss per decision, mppg"
    )
    names = (
        args.judged.split(",")
        if args.judged
        else [
            "gnubg",
            f"level {STRONGEST}",
            f"level {STRONGEST} at 2-ply",
            "analysis",
            f"level {STRONGEST - 1}",
            f"level {STRONGEST} net",
        ]
    )
    for name in names:
        chooser: Player = AnalysisChoice() if name == "analysis" else player(name.strip())
        losses, times = [], []
        for index, (game, valued) in enumerate(zip(states, values, strict=True)):
            begun = time.perf_counter()
            turn = chooser.choose(game, random.Random(index))
            times.append(time.perf_counter() - begun)
            assert turn is not None
            losses.append(max(valued.values()) - valued[turn.position])
        error = statistics.stdev(losses) / math.sqrt(len(losses))
        print(
            f"  {chooser.name}: {1000 * statistics.mean(losses):.2f} mppg (± {1000 * error:.2f}), "
            f"{sum(loss >= ERROR for loss in losses)} errors of {ERROR} or more; "
            f"p50 {percentile(times, 0.5) * 1000:.1f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.1f} ms",
            flush=True,
        )


def parity(args: argparse.Namespace) -> None:
    """Our legal turns against Open Sage's move generator on ``args.positions`` short-nardy
    positions met in random self-play (random turns: many hits, so the bar; every game to its
    bear-off), each with its roll: how many agree exactly, how many differ only as the test
    allows (a pass, which Open Sage gives as the board unchanged; the last checker borne off
    with one die, which our full-use rule forbids), how many otherwise (none expected)."""
    from bgsage import possible_moves as bgsage_moves

    rng = random.Random(args.seed)
    counts = {"positions": 0, "on the bar": 0, "bearing off": 0, "contact": 0, "turns": 0}
    exact = passes = one_die = other = 0
    started = time.perf_counter()
    while counts["positions"] < args.positions:
        game = Game.start("short", rng)
        while not game.is_over and counts["positions"] < args.positions:
            if game.needs_roll:
                game = game.roll(rng)
            place, mover = game.position, game.turn
            turns = game.legal_turns()
            assert game.dice is not None
            ours = {tuple(sage_board(t.position, mover)) for t in turns}
            cells = sage_board(place, mover)
            theirs = {tuple(b) for b in bgsage_moves(cells, *game.dice.values)}
            counts["positions"] += 1
            counts["turns"] += len(turns)
            counts["on the bar"] += place.checkers(mover)[25] > 0
            counts["bearing off"] += (
                sum(place.checkers(mover)[1:7]) + place.borne_off(mover) == CHECKERS
            )
            counts["contact"] += not _is_race(game)
            if ours == theirs:
                exact += 1
            elif not ours and theirs == {tuple(cells)}:
                passes += 1
            elif ours < theirs and all(_finished(c) for c in theirs - ours):
                one_die += 1
            else:
                other += 1
                print(f"  differs: {place.to_text()} {game.dice}")
            turn = rng.choice(turns) if turns else None
            game = game.pass_turn() if turn is None else game.play(turn)
    print(
        f"parity: {counts['positions']} positions ({counts['on the bar']} with the mover on the "
        f"bar, {counts['bearing off']} bearing off, {counts['contact']} with contact; "
        f"{counts['turns']} turns) in {time.perf_counter() - started:.0f} s: {exact} the same, "
        f"{passes} passes (Open Sage: the board unchanged), {one_die} where Open Sage also bears "
        f"the last checker off with one die, {other} otherwise"
    )


def rollouts(args: argparse.Namespace) -> None:
    """Each player's mean loss per decision on long nardy's rollout benchmark
    (``bench/long_rollouts.py``, the file ``args.bench``): the best rolled-out equity less that
    of the turn the player chooses, in thousandths of a point (mppg), with its standard error.
    A choice outside the rolled-out turns is counted at the loss of the worst of them (at
    least that much is lost: level 5 liked it less than its three best), and how often that
    happened is said."""
    from long_rollouts import OUT

    path = Path(args.bench) if args.bench else OUT
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    if args.positions and args.positions < len(entries):
        entries = entries[: args.positions]
    trials = {(e["trials"], e["depth"]) for e in entries}
    errors = [c["error"] for e in entries for c in e["candidates"]]
    print(
        f"rollouts: {len(entries)} long-nardy decisions of {path.name} (trials, depth: "
        f"{sorted(trials)}; a candidate's standard error median {statistics.median(errors):.3f});"
        f" mean loss per decision, mppg"
    )
    names = (
        args.judged.split(",")
        if args.judged
        else [
            f"level {STRONGEST}",
            f"level {STRONGEST} at 1-ply",
            f"level {STRONGEST - 1}",
            "reference",
            "heuristic",
        ]
    )
    for name in names:
        chooser = player(name.strip(), "long")
        losses, outside = [], 0
        for entry in entries:
            game = Game.from_text(entry["game"])
            turn = chooser.choose(game, random.Random(entry["index"]))
            assert turn is not None
            values = {c["after"]: c["equity"] for c in entry["candidates"]}
            best = max(values.values())
            mine = values.get(turn.position.to_text())
            if mine is None:
                outside += 1
                mine = min(values.values())
            losses.append(best - mine)
        error = statistics.stdev(losses) / math.sqrt(len(losses))
        print(
            f"  {chooser.name}: {1000 * statistics.mean(losses):.1f} mppg (± {1000 * error:.1f}),"
            f" {outside} choices outside the rolled-out turns",
            flush=True,
        )


def _finished(cells: tuple[int, ...]) -> bool:
    return cells[25] == 0 and all(c <= 0 for c in cells[1:25])


def _memory_work(variants: list[str]) -> tuple[float, float]:
    """A worker's day in small, in the process that runs it: level 5 decisions, hints, a
    game's analysis with luck and its cube decisions, in each of ``variants``; its peak
    resident memory and its resident memory at the end, in MB."""
    import resource

    from bot.ai import Action, decide, hint
    from bot.ai.analysis import CubeRecord, judge_cube, replayed
    from bot.ai.cubeful import CubeAction
    from bot.ai.luck import luck_and_review

    for variant in variants:
        rng = random.Random(1)
        game = Game.start(variant, rng, cube=True)
        start = game
        history: list[TurnRecord | CubeRecord] = []
        for number in range(200):
            if game.is_over:
                break
            decision = decide(game, STRONGEST, number)
            if decision.action is Action.DOUBLE:
                history.append(CubeRecord(game.turn, CubeAction.DOUBLE))
                game = game.double()
            elif decision.action in (Action.TAKE, Action.DROP):
                history.append(CubeRecord(game.to_act, CubeAction(decision.action.value)))
                game = game.take() if decision.action is Action.TAKE else game.drop()
            elif decision.action is Action.ROLL:
                game = game.roll(rng)
                hint(game)
            else:
                turn = decision.turn if decision.turn is not None else game.only_turn()
                if turn is None:
                    game = game.pass_turn()
                    continue
                history.append(game.record(turn))
                game = game.play(turn)
        played, cubes = replayed(start, history)
        luck_and_review(played, range(len(played)), 0)
        judge_cube(cubes)
    status = Path("/proc/self/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, rss / 1024


def memory(args: argparse.Namespace) -> None:
    """The memory of a computer worker process (spawned, as :class:`bot.services.computer.Brain`
    makes them) after a short and a long game's decisions, hints and analyses."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        for variants in (["short"], ["long"], ["short", "long", "short", "long"]):
            peak, now = pool.apply(_memory_work, (variants,))
            print(
                f"memory: a worker after {', '.join(variants)}: peak {peak:.0f} MB, "
                f"resident {now:.0f} MB",
                flush=True,
            )


def recorded_game(seed: int) -> tuple[Game, list[TurnRecord]]:
    """A long-nardy game of level 4 against level 2: its start and its history lines."""
    rng = random.Random(seed)
    start = Game.start("long", rng)
    players = {Side.WHITE: Computer(4), Side.BLACK: Computer(2)}
    game, records = start, []
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        turn = players[game.turn].choose(game, rng) or game.only_turn()
        assert turn is not None
        records.append(game.record(turn))
        game = game.play(turn)
    return start, records


def analysis(args: argparse.Namespace) -> None:
    print("analysis: seconds to analyse one long-nardy game (level 4 against level 2)")
    analyse(*recorded_game(args.seed))  # loads the net
    times = []
    for index in range(3):
        start, records = recorded_game(args.seed + 1 + index)
        started = time.perf_counter()
        summaries = analyse(start, records)
        seconds = time.perf_counter() - started
        times.append(seconds)
        analysed = sum(s.turns for s in summaries.values())
        print(
            f"  game {index + 1}: {len(records)} turns, {analysed} with a choice, "
            f"{seconds:.2f} s ({seconds / max(1, analysed) * 1000:.0f} ms a turn)",
            flush=True,
        )
    print(f"  median {statistics.median(times):.2f} s a game")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--variant", default="short", choices=sorted(FAMILY))
    parser.add_argument("--rules", help="the rule set by name (default: the variant's)")
    parser.add_argument("--dice-mode", default="two", choices=["two", "three", "anti_three"])
    parser.add_argument("--pairs", type=int, default=500, help="pairs of games per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes for the strength games")
    parser.add_argument("--positions", type=int, default=200, help="positions for speed")
    parser.add_argument("--judge-ply", type=int, default=2, help="gnubg's depth as judge")
    parser.add_argument("--judge-cache", help="a file to keep the judge's values in, and reuse")
    parser.add_argument("--matches", help='only these, e.g. "level 5:gnubg,level 5:reference"')
    parser.add_argument("--record", help="a file to keep each match's pairs in, and resume from")
    parser.add_argument("--bench", help="the rollout benchmark's file (bench/long_rollouts.py)")
    parser.add_argument("--judged", help='the judge\'s players, e.g. "gnubg,level 5,analysis"')
    parser.add_argument(
        "--only",
        nargs="*",
        choices=["strength", "speed", "judge", "analysis", "parity", "memory", "rollouts"],
        help="what to measure",
    )
    args = parser.parse_args()
    only = set(args.only or ["strength", "speed", "analysis"])
    print(f"python {sys.version.split()[0]}, bench/ai.py {' '.join(sys.argv[1:])}")
    if "strength" in only:
        strength(args)
    if "speed" in only:
        speed(args)
    if "judge" in only:
        judge(args)
    if "analysis" in only:
        analysis(args)
    if "parity" in only:
        parity(args)
    if "memory" in only:
        memory(args)
    if "rollouts" in only:
        rollouts(args)


if __name__ == "__main__":
    main()
