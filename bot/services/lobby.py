"""The lobby: where challenges, inline invitations and watchers meet the games they lead to.
Accepting a challenge (or joining an inline invitation) starts its game, a finished game offers
a rematch, and a game between private chats can be watched. Each of these crosses two services,
so it is done here, above them: :class:`~.challenges.Challenges`, :class:`~.inline.InlineGames`
and :class:`~.watchers.Watchers` know nothing of :class:`~.games.GameService`, and the game
service knows none of them. No Telegram here.
"""

from __future__ import annotations

from bot.model import Challenge, ChallengeStatus, Store, User

from .challenges import Challenges, MemberCheck
from .errors import ChallengeClosed, CommitmentNotShown, StaleAction, Watching
from .games import GameService, GameSnapshot
from .inline import InlineGames, seal
from .watchers import Watchers


class Lobby:
    """Accept, join, rematch and watch (ids and domain values in, values out)."""

    def __init__(
        self,
        store: Store,
        games: GameService,
        challenges: Challenges,
        inline: InlineGames,
        watchers: Watchers,
    ) -> None:
        self._store = store
        self._games = games
        self._challenges = challenges
        self._inline = inline
        self._watchers = watchers

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
        game's fair dice (:meth:`GameService.start`).

        :raises: what :meth:`Challenges.accepting` raises.
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
            stored = await self._games.start(
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
        shown to it by the publisher), and whether they were not watching it yet.

        :raises: :exc:`~.errors.GameNotFound`, and what :meth:`Watchers.add` raises.
        """
        added = await self._watchers.add(await self._games.stored(game_id), user_id)
        return await self._games.snapshot(game_id), added
