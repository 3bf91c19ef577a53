"""The clock of a test: the time the services read (seconds since the epoch), moved by the test."""

from __future__ import annotations


class Clock:
    """Called, answers :attr:`now`, which stands still until the test moves it
    (``clock.now += 60``); hand it to what takes a ``clock: Callable[[], float]``."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
