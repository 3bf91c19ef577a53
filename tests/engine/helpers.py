"""Small helpers for writing rule tests in the engine's notation."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine import Dice, Position, Side, legal_turns, remainder_turns
from bot.engine.position import _side_text

Rules = str | Mapping[str, bool] | None


def results(
    position: str, dice: tuple[int, ...], *, first: bool = False, rules: Rules = None
) -> set[str]:
    """The mover's checkers after each legal turn, as notation (``"24:13 18:2"``)."""
    start = Position.from_text(position)
    turns = legal_turns(start, Dice(*dice), first_turn=first, rules=rules)
    return {_side_text(t.position.checkers(start.turn)) for t in turns}


def turns_left(
    position: str, dice: tuple[int, ...], *, first: bool = False, rules: Rules = None
) -> dict[str, tuple[int, ...]]:
    """Each legal turn's move text and the moves it leaves to the opponent (gul-bara)."""
    start = Position.from_text(position)
    turns = legal_turns(start, Dice(*dice), first_turn=first, rules=rules)
    return {str(t): t.remainder for t in turns}


def remainder_results(position: str, remainder: tuple[int, ...]) -> set[str]:
    """The mover's checkers after each legal turn that plays a gul-bara remainder."""
    start = Position.from_text(position)
    turns = remainder_turns(start, remainder)
    return {_side_text(t.position.checkers(start.turn)) for t in turns}


def opponent_results(position: str, dice: tuple[int, ...]) -> set[str]:
    """The opponent's checkers after each legal turn (hits change them in short nardy)."""
    start = Position.from_text(position)
    return {
        _side_text(t.position.checkers(start.turn.other)) for t in legal_turns(start, Dice(*dice))
    }


def owns(side_text: str, points: range) -> bool:
    """Whether ``side_text`` has a checker on every point of ``points``."""
    held = {int(item.split(":")[0]) for item in side_text.split() if item[0].isdigit()}
    return all(p in held for p in points)


WHITE, BLACK = Side.WHITE, Side.BLACK
