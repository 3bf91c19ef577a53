"""Watchers on both backends: who may watch which game, the choice at the challenge, and what a
match's next game and a rematch keep of it."""

from __future__ import annotations

import pytest

from bot.model import User
from bot.services import GameService, Terms
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


async def _private_game(
    service: GameService, anna: User, boris: User, terms: Terms | None = None
) -> int:
    challenge = await service.challenges.open(
        chat_id=anna.id, challenger=anna, target=boris, locale="en", terms=terms or Terms()
    )
    _, snapshot = await service.challenges.accept(challenge.id, boris)
    return snapshot.stored.id


async def test_who_may_watch_which_game(world) -> None:  # type: ignore[no-untyped-def]
    service: GameService
    service, _clock, (anna, boris, vera) = world
    open_game = await _private_game(service, anna, boris)
    snapshot, added = await service.watchers.watch(open_game, vera.id)
    assert added and snapshot.stored.id == open_game
    assert not (await service.watchers.watch(open_game, vera.id))[1]  # twice: nothing new
    boards = await service.boards(open_game)
    assert [(b.chat_id, b.watcher) for b in boards] == [(1, False), (2, False), (3, True)]
    with pytest.raises(WatchingOwnGame):
        await service.watchers.watch(open_game, boris.id)
    with pytest.raises(GameNotFound):
        await service.watchers.watch(open_game + 100, vera.id)
    private_game = await _private_game(service, anna, boris, Terms(watchable=False))
    with pytest.raises(PrivateGame):
        await service.watchers.watch(private_game, vera.id)
    group = await service.challenges.open(chat_id=-5, challenger=anna, target=boris, locale="en")
    _, in_group = await service.challenges.accept(group.id, boris)
    with pytest.raises(WatchingGroupGame):
        await service.watchers.watch(in_group.stored.id, vera.id)
    made = await service.inline.invite(
        inline_message_id="BAAAA0001Fake",
        challenger=anna,
        target_username=None,
        locale="en",
        terms=Terms(),
    )
    _, inline = await service.inline.join(
        "BAAAA0001Fake", anna.id, boris, chat_instance="-77", shown_seal=seal(made)
    )
    assert inline.stored.chat_id == 0  # no chat, but not between private chats either
    with pytest.raises(WatchingGroupGame):
        await service.watchers.watch(inline.stored.id, vera.id)
    await service.resign(open_game, anna.id)
    with pytest.raises(GameFinished):
        await service.watchers.watch(open_game, 4)
    assert await service.watchers.unwatch(vera.id) == []  # the game she watched is over
    assert len(await service.boards(open_game)) == 2


async def test_a_game_takes_fifty_watchers(world) -> None:  # type: ignore[no-untyped-def]
    service: GameService
    service, _clock, (anna, boris, _vera) = world
    game_id = await _private_game(service, anna, boris)
    for watcher in range(100, 100 + MAX_WATCHERS):
        await service.users.see(watcher, username=None, first_name="W", language_code=None)
        await service.watchers.watch(game_id, watcher)
    with pytest.raises(TooManyWatchers):
        await service.watchers.watch(game_id, 3)
    assert await service.watchers.unwatch(100, game_id) == [game_id]
    assert (await service.watchers.watch(game_id, 3))[1]  # a place came free


async def test_the_challenger_chooses_and_the_next_games_keep_it(world) -> None:  # type: ignore[no-untyped-def]
    service: GameService
    service, _clock, (anna, boris, vera) = world
    challenge = await service.challenges.open(
        chat_id=anna.id, challenger=anna, target=boris, locale="en", terms=Terms(match_length=3)
    )
    assert challenge.terms.watchable
    challenge = await service.challenges.change_option(
        challenge.id, anna.id, challenge.version, "watchable"
    )
    assert not challenge.terms.watchable
    group = await service.challenges.open(chat_id=-5, challenger=anna, target=vera, locale="en")
    with pytest.raises(StaleAction):  # a group sees its board: nothing to keep private there
        await service.challenges.change_option(group.id, anna.id, group.version, "watchable")
    challenge = await service.challenges.change_option(
        challenge.id, anna.id, challenge.version, "watchable"
    )
    _, snapshot = await service.challenges.accept(challenge.id, boris)
    assert snapshot.stored.watchable and snapshot.stored.between_private_chats
    await service.watchers.watch(snapshot.stored.id, vera.id)
    await service.resign(snapshot.stored.id, boris.id)
    following = await service.next_game(snapshot.stored.id, anna.id)
    assert following.stored.watchable
    boards = await service.boards(following.stored.id)
    assert [b.chat_id for b in boards] == [anna.id, boris.id]  # watchers watched one game
    rematch = await service.challenges.rematch(
        snapshot.stored.id, anna, chat_id=anna.id, locale="en"
    )
    assert rematch.terms.watchable and rematch.in_private_chat
