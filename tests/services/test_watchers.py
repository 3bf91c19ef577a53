"""Watchers on both backends: who may watch which game, the choice at the challenge, and what a
match's next game and a rematch keep of it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.model import User
from bot.services import Services, Terms
from bot.services.errors import (
    GameFinished,
    GameNotFound,
    PrivateGame,
    StaleAction,
    TooManyWatchers,
    WatchingGroupGame,
    WatchingOwnGame,
)
from bot.services.inline import seal
from bot.services.watchers import MAX_WATCHERS

from .conftest import World

DAY = 86_400


async def _private_game(
    services: Services, anna: User, boris: User, terms: Terms | None = None
) -> int:
    # by mail: the same two play several at once
    terms = replace(terms or Terms(), move_seconds=DAY)
    challenge = await services.challenges.open(
        chat_id=anna.id, challenger=anna, target=boris, locale="en", terms=terms
    )
    _, snapshot = await services.lobby.accept(challenge.id, boris)
    return snapshot.stored.id


async def test_who_may_watch_which_game(world: World) -> None:
    services, _clock, (anna, boris, vera) = world
    service = services.games
    open_game = await _private_game(services, anna, boris)
    snapshot, added = await services.lobby.watch(open_game, vera.id)
    assert added and snapshot.stored.id == open_game
    assert not (await services.lobby.watch(open_game, vera.id))[1]  # twice: nothing new
    boards = await services.board_messages.boards(open_game)
    assert [(b.chat_id, b.watcher) for b in boards] == [(1, False), (2, False), (3, True)]
    with pytest.raises(WatchingOwnGame):
        await services.lobby.watch(open_game, boris.id)
    with pytest.raises(GameNotFound):
        await services.lobby.watch(open_game + 100, vera.id)
    private_game = await _private_game(services, anna, boris, Terms(watchable=False))
    with pytest.raises(PrivateGame):
        await services.lobby.watch(private_game, vera.id)
    group = await services.challenges.open(
        chat_id=-5, challenger=anna, target=boris, locale="en", terms=Terms(move_seconds=DAY)
    )
    _, in_group = await services.lobby.accept(group.id, boris)
    with pytest.raises(WatchingGroupGame):
        await services.lobby.watch(in_group.stored.id, vera.id)
    made = await services.inline_games.invite(
        inline_message_id="BAAAA0001Fake",
        challenger=anna,
        target_username=None,
        locale="en",
        terms=Terms(),
    )
    _, inline = await services.lobby.join(
        "BAAAA0001Fake", anna.id, boris, chat_instance="-77", shown_seal=seal(made)
    )
    assert inline.stored.chat_id == 0  # no chat, but not between private chats either
    with pytest.raises(WatchingGroupGame):
        await services.lobby.watch(inline.stored.id, vera.id)
    await service.resign(open_game, anna.id)
    with pytest.raises(GameFinished):
        await services.lobby.watch(open_game, 4)
    assert await services.watchers.unwatch(vera.id) == []  # the game she watched is over
    assert len(await services.board_messages.boards(open_game)) == 2


async def test_a_game_takes_fifty_watchers(world: World) -> None:
    services, _clock, (anna, boris, _vera) = world
    game_id = await _private_game(services, anna, boris)
    for watcher in range(100, 100 + MAX_WATCHERS):
        await services.users.see(watcher, username=None, first_name="W", language_code=None)
        await services.lobby.watch(game_id, watcher)
    with pytest.raises(TooManyWatchers):
        await services.lobby.watch(game_id, 3)
    assert await services.watchers.unwatch(100, game_id) == [game_id]
    assert (await services.lobby.watch(game_id, 3))[1]  # a place came free


async def test_the_challenger_chooses_and_the_next_games_keep_it(world: World) -> None:
    services, _clock, (anna, boris, vera) = world
    service = services.games
    challenge = await services.challenges.open(
        chat_id=anna.id, challenger=anna, target=boris, locale="en", terms=Terms(match_length=3)
    )
    assert challenge.terms.watchable
    challenge = await services.challenges.change_option(
        challenge.id, anna.id, challenge.version, "watchable"
    )
    assert not challenge.terms.watchable
    group = await services.challenges.open(chat_id=-5, challenger=anna, target=vera, locale="en")
    with pytest.raises(StaleAction):  # a group sees its board: nothing to keep private there
        await services.challenges.change_option(group.id, anna.id, group.version, "watchable")
    challenge = await services.challenges.change_option(
        challenge.id, anna.id, challenge.version, "watchable"
    )
    _, snapshot = await services.lobby.accept(challenge.id, boris)
    assert snapshot.stored.watchable and snapshot.stored.between_private_chats
    await services.lobby.watch(snapshot.stored.id, vera.id)
    await service.resign(snapshot.stored.id, boris.id)
    following = await service.next_game(snapshot.stored.id, anna.id)
    assert following.stored.watchable
    boards = await services.board_messages.boards(following.stored.id)
    assert [b.chat_id for b in boards] == [anna.id, boris.id]  # watchers watched one game
    rematch = await services.lobby.rematch(snapshot.stored.id, anna, chat_id=anna.id, locale="en")
    assert rematch.terms.watchable and rematch.in_private_chat
