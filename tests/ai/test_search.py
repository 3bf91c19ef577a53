"""0-ply, 1-ply and 2-ply (:mod:`bot.ai.search`) value a turn as the game stands after it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.ai.evaluator import evaluator
from bot.ai.search import ROLLS, ply0, ply1, ply2
from bot.engine import Dice, Game, Position, Side, resolve_rules

from .games import BOTH, PLAYS, games, play_id
from .test_decisions import huge

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def equity_after(game: Game, after: Game) -> float:
    """The equity of ``after`` for the side that moved in ``game``: whoever is to move in it,
    with the remainder it has to play first."""
    net = evaluator(game.variant)
    pending = [after.remainder] if after.remainder else None
    return float(net.equities_for(game.turn, [after.position], game.rules, pending)[0])


@pytest.mark.parametrize("play", PLAYS, ids=play_id)
@SETTINGS
@given(data=st.data())
def test_ply0_values_the_game_after_the_turn(
    play: tuple[str, str, str], data: st.DataObject
) -> None:
    game = data.draw(games(play))
    if game.strike_pending:
        assert game.dice is not None
        game = game.strike(game.dice.values[0])
    assume(not huge(game))
    turns = game.legal_turns()
    assume(turns)
    values = ply0(evaluator(game.variant), game, turns)
    for turn, value in zip(turns, values, strict=True):
        # the net is float32: a row valued in a batch rounds apart from the same row alone,
        # by up to a few millionths of a point (the turns' equities differ by far more)
        assert value == pytest.approx(equity_after(game, game.play(turn)), abs=1e-5), str(turn)


def test_a_gulbara_double_played_in_full_is_valued_with_the_mover_to_roll_again() -> None:
    position = Position.from_text("gulbara w / 24:14 13:1 / 24:15")
    game = Game("gulbara", resolve_rules("gulbara", None), position, Dice(3, 3), moved=BOTH)
    turns = game.legal_turns()
    after = game.play(turns[0])
    assert after.turn is Side.WHITE and after.chain == 1  # white rolls again
    net = evaluator("gulbara")
    expected = equity_after(game, after)
    assert ply0(net, game, turns[:1])[0] == pytest.approx(expected, abs=1e-6)
    # nor does 1-ply look at black's rolls: white rolls next, so it stays at 0-ply
    assert ply1(net, game, turns[:1])[0] == pytest.approx(expected, abs=1e-6)


def test_a_remainder_turn_is_valued_with_the_mover_to_roll_next() -> None:
    """After playing the remainder handed to it, the side rolls its own dice."""
    position = Position.from_text("gulbara w / 24:14 13:1 / 24:15")
    game = Game("gulbara", resolve_rules("gulbara", None), position, moved=BOTH, remainder=(6, 5))
    turns = game.legal_turns()
    assert len(turns) > 1
    net = evaluator("gulbara")
    for turn, now, ahead in zip(turns, ply0(net, game, turns), ply1(net, game, turns), strict=True):
        after = game.play(turn)
        assert after.turn is Side.WHITE and after.needs_roll
        assert now == pytest.approx(equity_after(game, after), abs=1e-6)
        assert ahead == pytest.approx(now, abs=1e-6)  # white rolls next: 0-ply


def one_ply_by_the_game(game: Game, after: Game) -> float:
    """1-ply as the game flows: over each roll the opponent may get next (with its
    probability), its reply that leaves the mover the least, each valued by the net as
    :meth:`Game.play` leaves the game (with whoever is to move then)."""
    if after.is_over or after.turn is game.turn or after.remainder:
        return equity_after(game, after)
    total = 0.0
    for dice, chance in ROLLS[2]:
        rolled = after.with_dice(dice)
        replies = rolled.legal_turns()
        if replies:
            worst = min(equity_after(game, rolled.play(r)) for r in replies)
        else:
            worst = equity_after(game, rolled.pass_turn())
        total += chance * worst
    return total


LOOK_AHEAD = [
    ("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", (3, 1)),
    ("short b / bar:1 13:4 8:3 6:5 2:2 / 24:2 13:4 8:3 6:4 5:2", (6, 6)),
    ("long w / 24:13 19:1 13:1 / 24:14 18:1", (5, 2)),
    ("gulbara w / 24:13 19:1 13:1 / 24:14 18:1", (5, 2)),
    ("gulbara w / 24:13 19:1 13:1 / 24:14 18:1", (2, 2)),
    ("crazy_gulbara w / 20:1 1:14 / 24:13 3:2", (5, 3)),
]


@pytest.mark.parametrize(("text", "dice"), LOOK_AHEAD)
def test_ply1_is_the_opponents_best_reply_to_every_roll(text: str, dice: tuple[int, int]) -> None:
    position = Position.from_text(text)
    variant = position.variant
    game = Game(variant, resolve_rules(variant, None), position, Dice(*dice), moved=BOTH)
    turns = game.legal_turns()[:6]
    values = ply1(evaluator(variant), game, turns)
    for turn, value in zip(turns, values, strict=True):
        assert value == pytest.approx(one_ply_by_the_game(game, game.play(turn)), abs=1e-5)


def test_ply1_averages_over_every_roll() -> None:
    for count in (2, 3):
        rolls = ROLLS[count]
        assert len(rolls) == {2: 21, 3: 56}[count]
        assert sum(p for _, p in rolls) == pytest.approx(1.0)
        assert all(len(dice.values) == count for dice, _ in rolls)


def test_ply1_of_a_finished_game_is_its_result() -> None:
    position = Position.from_text("short w / 1:1 off:14 / 19:2 13:5 8:3 6:5")
    game = Game("short", resolve_rules("short", None), position, Dice(6, 5), moved=BOTH)
    turns = game.legal_turns()
    values = ply1(evaluator("short"), game, turns)
    assert np.allclose(values, 3.0)  # koks: black still has checkers in white's home


def two_ply_by_the_game(game: Game, after: Game) -> float:
    """2-ply as the game flows: over each roll the opponent may get next, its reply that
    leaves the mover the least by the net; then, where the mover simply rolls next, that
    position valued a roll ahead (each of the mover's rolls, its best turn by the net)."""
    if after.is_over or after.turn is game.turn or after.remainder:
        return equity_after(game, after)
    total = 0.0
    for dice, chance in ROLLS[2]:
        rolled = after.with_dice(dice)
        replies = rolled.legal_turns()
        answers = [rolled.play(r) for r in replies] or [rolled.pass_turn()]
        answer = min(answers, key=lambda a: equity_after(game, a))
        if answer.is_over or answer.turn is not game.turn or answer.remainder:
            total += chance * equity_after(game, answer)
            continue
        mine = 0.0
        for my_dice, my_chance in ROLLS[2]:
            mine_rolled = answer.with_dice(my_dice)
            mine_turns = mine_rolled.legal_turns()
            mine_after = [mine_rolled.play(t) for t in mine_turns] or [mine_rolled.pass_turn()]
            mine += my_chance * max(equity_after(game, a) for a in mine_after)
        total += chance * mine
    return total


@pytest.mark.parametrize(("text", "dice"), [LOOK_AHEAD[i] for i in (0, 2, 4)])
def test_ply2_is_the_movers_best_turn_a_roll_after_the_opponents_best_reply(
    text: str, dice: tuple[int, int]
) -> None:
    """The short opening, a long position, and a gul-bara double that rolls again (the game's
    flow is slow to follow: one turn each)."""
    position = Position.from_text(text)
    variant = position.variant
    game = Game(variant, resolve_rules(variant, None), position, Dice(*dice), moved=BOTH)
    turns = game.legal_turns()[:1]
    values = ply2(evaluator(variant), game, turns)
    assert values is not None
    for turn, value in zip(turns, values, strict=True):
        assert value == pytest.approx(two_ply_by_the_game(game, game.play(turn)), abs=1e-5)


def test_ply2_of_a_finished_game_is_its_result() -> None:
    position = Position.from_text("short w / 1:1 off:14 / 19:2 13:5 8:3 6:5")
    game = Game("short", resolve_rules("short", None), position, Dice(6, 5), moved=BOTH)
    values = ply2(evaluator("short"), game, game.legal_turns())
    assert values is not None and np.allclose(values, 3.0)


def test_ply2_over_its_budget_values_nothing() -> None:
    """The budget counts the mover's answers: too few allowed, 2-ply gives up (the caller keeps
    1-ply); enough, it gives the same values as without one."""
    position = Position.from_text(LOOK_AHEAD[0][0])
    game = Game("short", resolve_rules("short", None), position, Dice(3, 1), moved=BOTH)
    turns = game.legal_turns()[:2]
    net = evaluator("short")
    assert ply2(net, game, turns, budget=100) is None
    whole = ply2(net, game, turns)
    assert whole is not None
    budgeted = ply2(net, game, turns, budget=10**7)
    assert budgeted is not None and np.array_equal(budgeted, whole)
