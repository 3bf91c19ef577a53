"""Games and their board messages; rows <-> engine values in the engine's notation.

A game row keeps the :class:`~bot.engine.Game` in one column, ``game``, as its text
(:meth:`Game.to_text <bot.engine.Game.to_text>`, read back with :meth:`Game.from_text
<bot.engine.Game.from_text>`); the turn being input (``input``) and the last turn's steps
(``last_turn``) in the engine's text for steps with their dice (:func:`~bot.engine.taps_text`,
:func:`~bot.engine.played_text`). ``variant``, ``rule_set``, ``winner``, ``outcome`` and
``points`` are copies of the game's, written with it, for the queries that filter and sum by
them (scores, statistics, unfinished games); a game is never read from them.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Final

from bot.engine import (
    Game,
    Played,
    Position,
    Roll,
    Side,
    StakeMode,
    parse_played,
    parse_taps,
    played_text,
    taps_text,
)
from bot.model import Board, ChipsStatus, DiceProof, Standing, StoredGame, Tally, WatchResult

from . import totals
from .database import Database, IntegrityError, Row, VersionConflict
from .users import user_from_row


class GameRepository:
    """Games and their board messages; rows <-> engine values in the engine's notation."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def create(
        self,
        *,
        chat_id: int,
        white_id: int,
        black_id: int,
        game: Game,
        move_seconds: int,
        deadline: float | None,
        locale: str,
        boards: Iterable[tuple[int, Side]],
        now: float,
        history: tuple[str, ...] = (),
        last_turn: tuple[Played, ...] = (),
        match_id: int | None = None,
        game_no: int = 1,
        stake: int = 0,
        stake_mode: StakeMode = StakeMode.RULES,
        hints: bool = False,
        inline_board: str | None = None,
        chat_instance: str | None = None,
        dice_proof: DiceProof | None = None,
        watchable: bool = True,
        start: Position | None = None,
        training: bool = False,
    ) -> StoredGame:
        """Stores a new game and its board messages (not yet sent) in one transaction;
        ``inline_board`` is the inline message that shows an inline game, played in the chat
        Telegram calls ``chat_instance``; ``start``: the position it was set up at, when it was
        not the variant's start.

        :raises: :exc:`VersionConflict` if the match already has a game ``game_no``.
        """
        async with self._store.transaction(durable=True):
            try:
                game_id = await self._store.insert(
                    """INSERT INTO games (chat_id, white_id, black_id, variant, rule_set, game,
                           winner, outcome, points, history, last_turn, move_seconds,
                           deadline, locale, created_at, match_id, game_no, stake, stake_mode,
                           hints, chat_instance, dice_seed, dice_commitment, dice_client,
                           dice_rolls, watchable, start, unshown, training)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                               ?, ?, ?, ?, ?, ?, 1, ?)
                       RETURNING id""",
                    (
                        chat_id,
                        white_id,
                        black_id,
                        game.variant,
                        game.rules.name,
                        game.to_text(),
                        *_result_columns(game),
                        "\n".join(history),
                        played_text(last_turn),
                        move_seconds,
                        deadline,
                        locale,
                        now,
                        match_id,
                        game_no,
                        stake,
                        stake_mode.value,
                        int(hints),
                        chat_instance,
                        dice_proof.seed.hex() if dice_proof else None,
                        dice_proof.commitment if dice_proof else None,
                        dice_proof.client if dice_proof else None,
                        _rolls_text(dice_proof),
                        int(watchable),
                        start.to_text() if start is not None else None,
                        int(training),
                    ),
                )
            except IntegrityError as error:
                raise VersionConflict(f"match {match_id} already has game {game_no}") from error
            await self._store.write_many(
                "INSERT INTO boards (game_id, chat_id, viewer) VALUES (?, ?, ?)",
                [(game_id, board_chat, viewer.value) for board_chat, viewer in boards],
            )
            if inline_board is not None:  # chat 0: no chat the bot could write to
                await self._store.write(
                    """INSERT INTO boards (game_id, chat_id, viewer, inline_message_id)
                       VALUES (?, 0, 'w', ?)""",
                    (game_id, inline_board),
                )
        found = await self.get(game_id)
        assert found is not None
        return found

    async def get(self, game_id: int) -> StoredGame | None:
        """Returns the game, if it exists."""
        row = await self._store.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def version(self, game_id: int) -> int | None:
        """The game's current version, if it exists."""
        row = await self._store.fetch_one("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(row[0]) if row else None

    async def save(
        self, stored: StoredGame, *, expected_version: int, now: float, durable: bool = True
    ) -> StoredGame:
        """Writes ``stored`` if nobody changed it since ``expected_version``; returns it as
        written, with its new version. ``durable``: see :meth:`.Database.transaction`. A result
        is added to the running totals (:mod:`.totals`) in the same transaction.

        :raises: :exc:`VersionConflict` otherwise.
        """
        game = stored.game
        result = game.result
        deadline = None if result else stored.deadline
        ending = result is not None and stored.finished_at is None
        finished_at = now if ending else stored.finished_at
        whole = self._store.transaction(durable=durable) if ending else contextlib.nullcontext()
        async with whole:
            await self._write(stored, expected_version, deadline, finished_at, durable)
            if ending:
                await totals.add_result(self._store, stored)
        return replace(
            stored, version=expected_version + 1, deadline=deadline, finished_at=finished_at
        )

    async def _write(
        self,
        stored: StoredGame,
        expected_version: int,
        deadline: float | None,
        finished_at: float | None,
        durable: bool,
    ) -> None:
        game = stored.game
        changed = await self._store.write(  # a confirmed turn survives a power cut (durable)
            """UPDATE games SET game = ?, winner = ?, outcome = ?, points = ?, input = ?,
                   last_turn = ?, history = ?, deadline = ?, finished_at = ?, chips = ?,
                   chips_status = ?, dice_rolls = ?, version = version + 1, unshown = 1
               WHERE id = ? AND version = ?""",
            (
                game.to_text(),
                *_result_columns(game),
                taps_text(stored.input),
                played_text(stored.last_turn),
                "\n".join(stored.history),
                deadline,
                finished_at,
                stored.chips,
                stored.chips_status.value if stored.chips_status else None,
                _rolls_text(stored.dice_proof),
                stored.id,
                expected_version,
            ),
            durable=durable,
        )
        if changed != 1:
            raise VersionConflict(f"game {stored.id} changed since version {expected_version}")

    async def due(self, now: float) -> list[int]:
        """Ids of unfinished games whose player to move has run out of time."""
        rows = await self._store.fetch_all(
            "SELECT id FROM games WHERE winner IS NULL AND deadline <= ? ORDER BY deadline",
            (now,),
        )
        return [row["id"] for row in rows]

    async def claim_deadline(
        self, game_id: int, version: int, deadline: float, until: float
    ) -> bool:
        """Moves the deadline of the game at ``version`` from ``deadline`` (passed) to
        ``until``, leaving its version alone; False when it is no longer that (another worker
        claimed it first, or the game changed). A claim that its worker does not follow up
        simply falls due again at ``until``."""
        changed = await self._store.write(
            "UPDATE games SET deadline = ? WHERE id = ? AND version = ? AND deadline = ?",
            (until, game_id, version, deadline),
        )
        return changed == 1

    async def start_clock(self, game_id: int, version: int, until: float) -> bool:
        """Moves the deadline of the game at ``version`` to ``until``, if that is later and
        the game is unfinished, leaving its version alone (a board shown late; a game that
        changed meanwhile has a clock of its own). True when it moved."""
        changed = await self._store.write(
            """UPDATE games SET deadline = ?
               WHERE id = ? AND version = ? AND winner IS NULL AND deadline < ?""",
            (until, game_id, version, until),
        )
        return changed == 1

    async def to_remind(self, now: float, *, min_seconds: int) -> list[int]:
        """Unfinished games with a move time of ``min_seconds`` or more (at least
        :data:`REMINDED_FROM`) whose player to move has used half of it, not yet reminded of
        this deadline; read from the index of their reminders' due times (``games_remind``),
        so as many rows are read as are due."""
        if min_seconds < REMINDED_FROM:
            raise ValueError(f"reminders are indexed from {REMINDED_FROM} s a move")
        rows = await self._store.fetch_all(
            f"""SELECT id FROM games
                WHERE winner IS NULL AND move_seconds >= {REMINDED_FROM}
                  AND deadline IS NOT NULL AND (reminded IS NULL OR reminded <> deadline)
                  AND deadline - move_seconds * 0.5 <= ? AND move_seconds >= ?
                ORDER BY deadline - move_seconds * 0.5""",
            (now, min_seconds),
        )
        return [row["id"] for row in rows]

    async def claim_reminder(self, game_id: int, version: int, deadline: float) -> bool:
        """Records that the player to move at ``version`` is reminded of ``deadline``; False
        when the game moved on or another worker reminded them first."""
        changed = await self._store.write(
            """UPDATE games SET reminded = deadline
               WHERE id = ? AND version = ? AND deadline = ?
                 AND (reminded IS NULL OR reminded <> deadline)""",
            (game_id, version, deadline),
        )
        return changed == 1

    async def postpone_deadlines(self, since: float, seconds: float) -> int:
        """Moves the deadline of every unfinished game whose deadline is after ``since`` by
        ``seconds``, leaving versions alone; returns how many games it moved."""
        return await self._store.write(
            "UPDATE games SET deadline = deadline + ? WHERE winner IS NULL AND deadline > ?",
            (seconds, since),
        )

    async def active_for(self, user_id: int, chat_id: int | None = None) -> list[StoredGame]:
        """Unfinished games of ``user_id`` (in ``chat_id`` only, when given), newest first."""
        sql = "SELECT * FROM games WHERE winner IS NULL AND (white_id = ? OR black_id = ?)"
        params: tuple[int, ...] = (user_id, user_id)
        if chat_id is not None:
            sql += " AND id IN (SELECT game_id FROM boards WHERE chat_id = ?)"
            params += (chat_id,)
        rows = await self._store.fetch_all(sql + " ORDER BY id DESC", params)
        return [_game(row) for row in rows]

    async def active_in(self, chat_id: int) -> list[StoredGame]:
        """Unfinished games with a board in ``chat_id``, newest first."""
        rows = await self._store.fetch_all(
            """SELECT * FROM games WHERE winner IS NULL
                 AND id IN (SELECT game_id FROM boards WHERE chat_id = ?)
               ORDER BY id DESC""",
            (chat_id,),
        )
        return [_game(row) for row in rows]

    async def replay_file(self, game_id: int, locale: str) -> str | None:
        """Telegram's file id of the game's replay in ``locale``, once one was sent."""
        row = await self._store.fetch_one(
            "SELECT file_id FROM replays WHERE game_id = ? AND locale = ?", (game_id, locale)
        )
        return str(row["file_id"]) if row else None

    async def set_replay_file(self, game_id: int, locale: str, file_id: str | None) -> None:
        """Records Telegram's file id of the game's replay in ``locale`` (None forgets it:
        Telegram no longer knows it)."""
        if file_id is None:
            await self._store.write(
                "DELETE FROM replays WHERE game_id = ? AND locale = ?", (game_id, locale)
            )
            return
        await self._store.write(
            """INSERT INTO replays (game_id, locale, file_id) VALUES (?, ?, ?)
               ON CONFLICT (game_id, locale) DO UPDATE SET file_id = excluded.file_id""",
            (game_id, locale, file_id),
        )

    async def boards(self, game_id: int) -> list[Board]:
        """The messages that show the game."""
        rows = await self._store.fetch_all(
            "SELECT * FROM boards WHERE game_id = ? ORDER BY chat_id", (game_id,)
        )
        return [
            Board(
                row["game_id"],
                row["chat_id"],
                Side(row["viewer"]),
                row["message_id"],
                row["shown_version"],
                inline_message_id=row["inline_message_id"],
                watcher=bool(row["watcher"]),
            )
            for row in rows
        ]

    async def shown_by(self, chat_id: int, message_id: int) -> int | None:
        """The game whose board message ``message_id`` in ``chat_id`` is, if any."""
        row = await self._store.fetch_one(
            "SELECT game_id FROM boards WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        )
        return int(row["game_id"]) if row else None

    async def shown_inline(self, inline_message_id: str) -> int | None:
        """The latest game played in that inline message (a match's games follow one
        another in it), if any."""
        row = await self._store.fetch_one(
            "SELECT MAX(game_id) FROM boards WHERE inline_message_id = ?", (inline_message_id,)
        )
        return int(row[0]) if row and row[0] is not None else None

    async def add_watcher(self, game_id: int, chat_id: int, *, limit: int) -> WatchResult:
        """Gives the watcher in private chat ``chat_id`` a board of the game (not yet sent),
        unless they have one or the game has ``limit`` watchers already; counted and added
        in one transaction that holds the game's watchers, so that watchers joining at once on
        several workers never make more than ``limit``."""
        async with self._store.transaction():
            await self._store.lock("watchers", game_id)
            row = await self._store.fetch_one(
                """SELECT COUNT(*) AS watchers,
                          SUM(CASE WHEN chat_id = ? THEN 1 ELSE 0 END) AS mine
                   FROM boards WHERE game_id = ? AND watcher <> 0""",
                (chat_id, game_id),
            )
            if row is not None and row["mine"]:
                return WatchResult.ALREADY
            if row is not None and row["watchers"] >= limit:
                return WatchResult.FULL
            await self._store.write(
                "INSERT INTO boards (game_id, chat_id, viewer, watcher) VALUES (?, ?, 'w', 1)",
                (game_id, chat_id),
            )
            await self._store.write("UPDATE games SET unshown = 1 WHERE id = ?", (game_id,))
        return WatchResult.ADDED

    async def remove_watcher(self, chat_id: int, game_id: int | None = None) -> list[int]:
        """Takes away the watcher's boards in private chat ``chat_id`` (of game ``game_id``
        only, when given); returns the games still being played among them."""
        params: tuple[int, ...]
        only, params = "", (chat_id,)
        if game_id is not None:
            only, params = " AND game_id = ?", (chat_id, game_id)
        async with self._store.transaction():
            rows = await self._store.fetch_all(
                f"""SELECT game_id FROM boards
                    WHERE chat_id = ? AND watcher <> 0{only}
                      AND game_id IN (SELECT id FROM games WHERE winner IS NULL)
                    ORDER BY game_id""",
                params,
            )
            await self._store.write(
                f"DELETE FROM boards WHERE chat_id = ? AND watcher <> 0{only}", params
            )
        return [row["game_id"] for row in rows]

    async def set_board_message(self, game_id: int, chat_id: int, message_id: int | None) -> None:
        """Records which message shows the game in ``chat_id``."""
        await self._store.write(
            "UPDATE boards SET message_id = ? WHERE game_id = ? AND chat_id = ?",
            (message_id, game_id, chat_id),
        )

    async def set_board_shown(
        self, game_id: int, chat_id: int, version: int, message_id: int | None = None
    ) -> None:
        """Records that the board in ``chat_id`` now shows ``version`` (and, for a message just
        sent, which message it is)."""
        await self._store.write(  # the game stays marked until the next look at :meth:`behind`
            """UPDATE boards SET shown_version = ?, message_id = COALESCE(?, message_id)
               WHERE game_id = ? AND chat_id = ?""",
            (version, message_id, game_id, chat_id),
        )

    async def set_boards_shown(self, shown: Sequence[tuple[int, int, int]]) -> None:
        """Records, in one transaction, what each board shows: ``(game_id, chat_id,
        version)``, a board's version never going back."""
        async with self._store.transaction():
            await self._store.write_many(
                """UPDATE boards SET shown_version = ?
                   WHERE game_id = ? AND chat_id = ?
                     AND (shown_version IS NULL OR shown_version < ?)""",
                [(version, game_id, chat_id, version) for game_id, chat_id, version in shown],
            )
            games = sorted({game_id for game_id, _, _ in shown})
            await self._store.write_many(_SHOWN, [(game_id,) for game_id in games])

    async def behind(self, since: float) -> list[int]:
        """Games with a board that is not known to show their current version: unfinished,
        or finished after ``since`` (the bot stopped between saving a change and showing it).
        Read from the games marked ``unshown`` (an index of them), so as many games are read as
        may be behind; those found not to be (every board shows their version), and those
        finished by ``since``, are unmarked."""
        marked = await self._store.fetch_all(  # few: only what may be behind is marked
            "SELECT id, version, winner, finished_at FROM games WHERE unshown <> 0"
        )
        rows = await self._store.fetch_all(
            """SELECT DISTINCT games.id FROM games JOIN boards ON boards.game_id = games.id
               WHERE games.unshown <> 0
                 AND (boards.shown_version IS NULL OR boards.shown_version < games.version)
                 AND (games.winner IS NULL OR games.finished_at > ?)
               ORDER BY games.id""",
            (since,),
        )
        behind = [row["id"] for row in rows]
        found = set(behind)
        shown = [(row["id"], row["version"]) for row in marked if row["id"] not in found]
        if shown:  # at the version read: a game changed since stays marked
            await self._store.write_many(
                "UPDATE games SET unshown = 0 WHERE id = ? AND version = ?", shown
            )
        return behind

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (its chat id changes)."""
        async with self._store.transaction():
            for table in ("boards", "games", "challenges", "standings"):
                await self._store.write(
                    f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
                )

    async def head_to_head(self, user_id: int, other_id: int) -> Tally:
        """Finished games between two players, from ``user_id``'s side (those that count: not
        the games from a chosen position): their running totals, one row."""
        row = await self._store.fetch_one(
            "SELECT * FROM pair_totals WHERE user_id = ? AND other_id = ?", (user_id, other_id)
        )
        if row is None:
            return Tally()
        return Tally(row["games"], row["wins"], row["won"], row["lost"])

    async def finished_between(
        self, user_id: int, other_id: int, variant: str, since: float, *, besides: int
    ) -> list[StoredGame]:
        """The games of ``variant`` between two players that ended from ``since`` on, but
        those from a chosen position (never rated) and game ``besides``."""
        rows = await self._store.fetch_all(  # two ranges of the pair's index (games_pair)
            f"""SELECT * FROM games
                WHERE white_id = :me AND black_id = :other AND finished_at >= :since
                  AND winner IS NOT NULL AND {COUNTED} AND variant = :variant AND id <> :besides
                UNION ALL
                SELECT * FROM games
                WHERE white_id = :other AND black_id = :me AND finished_at >= :since
                  AND winner IS NOT NULL AND {COUNTED} AND variant = :variant AND id <> :besides""",
            {
                "me": user_id,
                "other": other_id,
                "since": since,
                "variant": variant,
                "besides": besides,
            },
        )
        return [_game(row) for row in rows]

    async def top(self, chat_id: int, limit: int = 10) -> list[Standing]:
        """The chat's leaderboard: net points (won minus lost), then wins, over the games that
        count (not those from a chosen position), its tournaments' games among them (played in
        private chats, they count in its league): its running standings, read in order from
        their index."""
        return await self._standings(chat_id, "", limit)

    async def top_in_instance(self, chat_instance: str, limit: int = 10) -> list[Standing]:
        """The leaderboard of the inline games played in the chat Telegram calls
        ``chat_instance`` (the bot knows no id of that chat), ranked as :meth:`top`."""
        return await self._standings(0, chat_instance, limit)

    async def _standings(self, chat_id: int, chat_instance: str, limit: int) -> list[Standing]:
        rows = await self._store.fetch_all(
            """SELECT users.*, s.games, s.wins, s.points
               FROM (SELECT * FROM standings WHERE chat_id = ? AND chat_instance = ?
                     ORDER BY points DESC, wins DESC, games, user_id LIMIT ?) AS s
               JOIN users ON users.id = s.user_id
               ORDER BY s.points DESC, s.wins DESC, s.games, s.user_id""",
            (chat_id, chat_instance, limit),
        )
        return [
            Standing(user_from_row(row), row["games"], row["wins"], row["points"]) for row in rows
        ]

    async def in_progress(self) -> int:
        """How many games are unfinished (for the metrics)."""
        row = await self._store.fetch_one(
            "SELECT COUNT(*) AS games FROM games WHERE winner IS NULL"
        )
        return int(row["games"]) if row is not None else 0


REMINDED_FROM: Final = 3600
"""The shortest move time (seconds) whose games are reminded: the threshold of the index of
reminders (migration 20), which a query must name as it is to be read from it."""
_SHOWN: Final = """UPDATE games SET unshown = 0
    WHERE id = ? AND unshown <> 0 AND NOT EXISTS (
        SELECT 1 FROM boards WHERE boards.game_id = games.id
          AND (boards.shown_version IS NULL OR boards.shown_version < games.version))"""
"""Unmarks a game every board of which is known to show its current version."""

COUNTED: Final = "start IS NULL"
"""The finished games that scores count: not those played on from a position someone chose
(practice: whoever picks the position may pick a won one), which are not rated either."""


def _result_columns(game: Game) -> tuple[str | None, str | None, int | None]:
    """The game's result as the ``winner``, ``outcome`` and ``points`` columns have it."""
    result = game.result
    if result is None:
        return None, None, None
    return result.winner.value, result.outcome.value, result.points


def _rolls_text(proof: DiceProof | None) -> str:
    return "\n".join(roll.to_text() for roll in proof.rolls) if proof else ""


def dice_proof_from_row(row: Row) -> DiceProof | None:
    """A game row's fair dice (None for a game started before them)."""
    if row["dice_seed"] is None:
        return None
    return DiceProof(
        commitment=row["dice_commitment"],
        client=row["dice_client"],
        seed=bytes.fromhex(row["dice_seed"]),
        rolls=tuple(_roll(line) for line in row["dice_rolls"].splitlines()),
    )


_roll = functools.lru_cache(maxsize=4096)(Roll.from_text)
"""A roll from its line, kept: a game is read on every tap with every roll it has made (eighty
and more in a long game), and the same lines come back (a roll is immutable)."""

_read_game = functools.lru_cache(maxsize=1024)(Game.from_text)
"""A game from its text, kept: the taps of one turn read the same one again (a game is
immutable)."""


def _game(row: Row) -> StoredGame:
    return StoredGame(
        id=row["id"],
        chat_id=row["chat_id"],
        white_id=row["white_id"],
        black_id=row["black_id"],
        game=_read_game(row["game"]),
        input=parse_taps(row["input"]),
        last_turn=parse_played(row["last_turn"]),
        history=tuple(row["history"].splitlines()) if row["history"] else (),
        move_seconds=row["move_seconds"],
        deadline=row["deadline"],
        locale=row["locale"],
        version=row["version"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
        match_id=row["match_id"],
        game_no=row["game_no"],
        stake=row["stake"],
        stake_mode=StakeMode(row["stake_mode"]),
        chips=row["chips"],
        chips_status=ChipsStatus(row["chips_status"]) if row["chips_status"] else None,
        hints=bool(row["hints"]),
        chat_instance=row["chat_instance"],
        dice_proof=dice_proof_from_row(row),
        watchable=bool(row["watchable"]),
        start=Position.from_text(row["start"]) if row["start"] else None,
        training=bool(row["training"]),
    )
