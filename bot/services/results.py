"""What a finished game's result changes, inside the transaction that saves it: its match's
score, its tournament's board, and, for a rated game, both players' ratings and the queue of
automatic analyses. No Telegram here."""

from __future__ import annotations

from dataclasses import replace

from bot.engine import Side
from bot.model import Store, StoredGame

from . import chips, fairplay
from .autoanalysis import AutoAnalyses
from .ratings import REPEAT_WINDOW_SECONDS, rate_game, repeat_weight


class Results:
    """Records results; each method runs inside the caller's transaction, with both players
    locked (:meth:`~bot.model.Store.lock_players`)."""

    def __init__(self, store: Store, auto_analyses: AutoAnalyses) -> None:
        self._store = store
        self._auto_analyses = auto_analyses

    async def record(self, stored: StoredGame, now: float) -> None:
        """Adds a finished game to its match, to its tournament's board and, unless conceded
        early, to the ratings, weighed by the two players' other rated games together of late
        (:func:`~.ratings.repeat_weight`)."""
        result = stored.game.result
        assert result is not None
        match_over = False
        if stored.match_id is not None:
            record = await self._store.matches.get(stored.match_id)
            if record is not None and not record.match.is_over:
                match = record.match.after_game(result.winner, result.points)
                await self._store.matches.save(stored.match_id, match, now=now)
                match_over = match.is_over
        # a tournament's board is decided by its game (or its match's last), in this
        # transaction: a result saved once is counted once; early concessions count there
        await self._store.tournaments.game_result(
            stored, winner_id=stored.player(result.winner), match_over=match_over
        )
        if chips.is_early_concession(stored):
            return
        if stored.level(Side.WHITE) or stored.level(Side.BLACK):
            return  # games with the computer are counted apart, never in ratings
        if not fairplay.rated(stored):
            return  # played on from a position someone chose, or with hints: not rated
        variant = stored.game.variant
        winner, loser = stored.player(result.winner), stored.player(result.winner.other)
        ratings = self._store.ratings
        # the same two accounts again and again count less (a second account, a pool that
        # keeps pairing them): their rated games of the last 30 days weigh this one
        together = await self._store.games.finished_between(
            winner, loser, variant, now - REPEAT_WINDOW_SECONDS, besides=stored.id
        )
        earlier = [
            game.finished_at
            for game in together
            if game.finished_at is not None and not chips.is_early_concession(game)
        ]
        won, lost = rate_game(
            await ratings.get(winner, variant),
            await ratings.get(loser, variant),
            repeat_weight(earlier, now),
        )
        await ratings.set(winner, variant, won)
        await ratings.set(loser, variant, lost)
        await self._auto_analyses.queue(stored, now)  # its luck and PR, once analysed

    async def end_match(self, stored: StoredGame, winner: Side, now: float) -> bool:
        """The match of ``stored`` (its latest game) is won by ``winner`` now, whatever the
        score, and the tournament's board it decides is decided. False when it was over
        already."""
        assert stored.match_id is not None
        record = await self._store.matches.get(stored.match_id)
        if record is None or record.match.is_over:
            return False
        match = record.match
        if winner is Side.WHITE:
            won = replace(match, white=match.length)
        else:
            won = replace(match, black=match.length)
        await self._store.matches.save(stored.match_id, won, now=now)
        await self._store.tournaments.game_result(
            stored, winner_id=stored.player(winner), match_over=True
        )
        return True
