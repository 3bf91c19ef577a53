"""Positions: notation, validation with clear messages, numbering between the sides."""

from __future__ import annotations

import pytest

from bot.engine import (
    Dice,
    InvalidDiceError,
    InvalidPositionError,
    Position,
    Side,
    opponent_point,
    starting_position,
)


def test_starting_positions() -> None:
    assert starting_position("long").to_text() == "long w / 24:15 / 24:15"
    assert starting_position("short").to_text() == "short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5"


@pytest.mark.parametrize(
    "text",
    [
        "long w / 24:14 13:1 / 24:15",
        "short b / bar:1 13:5 8:3 6:5 2:1 / 22:2 13:5 8:3 6:5",
        "long b / off:15 / 6:3 1:2 off:10",
    ],
)
def test_text_round_trips(text: str) -> None:
    position = Position.from_text(text)
    assert position.to_text() == text
    assert repr(position) == f"Position.from_text({text!r})"


@pytest.mark.parametrize(
    ("variant", "point", "other"),
    [
        ("long", 24, 12),
        ("long", 12, 24),
        ("long", 13, 1),
        ("long", 1, 13),
        ("short", 24, 1),
        ("short", 6, 19),
        ("long", 0, 0),
        ("short", 25, 25),
    ],
)
def test_opponent_numbering(variant: str, point: int, other: int) -> None:
    assert opponent_point(variant, point) == other
    assert opponent_point(variant, other) == point


def test_pip_count_and_owner() -> None:
    position = Position.from_text("long w / 24:14 13:1 / 24:15")
    assert position.pip_count(Side.WHITE) == 24 * 14 + 13
    assert position.owner(Side.WHITE, 12) == (Side.BLACK, 15)
    assert position.owner(Side.WHITE, 13) == (Side.WHITE, 1)
    assert position.owner(Side.WHITE, 5) == (None, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("long w / 24:14 / 24:15", "white has 14 checkers, not 15"),
        ("long w / 24:15 / 24:16", "black has 16 checkers"),
        ("long w / 12:1 24:14 / 24:15", "holds checkers of both colours"),
        ("short w / 1:1 24:14 / 24:15", "holds checkers of both colours"),
        ("long w / 26:1 24:14 / 24:15", "outside 1..24"),
        ("long w / bar:1 24:14 / 24:15", "long nardy has no bar"),
        ("chess w / 24:15 / 24:15", "unknown variant 'chess'"),
        ("long x / 24:15 / 24:15", "side to move is 'w' or 'b'"),
        ("long w / 24:15", "a position reads"),
        ("long w / 24-15 / 24:15", "is not 'point:count'"),
        ("long w / 24:10 24:5 / 24:15", "listed twice"),
    ],
)
def test_invalid_positions_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_text(text)


@pytest.mark.parametrize("values", [(0, 3), (7, 1), (3, -1)])
def test_dice_out_of_range(values: tuple[int, int]) -> None:
    with pytest.raises(InvalidDiceError, match="a die shows 1..6"):
        Dice(*values)


def test_dice_text_and_moves() -> None:
    assert Dice.from_text("5-2") == Dice(5, 2)
    assert Dice(4, 4).moves == (4, 4, 4, 4)
    assert (Dice(2, 5).high, Dice(2, 5).low) == (5, 2)
    with pytest.raises(InvalidDiceError):
        Dice.from_text("52")
