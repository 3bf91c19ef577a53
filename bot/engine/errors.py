"""The engine's one error hierarchy: every error it raises is a :exc:`NardyError`."""

from __future__ import annotations


class NardyError(Exception):
    """Base class of every error the engine raises."""


class InvalidPositionError(NardyError, ValueError):
    """Raised for a position that cannot exist: wrong checker count, both colours on one point,
    a point outside 0..25, an unknown variant, or text that is not the engine's notation."""


class InvalidDiceError(NardyError, ValueError):
    """Raised for dice outside 1..6."""


class IllegalTurnError(NardyError, ValueError):
    """Raised when a step or a turn is not legal in the position for the dice."""


class GameOverError(NardyError, ValueError):
    """Raised when an action needs a game in progress but the game has ended."""
