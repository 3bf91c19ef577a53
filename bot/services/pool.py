"""The pool: players looking for anyone to play, paired as soon as a compatible seeker is there,
and offered the computer after a while.

Two seekers are compatible in the same pool (the private pool, scope 0, or one group's) with the
same variant, rule set, dice mode, match length, move time and stake. A seeker with exactly one
compatible opponent waiting is paired at once; with a choice, the ratings must be within
:func:`rating_window` of the longer wait, and the closest rating is preferred, then the longest
wait. A private seeker known to have blocked the bot is never paired.

Pairs are made when a seeker enters (:meth:`Pool.enter`) and among those waiting as the windows
widen (:meth:`Pool.pair_waiting`), under the scope's lock; both seekers leave the pool and their
game starts (:data:`StartGames`, the caller's) in one transaction, so nobody is paired twice or
is in a game and in the pool at once. After :data:`MAX_WAIT` a seeker leaves by itself
(:meth:`Pool.expire`).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeAlias

from sortedcontainers import SortedList

from bot.model import COMPUTER_LEVELS, Seeker, SeekerChoice, Store, Terms, VersionConflict

from .errors import AlreadyPlaying
from .locks import KeyedLocks

PRIVATE: Final = 0
"""The scope of the private pool of everyone (no chat has id 0)."""
OFFER_AFTER: Final = 60
"""Seconds of waiting before the computer is offered, unless the player chose otherwise."""

WINDOW_START: Final = 100.0
WINDOW_STEP: Final = 50.0
WINDOW_STEP_SECONDS: Final = 10.0
WINDOW_OPEN_AFTER: Final = 60.0

MAX_WAIT: Final = 15 * 60
"""Seconds a seeker stays in the pool before leaving it by itself, told that nobody came (and
offered to look again or to play the computer): a quarter of an hour, fifteen times the wait
after which any rating is accepted, so that whoever stays that long is alone with their terms;
and a wait message older than that is most likely forgotten, its player gone."""

LEVEL_BOUNDS: Final = (1300.0, 1450.0, 1600.0, 1750.0)
"""The ratings where the computer's level goes up by one: below 1300 level 1, 1300–1449
level 2, 1450–1599 level 3 (a new player's 1500), 1600–1749 level 4, 1750 on level 5."""

_ATTEMPTS: Final = 5
_PAIRING_TRIES: Final = 3
"""Pairings tried for one entrant whose found opponent turned out to be playing already."""
FULL_LOOK_SECONDS: Final = 60.0
"""How often the look reads the whole pool (see :meth:`Pool.pair_waiting`); in between it
reads only the seekers whose window widened."""
OFF_LOOP_FROM: Final = 2000
"""Seekers in one look from which their pairs are worked out on a thread, not on the event
loop (a look at 10,000 takes some milliseconds of arithmetic)."""


def rating_window(waited: float) -> float:
    """The rating difference accepted after ``waited`` seconds (the longer of two waits):
    100, 50 more every full 10 s, unbounded (``inf``) from 60 s on. Never shrinks as the wait
    grows."""
    if waited >= WINDOW_OPEN_AFTER:
        return math.inf
    return WINDOW_START + WINDOW_STEP * math.floor(max(waited, 0.0) / WINDOW_STEP_SECONDS)


def computer_level_for(rating: float) -> int:
    """The computer's level (1..5) closest to a player of ``rating``: see
    :data:`LEVEL_BOUNDS`."""
    level = COMPUTER_LEVELS[0] + sum(rating >= bound for bound in LEVEL_BOUNDS)
    assert level in COMPUTER_LEVELS
    return level


def pool_terms(terms: Terms) -> Terms:
    """What the pool keeps of ``terms``: variant, rule set, match length, dice mode, move time
    and stake, the rest the defaults."""
    return Terms(
        variant=terms.variant,
        rule_set=terms.rule_set,
        match_length=terms.match_length,
        dice_mode=terms.dice_mode,
        move_seconds=terms.move_seconds,
        stake=terms.stake,
    )


def best_match(seeker: Seeker, candidates: Sequence[Seeker], now: float) -> Seeker | None:
    """Of ``candidates`` (same pool, same terms), the one ``seeker`` is paired with: the only
    one, whatever their rating (nobody else wants this game: waiting gains nothing); of
    several, within the window of the longer wait, the closest rating, then the longest wait;
    None if none is."""
    others = [other for other in candidates if other.user_id != seeker.user_id]
    if len(others) == 1:
        return others[0]
    fitting = [
        other
        for other in others
        if abs(other.rating - seeker.rating) <= rating_window(now - min(other.since, seeker.since))
    ]
    if not fitting:
        return None
    return min(fitting, key=lambda o: (abs(o.rating - seeker.rating), o.since, o.user_id))


def waiting_pairs(seekers: Iterable[Seeker], now: float) -> list[tuple[Seeker, Seeker]]:
    """The pairs the look makes among ``seekers`` (one pool's, the longest wait first): each in
    turn, if still unpaired, with its :func:`best_match` among the unpaired with the same
    terms. In O(n log n): those of each kind of terms are kept sorted by rating, those not yet
    looked at apart from those passed over; the only other one is taken whoever it is, else the
    best match is one of the two nearest ratings of those who came after (everyone after a
    seeker waited no longer, so its window is the one of its own wait; one passed over before
    did not fit in its own window, no narrower)."""
    ordered = list(seekers)
    kinds: dict[Terms, SortedList[_Key]] = {}
    passed: dict[Terms, SortedList[_Key]] = {}
    for index, seeker in enumerate(ordered):
        key = (seeker.rating, seeker.since, seeker.user_id, index)
        kinds.setdefault(pool_terms(seeker.terms), SortedList()).add(key)
    made: list[tuple[Seeker, Seeker]] = []
    for index, seeker in enumerate(ordered):
        terms = pool_terms(seeker.terms)
        alike, before = kinds[terms], passed.setdefault(terms, SortedList())
        key = (seeker.rating, seeker.since, seeker.user_id, index)
        if key not in alike:
            continue  # paired with someone who waited longer
        alike.remove(key)
        other: _Key | None
        if len(alike) + len(before) == 1:  # the only other one: nobody else wants this game
            other, rest = (alike[0], alike) if alike else (before[0], before)
        else:
            other, rest = _nearest(alike, seeker.rating, rating_window(now - seeker.since)), alike
        if other is None:
            before.add(key)
            continue
        rest.remove(other)
        pair = (seeker, ordered[int(other[3])])
        made.append(pair if other[3] > index else pair[::-1])  # who waited longer first
    return made


_Key = tuple[float, float, float, float]
"""A seeker in :func:`waiting_pairs`: rating, since, user id and place in the look's order."""
_LOWEST: Final = (-math.inf, -math.inf, -math.inf)


def _nearest(alike: SortedList[_Key], rating: float, window: float) -> _Key | None:
    """Of ``alike`` (keys ``(rating, since, user_id, index)``), the closest rating within
    ``window`` of ``rating``, then the longest wait, then the lowest id; None if none is."""
    found: list[_Key] = []
    above = alike.bisect_left((rating, *_LOWEST))
    if above < len(alike):  # the lowest rating from ``rating`` up, its longest wait first
        found.append(alike[above])
    if above > 0:  # the highest rating below, its longest wait first
        below = alike[above - 1][0]
        found.append(alike[alike.bisect_left((below, *_LOWEST))])
    best = min(found, key=lambda key: (abs(key[0] - rating), key[1], key[2]), default=None)
    if best is None or abs(best[0] - rating) > window:
        return None
    return best


@dataclass(frozen=True, slots=True)
class PoolPairing:
    """Two seekers who are to play, both out of the pool: ``waiting`` was there first,
    ``entering`` came later (just now, when the pairing was made as they entered); ``terms``
    are the agreed ones (the stake only if both chose it)."""

    scope: int
    waiting: Seeker
    entering: Seeker
    terms: Terms

    @property
    def players(self) -> tuple[int, int]:
        return self.waiting.user_id, self.entering.user_id


StartGames: TypeAlias = Callable[[Sequence[PoolPairing]], Awaitable[set[int]]]
"""Starts the games of pairings, inside the transaction that takes their seekers out of the
pool (the pool knows nothing of games: the lobby gives it this); returns the players found
playing a game already, whose pairings start nothing."""


class Pool:
    """Enter, leave, and the computer's offer to those who waited long enough."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        whole_every: float = FULL_LOOK_SECONDS,
    ) -> None:
        """``whole_every``: seconds between the looks at the whole pool."""
        self._store = store
        self._clock = clock
        self._whole_every = whole_every
        self._scopes: KeyedLocks[int] = KeyedLocks()
        self._looked: float | None = None
        """When the last look was (None: none yet, or the next must read the whole pool)."""
        self._whole_at = -math.inf

    async def enter(
        self,
        user_id: int,
        scope: int,
        terms: Terms,
        rating: float,
        now: float | None = None,
        *,
        offer_after: int = OFFER_AFTER,
        message_id: int | None = None,
        start: StartGames | None = None,
    ) -> PoolPairing | None:
        """Puts the player in ``scope``'s pool (or updates their entry: never two), then pairs
        them at once with the best compatible seeker, if any: both leave the pool in one
        transaction, the one in which ``start`` starts their game (the entry is committed
        before it, so whatever becomes of the pairing the player is waiting or playing).
        Remembers the terms as the player's last choice. ``message_id``: the message that
        shows their wait, kept with the entry (see :attr:`Seeker.message_id`).

        When ``start`` finds the one who waited playing already, they stay out of the pool and
        the entrant is paired with the next best, or waits.

        :raises: :exc:`~.errors.AlreadyPlaying` when ``start`` finds the entrant playing
            already: they leave the pool again, the one who waited waits on.
        """
        now = self._clock() if now is None else now
        terms = pool_terms(terms)
        wanted = Seeker(user_id, scope, terms, rating, now, offer_after, message_id=message_id)
        pool = self._store.pool
        async with self._scopes.hold(scope), self._store.exclusive("pool", scope):
            # the entry first, on its own: a crash after it leaves the player waiting, as the
            # message that shows their wait says
            async with self._store.transaction():
                await pool.remember(user_id, SeekerChoice(terms, offer_after), now)
                seeker = await pool.put(wanted)
            for attempt in range(_ATTEMPTS):
                try:
                    async with self._store.transaction(durable=start is not None):
                        return await self._pair(seeker, now, start)
                except VersionConflict:
                    if attempt == _ATTEMPTS - 1:
                        raise
                except AlreadyPlaying:
                    await pool.remove(seeker)
                    raise
                # a row changed by another worker since it was read (its player left, or
                # entered another pool): the whole pairing was rolled back, tried again
                found = await pool.get(user_id)
                if found is None or found.scope != scope:
                    return None  # they left meanwhile (✖ Cancel on another worker)
                seeker = found
        raise AssertionError("unreachable")

    async def _pair(
        self, seeker: Seeker, now: float, start: StartGames | None
    ) -> PoolPairing | None:
        """Inside the pairing's transaction: pairs ``seeker``, there already, with their best
        match; both leave the pool, and ``start`` starts their game."""
        pool = self._store.pool
        for _try in range(_PAIRING_TRIES):
            other = best_match(seeker, await pool.candidates(seeker), now)
            if other is None:
                return None
            if not (await pool.remove(other) and await pool.remove(seeker)):
                raise VersionConflict()
            pairing = _pairing(other, seeker)
            if start is None:
                return pairing
            busy = await start([pairing])
            if not busy:
                return pairing
            if seeker.user_id in busy:
                raise AlreadyPlaying()
            # the one who waited plays already: they stay out, the entrant tries the next
            seeker = await pool.put(replace(seeker, version=0))
            self._looked = None  # back in the pool: the next look reads the whole pool
        return None  # opponents found were all busy: waiting

    async def leave(self, user_id: int) -> bool:
        """Takes the player out of the pool (they cancelled, or blocked the bot); False if they
        were not in it (already paired, or never entered)."""
        return await self._store.pool.leave(user_id)

    async def leave_private(self, user_id: int) -> bool:
        """Takes the player out of the private pool (they blocked the bot: their games there
        would be played in a chat that refuses it); a group's pool keeps them, its games are
        played in the group. False if they were not in the private pool."""
        seeker = await self._store.pool.get(user_id)
        return (
            seeker is not None and seeker.scope == PRIVATE and await self._store.pool.remove(seeker)
        )

    async def seeker(self, user_id: int) -> Seeker | None:
        """The player's entry, if they are in the pool."""
        return await self._store.pool.get(user_id)

    async def last_choice(self, user_id: int) -> SeekerChoice | None:
        """What the player last looked for (to offer it again), if ever."""
        return await self._store.pool.choice(user_id)

    async def pair_waiting(
        self, now: float | None = None, *, start: StartGames | None = None
    ) -> list[PoolPairing]:
        """Pairs the seekers already waiting whose windows have widened enough, by the rules
        of :meth:`enter`: in each pool the one who waited longest first, with their best match
        (:func:`best_match`), then the next one left, and so on. Each pool is held as
        :meth:`enter` holds it, and its pairs are made (both seekers removed at the versions
        read) and their games started (``start``) in one transaction: a seeker paired by
        another worker meanwhile, or who left or entered again, rolls it back, and it is tried
        again. A player ``start`` finds playing already stays out of the pool, the other goes
        back to it as they were (their wait's start kept), to be paired by a later sweep or
        entrant. Returns the pairings whose games started.

        A pair can only become possible when the window of the one who waited longer widens
        (someone entering is paired at once if they can be, and after a look no two left can
        be), so between looks at the whole pool (the first, after a pairing fell through, then
        every :data:`FULL_LOOK_SECONDS`) a look reads only the seekers whose window widened
        since the last look, and those within their reach: as many rows as windows widened
        and could pair, not the whole pool, and those who entered since it, paired as an
        entrant is (two who entered at the same moment on two workers did not see each
        other). Two left alone with their terms when a third, who kept them apart, leaves
        are paired by the next whole look, or by a window that reaches first."""
        now = self._clock() if now is None else now
        last, self._looked = self._looked, None  # set again once this look is done
        if last is None or now - self._whole_at >= self._whole_every or now < last:
            self._whole_at = now
            made = await self._pair_whole(now, start)
        else:
            made = await self._pair_widened(last, now, start)
        self._looked = now
        return made

    async def _pair_widened(
        self, last: float, now: float, start: StartGames | None
    ) -> list[PoolPairing]:
        """The look between whole ones: the seekers who entered or whose window widened after
        ``last``, up to ``now``, the longest wait first, each with its best match
        (:meth:`_pair_each`)."""
        steps = range(0, math.ceil(WINDOW_OPEN_AFTER / WINDOW_STEP_SECONDS) + 1)
        spans = [(last - k * WINDOW_STEP_SECONDS, now - k * WINDOW_STEP_SECONDS) for k in steps]
        widened = await self._store.pool.entered_within(spans)
        pairings: list[PoolPairing] = []
        for scope, seekers in itertools.groupby(widened, key=lambda s: s.scope):
            ordered = list(seekers)

            async def pair(tries: int, scope: int = scope) -> list[PoolPairing]:
                nonlocal ordered
                if tries:  # read again: a seeker changed meanwhile
                    ordered = [
                        fresh
                        for seeker in ordered
                        if (fresh := await self._store.pool.get(seeker.user_id)) is not None
                        and fresh.scope == scope
                    ]
                return await self._pair_each(ordered, last, now)

            pairings += await self._held(scope, pair, start)
        return pairings

    async def _held(
        self,
        scope: int,
        pair: Callable[[int], Awaitable[list[PoolPairing]]],
        start: StartGames | None,
    ) -> list[PoolPairing]:
        """``pair`` (given how many tries failed before) and ``start`` of its games in one
        transaction, ``scope`` held as :meth:`enter` holds it, tried again while a seeker
        changed meanwhile."""
        async with self._scopes.hold(scope), self._store.exclusive("pool", scope):
            for tries in range(_ATTEMPTS):
                try:
                    async with self._store.transaction(durable=start is not None):
                        made = await pair(tries)
                        if start is not None and made:
                            made = await self._start(made, start)
                        return made
                except VersionConflict:
                    if tries == _ATTEMPTS - 1:
                        raise
        raise AssertionError("unreachable")

    async def _start(self, made: list[PoolPairing], start: StartGames) -> list[PoolPairing]:
        """Starts the games of ``made`` (inside the transaction that made them); a pairing
        with a player found playing puts the other back. Returns those started."""
        busy = await start(made)
        started = []
        for pairing in made:
            if not busy.intersection(pairing.players):
                started.append(pairing)
                continue
            for seeker in (pairing.waiting, pairing.entering):
                if seeker.user_id not in busy:
                    await self._store.pool.put(replace(seeker, version=0))
                    self._looked = None  # back: the next look reads the whole pool
        return started

    async def _pair_each(self, widened: list[Seeker], last: float, now: float) -> list[PoolPairing]:
        """Pairs ``widened`` (the longest wait first): each with its best match of those who
        waited less within its window, or, for one who entered after ``last``, of everyone
        with its terms, as :meth:`enter` would have (an entry made at the same moment on
        another worker was not seen there)."""
        pool, made, paired = self._store.pool, [], set[int]()
        reach = await pool.within_reach(
            [(seeker, rating_window(now - seeker.since)) for seeker in widened]
        )
        for seeker in widened:
            if seeker.user_id in paired:
                continue
            found = await pool.candidates(seeker) if seeker.since > last else None
            if found is None:
                found = reach.get(seeker.user_id, [])
            unpaired = [o for o in found if o.user_id not in paired]
            other = best_match(seeker, unpaired, now)
            if other is None:
                continue
            if not (await pool.remove(seeker) and await pool.remove(other)):
                raise VersionConflict()
            paired.update((seeker.user_id, other.user_id))
            first, then = sorted((seeker, other), key=lambda s: (s.since, s.user_id))
            made.append(_pairing(first, then))
        return made

    async def _pair_whole(self, now: float, start: StartGames | None) -> list[PoolPairing]:
        """The look at the whole pool."""
        everyone = await self._store.pool.waiting()
        scopes = [
            scope
            for scope, seekers in itertools.groupby(everyone, key=lambda s: s.scope)
            if await _pairs(list(seekers), now)  # worked out again on a fresh read below
        ]
        pairings: list[PoolPairing] = []
        for scope in scopes:
            pair = functools.partial(self._pair_scope, scope, now)
            pairings += await self._held(scope, pair, start)
        return pairings

    async def _pair_scope(self, scope: int, now: float, tries: int) -> list[PoolPairing]:
        """The pairs of ``scope``'s whole pool, read anew whatever ``tries`` failed before."""
        pool = self._store.pool
        made = []
        for seeker, other in await _pairs(await pool.waiting(scope), now):
            if not (await pool.remove(seeker) and await pool.remove(other)):
                raise VersionConflict()
            made.append(_pairing(seeker, other))
        return made

    async def expire(self, now: float | None = None) -> list[Seeker]:
        """Takes out of the pool the seekers who have waited :data:`MAX_WAIT`; each returned
        once in every worker (the one that removed it at the version read), for the caller to
        tell them."""
        now = self._clock() if now is None else now
        pool = self._store.pool
        return [seeker for seeker in await pool.waited(now - MAX_WAIT) if await pool.remove(seeker)]

    async def sweep(self, now: float | None = None) -> list[Seeker]:
        """The seekers who have waited their ``offer_after`` and are due the computer's offer
        (at :func:`computer_level_for` their rating), each returned once in every worker: the
        first sweep to mark one gets it. They stay in the pool."""
        now = self._clock() if now is None else now
        pool = self._store.pool
        return [
            replace(seeker, offered=True)
            for seeker in await pool.due(now)
            if await pool.mark_offered(seeker)
        ]


def _pairing(waiting: Seeker, entering: Seeker) -> PoolPairing:
    """The pairing of two compatible seekers, ``waiting`` the one there first."""
    stake = waiting.terms.stake if waiting.terms.stake == entering.terms.stake else 0
    return PoolPairing(waiting.scope, waiting, entering, replace(entering.terms, stake=stake))


async def _pairs(seekers: list[Seeker], now: float) -> list[tuple[Seeker, Seeker]]:
    """:func:`waiting_pairs`, on a thread when there are many."""
    if len(seekers) < OFF_LOOP_FROM:
        return waiting_pairs(seekers, now)
    return await asyncio.to_thread(waiting_pairs, seekers, now)
