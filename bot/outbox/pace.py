"""The pace of messages: how many a chat and the bot as a whole may send, Telegram's limits
kept by the bot itself so that it is never told to wait (429s), for the boards, the league's
table, reminders and what users ask for.

- :class:`RateLimiter`: one process's buckets, per chat and overall (a token bucket each).
- :class:`SharedRateLimiter`: the same pace for every worker over one database (the ``pace``
  table, through :class:`~bot.services.coordination.Coordination`).
- :meth:`BoardPace.spare`: the slots that the watchers' boards may take, at most
  :data:`WATCHERS_SHARE` of the overall pace and only when free now, so that they never push a
  player's edit back.
- :class:`OnDemand`: the messages a user asks for (a replay, an analysis, a game from a
  position, a position's picture). They take spare slots too, so a running game's board always
  goes first in its chat: a board reserves its slot ahead of time and finds most of the chat's
  burst left, while an on-demand message waits until the chat's whole burst is free again. And
  each user and each group has an allowance of them (:data:`ON_DEMAND_PER_USER`,
  :data:`ON_DEMAND_PER_GROUP`), beyond which they are refused (:exc:`TooSoon`), so that a
  bystander who keeps asking for replays neither holds a group's boards back nor piles up a
  queue of messages that would leave the group no room for them.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Final, Protocol

from bot.services.allowance import ALLOWANCES_KEPT, Allowance, Bucket
from bot.services.coordination import Coordination, share_of
from bot.services.errors import GameError, TooSoon

WATCHERS_SHARE: Final = 1 / 3
"""The share of the overall pace that watchers' boards may take, every game's together; the
rest is left to the other messages, the players' boards first."""

SLOT_ROUNDING: Final = 1e-9
"""Seconds of waiting that are only the rounding of a share's fractions (a third of 30)."""

SPARE_RETRY_SECONDS: Final = 0.01
"""The least a message waiting for a spare slot waits before asking again."""

ON_DEMAND_PER_USER: Final = (3.0, 1 / 10)
"""The on-demand messages one user may ask for (burst, per second), in every chat together:
3 at once, then one every 10 s."""
ON_DEMAND_PER_GROUP: Final = (3.0, 1 / 20)
"""The on-demand messages one group may get, everyone's together: 3 at once, then one every
20 s, a sixth of Telegram's 20 a minute (the rest is the boards')."""


class Pace(Protocol):
    """When the next message to a chat may go."""

    async def wait(self, chat_id: int) -> None:
        """Returns when a message to ``chat_id`` may be sent (its slot is taken)."""


class BoardPace(Pace, Protocol):
    """A pace that spares a share of itself for messages that must yield to all others."""

    def spare(self, share: float = WATCHERS_SHARE) -> Pace:
        """A pace for messages that yield (watchers' boards): each takes a slot only when one
        is free now, within ``share`` of the overall pace and leaving the rest of its burst,
        and of the chat's, to the others (:func:`~bot.services.coordination.share_of`): it
        never takes a slot ahead of time, and the others always find most of the burst free
        (a watcher's own game in the same private chat included)."""


class _SparePace:
    """Waits until ``take`` (which takes a free slot, or says how long until one may be)
    takes one: see :meth:`BoardPace.spare`."""

    def __init__(self, take: Callable[[int], Awaitable[float]]) -> None:
        self._take = take

    async def wait(self, chat_id: int) -> None:
        while (delay := await self._take(chat_id)) > 0:
            await asyncio.sleep(max(delay, SPARE_RETRY_SECONDS))


@dataclass
class RateLimiter:
    """Token buckets of (burst, messages per second): by default about 1 message a second per
    private chat, 20 a minute per group and 30 a second overall (Telegram's published limits),
    with small bursts."""

    clock: Callable[[], float] = time.monotonic
    private: tuple[float, float] = (3, 1.0)
    group: tuple[float, float] = (3, 20 / 60)
    overall: tuple[float, float] = (30, 30.0)
    _buckets: dict[int | None, Bucket] = field(default_factory=dict)
    _spares: dict[float, Bucket] = field(default_factory=dict)  # share -> its own bucket

    def _bucket(self, chat_id: int | None) -> Bucket:
        bucket = self._buckets.get(chat_id)
        if bucket is None:
            if len(self._buckets) >= ALLOWANCES_KEPT:  # forget the full ones: a new one is full
                now = self.clock()
                self._buckets = {
                    k: b
                    for k, b in self._buckets.items()
                    if k is None or b.refill(now).tokens < b.capacity
                }
            capacity, rate = (
                self.overall if chat_id is None else self.group if chat_id < 0 else self.private
            )
            bucket = Bucket(capacity, rate, capacity, self.clock())
            self._buckets[chat_id] = bucket
        return bucket

    def delay(self, chat_id: int) -> float:
        """Takes a token for ``chat_id`` (and one overall); returns how long to wait first."""
        now = self.clock()
        wait = 0.0
        for key in (chat_id, None):
            bucket = self._bucket(key).refill(now)
            bucket.tokens -= 1
            if bucket.tokens < 0:
                wait = max(wait, -bucket.tokens / bucket.per_second)
        return wait

    async def wait(self, chat_id: int) -> None:
        """Waits for a slot of ``chat_id`` (see :meth:`delay`)."""
        await asyncio.sleep(self.delay(chat_id))

    def take_spare(self, chat_id: int, share: float = WATCHERS_SHARE) -> float:
        """Takes a token for ``chat_id``, one overall and one of the ``share``'s own bucket,
        for a message that yields to the others, only if each is there now with the part of
        the chat's and the overall bucket for the others left (see :meth:`BoardPace.spare`);
        returns 0 then, else how long until they may be (and takes nothing)."""
        now = self.clock()
        (burst, per_second), leave = share_of(self.overall, share)
        chat = self._bucket(chat_id).refill(now)
        _, leave_in_chat = share_of((chat.capacity, chat.per_second), share)
        own = self._spares.get(share)
        if own is None:
            own = self._spares[share] = Bucket(burst, per_second, burst, now)
        needs = (
            (chat, leave_in_chat + 1),
            (self._bucket(None).refill(now), leave + 1),
            (own.refill(now), 1.0),
        )
        wait = max((need - bucket.tokens) / bucket.per_second for bucket, need in needs)
        if wait > SLOT_ROUNDING:
            return wait
        for bucket, _need in needs:
            bucket.tokens -= 1
        return 0.0

    def spare(self, share: float = WATCHERS_SHARE) -> Pace:
        """See :meth:`BoardPace.spare` (and :meth:`take_spare`)."""

        async def take(chat_id: int) -> float:
            return self.take_spare(chat_id, share)

        return _SparePace(take)


class SharedRateLimiter:
    """The same limits as :class:`RateLimiter`, kept in the database, so that every worker's
    messages together keep to them."""

    def __init__(
        self,
        coordination: Coordination,
        *,
        private: tuple[float, float] = (3, 1.0),
        group: tuple[float, float] = (3, 20 / 60),
        overall: tuple[float, float] = (30, 30.0),
    ) -> None:
        self._coordination = coordination
        self._private, self._group, self._overall = private, group, overall

    async def wait(self, chat_id: int) -> None:
        rate = self._group if chat_id < 0 else self._private
        await asyncio.sleep(
            await self._coordination.reserve(chat_id, rate=rate, overall=self._overall)
        )

    def spare(self, share: float = WATCHERS_SHARE) -> Pace:
        """See :meth:`BoardPace.spare`; the share's own pace is kept in the database too, so
        every worker's watchers' boards together keep to it."""

        async def take(chat_id: int) -> float:
            rate = self._group if chat_id < 0 else self._private
            return await self._coordination.take_spare(
                chat_id, rate=rate, overall=self._overall, share=share
            )

        return _SparePace(take)


class OnDemand:
    """What users ask the bot to send, apart from the games' boards (see the module
    docstring): :attr:`pace` for their messages, :meth:`spend` for each request.

    The allowances are this process's: with several workers a user may have one from each.
    """

    def __init__(
        self,
        pace: Pace,
        *,
        per_user: tuple[float, float] = ON_DEMAND_PER_USER,
        per_group: tuple[float, float] = ON_DEMAND_PER_GROUP,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``pace``: a :meth:`BoardPace.spare` one (the watchers' boards')."""
        self.pace = pace
        """Spare slots only: a message waits until its chat's burst is free, so that the
        boards of a running game there always find slots left."""
        self._users = Allowance(per_user, clock)
        self._groups = Allowance(per_group, clock)

    @contextmanager
    def spend(self, user_id: int, chat_id: int) -> Iterator[None]:
        """Takes one request of ``user_id``'s allowance, and of ``chat_id``'s in a group, for
        the block, which sends what was asked for. A refusal (a :exc:`GameError`: not the
        user's game, not over...) raised in the block gives it back, so only what is sent
        counts.

        :raises: :exc:`TooSoon` (taking nothing, the block not run) when either allowance is
            spent, with the whole seconds until both have one again.
        """
        allowances = [(self._users, user_id)]
        if chat_id < 0:
            allowances.append((self._groups, chat_id))
        wait = max(allowance.wait(key) for allowance, key in allowances)
        if wait > 0:
            raise TooSoon(seconds=max(1, math.ceil(wait)))
        for allowance, key in allowances:
            allowance.take(key)
        try:
            yield
        except GameError:
            for allowance, key in allowances:
                allowance.give_back(key)
            raise
