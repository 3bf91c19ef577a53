"""Token buckets: how many of something a key (a user, a group, a chat) may have now. The
pace of messages (:mod:`bot.outbox.pace`), the allowance of messages on demand and of hints
(:mod:`.actions`) are made of them."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

ALLOWANCES_KEPT: Final = 10_000
"""Users (or groups) whose allowance :class:`Allowance` keeps (chats whose pace
:class:`~bot.outbox.pace.RateLimiter` keeps) before it forgets those whose allowance is whole
again (as if never used)."""


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``tokens`` of ``capacity`` at ``updated``, refilled at ``per_second``."""

    capacity: float
    per_second: float
    tokens: float
    updated: float

    def refill(self, now: float) -> Bucket:
        """The bucket with what flowed in since it was last looked at (never over its
        capacity)."""
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.per_second)
        self.updated = now
        return self


@dataclass
class Allowance:
    """A token bucket of (burst, per second) for each key (a user, a group): how many of
    something each may have now. A refusal takes nothing, so asking again and again costs a
    key none of its allowance."""

    rate: tuple[float, float]
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[int, Bucket] = field(default_factory=dict)

    def _bucket(self, key: int) -> Bucket:
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= ALLOWANCES_KEPT:  # forget the whole ones
                self._buckets = {
                    k: b for k, b in self._buckets.items() if b.refill(now).tokens < b.capacity
                }
            burst, per_second = self.rate
            bucket = self._buckets[key] = Bucket(burst, per_second, burst, now)
        return bucket.refill(now)

    def wait(self, key: int) -> float:
        """Seconds until ``key`` has one left (0: now)."""
        bucket = self._bucket(key)
        return max(0.0, (1 - bucket.tokens) / bucket.per_second)

    def take(self, key: int) -> None:
        """Takes one of ``key``'s (after :meth:`wait` said 0)."""
        self._bucket(key).tokens -= 1

    def give_back(self, key: int) -> None:
        """Returns what :meth:`take` took, for something that did not happen after all."""
        bucket = self._bucket(key)
        bucket.tokens = min(bucket.capacity, bucket.tokens + 1)
