"""Benchmark of the board renderer: ``python bench/render.py [--runs N]``.

Plays one seeded self-play game of long and short nardy with the engine, and one of the new
variants' each (three dice, anti three dice with its struck die, a gul-bara remainder, crazy
gul-bara's cascades), then renders every position (with its dice or move list, last turn and
names, from the mover's side) several times and prints medians: ``render_board`` with nothing
in the tile cache (see ``render/_tiles.py``), drawing the picture whole, encoding it whole,
bytes per image; then ``render_board`` over the boards of a long and a short game tap by tap,
in order, as the bot shows them (the tiles found in the cache make most of the difference),
and the throughput of two worker threads. Figures only, no assertions.
"""

from __future__ import annotations

import argparse
import functools
import io
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import (
    Game,
    Position,
    Side,
    Step,
    legal_turns,
    roll,
    starting_position,
)
from render import IMAGE_FORMAT, BoardView, render_board, render_image
from render._tiles import CACHE
from render.layout import layout


def self_play(variant: str, seed: int) -> list[tuple[Position, BoardView]]:
    """Returns every position of a seeded random game with the view a player would get."""
    rng = random.Random(seed)
    position = starting_position(variant)
    boards: list[tuple[Position, BoardView]] = []
    first = {Side.WHITE: True, Side.BLACK: True}
    last: tuple[Step, ...] = ()
    names = {"white_name": "Алексей 🎲", "black_name": "Bob"}
    while position.borne_off(Side.WHITE) < 15 and position.borne_off(Side.BLACK) < 15:
        dice = roll(rng)
        boards.append(
            (position, BoardView(bottom=position.turn, dice=dice, last_steps=last, **names))
        )
        turns = legal_turns(position, dice, first_turn=first[position.turn])
        first[position.turn] = False
        if turns:
            turn = rng.choice(turns)
            position, last = turn.position, turn.steps
        else:
            position, last = position.with_turn(position.turn.other), ()
    boards.append((position, BoardView(last_steps=last, result="Game over", **names)))
    return boards


def game_play(
    variant: str, mode: str, rules: str | None, seed: int
) -> list[tuple[Position, BoardView]]:
    """Every state of a seeded random game of a new variant with the view a player gets: the
    dice, the move list (a cascade or a remainder), the struck die, a label."""
    rng = random.Random(seed)
    game = Game.start(variant, rng, rules=rules, dice_mode=mode)
    boards: list[tuple[Position, BoardView]] = []
    names = {"white_name": "Алексей 🎲", "black_name": "Bob"}
    last: tuple[Step, ...] = ()
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        if game.strike_pending and game.dice is not None:
            game = game.strike(rng.choice(game.dice.values))
        moves = game.moves
        assert moves is not None
        label = "Remainder from Bob" if game.remainder else None
        view = BoardView(
            bottom=game.turn,
            dice=None if game.remainder else game.dice,
            moves=moves.values,
            struck=game.struck,
            dice_label=label,
            last_steps=last,
            **names,
        )
        boards.append((game.position, view))
        current = game.turn_input()
        while not current.is_complete:
            current = current.play(rng.choice(current.options))
        turn = current.turn()
        game = game.play(turn) if turn.played else game.pass_turn()
        last = turn.steps
    return boards


def step_play(variant: str, seed: int) -> list[tuple[Position, BoardView]]:
    """The boards a game's players see in the bot, tap by tap: the roll, each checker picked
    up with where it may go, each checker put down with its die greyed."""
    rng = random.Random(seed)
    game = Game.start(variant, rng)
    boards: list[tuple[Position, BoardView]] = []
    last: tuple[Step, ...] = ()
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        seen = functools.partial(
            BoardView, bottom=game.turn, dice=game.dice, white_name="Алексей 🎲", black_name="Bob"
        )
        boards.append((game.position, seen(last_steps=last)))
        current = game.turn_input()
        while not current.is_complete:
            option = rng.choice(current.options)
            where = tuple({o.step.dst for o in current.options if o.step.src == option.step.src})
            used = len(current.played)
            picked = seen(dice_used=used, selected=option.step.src, destinations=where)
            boards.append((current.current, picked))
            current = current.play(option)
            moved = tuple(played.step for played in current.played)
            put = seen(dice_used=len(moved), last_steps=moved, last_side=game.turn)
            boards.append((current.current, put))
        turn = current.turn()
        game = game.play(turn) if turn.played else game.pass_turn()
        last = turn.steps
    return boards


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="renders of each position")
    args = parser.parse_args()

    boards = self_play("long", 1) + self_play("short", 1)
    boards += game_play("abkhaz", "anti_three", None, 1) + game_play("short", "three", None, 1)
    boards += game_play("gulbara", "two", None, 1)
    boards += game_play("crazy_gulbara", "two", "international", 1)
    for position, view in boards[:3]:  # warm the caches: fonts, background, sprites
        render_board(position, view=view)
    cold, draw, encode, sizes = [], [], [], []
    for _ in range(args.runs):
        for position, view in boards:
            CACHE.clear()
            start = time.perf_counter()
            data = render_board(position, view=view)
            cold.append(time.perf_counter() - start)
            sizes.append(len(data))
            start = time.perf_counter()
            image = render_image(position, view=view)
            middle = time.perf_counter()
            image.save(io.BytesIO(), IMAGE_FORMAT, quality=view.theme.jpeg_quality)
            end = time.perf_counter()
            draw.append(middle - start)
            encode.append(end - middle)
    taps = step_play("long", 1) + step_play("short", 1)
    in_order: list[float] = []
    for _ in range(args.runs):
        CACHE.clear()
        CACHE.hits = CACHE.misses = 0
        for position, view in taps:
            start = time.perf_counter()
            render_board(position, view=view)
            in_order.append(time.perf_counter() - start)
    found = CACHE.hits / (CACHE.hits + CACHE.misses)

    geo = layout(boards[0][1].theme)
    print(f"positions        {len(boards)} (seeded self-play, every variant), {args.runs} runs")
    print(
        f"image            {IMAGE_FORMAT} {geo.width}x{geo.height}, "
        f"quality {boards[0][1].theme.jpeg_quality}"
    )
    print(
        f"render_board     nothing cached: median {_median_ms(cold):.2f} ms, "
        f"p90 {statistics.quantiles(cold, n=10)[-1] * 1000:.2f} ms"
    )
    print(f"render only      median {_median_ms(draw):.2f} ms (render_image: the picture whole)")
    print(f"encode only      median {_median_ms(encode):.2f} ms (the picture whole)")
    print(f"bytes            median {statistics.median(sizes):.0f}, max {max(sizes)}")
    print(
        f"tap by tap       {len(taps)} boards of a long and a short game in order: median "
        f"{_median_ms(in_order):.2f} ms, mean {statistics.fmean(in_order) * 1000:.2f} ms, "
        f"{found:.0%} of the tiles found in the cache"
    )

    jobs = boards * args.runs
    with ThreadPoolExecutor(max_workers=2) as pool:
        start = time.perf_counter()
        list(pool.map(lambda job: render_board(job[0], view=job[1]), jobs))
        elapsed = time.perf_counter() - start
    print(
        f"2 threads        {len(jobs) / elapsed:.0f} boards/s "
        f"({elapsed / len(jobs) * 1000:.2f} ms per board)"
    )


if __name__ == "__main__":
    main()
