"""The dice modes of the short variants (rules.md "Dice modes"): three dice, all played, a
triple gives six moves, the largest dice when not all can be played; anti three dice, where the
opponent strikes one of three and the two left are an ordinary roll."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    CubeError,
    Dice,
    DiceMode,
    Game,
    IllegalTurnError,
    InvalidDiceError,
    Outcome,
    Position,
    Side,
    legal_turns,
    resolve_rules,
)

from .helpers import results
from .test_game import FixedDice

THREE = {"three_dice": True}
# black holds white's 2 and 1 (black's 23 and 24): white's runner cannot stop there
BLOCKS_2_AND_1 = "24:2 23:2 6:11"


@pytest.mark.parametrize(
    ("white", "black", "dice", "expected"),
    [
        # a triple gives six moves: 12/10/8/6/4/2/off
        ("12:1 off:14", "24:2 6:13", (2, 2, 2), {"off:15"}),
        # ... played as far as they go: 2 is closed after 12/10/8/6/4
        ("12:1 off:14", BLOCKS_2_AND_1, (2, 2, 2), {"4:1 off:14"}),
        # all three dice, each one move: 6-5-1 from 13 would end on 1 (closed), so two dice
        # are played; 6 and 1 (to 6), not 5 and 1 (to 7): the largest dice that can be
        ("13:1 off:14", BLOCKS_2_AND_1, (6, 5, 1), {"6:1 off:14"}),
        # a pair among three dice is not special: 3-3-1 is three moves, 13/12/9/6
        ("13:1 off:14", BLOCKS_2_AND_1, (3, 3, 1), {"6:1 off:14"}),
        # all three played whenever some sequence plays them: 4-2-1 from 13 ends on 6
        ("13:1 off:14", BLOCKS_2_AND_1, (4, 2, 1), {"6:1 off:14"}),
    ],
)
def test_three_dice(white: str, black: str, dice: tuple[int, int, int], expected: set[str]) -> None:
    for variant in ("short", "abkhaz"):
        assert results(f"{variant} w / {white} / {black}", dice, rules=THREE) == expected


def test_the_number_of_dice_follows_the_rule_set() -> None:
    start = Position.from_text("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5")
    with pytest.raises(InvalidDiceError, match="three_dice"):
        legal_turns(start, Dice(6, 5), rules=THREE)
    with pytest.raises(InvalidDiceError, match="two dice"):
        legal_turns(start, Dice(6, 5, 1))
    long_start = Position.from_text("long w / 24:15 / 24:15")
    with pytest.raises(InvalidDiceError, match="two dice"):
        legal_turns(long_start, Dice(6, 5, 1))
    turns = legal_turns(start, Dice(6, 5, 1), rules=THREE)
    assert turns and all(len(t.played) == 3 for t in turns)


def test_a_three_dice_game_rolls_three_and_the_starter_adds_a_third_die() -> None:
    # opening 6 (white) against 2 (black), then white's third die 4
    game = Game.start("abkhaz", FixedDice([6, 2, 4, 3, 3, 5]), dice_mode="three")
    assert game.dice_mode is DiceMode.THREE and game.rules.three_dice
    assert game.turn is Side.WHITE and game.dice == Dice(6, 2, 4)
    game = game.play(game.legal_turns()[0])
    game = game.roll(FixedDice([3, 3, 5]))
    assert game.dice == Dice(3, 3, 5) and game.moves is not None
    assert game.moves.values == (3, 3, 5)


def test_a_three_dice_game_read_back_by_its_rule_set_name_plays_three_dice() -> None:
    start = Game.start("short", random.Random(4), dice_mode="three")
    stored = Game(
        "short",
        resolve_rules("short", start.rules.name),  # "standard", without the switch
        start.position,
        start.dice,
        dice_mode=DiceMode.THREE,
    )
    assert stored.rules == start.rules and stored.legal_turns() == start.legal_turns()


def test_anti_three_the_opponent_strikes_a_die() -> None:
    # opening: white 5, black 3: white plays 5-3 at once, no strike on the opening roll
    game = Game.start("short", FixedDice([5, 3]), dice_mode="anti_three")
    assert game.dice == Dice(5, 3) and not game.strike_pending and game.to_act is Side.WHITE
    game = game.play(game.legal_turns()[0])
    game = game.roll(FixedDice([6, 6, 1]))  # black rolls three dice
    assert game.strike_pending and game.turn is Side.BLACK
    assert game.to_act is Side.WHITE  # white must strike one of them
    assert game.moves is None
    with pytest.raises(IllegalTurnError, match="strike"):
        game.legal_turns()
    with pytest.raises(IllegalTurnError, match="strike"):
        game.turn_input()
    with pytest.raises(InvalidDiceError):
        game.strike(4)
    struck = game.strike(6)
    assert struck.dice == Dice(6, 1) and struck.struck == 6
    assert struck.to_act is Side.BLACK and not struck.strike_pending
    assert struck.moves is not None and struck.moves.values == (6, 1)
    after = struck.play(struck.legal_turns()[0])
    assert after.turn is Side.WHITE and after.struck is None and after.dice is None
    # a double left after the strike gives four moves
    double = game.strike(1)
    assert double.moves is not None and double.moves.values == (6, 6, 6, 6)


def test_a_timeout_while_a_strike_is_pending_is_lost_by_the_striker() -> None:
    game = Game.start("abkhaz", FixedDice([5, 3]), dice_mode="anti_three", cube=True)
    game = game.play(game.legal_turns()[0]).roll(FixedDice([6, 4, 1]))
    assert not game.can_double
    with pytest.raises(CubeError):
        game.double()
    timed_out = game.timeout()
    assert timed_out.result is not None
    assert timed_out.result.winner is Side.BLACK and timed_out.result.outcome is Outcome.TIMEOUT


def test_dice_modes_belong_to_the_short_variants() -> None:
    with pytest.raises(InvalidDiceError, match="two dice"):
        Game.start("long", random.Random(1), dice_mode="three")
    with pytest.raises(ValueError):
        Game.start("short", random.Random(1), dice_mode="four")
