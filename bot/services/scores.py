"""Scores, ratings, chips and history for the bot's commands: reads, and the group leagues.

Nothing here changes a game; results are written by :class:`~bot.services.GameService` in the
transaction that ends a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine import Side
from bot.model import (
    ChipFlag,
    FinishedGame,
    LedgerEntry,
    MatchRecord,
    PlayerStats,
    RatedPlayer,
    Rating,
    Standing,
    Store,
    Tally,
    User,
)

from . import chips
from .dice_stats import DiceStats, of_counts
from .errors import GameNotFound, NotAPlayer, NotVerifiable, NotYourGame, StaleAction
from .export import GameFile, file_name, moves_file


@dataclass(frozen=True, slots=True)
class ChipStatement:
    """A balance and its latest changes, newest first, each with the other player of a game's
    transfer (None for grants, or a user no longer known)."""

    balance: int
    entries: tuple[tuple[LedgerEntry, User | None], ...]


@dataclass(frozen=True, slots=True)
class DiceCheck:
    """What ``/verify`` shows of a game's fair dice: the commitment and the client value, how
    many rolls and dice so far, and the seed (hex) once the game is over, else None."""

    game_id: int
    over: bool
    commitment: str
    client: str
    rolls: int
    dice: int
    seed: str | None
    file_name: str


class ScoreService:
    """Tallies, standings, ratings, balances, flags, game lists and moves files."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def head_to_head(self, user_id: int, other_id: int) -> Tally:
        """Finished games between two players, from ``user_id``'s side."""
        return await self._store.games.head_to_head(user_id, other_id)

    async def latest_match(self, user_id: int, other_id: int) -> tuple[MatchRecord, Side] | None:
        """The latest match between two players, and the side ``user_id`` plays in it."""
        found = await self._store.matches.latest_between(user_id, other_id)
        if found is None:
            return None
        record, white_id = found
        return record, Side.WHITE if white_id == user_id else Side.BLACK

    async def stats(self, user_id: int) -> PlayerStats:
        """The user's record over all finished games: results, mars and koks both ways,
        streaks and ratings."""
        return await self._store.stats.player(user_id)

    async def top(self, chat_id: int, limit: int = 10) -> list[Standing]:
        """The chat's leaderboard by net points."""
        return await self._store.games.top(chat_id, limit)

    async def top_in_instance(self, chat_instance: str, limit: int = 10) -> list[Standing]:
        """The leaderboard of the inline games played in the chat Telegram calls
        ``chat_instance``, by net points."""
        return await self._store.games.top_in_instance(chat_instance, limit)

    async def rating(self, user_id: int, variant: str) -> Rating:
        """The user's rating in ``variant``."""
        return await self._store.ratings.get(user_id, variant)

    async def balance(self, user_id: int) -> int:
        """The user's chips (granted and topped up when due)."""
        return await chips.balance(self._store, user_id, self._clock())

    async def ledger(self, user_id: int, limit: int = 10) -> list[LedgerEntry]:
        """The user's latest balance changes, newest first."""
        return await self._store.chips.entries(user_id, limit)

    async def flags(self, chat_id: int) -> list[ChipFlag]:
        """Transfers held back as possible chip dumping in games of the chat."""
        return await self._store.chips.flags(chat_id)

    async def top_rated(self, chat_id: int, variant: str, limit: int = 10) -> list[RatedPlayer]:
        """The chat's players by their rating in ``variant``."""
        return await self._store.stats.top_rated(chat_id, variant, limit)

    async def recent_games(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[FinishedGame]:
        """The latest finished games of a chat, or of a user anywhere; newest first."""
        return await self._store.stats.recent(chat_id=chat_id, user_id=user_id, limit=limit)

    async def chip_statement(self, user_id: int, limit: int = 5) -> ChipStatement:
        """The user's balance (granted and topped up when due) and its latest changes."""
        balance = await self.balance(user_id)
        entries = await self.ledger(user_id, limit)
        others: dict[int, User | None] = {}
        for entry in entries:
            if entry.other_id is not None and entry.other_id not in others:
                others[entry.other_id] = await self._store.users.get(entry.other_id)
        return ChipStatement(
            balance,
            tuple((e, others.get(e.other_id) if e.other_id else None) for e in entries),
        )

    async def moves_file(self, game_id: int, *, user_id: int, chat_id: int) -> GameFile:
        """The moves file of a finished game, for ``user_id`` asking in ``chat_id``: a player
        gets it anywhere, anyone else only in the group where the game was played.

        :raises: :exc:`GameNotFound`, :exc:`NotAPlayer`, :exc:`StaleAction` if the game is not
            over.
        """
        stored = await self._store.games.get(game_id)
        if stored is None:
            raise GameNotFound()
        in_its_group = stored.chat_id != 0 and stored.chat_id == chat_id
        if stored.side_of(user_id) is None and not in_its_group:
            raise NotAPlayer()
        if not stored.game.is_over:
            raise StaleAction()
        white = await self._store.users.get(stored.white_id)
        black = await self._store.users.get(stored.black_id)
        match = await self._store.matches.get(stored.match_id) if stored.match_id else None
        return moves_file(stored, white, black, match)

    async def dice_check(self, game_id: int, *, user_id: int, chat_id: int) -> DiceCheck:
        """The fair dice of game ``game_id`` for ``user_id`` asking in ``chat_id``: a player
        may ask anywhere, anyone else in the group where the game is played. The seed is in it
        only once the game is over.

        :raises: :exc:`GameNotFound`, :exc:`NotYourGame`, :exc:`NotVerifiable` for a game from
            before fair dice.
        """
        stored = await self._store.games.get(game_id)
        if stored is None:
            raise GameNotFound()
        in_its_group = stored.chat_id != 0 and stored.chat_id == chat_id
        if stored.side_of(user_id) is None and not in_its_group:
            raise NotYourGame(game=game_id)
        proof = stored.dice_proof
        if proof is None:
            raise NotVerifiable(game=game_id)
        return DiceCheck(
            game_id=game_id,
            over=stored.game.is_over,
            commitment=proof.commitment,
            client=proof.client,
            rolls=len(proof.rolls),
            dice=proof.count,
            seed=stored.revealed_seed,
            file_name=file_name(game_id),
        )

    async def dice_stats(self, user_id: int) -> DiceStats:
        """The user's own dice over their finished games with fair dice (counted as each game
        ended: one row read, whatever the number of games)."""
        return of_counts(await self._store.stats.rolls(user_id))
