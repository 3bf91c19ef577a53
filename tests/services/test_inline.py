"""Inline invitations on both backends: made once from a chosen result, joined by the first other
person (or the friend named), watched by everyone else, their games counted per chat_instance."""

from __future__ import annotations

import pytest

from bot.model import ChallengeStatus, User
from bot.services import Scores, Terms
from bot.services.errors import (
    CommitmentNotShown,
    InvitationNotFound,
    NotAPlayer,
    NotForYou,
    OwnChallenge,
    StaleAction,
    Watching,
)
from bot.services.inline import seal

from .conftest import World

INLINE = "BAAAA0001FakeInline"
CHAT = "-5557779991"


async def test_an_open_invitation_is_joined_once_and_then_watched(
    world: World, scores: Scores
) -> None:
    services, _clock, (anna, boris, vera) = world
    service = services.games
    terms = Terms(variant="short", match_length=3)
    made = await services.inline_games.invite(
        inline_message_id=INLINE, challenger=anna, target_username=None, locale="ru", terms=terms
    )
    again = await services.inline_games.invite(
        inline_message_id=INLINE, challenger=anna, target_username=None, locale="ru", terms=terms
    )  # the chosen result reported twice
    assert again.id == made.id and made.chat_id == 0 and made.inline_message_id == INLINE
    shown = seal(made)  # what the invitation's buttons carry once it shows the commitment
    assert shown > 0 and made.dice_commitment is not None
    assert shown == int(made.dice_commitment[:12], 16)
    with pytest.raises(InvitationNotFound):
        await services.lobby.join(
            "no such message", anna.id, boris, chat_instance=CHAT, shown_seal=0
        )
    with pytest.raises(StaleAction):  # a button naming someone else's invitation
        await services.lobby.join(INLINE, boris.id, boris, chat_instance=CHAT, shown_seal=shown)
    with pytest.raises(OwnChallenge):
        await services.lobby.join(INLINE, anna.id, anna, chat_instance=CHAT, shown_seal=shown)
    # a Join drawn before the commitment showed, or with a seal that is not the commitment's
    with pytest.raises(CommitmentNotShown):
        await services.lobby.join(INLINE, anna.id, boris, chat_instance=CHAT, shown_seal=0)
    with pytest.raises(StaleAction):
        await services.lobby.join(INLINE, anna.id, boris, chat_instance=CHAT, shown_seal=shown ^ 1)
    assert (await services.challenges.get(made.id)).status is ChallengeStatus.OPEN
    with pytest.raises(StaleAction):  # an inline invitation is joined on its own message only
        await services.lobby.accept(made.id, boris)
    with pytest.raises(NotForYou):  # an open invitation is not Vera's to close
        await services.inline_games.decline(INLINE, anna.id, vera.id)
    closed, snapshot = await services.lobby.join(
        INLINE, anna.id, boris, chat_instance=CHAT, shown_seal=shown
    )
    assert closed.status is ChallengeStatus.ACCEPTED
    stored = snapshot.stored
    assert (stored.chat_id, stored.chat_instance, stored.white_id) == (0, CHAT, anna.id)
    [board] = await services.board_messages.boards(stored.id)
    assert (board.chat_id, board.message_id, board.inline_message_id) == (0, None, INLINE)
    with pytest.raises(Watching):  # Vera came too late
        await services.lobby.join(INLINE, anna.id, vera, chat_instance=CHAT, shown_seal=shown)
    with pytest.raises(NotAPlayer):
        await service.resign(stored.id, vera.id)
    # the match goes on in the same inline message, in the same chat
    loser = stored.player(stored.game.turn)
    await service.resign(stored.id, loser)
    following = await service.next_game(stored.id, loser)
    assert following.stored.chat_instance == CHAT
    [board] = await services.board_messages.boards(following.stored.id)
    assert board.inline_message_id == INLINE and board.shown_version is None
    # counted in this chat's leaderboard (and in no group's)
    [first, second] = await scores.top_in_instance(CHAT)
    assert {first.user.id, second.user.id} == {anna.id, boris.id}
    assert first.games == 1 and first.wins == 1 and first.points > 0
    assert await scores.top_in_instance("another chat") == []


async def test_a_reserved_invitation_is_the_friends_alone(world: World) -> None:
    services, _clock, (anna, boris, vera) = world
    made = await services.inline_games.invite(
        inline_message_id=INLINE,
        challenger=anna,
        target_username="boris",
        locale="en",
        terms=Terms(stake=100),
    )
    assert made.terms.stake == 0  # no chips in a chat that is not the bot's
    for refused in (
        services.lobby.join(INLINE, anna.id, vera, chat_instance=CHAT, shown_seal=seal(made)),
        services.inline_games.decline(INLINE, anna.id, vera.id),
    ):
        with pytest.raises(NotForYou):
            await refused
    declined = await services.inline_games.decline(INLINE, anna.id, boris.id)
    assert declined.status is ChallengeStatus.DECLINED


async def test_a_stranger_named_in_an_invitation_joins_once_seen(world: World) -> None:
    services, _clock, (anna, _boris, _vera) = world
    made = await services.inline_games.invite(
        inline_message_id=INLINE,
        challenger=anna,
        target_username="dasha",
        locale="en",
        terms=Terms(),
    )
    dasha: User = await services.users.see(4, username="Dasha", first_name="D", language_code=None)
    _closed, snapshot = await services.lobby.join(
        INLINE, anna.id, dasha, chat_instance=CHAT, shown_seal=seal(made)
    )
    assert snapshot.stored.black_id == dasha.id


async def test_scores_of_inline_games_are_kept_per_chat_instance(
    world: World, scores: Scores
) -> None:
    services, _clock, (anna, boris, vera) = world
    service = services.games
    for number, (host, guest, chat) in enumerate(
        ((anna, boris, "chat-1"), (anna, vera, "chat-2"), (boris, vera, "chat-1"))
    ):
        inline = f"inline-{number}"
        made = await services.inline_games.invite(
            inline_message_id=inline, challenger=host, target_username=None, locale="en",
            terms=Terms(),
        )  # fmt: skip
        _closed, snapshot = await services.lobby.join(
            inline, host.id, guest, chat_instance=chat, shown_seal=seal(made)
        )
        await service.resign(snapshot.stored.id, guest.id)  # the host wins
    standings = await scores.top_in_instance("chat-1")
    assert [(s.user.id, s.wins, s.games) for s in standings][:1] == [(anna.id, 1, 1)]
    assert {s.user.id for s in standings} == {anna.id, boris.id, vera.id}
    assert {s.user.id for s in await scores.top_in_instance("chat-2")} == {anna.id, vera.id}
