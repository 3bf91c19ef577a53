"""Tournaments in groups (migration 15): ``tournaments``, ``tournament_entrants``,
``tournament_pairings`` (a round's boards, each with the game that decides it),
``tournament_games`` (their games, for the group's league) and ``tournament_settings``.

What makes each step happen once across restarts and workers is here: a round's boards have
the primary key (tournament, round, board), so a second worker pairing the same round fails
and rolls back whatever it started with them; a board is decided only while undecided; the
tournament's row is saved only at the version read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine import DiceMode
from bot.model import (
    StoredGame,
    Terms,
    Tournament,
    TournamentEntrant,
    TournamentFormat,
    TournamentPairing,
    TournamentState,
    VersionConflict,
)

from . import totals

if TYPE_CHECKING:
    from .database import Database, Row


class TournamentRepository:
    """Tournaments with their entrants and boards (see the model's protocol)."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def create(
        self,
        *,
        chat_id: int,
        creator_id: int,
        format: TournamentFormat,
        terms: Terms,
        entry: int,
        starts_at: float | None,
        locale: str,
        now: float,
        picker_id: int | None = None,
    ) -> Tournament | None:
        """Stores a new tournament, open for sign-up; None when ``picker_id`` made one
        already (the unique index on the picker refuses a second)."""
        async with self._store.transaction(durable=True):
            row = await self._store.fetch_one(
                """INSERT INTO tournaments (chat_id, creator_id, format, variant, rule_set,
                       dice_mode, match_length, move_seconds, entry, starts_at, state, locale,
                       created_at, picker_id, message_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT DO NOTHING RETURNING id""",
                (
                    chat_id,
                    creator_id,
                    format.value,
                    terms.variant,
                    terms.rule_set,
                    terms.dice_mode.value,
                    terms.match_length,
                    terms.move_seconds,
                    entry,
                    starts_at,
                    TournamentState.SIGNUP.value,
                    locale,
                    now,
                    picker_id,
                    picker_id,
                ),
            )
        return None if row is None else await self.get(row["id"])

    async def by_picker(self, chat_id: int, picker_id: int) -> Tournament | None:
        row = await self._store.fetch_one(
            "SELECT * FROM tournaments WHERE chat_id = ? AND picker_id = ?", (chat_id, picker_id)
        )
        return _tournament(row) if row else None

    async def get(self, tournament_id: int) -> Tournament | None:
        row = await self._store.fetch_one(
            "SELECT * FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return _tournament(row) if row else None

    async def finished_games(self, tournament_id: int) -> list[int]:
        rows = await self._store.fetch_all(
            """SELECT DISTINCT g.id FROM tournament_pairings p JOIN games g
                   ON g.id = p.game_id OR (p.match_id IS NOT NULL AND g.match_id = p.match_id)
               WHERE p.tournament_id = ? AND g.winner IS NOT NULL ORDER BY g.id""",
            (tournament_id,),
        )
        return [row["id"] for row in rows]

    async def decided_on_time(self, tournament_id: int) -> set[tuple[int, int]]:
        rows = await self._store.fetch_all(
            """SELECT p.round_no, p.board FROM tournament_pairings p JOIN games g
                   ON (p.match_id IS NULL AND g.id = p.game_id)
                   OR (p.match_id IS NOT NULL AND g.match_id = p.match_id
                       AND g.game_no = (SELECT MAX(h.game_no) FROM games h
                                        WHERE h.match_id = p.match_id))
               WHERE p.tournament_id = ? AND p.decided = 1 AND g.outcome = 'timeout'""",
            (tournament_id,),
        )
        return {(int(row["round_no"]), int(row["board"])) for row in rows}

    async def in_chat(self, chat_id: int, limit: int = 10) -> list[Tournament]:
        """The group's tournaments, the newest first."""
        rows = await self._store.fetch_all(
            "SELECT * FROM tournaments WHERE chat_id = ? ORDER BY id DESC LIMIT ?",
            (chat_id, limit),
        )
        return [_tournament(row) for row in rows]

    async def save(self, tournament: Tournament, *, expected_version: int) -> Tournament:
        """Saves what changes over a tournament's life, at ``expected_version`` only."""
        changed = await self._store.write(
            """UPDATE tournaments SET state = ?, rounds = ?, round_no = ?, winner_id = ?,
                   finished_at = ?, prize = ?, version = version + 1
               WHERE id = ? AND version = ?""",
            (
                tournament.state.value,
                tournament.rounds,
                tournament.round,
                tournament.winner_id,
                tournament.finished_at,
                tournament.prize,
                tournament.id,
                expected_version,
            ),
            durable=True,
        )
        if changed != 1:
            raise VersionConflict()
        saved = await self.get(tournament.id)
        assert saved is not None
        return saved

    async def set_messages(
        self, tournament_id: int, *, message_id: int | None = None, pinned_id: int | None = None
    ) -> None:
        """Records the sign-up message and/or the pinned one (None leaves one as it is)."""
        await self._store.write(
            """UPDATE tournaments SET message_id = COALESCE(?, message_id),
                   pinned_id = COALESCE(?, pinned_id) WHERE id = ?""",
            (message_id, pinned_id, tournament_id),
        )

    async def mark_shown(self, tournament: Tournament) -> bool:
        """Marks ``tournament.version`` shown, unless that or a newer one is."""
        changed = await self._store.write(
            "UPDATE tournaments SET shown_version = ? WHERE id = ? AND shown_version < ?",
            (tournament.version, tournament.id, tournament.version),
        )
        return changed == 1

    async def behind(self) -> list[int]:
        """Started tournaments whose pinned message shows an older version."""
        rows = await self._store.fetch_all(
            """SELECT id FROM tournaments WHERE state IN ('running', 'finished')
                   AND shown_version < version ORDER BY id"""
        )
        return [row["id"] for row in rows]

    async def entrants(self, tournament_id: int) -> list[TournamentEntrant]:
        rows = await self._store.fetch_all(
            """SELECT * FROM tournament_entrants WHERE tournament_id = ?
               ORDER BY joined_at, user_id""",
            (tournament_id,),
        )
        return [
            TournamentEntrant(
                row["tournament_id"],
                row["user_id"],
                float(row["joined_at"]),
                float(row["rating"]),
                row["withdrawn"] != 0,
            )
            for row in rows
        ]

    async def entered(self, user_id: int) -> list[int]:
        """The tournaments in sign-up or running that the user is in (not withdrawn)."""
        rows = await self._store.fetch_all(
            """SELECT t.id FROM tournaments AS t
               JOIN tournament_entrants AS e ON e.tournament_id = t.id
               WHERE e.user_id = ? AND e.withdrawn = 0 AND t.state IN ('signup', 'running')
               ORDER BY t.id""",
            (user_id,),
        )
        return [row["id"] for row in rows]

    async def add_entrant(self, tournament_id: int, user_id: int, *, now: float) -> bool:
        changed = await self._store.write(
            """INSERT INTO tournament_entrants (tournament_id, user_id, joined_at)
               VALUES (?, ?, ?) ON CONFLICT (tournament_id, user_id) DO NOTHING""",
            (tournament_id, user_id, now),
        )
        return changed == 1

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        changed = await self._store.write(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )
        return changed == 1

    async def seed(self, tournament_id: int, ratings: dict[int, float]) -> None:
        await self._store.write_many(
            "UPDATE tournament_entrants SET rating = ? WHERE tournament_id = ? AND user_id = ?",
            [(rating, tournament_id, user_id) for user_id, rating in ratings.items()],
        )

    async def withdraw(self, tournament_id: int, user_id: int) -> bool:
        changed = await self._store.write(
            """UPDATE tournament_entrants SET withdrawn = 1
               WHERE tournament_id = ? AND user_id = ? AND withdrawn = 0""",
            (tournament_id, user_id),
        )
        return changed == 1

    async def pairings(self, tournament_id: int) -> list[TournamentPairing]:
        rows = await self._store.fetch_all(
            """SELECT * FROM tournament_pairings WHERE tournament_id = ?
               ORDER BY round_no, board""",
            (tournament_id,),
        )
        return [_pairing(row) for row in rows]

    async def add_pairings(self, pairings: Sequence[TournamentPairing]) -> None:
        """Stores a round's boards (a board there already raises IntegrityError)."""
        async with self._store.transaction():
            for p in pairings:
                await self._store.write(
                    """INSERT INTO tournament_pairings (tournament_id, round_no, board,
                           first_id, second_id, winner_id, decided)
                       VALUES (?, ?, ?, ?, ?, ?, ?)""",
                    (
                        p.tournament_id,
                        p.round,
                        p.board,
                        p.first_id,
                        p.second_id,
                        p.winner_id,
                        1 if p.decided else 0,
                    ),
                )

    async def set_game(
        self, pairing: TournamentPairing, game_id: int, match_id: int | None
    ) -> None:
        await self._store.write(
            """UPDATE tournament_pairings SET game_id = ?, match_id = ?
               WHERE tournament_id = ? AND round_no = ? AND board = ?""",
            (game_id, match_id, pairing.tournament_id, pairing.round, pairing.board),
        )

    async def game_result(
        self, game: StoredGame, *, winner_id: int, match_over: bool
    ) -> int | None:
        """Decides the board ``game`` decides (once), counts the game for the group's league
        and moves the tournament's version on; None for a game of no tournament."""
        if game.match_id is not None:
            row = await self._store.fetch_one(
                "SELECT * FROM tournament_pairings WHERE match_id = ?", (game.match_id,)
            )
        else:
            row = await self._store.fetch_one(
                "SELECT * FROM tournament_pairings WHERE game_id = ?", (game.id,)
            )
        if row is None:
            return None
        tournament_id = int(row["tournament_id"])
        tournament = await self._store.fetch_one(
            "SELECT chat_id FROM tournaments WHERE id = ?", (tournament_id,)
        )
        assert tournament is not None
        chat_id = int(tournament["chat_id"])
        added = await self._store.write(
            """INSERT INTO tournament_games (game_id, chat_id) VALUES (?, ?)
               ON CONFLICT (game_id) DO NOTHING""",
            (game.id, chat_id),
        )
        if added and chat_id != game.chat_id and totals.counts(game):  # in its group's league
            await totals.add_standing(self._store, game, chat_id=chat_id)
        if match_over or game.match_id is None:
            await self._store.write(
                """UPDATE tournament_pairings SET winner_id = ?, decided = 1
                   WHERE tournament_id = ? AND round_no = ? AND board = ? AND decided = 0""",
                (winner_id, tournament_id, row["round_no"], row["board"]),
            )
        await self._store.write(
            "UPDATE tournaments SET version = version + 1 WHERE id = ?", (tournament_id,)
        )
        return tournament_id

    async def decide(self, pairing: TournamentPairing, winner_id: int | None) -> bool:
        """Decides a board without a game (a forfeit); False if it was decided already."""
        changed = await self._store.write(
            """UPDATE tournament_pairings SET winner_id = ?, decided = 1
               WHERE tournament_id = ? AND round_no = ? AND board = ? AND decided = 0""",
            (winner_id, pairing.tournament_id, pairing.round, pairing.board),
        )
        return changed == 1

    async def due(self, now: float) -> list[int]:
        """Sign-ups due to start, and running tournaments whose round is all decided."""
        rows = await self._store.fetch_all(
            """SELECT id FROM tournaments t
               WHERE (state = 'signup' AND starts_at IS NOT NULL AND starts_at <= ?)
                  OR (state = 'running' AND NOT EXISTS (
                        SELECT 1 FROM tournament_pairings p
                        WHERE p.tournament_id = t.id AND p.round_no = t.round_no
                          AND p.decided = 0))
               ORDER BY id""",
            (now,),
        )
        return [row["id"] for row in rows]

    async def stalled_matches(self) -> list[tuple[int, int]]:
        """The latest games of running tournaments' matches that are undecided and have no
        game being played: each one's next game is to start."""
        rows = await self._store.fetch_all(
            """SELECT p.tournament_id, MAX(g.id) AS game_id FROM tournament_pairings p
               JOIN tournaments t ON t.id = p.tournament_id
               JOIN games g ON g.match_id = p.match_id
               WHERE t.state = 'running' AND p.decided = 0 AND p.match_id IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM games h
                                 WHERE h.match_id = p.match_id AND h.winner IS NULL)
               GROUP BY p.tournament_id, p.match_id ORDER BY game_id"""
        )
        return [(row["tournament_id"], row["game_id"]) for row in rows]

    async def anyone_creates(self, chat_id: int) -> bool:
        row = await self._store.fetch_one(
            "SELECT anyone FROM tournament_settings WHERE chat_id = ?", (chat_id,)
        )
        return row is not None and row["anyone"] != 0

    async def set_anyone_creates(self, chat_id: int, anyone: bool, *, now: float) -> None:
        await self._store.write(
            """INSERT INTO tournament_settings (chat_id, anyone, updated_at) VALUES (?, ?, ?)
               ON CONFLICT (chat_id) DO UPDATE SET anyone = excluded.anyone,
                   updated_at = excluded.updated_at""",
            (chat_id, 1 if anyone else 0, now),
        )

    async def pay(self, user_id: int, delta: int, *, kind: str, now: float) -> None:
        """Changes the wallet by ``delta`` with its ledger row (the CHECKs refuse a negative
        balance: IntegrityError)."""
        async with self._store.transaction():
            row = await self._store.fetch_one(
                "UPDATE wallets SET chips = chips + ? WHERE user_id = ? RETURNING chips",
                (delta, user_id),
            )
            assert row is not None, f"user {user_id} has no wallet"
            await self._store.write(
                """INSERT INTO ledger (user_id, delta, balance, kind, created_at)
                   VALUES (?, ?, ?, ?, ?)""",
                (user_id, delta, row["chips"], kind, now),
            )

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (a setting made there already is kept)."""
        for table in ("tournaments", "tournament_games"):
            await self._store.write(
                f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
        await self._store.write(
            """UPDATE tournament_settings SET chat_id = ? WHERE chat_id = ?
               AND NOT EXISTS (SELECT 1 FROM tournament_settings WHERE chat_id = ?)""",
            (new_chat_id, old_chat_id, new_chat_id),
        )


def _tournament(row: Row) -> Tournament:
    return Tournament(
        id=row["id"],
        chat_id=row["chat_id"],
        creator_id=row["creator_id"],
        format=TournamentFormat(row["format"]),
        terms=Terms(
            variant=row["variant"],
            rule_set=row["rule_set"],
            dice_mode=DiceMode(row["dice_mode"]),
            match_length=row["match_length"],
            move_seconds=row["move_seconds"],
        ),
        entry=row["entry"],
        starts_at=None if row["starts_at"] is None else float(row["starts_at"]),
        state=TournamentState(row["state"]),
        locale=row["locale"],
        created_at=float(row["created_at"]),
        rounds=row["rounds"],
        round=row["round_no"],
        winner_id=row["winner_id"],
        message_id=row["message_id"],
        pinned_id=row["pinned_id"],
        version=row["version"],
        shown_version=row["shown_version"],
        finished_at=None if row["finished_at"] is None else float(row["finished_at"]),
        prize=row["prize"],
    )


def _pairing(row: Row) -> TournamentPairing:
    return TournamentPairing(
        tournament_id=row["tournament_id"],
        round=row["round_no"],
        board=row["board"],
        first_id=row["first_id"],
        second_id=row["second_id"],
        game_id=row["game_id"],
        match_id=row["match_id"],
        winner_id=row["winner_id"],
        decided=row["decided"] != 0,
    )
