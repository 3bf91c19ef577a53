"""Game flow: opening roll, turns, passes, first-turn flags, results and scoring."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    Dice,
    Game,
    GameOverError,
    IllegalTurnError,
    Outcome,
    Position,
    Side,
    Turn,
    resolve_rules,
    score,
)


class FixedDice(random.Random):
    """A Random whose randint returns the given values in order (for the opening roll)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self._values = list(values)

    def randint(self, a: int, b: int) -> int:  # same signature as Random
        return self._values.pop(0)


def test_opening_roll_ties_roll_again_and_long_starter_rolls_two_dice() -> None:
    game = Game.start("long", FixedDice([3, 3, 2, 5, 6, 4]))
    assert game.opening == (2, 5)
    assert game.turn is Side.BLACK
    assert game.dice == Dice(6, 4)
    assert game.first_turn


def test_short_starter_plays_the_opening_dice() -> None:
    game = Game.start("short", FixedDice([6, 1]))
    assert game.turn is Side.WHITE
    assert game.dice == Dice(6, 1)


def test_turns_alternate_and_first_turn_flags_clear() -> None:
    game = Game.start("long", FixedDice([5, 1, 6, 5]))
    game = game.play(game.legal_turns()[0])
    assert game.turn is Side.BLACK and game.dice is None and game.ply == 1
    assert game.first_turn  # black has not moved yet
    game = game.with_dice(Dice(3, 1))
    game = game.play(game.legal_turns()[0])
    assert game.turn is Side.WHITE and not game.first_turn


def test_illegal_turn_and_pass_are_refused() -> None:
    game = Game.start("long", FixedDice([5, 1, 6, 5]))
    bogus = Turn((), Position.from_text("long b / 24:15 / 24:15"))
    with pytest.raises(IllegalTurnError, match="cannot pass"):
        game.play(bogus)
    other = Game.start("long", FixedDice([5, 1, 2, 1])).legal_turns()[0]
    with pytest.raises(IllegalTurnError, match="illegal turn"):
        game.play(other)
    with pytest.raises(IllegalTurnError, match="already rolled"):
        game.roll(random.Random(1))


def test_pass_when_blocked() -> None:
    position = Position.from_text("long w / 24:1 1:14 / 24:13 7:1 6:1")
    game = Game("long", resolve_rules("long", None), position, Dice(6, 5), moved=frozenset(Side))
    assert game.legal_turns() == ()
    after = game.pass_turn()
    assert after.turn is Side.BLACK and after.ply == 1 and after.position.white == position.white


def _finish(position: str, rules: str | None = None) -> Game:
    start = Position.from_text(position)
    game = Game("long", resolve_rules("long", rules), start, Dice(6, 6), moved=frozenset(Side))
    return game.play(game.legal_turns()[0])


@pytest.mark.parametrize(
    ("position", "rules", "outcome", "points"),
    [
        ("long w / 1:1 off:14 / 3:10 off:5", None, Outcome.OIN, 1),
        ("long w / 1:1 off:14 / 3:15", None, Outcome.MARS, 2),
        # classic counts neither koks nor home mars: both score as a mars
        ("long w / 1:1 off:14 / 24:1 3:14", None, Outcome.MARS, 2),
        ("long w / 1:1 off:14 / 24:1 3:14", "sheshbesh", Outcome.KOKS, 3),
        ("long w / 1:1 off:14 / 3:15", "sheshbesh", Outcome.HOME_MARS, 4),
        ("long w / 1:1 off:14 / 9:1 3:14", "sheshbesh", Outcome.MARS, 2),
    ],
)
def test_long_results(position: str, rules: str | None, outcome: Outcome, points: int) -> None:
    game = _finish(position, rules)
    assert game.result is not None
    assert (game.result.winner, game.result.outcome, game.result.points) == (
        Side.WHITE,
        outcome,
        points,
    )
    with pytest.raises(GameOverError):
        game.roll(random.Random(0))


@pytest.mark.parametrize(
    ("black", "outcome"),
    [
        ("6:10 off:5", Outcome.OIN),
        ("6:15", Outcome.MARS),
        ("bar:1 6:14", Outcome.KOKS),
        ("20:1 6:14", Outcome.KOKS),
    ],
)
def test_short_results(black: str, outcome: Outcome) -> None:
    position = Position.from_text(f"short w / off:15 / {black}")
    result = score("short", resolve_rules("short", None), position, Side.WHITE)
    assert result.outcome is outcome
    assert result.points == {Outcome.OIN: 1, Outcome.MARS: 2, Outcome.KOKS: 3}[outcome]


@pytest.mark.parametrize(("rules", "points"), [(None, 2), ("sheshbesh", 4)])
def test_resign_and_timeout_score_as_the_rule_set_says(rules: str | None, points: int) -> None:
    game = Game.start("long", FixedDice([5, 1, 6, 5]), rules=rules)
    resigned = game.resign(Side.WHITE)
    assert resigned.result is not None
    assert (resigned.result.winner, resigned.result.outcome) == (Side.BLACK, Outcome.RESIGN)
    assert resigned.result.points == points
    timed_out = game.timeout()
    assert timed_out.result is not None and timed_out.result.winner is Side.BLACK
    assert timed_out.result.points == points
    with pytest.raises(GameOverError):
        timed_out.resign(Side.BLACK)
