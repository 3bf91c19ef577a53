"""The operators' powers (``OWNER_IDS``): bans, decisions on held chip transfers, the figures
they read. No Telegram here.

A ban is stored, so it outlives restarts and holds in every worker: each worker keeps the set of
banned ids in memory, read again after :data:`SHARED_SECONDS` when other workers share the
database (a ban made in one takes at most that long to hold in the others). Banning ends what
the user had open: their challenges are cancelled, they leave ``/find``'s pool, and they leave
their tournaments as leaving does (an entry comes back during sign-up; a running tournament's
games are forfeited). Their games in progress run on: their opponents win them on time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.model import Challenge, ChipFlag, ChipsStatus, Figures, Seeker, Store, User

from . import chips
from .challenges import Challenges
from .errors import AlreadyDecided, CannotBanOwner, GameError
from .leagues import HeldTransfer
from .pool import Pool
from .tournament_values import Progress
from .tournaments import Tournaments

SHARED_SECONDS: Final = 2.0
"""How long a worker sharing its database trusts the set of banned users it read."""
RELEASED: Final = "released"
REFUNDED: Final = "refunded"


@dataclass(frozen=True, slots=True)
class BanEnded:
    """What a ban ended, for the messages that show it: the user's challenges (cancelled),
    their wait in ``/find``'s pool, their tournaments (left)."""

    challenges: tuple[Challenge, ...] = ()
    seeker: Seeker | None = None
    tournaments: tuple[Progress, ...] = ()


@dataclass(frozen=True, slots=True)
class TransferDecision:
    """An operator's decision on a held transfer: the flag, and the chips that moved (0 for a
    refund; a release pays what the loser holds now, at most the amount held)."""

    transfer: HeldTransfer
    released: bool
    paid: int


class Moderation:
    """Who the operators are, who is banned, and what operators decide."""

    def __init__(
        self,
        store: Store,
        *,
        owners: frozenset[int],
        challenges: Challenges,
        pool: Pool,
        tournaments: Tournaments,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.owners = owners
        self._store = store
        self._challenges = challenges
        self._pool = pool
        self._tournaments = tournaments
        self._clock = clock
        self._banned: frozenset[int] | None = None
        self._read_at = float("-inf")

    def is_owner(self, user_id: int) -> bool:
        """Whether the user is one of the bot's operators."""
        return user_id in self.owners

    async def is_banned(self, user_id: int) -> bool:
        """Whether the user is banned (from memory, read again when it may be stale)."""
        stale = self._store.shared and self._clock() - self._read_at > SHARED_SECONDS
        if self._banned is None or stale:
            self._banned = await self._store.operators.banned()
            self._read_at = self._clock()
        return user_id in self._banned

    async def ban(self, user_id: int, operator_id: int) -> BanEnded | None:
        """Bans the user and ends what they had open (see the module); None if they were
        banned already (nothing more ends).

        :raises: :exc:`CannotBanOwner` for an operator.
        """
        if self.is_owner(user_id):
            raise CannotBanOwner()
        if not await self._store.operators.ban(user_id, operator_id, now=self._clock()):
            return None
        self._banned = None  # read again, this one included
        closed = []
        for challenge in await self._store.challenges.open_by(user_id, self._clock()):
            with contextlib.suppress(GameError):  # accepted or expired meanwhile
                closed.append(await self._challenges.decline(challenge.id, user_id))
        seeker = await self._pool.seeker(user_id)
        if seeker is not None and not await self._pool.leave(user_id):
            seeker = None  # paired meanwhile
        left = []
        for tournament_id in await self._store.tournaments.entered(user_id):
            with contextlib.suppress(GameError):  # over, or left, meanwhile
                left.append(await self._tournaments.leave(tournament_id, user_id))
        return BanEnded(tuple(closed), seeker, tuple(left))

    async def unban(self, user_id: int) -> bool:
        """Lifts the user's ban; False if they were not banned."""
        lifted = await self._store.operators.unban(user_id)
        self._banned = None
        return lifted

    async def banned_count(self) -> int:
        """How many users are banned."""
        self._banned = await self._store.operators.banned()
        self._read_at = self._clock()
        return len(self._banned)

    async def figures(self) -> Figures:
        """What ``/ops`` shows from the database; "today" is the UTC day."""
        now = dt.datetime.fromtimestamp(self._clock(), dt.UTC)
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
        return await self._store.operators.figures(day_started=midnight.timestamp())

    async def held(self, limit: int = 20) -> list[HeldTransfer]:
        """The transfers held in every chat, newest first, with their players."""
        return [await self._with_players(flag) for flag in await self._store.chips.held(limit)]

    async def decide(self, game_id: int, *, release: bool, operator_id: int) -> TransferDecision:
        """Releases a held transfer (the winner is paid what the loser holds now, at most the
        amount held) or refunds it (the chips stay with the loser; the game moves none), once:
        in one transaction, whoever asks first.

        :raises: :exc:`AlreadyDecided` if it was decided before (or is no held transfer).
        """
        now = self._clock()
        async with self._store.transaction(durable=True):
            flag = await self._store.chips.resolve(
                game_id, RELEASED if release else REFUNDED, operator_id=operator_id, now=now
            )
            if flag is None:
                raise AlreadyDecided()
            paid = 0
            if release:
                await self._store.lock_players(flag.loser_id, flag.winner_id)
                paid = min(flag.amount, await chips.balance(self._store, flag.loser_id, now))
                if paid > 0:
                    await self._store.chips.transfer(
                        game_id=game_id,
                        payer_id=flag.loser_id,
                        payee_id=flag.winner_id,
                        amount=paid,
                        now=now,
                    )
            status = ChipsStatus.PAID if release else ChipsStatus.VOID
            await self._store.chips.settle_game(game_id, chips=paid, status=status)
        return TransferDecision(await self._with_players(flag), release, paid)

    async def _with_players(self, flag: ChipFlag) -> HeldTransfer:
        return HeldTransfer(flag, await self._user(flag.loser_id), await self._user(flag.winner_id))

    async def _user(self, user_id: int) -> User:
        user = await self._store.users.get(user_id)
        return user or User(user_id, None, str(user_id), None)
