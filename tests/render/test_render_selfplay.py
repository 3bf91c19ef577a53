"""Every position of a seeded self-play game of each variant renders, with the marks a player
would see: dice, the last turn, a picked checker and where it may go.

The turns come from the engine (``legal_turns``); render only draws them.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.engine import Game, Position, Side, Step, legal_turns, roll, starting_position
from render import BoardView, render_board, render_image
from render.layout import layout
from tests.render.checks import MAX_BYTES, assert_checkers_drawn


def self_play(variant: str, seed: int) -> Iterator[tuple[Position, BoardView]]:
    """Yields each position of a random game, seen by the side to move, until one side is off."""
    rng = random.Random(seed)
    position = starting_position(variant)
    first = {Side.WHITE: True, Side.BLACK: True}
    last: tuple[Step, ...] = ()
    while True:
        if max(position.borne_off(Side.WHITE), position.borne_off(Side.BLACK)) == 15:
            winner = Side.WHITE if position.borne_off(Side.WHITE) == 15 else Side.BLACK
            yield position, BoardView(bottom=winner, last_steps=last, result=f"{winner} wins")
            return
        dice = roll(rng)
        turns = legal_turns(position, dice, first_turn=first[position.turn])
        first[position.turn] = False
        selected: int | None = None
        destinations: tuple[int, ...] = ()
        if turns:
            step = rng.choice(turns).steps[0]
            selected = step.src
            destinations = tuple({t.steps[0].dst for t in turns if t.steps[0].src == step.src})
        yield (
            position,
            BoardView(
                bottom=position.turn if rng.random() < 0.8 else position.turn.other,
                dice=dice,
                dice_used=rng.randrange(len(dice.moves) + 1),
                last_steps=last,
                selected=selected,
                destinations=destinations,
                white_name="Алексей 🎲",
                black_name="Bob",
            ),
        )
        if turns:
            turn = rng.choice(turns)
            position, last = turn.position, turn.steps
        else:
            position, last = position.with_turn(position.turn.other), ()


@pytest.mark.parametrize("variant", ["long", "short"])
def test_every_position_of_a_game_renders(variant: str) -> None:
    geo = layout(BoardView().theme)
    boards = list(self_play(variant, seed=7))
    assert boards[-1][1].result is not None, "the game was played to the end"
    for position, view in boards:
        image = render_image(position, view=view)
        assert image.size == (geo.width, geo.height)
        plain = render_image(position, view=BoardView(bottom=view.bottom))
        assert_checkers_drawn(plain, position, view.bottom)
        data = render_board(position, view=view)
        assert len(data) <= MAX_BYTES, position
    Image.open(io.BytesIO(data)).verify()


def game_views(
    variant: str, mode: str, rules: str | None, seed: int
) -> Iterator[tuple[Position, BoardView]]:
    """Yields each state of a random game of the new variants, drawn the way a bot shows it:
    the dice (three, or two after a strike with the struck one), the move list of a cascade
    or a remainder with the moves played so far, and a label for a remainder or a chain."""
    rng = random.Random(seed)
    game = Game.start(variant, rng, rules=rules, dice_mode=mode)
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        if game.strike_pending:
            yield game.position, BoardView(dice=game.dice, dice_label="Bob strikes a die")
            assert game.dice is not None
            game = game.strike(rng.choice(game.dice.values))
        moves = game.moves
        assert moves is not None
        current = game.turn_input()
        while not current.is_complete and rng.random() < 0.7:
            current = current.play(rng.choice(current.options))
        label = "Remainder" if game.remainder else (f"Chain {game.chain}" if game.chain else None)
        yield (
            game.position,
            BoardView(
                bottom=game.turn,
                dice=None if game.remainder else game.dice,
                moves=moves.values,
                struck=game.struck,
                dice_used=tuple(p.die for p in current.played),
                dice_label=label,
            ),
        )
        while not current.is_complete:
            current = current.play(rng.choice(current.options))
        turn = current.turn()
        game = game.play(turn) if turn.played else game.pass_turn()


@pytest.mark.parametrize(
    ("variant", "mode", "rules"),
    [
        ("abkhaz", "anti_three", None),
        ("short", "three", None),
        ("gulbara", "two", None),
        ("crazy_gulbara", "two", "international"),
    ],
)
def test_every_state_of_a_new_variant_game_renders(
    variant: str, mode: str, rules: str | None
) -> None:
    geo = layout(BoardView().theme)
    shown = 0
    for position, view in game_views(variant, mode, rules, seed=11):
        image = render_image(position, view=view)
        assert image.size == (geo.width, geo.height)
        shown += 1
    assert shown > 20
