"""The lobby: where challenges, inline invitations and watchers meet the games they lead to.
Accepting a challenge (or joining an inline invitation) starts its game, a finished game offers
a rematch, a game between private chats can be watched, and a pairing of the pool ("play
anyone now") or the computer it offers starts a game. Each of these crosses two services, so it
is done here, above them: :class:`~.challenges.Challenges`, :class:`~.inline.InlineGames`,
:class:`~.watchers.Watchers` and :class:`~.pool.Pool` know nothing of
:class:`~.games.Games`, and the game service knows none of them. No Telegram here.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from bot.engine import Side
from bot.model import Challenge, ChallengeStatus, Seeker, Store, Terms, User, computer_id

from . import chips
from .challenges import Challenges, MemberCheck
from .errors import (
    AlreadyPlaying,
    AlreadySeeking,
    ChallengeClosed,
    CommitmentNotShown,
    NotEnoughChips,
    NotSeeking,
    StaleAction,
    Watching,
)
from .feed import ChangeFeed, WatcherAdded
from .games import Games
from .inline import InlineGames, seal
from .locks import KeyedLocks
from .pool import OFFER_AFTER, PRIVATE, Pool, PoolPairing, computer_level_for, pool_terms
from .snapshots import GameSnapshot
from .starts import GameStarts
from .watchers import Watchers


@dataclass(frozen=True, slots=True)
class PairedGame:
    """A pairing of the pool and the game it started."""

    pairing: PoolPairing
    snapshot: GameSnapshot


class Lobby:
    """Accept, join, rematch and watch (ids and domain values in, values out)."""

    def __init__(
        self,
        store: Store,
        games: Games,
        starts: GameStarts,
        challenges: Challenges,
        inline: InlineGames,
        watchers: Watchers,
        pool: Pool,
        feed: ChangeFeed,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._feed = feed
        self._clock = clock
        self._games = games
        self._starts = starts
        self._challenges = challenges
        self._inline = inline
        self._watchers = watchers
        self._pool = pool
        self._seekers: KeyedLocks[int] = KeyedLocks()

    async def accept(
        self,
        challenge_id: int,
        user: User,
        version: int | None = None,
        *,
        where: int | None = None,
        is_member: MemberCheck | None = None,
        chat_instance: str | None = None,
        dice_client: str | None = None,
    ) -> tuple[Challenge, GameSnapshot]:
        """``user`` accepts challenge ``challenge_id`` (see :meth:`Challenges.accepting` for
        ``version``, ``where``, ``is_member`` and ``chat_instance``): its game starts with the
        terms as they are now, with its match when it has one, and the challenge is closed, in
        one transaction. ``dice_client``: the id of the accepting tap, the client value of the
        game's fair dice (:meth:`.GameStarts.start`).

        One game at one sitting: refused while either player plays one (see
        :meth:`.GameStarts.start`), the challenge left open.

        :raises: what :meth:`Challenges.accepting` raises; :exc:`AlreadyPlaying`,
            :exc:`~.errors.OpponentPlaying` and the like (:meth:`.GameStarts.refusal`).
        """
        async with (
            self._challenges.accepting(
                challenge_id,
                user,
                version,
                where=where,
                is_member=is_member,
                chat_instance=chat_instance,
            ) as accepted,
            self._store.transaction(durable=True),
        ):
            challenge = accepted.challenge
            stored = await self._starts.start(
                chat_id=accepted.chat_id,
                white_id=accepted.white_id,
                black_id=accepted.black_id,
                terms=challenge.terms,
                locale=challenge.locale,
                boards=accepted.boards,
                match_id=None,  # a match of the terms' length, when they make one
                inline_board=challenge.inline_message_id,
                chat_instance=accepted.chat_instance,
                dice_client=dice_client,
                dice_seed=challenge.dice_seed,
                by=user.id,
            )
            closed = await self._challenges.close_accepted(accepted, stored.id)
        return closed, await self._games.snapshot_of(stored)

    async def join(
        self,
        inline_message_id: str,
        challenger_id: int,
        user: User,
        *,
        chat_instance: str,
        shown_seal: int,
        dice_client: str | None = None,
    ) -> tuple[Challenge, GameSnapshot]:
        """``user`` joins an inline invitation: the game starts in its inline message, in the
        chat ``chat_instance``, with the id of the Join tap, ``dice_client``, as its fair dice's
        client value; ``shown_seal`` is the :func:`~.inline.seal` of the commitment the tapped
        message showed. Whoever else taps Join once someone joined is told they watch.

        :raises: :exc:`~.errors.InvitationNotFound`, :exc:`StaleAction` (also for a seal that
            is not the challenge's: forged), :exc:`CommitmentNotShown` (seal 0),
            :exc:`Watching`, and what :meth:`accept` raises (:exc:`~.errors.OwnChallenge`,
            :exc:`~.errors.NotForYou`, :exc:`ChallengeClosed`).
        """
        challenge = await self._inline.invitation(inline_message_id, challenger_id)
        # a closed invitation says so, whatever its buttons showed
        if challenge.status is ChallengeStatus.OPEN and shown_seal != seal(challenge):
            raise CommitmentNotShown() if shown_seal == 0 else StaleAction()
        try:
            return await self.accept(
                challenge.id, user, chat_instance=chat_instance, dice_client=dice_client
            )
        except ChallengeClosed:
            current = await self._challenges.get(challenge.id)
            if current.status is ChallengeStatus.ACCEPTED and user.id not in (
                current.challenger_id,
                current.target_id,
            ):
                raise Watching() from None  # someone else joined first
            raise

    async def rematch(self, game_id: int, player: User, *, chat_id: int, locale: str) -> Challenge:
        """A new challenge from ``player`` to the opponent of finished game ``game_id``, same
        options (see :meth:`Challenges.rematch`).

        :raises: :exc:`~.errors.GameNotFound`, and what :meth:`Challenges.rematch` raises.
        """
        stored = await self._games.stored(game_id)
        return await self._challenges.rematch(stored, player, chat_id=chat_id, locale=locale)

    async def watch(self, game_id: int, user_id: int) -> tuple[GameSnapshot, bool]:
        """Makes ``user_id`` a watcher of game ``game_id`` (:meth:`Watchers.add`); returns the
        game as it stands, read after the watcher's board was added (a change saved later is
        shown to it by the publisher), and whether they were not watching it yet; a new
        watcher's board is told to the change feed (:class:`~.feed.WatcherAdded`), to be shown.

        :raises: :exc:`~.errors.GameNotFound`, and what :meth:`Watchers.add` raises.
        """
        added = await self._watchers.add(await self._games.stored(game_id), user_id)
        snapshot = await self._games.snapshot(game_id)
        if added:
            self._feed.announce(WatcherAdded(game_id, snapshot.stored.version, snapshot))
        return snapshot, added

    # --- the pool: play anyone now -----------------------------------------------------------

    async def find(
        self,
        user: User,
        scope: int,
        terms: Terms,
        *,
        locale: str,
        offer_after: int = OFFER_AFTER,
        message_id: int | None = None,
        dice_client: str | None = None,
        entering: Callable[[], Awaitable[object]] | None = None,
    ) -> PairedGame | None:
        """``user`` looks for anyone to play on ``terms`` in ``scope``'s pool (0: everyone's,
        in private; a group's id: its members, playing there), ``message_id`` showing their
        wait. Paired at once, the game starts (see :meth:`start_pairing`) and is returned;
        else None, and they wait in the pool.

        One entry at a time per player, in every worker: a second tap while the first is
        entering, or once they are paired, is refused rather than entered again. Both
        seekers leave the pool in the transaction that starts their game
        (:meth:`Pool.enter`): a crash in between leaves both waiting.
        ``entering`` is awaited once they may enter, before they do (the caller shows the
        wait then: a pairing made at once, or by the next to enter, is shown after it, and a
        refused tap shows nothing).

        A stake (one of :data:`~.chips.STAKE_CHOICES`) needs that many chips: it is paired
        only with the same stake, and the game pays it as any staked game does (early
        concessions move nothing, one-way streams are held: :mod:`.chips`).

        :raises: :exc:`AlreadySeeking` while they are in the pool; :exc:`AlreadyPlaying` while
            they play a game at one sitting (correspondence games aside);
            :exc:`NotEnoughChips` for a stake above their balance; :exc:`ValueError` for a
            stake that is not one of the choices.
        """
        if terms.stake not in chips.STAKE_CHOICES:
            raise ValueError(f"a stake of {chips.STAKE_CHOICES}, not {terms.stake}")
        async with self._seekers.hold(user.id), self._store.exclusive("seeker", user.id):
            await self.check_free(user.id)
            if terms.stake:
                held = await chips.balance(self._store, user.id, self._clock())
                if held < terms.stake:
                    raise NotEnoughChips(name=user.mention, chips=held)
            if entering is not None:
                await entering()
            rating = (await self._store.ratings.get(user.id, terms.variant)).rating
            found: dict[PoolPairing, PairedGame] = {}

            async def start(pairings: Sequence[PoolPairing]) -> set[int]:
                return await self._start_games(
                    pairings, found, locale=_fixed(locale), dice_client=dice_client
                )

            pairing = await self._pool.enter(
                user.id,
                scope,
                terms,
                rating,
                offer_after=offer_after,
                message_id=message_id,
                start=start,
            )
            return None if pairing is None else found[pairing]

    async def check_free(self, user_id: int) -> None:
        """Refuses ``/find`` to a player who is waiting or playing already (see :meth:`find`,
        which asks again, holding the player).

        :raises: :exc:`AlreadySeeking`, :exc:`AlreadyPlaying`.
        """
        if await self._pool.seeker(user_id) is not None:
            raise AlreadySeeking()
        busy = await self._starts.busy(user_id)
        if busy is not None:
            raise await self._starts.refusal(busy, user_id)

    async def start_pairing(
        self, pairing: PoolPairing, *, locale: str, dice_client: str | None = None
    ) -> PairedGame | None:
        """Starts the game of ``pairing``, the one who waited playing white: in private
        between the two private chats, or in the group of a group's pool; inside the
        caller's transaction (the pool's, which took both out of it), else in one of its own.
        Both players' locks are held while neither is found playing a game at one sitting and
        the game is made, so two pairings of one person (on two workers) never start two
        games. None when either plays already (they accepted a challenge meanwhile)."""
        waiting, entering = pairing.waiting, pairing.entering
        group = pairing.scope != PRIVATE
        boards = (
            [(pairing.scope, Side.WHITE)]
            if group
            else [(waiting.user_id, Side.WHITE), (entering.user_id, Side.BLACK)]
        )
        async with self._store.transaction(durable=True):
            await self._starts.lock_players(waiting.user_id, entering.user_id)
            if await self._playing(entering.user_id) or await self._playing(waiting.user_id):
                return None
            stored = await self._starts.start(
                chat_id=pairing.scope if group else 0,
                white_id=waiting.user_id,
                black_id=entering.user_id,
                terms=pairing.terms,
                locale=locale,
                boards=boards,
                match_id=None,
                dice_client=dice_client,
            )
            return PairedGame(pairing, await self._games.snapshot_of(stored))

    async def pair_waiting(self, locale: Callable[[Seeker], Awaitable[str]]) -> list[PairedGame]:
        """The timers' sweep of the pool: pairs the seekers already waiting whose windows now
        meet and starts each pairing's game as :meth:`find` does (:meth:`start_pairing`, in
        the language ``locale`` gives the later of the two), in the transaction that takes
        them out of the pool (:meth:`Pool.pair_waiting`). A player found playing meanwhile
        leaves the pool, the other goes back to it as they were (their wait's start kept), to
        be paired by a later sweep or entrant."""
        found: dict[PoolPairing, PairedGame] = {}

        async def start(pairings: Sequence[PoolPairing]) -> set[int]:
            async def later(pairing: PoolPairing) -> str:
                return await locale(pairing.entering)

            return await self._start_games(pairings, found, locale=later)

        return [found[pairing] for pairing in await self._pool.pair_waiting(start=start)]

    async def _start_games(
        self,
        pairings: Sequence[PoolPairing],
        found: dict[PoolPairing, PairedGame],
        *,
        locale: Callable[[PoolPairing], Awaitable[str]],
        dice_client: str | None = None,
    ) -> set[int]:
        """Starts the games of ``pairings`` inside the pool's transaction, recording each in
        ``found``; returns the players found playing already (:data:`~.pool.StartGames`).
        Every player's lock is taken at once, in one order, so that no two transactions
        each hold a lock the other waits for."""
        await self._starts.lock_players(*{p for pairing in pairings for p in pairing.players})
        busy: set[int] = set()
        for pairing in pairings:
            started = await self.start_pairing(
                pairing, locale=await locale(pairing), dice_client=dice_client
            )
            if started is not None:
                found[pairing] = started
                continue
            busy.update([p for p in pairing.players if await self._playing(p)])
        return busy

    async def play_computer(
        self,
        user: User,
        scope: int,
        terms: Terms,
        *,
        locale: str,
        dice_client: str | None = None,
    ) -> GameSnapshot:
        """``user``, whose wait ended without an opponent (:data:`~.pool.MAX_WAIT`), plays the
        computer instead, on ``terms`` without a stake, at the level of their rating, where
        they waited (``scope``). One at a time: refused while they are in the pool, play a
        game at one sitting, or play the computer already (so a second tap on the same
        button starts nothing, whatever the move time).

        :raises: :exc:`AlreadySeeking`, :exc:`AlreadyPlaying`.
        """
        async with self._seekers.hold(user.id), self._store.exclusive("seeker", user.id):
            await self.check_free(user.id)
            games = await self._games.active_games(user.id)
            computer = [g for g in games if g.level(Side.WHITE) or g.level(Side.BLACK)]
            if computer:
                raise AlreadyPlaying(game=computer[0].id)
            rating = (await self._store.ratings.get(user.id, terms.variant)).rating
            group = scope != PRIVATE
            async with self._store.transaction(durable=True):
                stored = await self._starts.start(
                    chat_id=scope if group else 0,
                    white_id=user.id,
                    black_id=computer_id(computer_level_for(rating)),
                    terms=replace(pool_terms(terms), stake=0),
                    locale=locale,
                    boards=[(scope if group else user.id, Side.WHITE)],
                    match_id=None,
                    dice_client=dice_client,
                    by=user.id,
                )
        return await self._games.snapshot_of(stored)

    async def cancel_seeking(self, user_id: int) -> None:
        """Takes ``user_id`` out of the pool (Cancel).

        :raises: :exc:`NotSeeking` if they are not in it (paired meanwhile, or cancelled).
        """
        if not await self._pool.leave(user_id):
            raise NotSeeking()

    async def play_offered_computer(
        self, user: User, *, locale: str, dice_client: str | None = None
    ) -> tuple[Seeker, GameSnapshot]:
        """``user``, waiting in the pool, takes the computer's offer: they leave the pool and
        a game on their terms starts against the computer at the level of their rating
        (:func:`~.pool.computer_level_for`), where they waited. Returns their entry as it was
        and the game.

        :raises: :exc:`NotSeeking` if they are no longer in the pool (paired meanwhile, or
            cancelled); :exc:`AlreadyPlaying` while they play a game at one sitting.
        """
        async with self._seekers.hold(user.id), self._store.exclusive("seeker", user.id):
            seeker = await self._pool.seeker(user.id)
            if seeker is None:
                raise NotSeeking()
            busy = await self._starts.busy(user.id)
            if busy is not None:
                raise await self._starts.refusal(busy, user.id)
            opponent = computer_id(computer_level_for(seeker.rating))
            group = seeker.scope != PRIVATE
            async with self._store.transaction(durable=True):
                # leaving and starting in one transaction: a pairing made meanwhile (by another
                # worker) removed the entry first, and this one is refused
                if not await self._pool.leave(user.id):
                    raise NotSeeking()
                stored = await self._starts.start(
                    chat_id=seeker.scope if group else 0,
                    white_id=user.id,
                    black_id=opponent,
                    terms=seeker.terms,
                    locale=locale,
                    boards=[(seeker.scope if group else user.id, Side.WHITE)],
                    match_id=None,
                    dice_client=dice_client,
                    by=user.id,
                )
        return seeker, await self._games.snapshot_of(stored)

    async def _playing(self, user_id: int) -> bool:
        """Whether ``user_id`` may start no game at one sitting now
        (:meth:`.GameStarts.busy`)."""
        return await self._starts.busy(user_id) is not None


def _fixed(locale: str) -> Callable[[PoolPairing], Awaitable[str]]:
    """A pairing's language that is ``locale`` whatever the pairing."""

    async def fixed(pairing: PoolPairing) -> str:
        return locale

    return fixed
