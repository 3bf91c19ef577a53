"""Inline games: an invitation a user posts through the bot in any chat (inline mode), and the
game played in that one message. No Telegram here.

The invitation is a message the user sends "via" the bot, which the bot may then edit by its
``inline_message_id``; the challenge is made when Telegram reports the chosen result, with that
id, and the game is played in that message like a group game. The bot then edits the invitation
to show the dice's commitment (:mod:`bot.engine.fair`), with buttons that carry its
:func:`seal`: a Join without the seal (the buttons as posted) is refused with
:exc:`~.errors.CommitmentNotShown`, so the Join tap's id (the dice's client value) comes after
the commitment was shown. The Join tap records the chat's ``chat_instance`` on the game, for the
pace of the board's edits and the chat's leaderboard.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bot.model import Challenge, IntegrityError, Store, Terms, User

from .challenges import Challenges
from .errors import (
    InvitationNotFound,
    NotForYou,
    StaleAction,
)

SEAL_DIGITS: Final = 12
"""Hex digits of the commitment a seal holds: 48 bits, which no one guesses, in 15 decimal
digits of callback data."""


def seal(challenge: Challenge) -> int:
    """The number that a Join drawn under ``challenge``'s commitment carries: the commitment's
    first :data:`SEAL_DIGITS` hex digits (0 for a challenge without one, which no Join may
    carry)."""
    shown = challenge.dice_commitment
    return int(shown[:SEAL_DIGITS], 16) if shown is not None else 0


class InlineGames:
    """Inline invitations: made from a chosen result, joined or declined by a tap on them."""

    def __init__(self, store: Store, challenges: Challenges) -> None:
        self._store = store
        self._challenges = challenges

    async def invite(
        self,
        *,
        inline_message_id: str,
        challenger: User,
        target_username: str | None,
        locale: str,
        terms: Terms,
    ) -> Challenge:
        """The challenge shown by the inline message that ``challenger`` posted, to
        ``target_username`` only or (None) to the first other person who joins. A chosen
        result reported twice makes one challenge.

        :raises: :exc:`~.errors.SelfChallenge`, :exc:`~.errors.BotChallenge` (the inline query
            offers neither, but a chosen result can name any query).
        """
        found = await self._store.challenges.by_inline_message(inline_message_id)
        if found is not None:
            return found
        try:
            return await self._challenges.open(
                chat_id=0,
                challenger=challenger,
                target_username=target_username,
                locale=locale,
                terms=replace(terms, stake=0),  # no chips change hands in a chat not the bot's
                inline_message_id=inline_message_id,
            )
        except IntegrityError:  # the same report, handled at the same moment elsewhere
            again = await self._store.challenges.by_inline_message(inline_message_id)
            if again is None:
                raise
            return again

    async def invitation(self, inline_message_id: str, challenger_id: int) -> Challenge:
        """The challenge shown by the inline message whose button named ``challenger_id``.

        :raises: :exc:`InvitationNotFound`; :exc:`StaleAction` if the button names someone
            else (forged).
        """
        challenge = await self._store.challenges.by_inline_message(inline_message_id)
        if challenge is None:
            raise InvitationNotFound()
        if challenge.challenger_id != challenger_id:
            raise StaleAction()
        return challenge

    async def decline(self, inline_message_id: str, challenger_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the invitation, or the friend it is reserved for declines;
        an open invitation cannot be closed by anyone else (it is anyone's to join).

        :raises: :exc:`InvitationNotFound`, :exc:`StaleAction`, :exc:`NotForYou`,
            :exc:`~.errors.ChallengeClosed`.
        """
        challenge = await self.invitation(inline_message_id, challenger_id)
        open_to_all = challenge.target_id is None and challenge.target_username is None
        if open_to_all and user_id != challenge.challenger_id:
            raise NotForYou()
        return await self._challenges.decline(challenge.id, user_id)
