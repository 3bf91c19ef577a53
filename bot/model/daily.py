"""The daily position: one position a day per variant, the players' answers, their streaks and
the groups that have it posted each morning; with the repository protocol storage implements.

A position is kept with everything needed to judge any answer without the computer: the game
ready to play (rolled), and the ranking of every legal turn by the strongest level when it was
chosen, one :class:`RankedTurn` per distinct resulting position, best first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.engine import Game


@dataclass(frozen=True, slots=True)
class RankedTurn:
    """One legal turn of a daily position: its text (``24/18 13/8``), the position it reaches
    (engine text) and the mover's equity after it."""

    turn: str
    reaches: str
    equity: float


class RankedPosition:
    """What a position kept with the ranking of every legal turn (best first) answers: its
    best turn, and the ranked turn an answer reaches. A base of the records that have a
    ``ranking``."""

    __slots__ = ()
    ranking: tuple[RankedTurn, ...]

    @property
    def best(self) -> RankedTurn:
        return self.ranking[0]

    def ranked(self, reaches: str) -> RankedTurn | None:
        """The ranked turn that reaches ``reaches`` (engine text), if any."""
        return next((r for r in self.ranking if r.reaches == reaches), None)


@dataclass(frozen=True, slots=True)
class DailyPosition(RankedPosition):
    """The position of one variant for one day (``YYYY-MM-DD``, UTC)."""

    id: int
    variant: str
    day: str
    key: str
    """What "the same position" means: variant, checkers, side to move and dice."""
    game: Game
    ranking: tuple[RankedTurn, ...]
    source_game_id: int | None
    """The finished game it comes from; None for the computer's self-play."""


@dataclass(frozen=True, slots=True)
class DailyAnswer:
    """One player's answer to one daily position."""

    position_id: int
    user_id: int
    turn: str
    loss: float
    """The best turn's equity minus the answer's (0 for the best)."""
    correct: bool
    answered_at: float


@dataclass(frozen=True, slots=True)
class DailyTally:
    """How everyone answered one daily position."""

    answers: int
    correct: int

    @property
    def percent(self) -> int:
        """Right answers, in whole per cent of all (0 without answers)."""
        return round(100 * self.correct / self.answers) if self.answers else 0


@dataclass(frozen=True, slots=True)
class Streak:
    """A player's days in a row with a right answer: the current run (up to ``last_day``),
    the best one ever, and the best before ``last_day`` (a streak is shown as it stood when a
    day began until that day ends: :func:`bot.services.daily.alive`)."""

    user_id: int
    current: int
    best: int
    last_day: str
    best_before: int = 0


@dataclass(frozen=True, slots=True)
class DailyGroup:
    """A group that has the daily position posted each morning: its time zone (an IANA name),
    the variant posted, the locale of the posts, and when the next post is due (Unix time)."""

    chat_id: int
    time_zone: str
    variant: str
    locale: str
    next_post: float


@dataclass(frozen=True, slots=True)
class DailyPost:
    """A group's message showing a daily position (``message_id`` None until it is sent)."""

    chat_id: int
    position_id: int
    message_id: int | None
    locale: str


class DailyRepository(Protocol):
    """The daily positions, their answers, streaks, and the groups that get them."""

    async def position(self, variant: str, day: str) -> DailyPosition | None: ...

    async def position_by_id(self, position_id: int) -> DailyPosition | None: ...

    async def add_position(
        self,
        *,
        variant: str,
        day: str,
        key: str,
        game: Game,
        ranking: tuple[RankedTurn, ...],
        source_game_id: int | None,
        now: float,
    ) -> DailyPosition:
        """Records the day's position of ``variant``, unless another worker did first: returns
        the one recorded either way."""
        ...

    async def keys_since(self, variant: str, day: str) -> frozenset[str]:
        """The keys of ``variant``'s positions of ``day`` and after."""
        ...

    async def finished_games(self, variant: str, limit: int) -> list[int]:
        """Ids of the latest finished games of ``variant``, newest first."""
        ...

    async def add_answer(self, answer: DailyAnswer) -> bool:
        """Records ``answer``; False (nothing changed) if the player had answered already."""
        ...

    async def set_streak(self, streak: Streak) -> None: ...

    async def answer_of(self, position_id: int, user_id: int) -> DailyAnswer | None: ...

    async def tally(self, position_id: int) -> DailyTally: ...

    async def streak(self, user_id: int) -> Streak | None: ...

    async def top_streaks(self, today: str, limit: int, *, rated_games: int) -> list[Streak]:
        """The longest streaks alive as they stood when ``today`` began (a right answer of
        today shows when the day ends), of players with ``rated_games`` rated games or more,
        longest first; each as it stood then (``current`` and ``best`` of the end of the day
        before)."""
        ...

    async def to_reveal(self, today: str) -> list[int]:
        """The positions of days before ``today`` that are posted in groups and whose posts
        do not show their best move yet (:meth:`mark_revealed`)."""
        ...

    async def mark_revealed(self, position_id: int) -> None:
        """Records that the position's posts show its best move."""
        ...

    async def group(self, chat_id: int) -> DailyGroup | None: ...

    async def set_group(self, group: DailyGroup, *, now: float) -> None: ...

    async def remove_group(self, chat_id: int) -> bool: ...

    async def due_groups(self, now: float) -> list[DailyGroup]: ...

    async def claim_post(self, group: DailyGroup, next_post: float, position_id: int) -> bool:
        """Moves ``group``'s next post on to ``next_post`` and records its post of
        ``position_id`` (no message yet), if no worker did since ``group`` was read: True
        for the one worker that is to send it."""
        ...

    async def add_post(self, chat_id: int, position_id: int, locale: str) -> None:
        """Records a post of ``position_id`` in ``chat_id`` about to be sent (one made by hand:
        it replaces the group's earlier post of it)."""
        ...

    async def set_post_message(self, chat_id: int, position_id: int, message_id: int) -> None: ...

    async def posts(self, position_id: int) -> list[DailyPost]:
        """The group messages that show position ``position_id`` (sent or claimed)."""
        ...

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None: ...
