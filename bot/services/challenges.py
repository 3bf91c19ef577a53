"""Challenges: a player invites another (or anyone) to a game on some terms, which the
challenger can change until someone accepts; accepting starts the game (the lobby's
:meth:`~.lobby.Lobby.accept` starts it while :meth:`Challenges.accepting` holds the
challenge). No Telegram here.

A challenge to the computer (:func:`bot.model.computer_id`) is started by the challenger and
has a level, hints, and no stake; it may be a training game (:mod:`.training`). A challenge may
name the position to start at ("play from here"): a single game, not rated, no chips. Every tap
names the challenge and the ``version`` its button was drawn for: a button drawn for terms
changed since is refused with both versions' terms (:exc:`TermsChanged`); changes of one
challenge run one at a time across workers. A group's challenge is taken in the group, or
elsewhere only by a member (:data:`MemberCheck`).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Final

from bot.engine import (
    Side,
    resolve_rules,
)
from bot.model import (
    Challenge,
    ChallengeMessage,
    ChallengeStatus,
    Store,
    StoredGame,
    Terms,
    User,
    VersionConflict,
    computer_id,
)

from . import chips, choices
from .challenge_terms import check_offered, switched, training_terms
from .choices import MATCH_LENGTHS, MOVE_TIMES, VARIANTS, fitted
from .errors import (
    BotChallenge,
    ChallengeClosed,
    ChallengeNotFound,
    ForeignButton,
    InvitationPending,
    NotAMember,
    NotAPlayer,
    NotChallenger,
    NotEnoughChips,
    NotForYou,
    OwnChallenge,
    SelfChallenge,
    StaleAction,
    TermsChanged,
)
from .locks import KeyedLocks
from .replays import playable
from .seeds import DiceSeeds
from .users import Users

CHALLENGE_SECONDS: Final = 15 * 60
"""How long a challenge stays open."""

MemberCheck = Callable[[int, int], Awaitable[bool]]
"""Whether user (the second id) is a member of group chat (the first id) now."""


@dataclass(frozen=True, slots=True)
class Acceptance:
    """A challenge being accepted (:meth:`Challenges.accepting`): who plays which side, the
    game's chat (0 between private chats or in an inline message) and its boards."""

    challenge: Challenge
    opponent_id: int
    """Who accepted: the challenger's opponent (the computer in a challenge to it)."""
    white_id: int
    black_id: int
    chat_id: int
    boards: list[tuple[int, Side]]
    """(chat, side at the bottom) of each board to send."""
    chat_instance: str | None
    """The chat an inline invitation's game is played in."""


class Challenges:
    """Open, change, decline and accept challenges (ids and domain values in, values out)."""

    def __init__(
        self,
        store: Store,
        users: Users,
        seeds: DiceSeeds,
        *,
        move_seconds: int,
        clock: Callable[[], float] = time.time,
        challenge_seconds: int = CHALLENGE_SECONDS,
    ) -> None:
        self._store = store
        self._users = users
        self._seeds = seeds
        self._move_seconds = move_seconds  # the bot's default time per move
        self._clock = clock
        self._challenge_seconds = challenge_seconds
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._inviters: KeyedLocks[int] = KeyedLocks()

    @asynccontextmanager
    async def _one_at_a_time(self, challenge_id: int) -> AsyncIterator[None]:
        """Holds the challenge for one change, in this process and in every worker."""
        async with self._locks.hold(challenge_id), self._store.exclusive("challenge", challenge_id):
            yield

    @asynccontextmanager
    async def _only_invitation(
        self, challenger_id: int, target: User | None, username: str | None
    ) -> AsyncIterator[None]:
        """Held while a challenge to ``target`` (or to the unknown user of the lowercase
        ``username``) is made: refuses it while the challenger's earlier one to them is open,
        so that nobody gets the same invitation twice (a second ``/play @bob``, Rematch tapped
        again); one challenger at a time, in every worker, so that two at once cannot both
        pass. Challenges to anyone and to the computer are not invitations.

        :raises: :exc:`InvitationPending`.
        """
        if target is None and username is None or target and target.computer_level is not None:
            yield
            return
        async with (
            self._inviters.hold(challenger_id),
            self._store.exclusive("inviter", challenger_id),
        ):
            pending = await self._store.challenges.pending_invitation(
                challenger_id,
                target_id=target.id if target else None,
                target_username=(target.username or "").lower() or None if target else username,
                now=self._clock(),
            )
            if pending is not None:
                raise InvitationPending()
            yield

    async def open(
        self,
        *,
        chat_id: int,
        challenger: User,
        target: User | None = None,
        target_username: str | None = None,
        target_is_bot: bool = False,
        locale: str,
        terms: Terms = Terms(),
        inline_message_id: str | None = None,
    ) -> Challenge:
        """Opens a challenge in ``chat_id``: to ``target``, to an unseen ``target_username``, or
        to anyone when neither is given, on ``terms`` (the challenger can change them until it
        is accepted); an inline invitation (chat 0) is shown by ``inline_message_id``.

        :raises: :exc:`SelfChallenge`, :exc:`BotChallenge`; :exc:`InvitationPending` while the
            challenger's earlier challenge to the target is open; :exc:`NotEnoughChips` for a
            stake above the challenger's balance; :exc:`PositionOver` for a start where a side
            has borne off every checker; :exc:`PositionDeadlocked` for one where neither side
            can ever move; :exc:`ValueError` for a match length or stake that is not one of the
            choices.
        """
        if terms.start is not None:
            playable(terms.start)
            terms = replace(terms, variant=terms.start.variant, match_length=0, stake=0)
        if target_username and not target:
            target = await self._users.by_username(target_username)
        if target is not None and target.id == challenger.id:
            raise SelfChallenge()
        computer = target is not None and target.computer_level is not None
        if computer:
            terms = replace(terms, stake=0, hints=True)
            if terms.training:
                terms = training_terms(terms)
        else:
            terms = replace(terms, training=False)  # judged against the computer only
        name = (target.username if target else target_username) or ""
        if target_is_bot or name.lower().endswith("bot"):
            # Telegram requires every bot's username to end in "bot"
            raise BotChallenge()
        if terms.match_length not in MATCH_LENGTHS or terms.stake not in chips.STAKE_CHOICES:
            raise ValueError(f"not a choice: {terms}")
        if terms.variant not in VARIANTS:
            raise ValueError(f"not a variant: {terms.variant}")
        if terms.move_seconds is not None and terms.move_seconds not in MOVE_TIMES:
            raise ValueError(f"not a move time: {terms.move_seconds}")
        now = self._clock()
        if terms.stake:
            held = await chips.balance(self._store, challenger.id, now)
            if held < terms.stake:
                raise NotEnoughChips(name=challenger.mention, chips=held)
        username = None if target else (target_username or "").lstrip("@").lower() or None
        settled = replace(
            fitted(terms),
            rule_set=resolve_rules(terms.variant, terms.rule_set).name,
            move_seconds=terms.move_seconds or self._move_seconds,
        )
        async with self._only_invitation(challenger.id, target, username):
            return await self._store.challenges.create(
                chat_id=chat_id,
                challenger_id=challenger.id,
                target_id=target.id if target else None,
                target_username=username,
                terms=settled,
                locale=locale,
                expires_at=now + self._challenge_seconds,
                now=now,
                inline_message_id=inline_message_id,
                dice_seed=self._seeds.new_seed(),
            )

    async def against_computer(
        self, *, chat_id: int, challenger: User, level: int, locale: str, terms: Terms = Terms()
    ) -> Challenge:
        """A challenge to the computer at ``level``, for the challenger to start.

        :raises: :exc:`ValueError` for a level that is not one of the computer's.
        """
        computer = await self._users.get(computer_id(level))
        assert computer is not None  # stored by the schema
        return await self.open(
            chat_id=chat_id, challenger=challenger, target=computer, locale=locale, terms=terms
        )

    async def private_invitation(
        self, *, challenger: User, target_username: str, locale: str, terms: Terms = Terms()
    ) -> tuple[Challenge, User | None]:
        """A challenge made in a private chat: returns it and the invited user when the bot can
        write to them privately (else the caller shares a link).

        :raises: :exc:`SelfChallenge`, :exc:`BotChallenge`.
        """
        target = await self._users.by_username(target_username)
        challenge = await self.open(
            chat_id=challenger.id,
            challenger=challenger,
            target=target,
            target_username=target_username,
            locale=locale,
            terms=terms,
        )
        reachable = target if target and target.private_chat and not target.blocked else None
        return challenge, reachable

    async def rematch(
        self, stored: StoredGame, player: User, *, chat_id: int, locale: str
    ) -> Challenge:
        """A new challenge from ``player`` to the opponent of the finished game ``stored``, same
        options (and the same start, for a game played on from a position).

        :raises: :exc:`NotAPlayer`, :exc:`StaleAction` if the game is not over;
            :exc:`InvitationPending` while the player's earlier challenge to them is open.
        """
        side = stored.side_of(player.id)
        if side is None:
            raise NotAPlayer()
        if not stored.game.is_over:
            raise StaleAction()
        opponent = await self._users.get(stored.player(side.other))
        match = await self._store.matches.get(stored.match_id) if stored.match_id else None
        now = self._clock()
        async with self._only_invitation(player.id, opponent, None):
            return await self._store.challenges.create(
                chat_id=chat_id,
                challenger_id=player.id,
                target_id=opponent.id if opponent else None,
                target_username=None,
                # the same terms; played on from a position: again from there
                terms=stored.terms(match),
                locale=locale,
                expires_at=now + self._challenge_seconds,
                now=now,
                dice_seed=self._seeds.new_seed(),
            )

    async def get(self, challenge_id: int) -> Challenge:
        found = await self._store.challenges.get(challenge_id)
        if found is None:
            raise ChallengeNotFound()
        return found

    async def show(
        self, challenge: Challenge, chat_id: int, message_id: int | None, locale: str
    ) -> None:
        """Records that ``message_id`` in ``chat_id`` shows the challenge in ``locale``: its
        buttons count there, and the bot edits it when the terms change or it closes. Called
        with None before the message is sent, so that a tap on it that comes before its id is
        recorded (or when its sending got no answer) is taken all the same (see
        :meth:`check_shown`)."""
        await self._store.challenges.show(challenge.id, chat_id, message_id, locale)

    async def messages(self, challenge_id: int) -> list[ChallengeMessage]:
        """The messages that show the challenge, one a chat (those sent)."""
        shown = await self._store.challenges.messages(challenge_id)
        return [message for message in shown if message.message_id is not None]

    async def check_shown(self, challenge_id: int, chat_id: int, message_id: int) -> None:
        """Makes sure a tap on challenge ``challenge_id``'s button came from one of its own
        messages. A message in a chat where one of the challenge's is being sent, and that
        the bot knows as nothing else (no other challenge's message, no board), is that one,
        and is recorded (its tap came before the sender recorded it, or its sending got no
        answer).

        :raises: :exc:`ForeignButton` otherwise (forged data, or a button sent elsewhere).
        """
        shows = await self._store.challenges.shown_by(chat_id, message_id)
        if shows == challenge_id:
            return
        if shows is None and await self._store.games.shown_by(chat_id, message_id) is None:
            for shown in await self._store.challenges.messages(challenge_id):
                if shown.chat_id != chat_id:
                    continue
                if shown.message_id == message_id:
                    return  # its sender recorded it between the two look-ups
                if shown.message_id is None:
                    await self._store.challenges.show(
                        challenge_id, chat_id, message_id, shown.locale
                    )
                    return
        raise ForeignButton()

    @staticmethod
    async def check_member(
        challenge: Challenge,
        user_id: int,
        *,
        where: int | None,
        is_member: MemberCheck | None,
    ) -> None:
        """Makes sure ``user_id``, in chat ``where`` (None: where the challenge was made), may
        take or decline ``challenge``: a group's challenge is for the group, so outside it only
        for its members as ``is_member`` says (None: nobody; the challenger is always one).

        :raises: :exc:`NotAMember` otherwise.
        """
        group = not challenge.in_private_chat and challenge.inline_message_id is None
        if not group or where in (None, challenge.chat_id) or user_id == challenge.challenger_id:
            return
        if is_member is None or not await is_member(challenge.chat_id, user_id):
            raise NotAMember()

    async def choosing(
        self, challenge_id: int, user_id: int, version: int, option: str | None = None
    ) -> Challenge:
        """The open challenge at ``version``, for its challenger to change ``option`` (None:
        any): what :meth:`change_option` checks first, changing nothing (a list of choices is
        shown to the challenger before one is picked).

        :raises: :exc:`NotChallenger`, :exc:`StaleAction` for an option the challenge does not
            offer, and what an open challenge at another version raises
            (:exc:`TermsChanged`, :exc:`ChallengeClosed`).
        """
        challenge = await self._open_challenge(challenge_id, version)
        if user_id != challenge.challenger_id:
            raise NotChallenger()
        check_offered(challenge, option)
        return challenge

    async def change_option(
        self,
        challenge_id: int,
        user_id: int,
        version: int,
        option: str,
        choice: int | None = None,
    ) -> Challenge:
        """The challenger changes an option: one with a list of choices (``variant``,
        ``rules``, ``time``, ``match``, ``dice``, and between people ``stake`` and
        ``stake_mode``, against the computer ``level``: :data:`~.choices.OPTIONS`) takes its
        ``choice``-th choice as :func:`~.choices.offered` lists them; a switch (``cube``,
        ``hints`` between people, ``training`` against the computer, ``watchable`` for a
        game between private chats: open to watchers or private), with no ``choice``, turns
        over.

        :raises: :exc:`NotChallenger`; :exc:`StaleAction` for an option these terms do not
            offer or a choice that is none of its choices; :exc:`NotEnoughChips` for a stake
            above the challenger's balance.
        """
        async with self._one_at_a_time(challenge_id):
            challenge = await self.choosing(challenge_id, user_id, version, option)
            if (option in choices.OPTIONS) != (choice is not None):
                raise StaleAction()  # a list's choice without its number, or a switch with one
            terms, target_id = challenge.terms, challenge.target_id
            if choice is not None:
                try:
                    values = choices.offered(option, terms, challenge.move_seconds)
                    terms = choices.chosen(option, terms, challenge.move_seconds, choice)
                except ValueError:
                    raise StaleAction() from None
                if option == "level":
                    level = values[choice]
                    assert isinstance(level, int)
                    target_id = computer_id(level)
                if option == "stake" and terms.stake:
                    held = await chips.balance(self._store, user_id, self._clock())
                    if held < terms.stake:
                        user = await self._users.get(user_id)
                        raise NotEnoughChips(name=user.mention if user else "?", chips=held)
                    terms = replace(terms, hints=False)  # a stake turns hints off (fair play)
            else:
                terms = switched(challenge, option)
            changed = replace(challenge, target_id=target_id, terms=terms)
            return await self._save_challenge(changed, challenge.version)

    async def decline(
        self,
        challenge_id: int,
        user_id: int,
        version: int | None = None,
        *,
        where: int | None = None,
        is_member: MemberCheck | None = None,
    ) -> Challenge:
        """The challenged user declines, or the challenger withdraws the challenge, by a
        button drawn for ``version`` (None: as it is now) in chat ``where`` (None: where it
        was made), which outside a group needs ``is_member``. An open challenge names nobody:
        only its challenger can close it (anyone else just does not accept it).

        :raises: :exc:`TermsChanged`, :exc:`NotAMember`, :exc:`NotForYou`.
        """
        async with self._one_at_a_time(challenge_id):
            challenge = await self._open_challenge(challenge_id, version)
            await self.check_member(challenge, user_id, where=where, is_member=is_member)
            named = challenge.target_id is not None or challenge.target_username is not None
            if user_id == challenge.challenger_id:
                status = ChallengeStatus.CANCELLED
            elif named and self._is_target(challenge, user_id, await self._users.get(user_id)):
                status = ChallengeStatus.DECLINED
            else:
                raise NotForYou()
            return await self._save_challenge(replace(challenge, status=status), challenge.version)

    @asynccontextmanager
    async def accepting(
        self,
        challenge_id: int,
        user: User,
        version: int | None = None,
        *,
        where: int | None = None,
        is_member: MemberCheck | None = None,
        chat_instance: str | None = None,
    ) -> AsyncIterator[Acceptance]:
        """Holds the challenge while ``user`` accepts it: yields who plays which side and where
        the boards go, for the caller (:meth:`.lobby.Lobby.accept`) to start the game and
        then :meth:`close_accepted` the challenge, in one transaction, before leaving. The
        challenger plays white; from a position, the challenger plays its side to move, which
        rolls first. A challenge to the computer is started by its challenger. An inline
        invitation's game is played in its inline message, in the chat Telegram's
        ``chat_instance`` of the accepting tap names.

        ``version``: the one the Accept button was drawn for (None: the terms as they are, for
        an inline invitation, whose terms never change); ``where``: the chat of the tap (None:
        where the challenge was made), which for a group's challenge outside the group needs
        ``is_member``.

        :raises: :exc:`OwnChallenge`, :exc:`NotForYou`, :exc:`ChallengeClosed`,
            :exc:`TermsChanged`, :exc:`NotAMember`, :exc:`NotEnoughChips`.
        """
        async with self._one_at_a_time(challenge_id):
            challenge = await self._open_challenge(challenge_id, version)
            await self.check_member(challenge, user.id, where=where, is_member=is_member)
            if challenge.inline_message_id is not None and chat_instance is None:
                raise StaleAction()  # joined only by a tap on its own inline message
            computer = challenge.computer_level is not None
            if computer:
                if user.id != challenge.challenger_id:
                    raise NotForYou()
                assert challenge.target_id is not None
                opponent_id = challenge.target_id
            else:
                if user.id == challenge.challenger_id:
                    raise OwnChallenge()
                if not self._is_target(challenge, user.id, user):
                    raise NotForYou()
                opponent_id = user.id
            terms = challenge.terms
            if terms.stake:
                now = self._clock()
                for player_id in (challenge.challenger_id, user.id):
                    held = await chips.balance(self._store, player_id, now)
                    if held < terms.stake:
                        player = await self._users.get(player_id)
                        raise NotEnoughChips(name=player.mention if player else "?", chips=held)
            mine = terms.start.turn if terms.start is not None else Side.WHITE
            white_id, black_id = (
                (challenge.challenger_id, opponent_id)
                if mine is Side.WHITE
                else (opponent_id, challenge.challenger_id)
            )
            private = challenge.chat_id == challenge.challenger_id
            boards: list[tuple[int, Side]]
            if challenge.inline_message_id is not None:
                boards = []  # the inline message is its only board
            elif not private:
                boards = [(challenge.chat_id, Side.WHITE)]
            elif computer:
                boards = [(challenge.challenger_id, mine)]
            else:
                boards = [(challenge.challenger_id, mine), (user.id, mine.other)]
            yield Acceptance(
                challenge=challenge,
                opponent_id=opponent_id,
                white_id=white_id,
                black_id=black_id,
                chat_id=0 if private else challenge.chat_id,
                boards=boards,
                chat_instance=chat_instance if challenge.inline_message_id else None,
            )

    async def close_accepted(self, accepted: Acceptance, game_id: int) -> Challenge:
        """Closes the challenge of ``accepted`` as accepted, its game ``game_id``; inside
        :meth:`accepting`. Returns it closed."""
        challenge = accepted.challenge
        return await self._save_challenge(
            replace(
                challenge,
                status=ChallengeStatus.ACCEPTED,
                target_id=accepted.opponent_id,
                game_id=game_id,
            ),
            challenge.version,
        )

    async def expire(self) -> list[Challenge]:
        """Closes the challenges whose time ran out; returns them as closed."""
        closed = []
        for challenge in await self._store.challenges.expired(self._clock()):
            held = self._store.attempt("challenge", challenge.id)
            async with self._locks.hold(challenge.id), held as claimed:
                if not claimed:
                    continue  # another worker is closing it
                try:
                    closed.append(
                        await self._save_challenge(
                            replace(challenge, status=ChallengeStatus.EXPIRED), challenge.version
                        )
                    )
                except StaleAction:
                    continue
        return closed

    async def _open_challenge(self, challenge_id: int, version: int | None = None) -> Challenge:
        challenge = await self.get(challenge_id)
        if not challenge.is_open or challenge.expires_at <= self._clock():
            raise ChallengeClosed()
        if version is not None and challenge.version != version:
            drawn = await self._store.challenges.at_version(challenge, version)
            if drawn is None:
                raise StaleAction()  # a version it never had open: forged
            if replace(drawn, version=challenge.version) != challenge:
                raise TermsChanged(drawn, challenge)
            # the same terms again (an option cycled round): what the button showed is offered
        return challenge

    async def _save_challenge(self, challenge: Challenge, version: int) -> Challenge:
        try:
            return await self._store.challenges.save(challenge, expected_version=version)
        except VersionConflict:
            raise StaleAction() from None

    @staticmethod
    def _is_target(challenge: Challenge, user_id: int, user: User | None) -> bool:
        if challenge.target_id is not None:
            return challenge.target_id == user_id
        if challenge.target_username is not None:
            return bool(user and user.username == challenge.target_username)
        return True  # an open challenge: anyone but the challenger
