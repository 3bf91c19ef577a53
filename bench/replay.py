"""Benchmark of replays: ``python bench/replay.py [--seeds N] [--runs N] [--level L]``.

Plays seeded games of long and short nardy between two computer players at ``--level`` (3 by
default: the bot's usual opponent, so the games are as long as people's), then makes each one's
replay exactly as the bot does (``bot.views.replays`` frames and durations, drawn and encoded by
``render.render_animation``) ``--runs`` times, and prints for each variant the medians over the
games (each game's time being its median over the runs): moves, bytes of the GIF, seconds to
make it, and the share of the 2 MB a typical long game must stay under. Figures only, no
assertions. The position ID of each game's end is printed too, with its length.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.computer import Computer
from bot.engine import Game, Turn
from bot.model import StoredGame, User
from bot.services.replays import Replayed, ReplayedTurn
from bot.views.replays import SCALE, THEME, replay_durations, replay_frames
from render import render_animation
from render.layout import layout

LIMIT = 2_000_000


def self_play(variant: str, seed: int, level: int) -> Replayed:
    """A seeded game between two computer players at ``level``, as a replay sees it."""
    dice, choices = random.Random(seed), random.Random(seed + 1)
    player = Computer(level)
    game = Game.start(variant, dice)
    start = game.position
    moves: list[ReplayedTurn] = []
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(dice)
        if game.strike_pending:  # not in two-dice games
            assert game.dice is not None
            game = game.strike(max(game.dice.values))
        turn = player.choose(game, choices)
        before = game
        game = game.pass_turn() if turn is None else game.play(turn)
        played = turn if turn is not None else Turn((), game.position, ())
        moves.append(ReplayedTurn(before, played, game.position))
    stored = StoredGame(
        id=seed,
        chat_id=0,
        white_id=1,
        black_id=2,
        game=game,
        input=(),
        last_turn=(),
        history=(),
        move_seconds=90,
        deadline=None,
        locale="en",
        version=0,
        created_at=0.0,
        finished_at=0.0,
    )
    white, black = User(1, "alexei", "Алексей", "ru"), User(2, "bob", "Bob", "en")
    return Replayed(stored, white, black, start, tuple(moves))


def make(replayed: Replayed) -> bytes:
    """The replay's GIF, as the bot makes it (its texts in English)."""
    frames = replay_frames(replayed, lambda text: text)
    return render_animation(frames, replay_durations(len(frames)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="games of each variant")
    parser.add_argument("--runs", type=int, default=3, help="replays made of each game")
    parser.add_argument("--level", type=int, default=3, help="the computer players' level")
    args = parser.parse_args()
    geo = layout(THEME)
    print(f"replay           GIF {geo.width}x{geo.height} ({SCALE:.0%} of a board)")
    make(self_play("short", 0, args.level))  # the sprite caches at the replay's size
    for variant in ("long", "short"):
        moves, sizes, seconds, ids = [], [], [], []
        for seed in range(1, args.seeds + 1):
            replayed = self_play(variant, seed, args.level)
            runs = []
            for _ in range(args.runs):
                began = time.perf_counter()
                data = make(replayed)
                runs.append(time.perf_counter() - began)
            moves.append(len(replayed.moves))
            sizes.append(len(data))
            seconds.append(statistics.median(runs))
            ids.append(replayed.moves[-1].after.to_id())
        size = statistics.median(sizes)
        print(
            f"{variant:<6} {args.seeds} games  moves median {statistics.median(moves):.0f} "
            f"({min(moves)}-{max(moves)}), "
            f"size median {size / 1e6:.2f} MB (max {max(sizes) / 1e6:.2f}, "
            f"{size / LIMIT:.0%} of 2 MB), "
            f"made in median {statistics.median(seconds):.2f} s (max {max(seconds):.2f}), "
            f"{statistics.median(s / m for s, m in zip(sizes, moves, strict=True)) / 1e3:.1f} KB "
            "a move"
        )
        print(f"       end position IDs: {' '.join(ids)} ({len(ids[0])} characters)")


if __name__ == "__main__":
    main()
