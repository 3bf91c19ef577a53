"""Watchers: people who follow a game between private chats on a board of their own. No
Telegram here.

A game played between private chats is open to watchers unless its players made it private
at the challenge (:attr:`~bot.model.StoredGame.watchable`). A watcher gets a board in their
private chat (a board row marked as a watcher's), which the publisher shows after the
players' boards and at a share of the pace of its own; up to :data:`MAX_WATCHERS` a game.
Watching is by the game's id alone: whoever has the link (or guesses the number) may watch an
open game, as anyone in a group sees a group's board.
"""

from __future__ import annotations

from typing import Final

from bot.model import Store, StoredGame, WatchResult

from .errors import (
    GameFinished,
    PrivateGame,
    TooManyWatchers,
    WatchingGroupGame,
    WatchingOwnGame,
)

MAX_WATCHERS: Final = 50
"""Watchers a game may have. Each one costs an edit of every change, at the watchers' share
of Telegram's overall pace (a third of 30 a second: 50 watchers catch up in about 4 s)."""


class Watchers:
    """Who watches which game (game ids and domain values in and out)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def add(self, stored: StoredGame, user_id: int) -> bool:
        """Makes ``user_id`` a watcher of game ``stored``, in their private chat; returns
        whether they were not watching it yet (watching twice changes nothing).

        :raises: :exc:`WatchingGroupGame` (a group's or an inline game); :exc:`WatchingOwnGame`
            for one of its players; :exc:`PrivateGame`; :exc:`GameFinished`;
            :exc:`TooManyWatchers` when it has :data:`MAX_WATCHERS`. A refusal changes nothing.
        """
        if not stored.between_private_chats:  # a group's or an inline message's board
            raise WatchingGroupGame()
        if stored.side_of(user_id) is not None:
            raise WatchingOwnGame()
        if not stored.watchable:  # before the result: a private game's outcome is its players'
            raise PrivateGame()
        if stored.game.is_over:
            raise GameFinished()
        added = await self._store.games.add_watcher(stored.id, user_id, limit=MAX_WATCHERS)
        if added is WatchResult.FULL:
            raise TooManyWatchers(limit=MAX_WATCHERS)
        return added is WatchResult.ADDED

    async def unwatch(self, user_id: int, game_id: int | None = None) -> list[int]:
        """Stops ``user_id`` watching game ``game_id`` (every game, without one); returns the
        games still being played that they no longer watch. Their boards keep the last state
        they showed."""
        return await self._store.games.remove_watcher(user_id, game_id)
