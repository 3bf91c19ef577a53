"""The daily position: one position a day per variant, answered once by each player, with
streaks, and posted each morning in the groups that asked for it. No Telegram here.

**Choosing.** The day is the UTC date. A day's position of a variant is chosen the first time it
is asked for, then kept (table ``daily_positions``): the first position of the latest
:data:`CANDIDATE_GAMES` finished games whose best turn beats the second best by a blunder's
margin (:mod:`bot.ai.daily`, in the :class:`Brain`'s workers), none chosen in the last
:data:`REPEAT_DAYS` days; else one from the computer's self-play, seeded by the day.

**Answering.** One answer per player and position, during its day only, judged against the
kept ranking of every legal turn. A right answer extends the player's streak (days in a row with
one); nothing of the verdicts is shown before the day ends (00:00 UTC,
:meth:`DailyPositions.to_reveal`). Only accounts with :data:`RATED_GAMES` rated games make
streaks and ``/top daily``.

**Groups.** A group's admins turn the morning post on with a time zone (UTC by default); it is
due at :data:`POST_HOUR` there, claimed once by moving the group's next post on in the same
transaction.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import logging
import time
import zoneinfo
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Final

from bot.ai import daily as ai_daily
from bot.engine import Game, Played, Turn, TurnInput
from bot.model import (
    DailyAnswer,
    DailyGroup,
    DailyPosition,
    DailyTally,
    RankedTurn,
    Store,
    StoredGame,
    Streak,
    User,
)

from .analysis import replay
from .computer import Brain
from .errors import (
    AlreadyAnswered,
    DailyOver,
    GameError,
    NoDailyPosition,
    StaleAction,
    UnknownTimeZone,
)
from .locks import KeyedLocks
from .snapshots import WHOLE_TURN_BUTTONS

logger = logging.getLogger(__name__)

DAILY_VARIANTS: Final = ("long", "short")
"""The variants with a daily position; the first is the one shown when none is named."""
CANDIDATE_GAMES: Final = 20
"""Finished games replayed for candidates, the latest first."""
REPEAT_DAYS: Final = 365
"""A position is not chosen again within this many days."""
POST_HOUR: Final = 9
"""A group's morning post is due at this hour of its time zone."""
DEFAULT_TIME_ZONE: Final = "UTC"
TOP_STREAKS: Final = 10
BEST_LOSS: Final = 0.005
"""A loss below this counts as none (equities are rounded in what players see)."""
RATED_GAMES: Final = 1
"""Rated games an account must have played for its right answers to make a streak, and for
``/top daily`` to list it."""


class NoCandidate(Exception):
    """Neither the finished games nor the computer's self-play gave a position (unexpected)."""


@dataclass(frozen=True, slots=True)
class AnswerVerdict:
    """What a player sees after answering, or once the position's day is over: the
    position, their answer (None: they did not answer), how everyone answered, their streak;
    ``revealed`` once the day is over (the best turn, the verdict and the share of right
    answers are shown then only)."""

    position: DailyPosition
    answer: DailyAnswer | None
    tally: DailyTally
    streak: Streak | None
    revealed: bool = False
    counted: bool = True
    """Whether the player's right answers make a streak (:data:`RATED_GAMES`)."""

    @property
    def best(self) -> RankedTurn:
        return self.position.best


@dataclass(frozen=True, slots=True)
class Tapped:
    """An answer being tapped: the input so far, and the ways to finish it when they are few
    enough for one button each (:data:`~.games.WHOLE_TURN_BUTTONS`), else None."""

    input: TurnInput
    finishes: tuple[tuple[Played, ...], ...] | None


STEP_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"
FINISH_LETTERS: Final = STEP_LETTERS.upper()


def tap_letter(index: int, *, finish: bool) -> str:
    """The letter of the ``index``-th step (or way to finish) in a button's taps."""
    return (FINISH_LETTERS if finish else STEP_LETTERS)[index]


def worked_out(current: TurnInput) -> Tapped:
    """What the keyboard needs of ``current``, searched now (on a thread)."""
    finishes = current.finishes(WHOLE_TURN_BUTTONS)
    if finishes is None:
        _ = current.options
    _ = current.is_complete
    return Tapped(current, finishes)


def replay_taps(game: Game, taps: str) -> Tapped:
    """The answer that the letters ``taps`` build on ``game``'s roll (see
    :class:`bot.callbacks.DailyAction`): each step played with a remainder that is forced, as
    a game's board plays it.

    :raises: :exc:`StaleAction` for letters that name no step or way offered then.
    """
    tapped = worked_out(game.turn_input())
    for letter in taps:
        current = tapped.input
        if letter in STEP_LETTERS:
            index = STEP_LETTERS.index(letter)
            if tapped.finishes is not None or index >= len(current.options):
                raise StaleAction()
            current = current.play(current.options[index]).with_forced()
        else:
            index = FINISH_LETTERS.index(letter)
            if tapped.finishes is None or index >= len(tapped.finishes):
                raise StaleAction()
            current = current.finish(tapped.finishes[index])
        tapped = worked_out(current)
    return tapped


def judged(best: RankedTurn, answer: RankedTurn) -> tuple[float, bool]:
    """What ``answer`` gives away against ``best`` (never below 0), and whether it is right:
    the best turn's position, or a turn within :data:`BEST_LOSS` of it.

    >>> judged(RankedTurn("13/7 7/2", "b", 0.5), RankedTurn("24/18 13/8", "a", 0.25))
    (0.25, False)
    """
    loss = max(0.0, best.equity - answer.equity)
    return loss, answer.reaches == best.reaches or loss < BEST_LOSS


def day_of(now: float) -> str:
    """The UTC date of Unix time ``now``, ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date().isoformat()


def shift_day(day: str, days: int) -> str:
    """``day`` moved by ``days`` days.

    >>> shift_day("2026-03-01", -1)
    '2026-02-28'
    """
    return (dt.date.fromisoformat(day) + dt.timedelta(days=days)).isoformat()


def time_zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone named ``name``, an IANA name in any case (``Europe/Moscow``,
    ``europe/moscow``, ``utc``).

    :raises: :exc:`UnknownTimeZone` for a name that is none.
    """
    found = _zone_names().get(name.lower())
    if found is None:
        raise UnknownTimeZone(name=name)
    return zoneinfo.ZoneInfo(found)


@functools.cache
def _zone_names() -> dict[str, str]:
    """Every IANA time zone's name by its lower-case form (read once: a few hundred)."""
    return {zone.lower(): zone for zone in zoneinfo.available_timezones()}


def next_morning(now: float, zone: str, hour: int = POST_HOUR) -> float:
    """The first ``hour`` o'clock in time zone ``zone`` after Unix time ``now``.

    >>> at = dt.datetime(2026, 12, 3, 6, 0, tzinfo=dt.UTC).timestamp()   # 09:00 in Moscow
    >>> dt.datetime.fromtimestamp(next_morning(at - 1, "Europe/Moscow"), dt.UTC).isoformat()
    '2026-12-03T06:00:00+00:00'
    >>> dt.datetime.fromtimestamp(next_morning(at, "Europe/Moscow"), dt.UTC).isoformat()
    '2026-12-04T06:00:00+00:00'
    """
    tz = time_zone(zone)
    local = dt.datetime.fromtimestamp(now, tz)
    morning = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if morning.timestamp() <= now:
        morning = (local + dt.timedelta(days=1)).replace(
            hour=hour, minute=0, second=0, microsecond=0
        )
    return morning.timestamp()


def next_streak(old: Streak | None, user_id: int, day: str) -> Streak:
    """The streak after a right answer to a position of ``day``: one more when the last right
    answer was the day before, unchanged on the same day (or an older position answered
    late), else a new streak of one.

    >>> next_streak(Streak(1, 3, 5, "2026-12-02"), 1, "2026-12-03")
    Streak(user_id=1, current=4, best=5, last_day='2026-12-03', best_before=5)
    >>> next_streak(Streak(1, 3, 5, "2026-12-01"), 1, "2026-12-03")
    Streak(user_id=1, current=1, best=5, last_day='2026-12-03', best_before=5)
    """
    if old is None:
        return Streak(user_id, 1, 1, day)
    if day <= old.last_day:
        return old
    current = old.current + 1 if shift_day(old.last_day, 1) == day else 1
    return Streak(user_id, current, max(old.best, current), day, old.best)


def alive(streak: Streak | None, today: str) -> int:
    """A streak's length as players see it on ``today``: as it stood when the day began (a
    right answer of today shows when the day ends), 0 once a whole day has passed without a
    right answer.

    >>> [alive(Streak(1, 3, 3, "2026-12-03", 2), day) for day in ("2026-12-03", "2026-12-04")]
    [2, 3]
    """
    if streak is None or streak.last_day < shift_day(today, -1):
        return 0
    return streak.current - 1 if streak.last_day >= today else streak.current


def best_shown(streak: Streak | None, today: str) -> int:
    """A streak's best as players see it on ``today`` (see :func:`alive`)."""
    if streak is None:
        return 0
    return streak.best_before if streak.last_day >= today else streak.best


def ranking_of(found: ai_daily.DailyCandidate) -> tuple[RankedTurn, ...]:
    """The stored ranking of a position found by the computer."""
    return tuple(
        RankedTurn(str(turn), turn.position.to_text(), equity)
        for turn, equity in zip(found.ranked.turns, found.ranked.equities, strict=True)
    )


def _positions_of(games: list[StoredGame]) -> tuple[list[Game], list[int]]:
    positions: list[Game] = []
    sources: list[int] = []
    for stored in games:
        try:
            played = replay(stored)
        except GameError:  # a history that does not replay
            continue
        for before, _turn in reversed(played):
            positions.append(before)
            sources.append(stored.id)
    return positions, sources


class DailyPositions:
    """The daily positions, answers, streaks and group posts (see the module docstring)."""

    def __init__(
        self, store: Store, brain: Brain, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._store = store
        self._brain = brain
        self._clock = clock
        self._choosing: KeyedLocks[str] = KeyedLocks()

    def today(self) -> str:
        return day_of(self._clock())

    async def position(self, variant: str = DAILY_VARIANTS[0]) -> DailyPosition:
        """Today's position of ``variant``, chosen now if nobody asked for it yet.

        :raises: :exc:`NoDailyPosition` for a variant without daily positions.
        """
        if variant not in DAILY_VARIANTS:
            raise NoDailyPosition()
        day = self.today()
        known = await self._store.daily.position(variant, day)
        if known is not None:
            return known
        async with self._choosing.hold(f"{variant} {day}"):
            known = await self._store.daily.position(variant, day)
            if known is not None:
                return known
            return await self._choose(variant, day)

    async def position_by_id(self, position_id: int) -> DailyPosition:
        """:raises: :exc:`NoDailyPosition` if there is none by that id."""
        found = await self._store.daily.position_by_id(position_id)
        if found is None:
            raise NoDailyPosition()
        return found

    async def _choose(self, variant: str, day: str) -> DailyPosition:
        exclude = await self._store.daily.keys_since(variant, shift_day(day, -REPEAT_DAYS))
        candidates, sources = await self._candidates(variant)
        found = None
        if candidates:
            found = await self._brain.daily_position(candidates, exclude)
        source = None
        if found is not None and found.index is not None:
            source = sources[found.index]
        else:
            seed = dt.date.fromisoformat(day).toordinal()
            found = await self._brain.daily_self_play(variant, seed, exclude)
        if found is None:
            raise NoCandidate(f"no daily position for {variant} on {day}")
        logger.info(
            "daily position of %s for %s: %s (margin %.3f, from %s)",
            variant,
            day,
            ai_daily.key(found.game),
            found.margin,
            f"game {source}" if source is not None else "self-play",
        )
        return await self._store.daily.add_position(
            variant=variant,
            day=day,
            key=ai_daily.key(found.game),
            game=found.game,
            ranking=ranking_of(found),
            source_game_id=source,
            now=self._clock(),
        )

    async def candidates(self, variant: str) -> list[Game]:
        """The games a daily position of ``variant`` is chosen from: the positions of the
        latest finished games (practice positions are found among them too)."""
        return (await self._candidates(variant))[0]

    async def _candidates(self, variant: str) -> tuple[list[Game], list[int]]:
        """Positions of the latest finished games, newest game first and each from its end
        back, with the game each comes from (replayed on a thread: it is the engine's work)."""
        stored = []
        for game_id in await self._store.daily.finished_games(variant, CANDIDATE_GAMES):
            found = await self._store.games.get(game_id)
            if found is not None:
                stored.append(found)
        return await asyncio.to_thread(_positions_of, stored)

    async def tapped(self, position: DailyPosition, taps: str) -> Tapped:
        """The answer ``taps`` build on ``position`` (worked out on a thread).

        :raises: :exc:`StaleAction` for taps that build none.
        """
        return await asyncio.to_thread(replay_taps, position.game, taps)

    def is_over(self, position: DailyPosition) -> bool:
        """Whether the position's day has ended: its best move is shown to all then."""
        return position.day < self.today()

    async def outcome(self, position: DailyPosition, user: User) -> AnswerVerdict | None:
        """What ``user`` answered to ``position`` with how everyone did; None while they may
        still answer (they have not, and its day goes on)."""
        answer = await self._store.daily.answer_of(position.id, user.id)
        revealed = self.is_over(position)
        if answer is None and not revealed:
            return None
        return AnswerVerdict(
            position,
            answer,
            await self._store.daily.tally(position.id),
            await self._store.daily.streak(user.id),
            revealed,
            await self._store.ratings.games(user.id) >= RATED_GAMES,
        )

    async def answer(self, position: DailyPosition, user: User, turn: Turn) -> AnswerVerdict:
        """Records ``user``'s answer ``turn`` (a legal complete turn of the position) and,
        when right and they have played :data:`RATED_GAMES` rated games, their streak.

        :raises: :exc:`AlreadyAnswered` if they had answered it, :exc:`DailyOver` once its
            day is over (nothing changes).
        """
        if self.is_over(position):
            raise DailyOver()
        ranked = position.ranked(turn.position.to_text())
        if ranked is None:  # not a legal turn of it: the input checks that, so unexpected
            raise NoDailyPosition()
        loss, correct = judged(position.best, ranked)
        answer = DailyAnswer(position.id, user.id, str(turn), loss, correct, self._clock())
        async with self._store.transaction(durable=True):
            await self._store.lock_players(user.id)
            if not await self._store.daily.add_answer(answer):
                raise AlreadyAnswered()
            if correct and await self._store.ratings.games(user.id) >= RATED_GAMES:
                old = await self._store.daily.streak(user.id)
                await self._store.daily.set_streak(next_streak(old, user.id, position.day))
        outcome = await self.outcome(position, user)
        assert outcome is not None
        return outcome

    async def streak(self, user_id: int) -> int:
        """``user_id``'s current streak as shown today (0 when none is alive)."""
        return alive(await self._store.daily.streak(user_id), self.today())

    async def top_streaks(self, limit: int = TOP_STREAKS) -> list[tuple[User, Streak]]:
        """The longest streaks alive, as they stood when today began, of players with
        :data:`RATED_GAMES` rated games, longest first, with their players."""
        found = []
        for streak in await self._store.daily.top_streaks(
            self.today(), limit, rated_games=RATED_GAMES
        ):
            user = await self._store.users.get(streak.user_id)
            found.append((user or User(streak.user_id, None, "?", None), streak))
        return found

    async def to_reveal(self) -> list[int]:
        """The positions whose day has ended and whose group posts do not show the best move
        yet: each to be edited (:meth:`revealing`), then marked (:meth:`mark_revealed`)."""
        return await self._store.daily.to_reveal(self.today())

    def revealing(self, position_id: int) -> AbstractAsyncContextManager[bool]:
        """Holds the position's reveal for this worker while it edits the posts (False:
        another worker holds it now)."""
        return self._store.attempt("daily_reveal", position_id)

    async def mark_revealed(self, position_id: int) -> None:
        await self._store.daily.mark_revealed(position_id)

    async def tally(self, position_id: int) -> DailyTally:
        return await self._store.daily.tally(position_id)

    async def group(self, chat_id: int) -> DailyGroup | None:
        return await self._store.daily.group(chat_id)

    async def subscribe(self, chat_id: int, *, zone: str, variant: str, locale: str) -> DailyGroup:
        """Turns the group's morning post on (or changes it): at :data:`POST_HOUR` in
        ``zone``, of ``variant``'s position, in ``locale``.

        :raises: :exc:`UnknownTimeZone`; :exc:`NoDailyPosition` for a variant without one.
        """
        if variant not in DAILY_VARIANTS:
            raise NoDailyPosition()
        name = str(time_zone(zone))
        now = self._clock()
        group = DailyGroup(chat_id, name, variant, locale, next_morning(now, name))
        await self._store.daily.set_group(group, now=now)
        return group

    async def unsubscribe(self, chat_id: int) -> bool:
        """Turns the group's morning post off; False if it was not on."""
        return await self._store.daily.remove_group(chat_id)

    async def due_posts(self) -> list[tuple[DailyGroup, DailyPosition]]:
        """The morning posts due now, each claimed for this worker (see the module
        docstring): the group and the position to post there."""
        now = self._clock()
        claimed = []
        for group in await self._store.daily.due_groups(now):
            position = await self.position(group.variant)
            following = next_morning(now, group.time_zone)
            if await self._store.daily.claim_post(group, following, position.id):
                claimed.append((group, position))
        return claimed

    async def claim_post_now(self, chat_id: int, position_id: int, locale: str) -> None:
        """Records a post of ``position_id`` in group ``chat_id`` about to be sent by hand
        (``/daily`` there): it is kept up to date from then on, instead of an earlier one."""
        await self._store.daily.add_post(chat_id, position_id, locale)

    async def posted(self, chat_id: int, position_id: int, message_id: int) -> None:
        """Records the message that shows ``position_id`` in group ``chat_id``."""
        await self._store.daily.set_post_message(chat_id, position_id, message_id)

    async def posts(self, position_id: int) -> list[tuple[int, int | None, str]]:
        """The group messages showing ``position_id``: (chat, message or None, locale)."""
        return [
            (post.chat_id, post.message_id, post.locale)
            for post in await self._store.daily.posts(position_id)
        ]

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        await self._store.daily.move_chat(old_chat_id, new_chat_id)
