"""All SQL of the bot, behind one class per concern (users, challenges and games here; matches,
chips, ratings and leagues in modules of their own).

Every write runs in a transaction under one lock: aiosqlite runs one connection on one thread,
and two coroutines must not interleave ``BEGIN``s on it. A write made inside
:meth:`Store.transaction` joins it, so a service can make several repositories' writes one
atomic change (a game's result with its chips, match score and ratings).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeAlias

import aiosqlite

from bot.engine import (
    Cube,
    Dice,
    Game,
    Outcome,
    Played,
    Position,
    Result,
    Side,
    StakeMode,
    resolve_rules,
)

from .chips import ChipRepository
from .leagues import LeagueRepository
from .matches import MatchRepository
from .models import (
    Board,
    Challenge,
    ChallengeStatus,
    ChipsStatus,
    Standing,
    StoredGame,
    Tally,
    User,
)
from .ratings import RatingRepository
from .stats import StatsRepository

Params: TypeAlias = Sequence[Any] | Mapping[str, Any]


class VersionConflict(Exception):
    """Raised when a row changed since it was read (another tap won the race)."""


class Store:
    """The database, with a write lock shared by the repositories."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._lock = asyncio.Lock()
        # Set while the current task holds the write lock in a transaction.
        self._inside: contextvars.ContextVar[bool] = contextvars.ContextVar(
            "inside_transaction", default=False
        )
        self.users = UserRepository(self)
        self.challenges = ChallengeRepository(self)
        self.games = GameRepository(self)
        self.matches = MatchRepository(self)
        self.chips = ChipRepository(self)
        self.ratings = RatingRepository(self)
        self.leagues = LeagueRepository(self)
        self.stats = StatsRepository(self)
        self.updates = UpdateRepository(self)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed on leaving, rolled back on an exception. Inside
        another one (in the same task) it joins the outer transaction."""
        if self._inside.get():
            yield self.db
            return
        async with self._lock:
            token = self._inside.set(True)
            try:
                await self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                except BaseException:
                    await self.db.execute("ROLLBACK")
                    raise
                await self.db.execute("COMMIT")
            finally:
                self._inside.reset(token)

    async def write(self, sql: str, params: Params = ()) -> int:
        """Runs one writing statement as its own transaction (SQLite's autocommit: one round
        trip to the database thread instead of three), or as part of the transaction the task
        is in; returns the rows it changed."""
        if self._inside.get():
            cursor = await self.db.execute(sql, params)
            return cursor.rowcount
        async with self._lock:
            cursor = await self.db.execute(sql, params)
            return cursor.rowcount

    async def fetch_one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        """Runs a query and returns its first row."""
        async with self.db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetch_all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        """Runs a query and returns its rows."""
        async with self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())


class UserRepository:
    """Users the bot has seen: names for captions, @usernames for challenges."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def upsert(
        self,
        user_id: int,
        *,
        username: str | None,
        first_name: str,
        language_code: str | None,
        private_chat: bool = False,
        now: float,
    ) -> User:
        """Records the user's current names; ``private_chat`` only ever turns on."""
        username = username.lower() if username else None
        async with self._store.transaction() as db:
            if username:  # a username moves to its new owner
                await db.execute(
                    "UPDATE users SET username = NULL WHERE username = ? AND id != ?",
                    (username, user_id),
                )
            await db.execute(
                """INSERT INTO users (id, username, first_name, language_code, private_chat,
                                      updated_at)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT (id) DO UPDATE SET
                       username = excluded.username, first_name = excluded.first_name,
                       language_code = excluded.language_code,
                       private_chat = MAX(private_chat, excluded.private_chat),
                       blocked = CASE WHEN excluded.private_chat THEN 0 ELSE blocked END,
                       updated_at = excluded.updated_at""",
                (user_id, username, first_name, language_code, int(private_chat), now),
            )
        user = await self.get(user_id)
        assert user is not None
        return user

    async def get(self, user_id: int) -> User | None:
        """Returns the user with ``user_id``, if seen."""
        row = await self._store.fetch_one("SELECT * FROM users WHERE id = ?", (user_id,))
        return _user(row) if row else None

    async def by_username(self, username: str) -> User | None:
        """Returns the user whose @username is ``username`` (any case, with or without @)."""
        name = username.lstrip("@").lower()
        row = await self._store.fetch_one("SELECT * FROM users WHERE username = ?", (name,))
        return _user(row) if row else None

    async def set_blocked(self, user_id: int, blocked: bool) -> None:
        """Marks that the user has blocked (or unblocked) the bot."""
        async with self._store.transaction() as db:
            await db.execute("UPDATE users SET blocked = ? WHERE id = ?", (int(blocked), user_id))


def _user(row: aiosqlite.Row) -> User:
    return User(
        row["id"],
        row["username"],
        row["first_name"],
        row["language_code"],
        bool(row["private_chat"]),
        bool(row["blocked"]),
    )


class ChallengeRepository:
    """Challenges, with the same optimistic versioning as games."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def create(
        self,
        *,
        chat_id: int,
        challenger_id: int,
        target_id: int | None,
        target_username: str | None,
        variant: str,
        rule_set: str,
        move_seconds: int,
        locale: str,
        expires_at: float,
        now: float,
        match_length: int = 0,
        cube: bool = False,
        stake: int = 0,
        stake_mode: StakeMode = StakeMode.RULES,
    ) -> Challenge:
        """Stores a new open challenge and returns it."""
        async with self._store.transaction() as db:
            cursor = await db.execute(
                """INSERT INTO challenges (chat_id, challenger_id, target_id, target_username,
                       variant, rule_set, move_seconds, locale, status, expires_at, created_at,
                       match_length, cube, stake, stake_mode)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?)""",
                (
                    chat_id,
                    challenger_id,
                    target_id,
                    target_username,
                    variant,
                    rule_set,
                    move_seconds,
                    locale,
                    expires_at,
                    now,
                    match_length,
                    int(cube),
                    stake,
                    stake_mode.value,
                ),
            )
            challenge_id = cursor.lastrowid
        found = await self.get(int(challenge_id or 0))
        assert found is not None
        return found

    async def get(self, challenge_id: int) -> Challenge | None:
        """Returns the challenge, if it exists."""
        row = await self._store.fetch_one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return _challenge(row) if row else None

    async def save(self, challenge: Challenge, *, expected_version: int) -> Challenge:
        """Writes ``challenge`` if nobody changed it since ``expected_version``.

        :raises: :exc:`VersionConflict` otherwise.
        """
        async with self._store.transaction() as db:
            cursor = await db.execute(
                """UPDATE challenges SET message_id = ?, target_id = ?, variant = ?,
                       rule_set = ?, move_seconds = ?, status = ?, game_id = ?,
                       match_length = ?, cube = ?, stake = ?, stake_mode = ?,
                       version = version + 1
                   WHERE id = ? AND version = ?""",
                (
                    challenge.message_id,
                    challenge.target_id,
                    challenge.variant,
                    challenge.rule_set,
                    challenge.move_seconds,
                    challenge.status.value,
                    challenge.game_id,
                    challenge.match_length,
                    int(challenge.cube),
                    challenge.stake,
                    challenge.stake_mode.value,
                    challenge.id,
                    expected_version,
                ),
            )
            if cursor.rowcount != 1:
                raise VersionConflict(f"challenge {challenge.id} changed")
        found = await self.get(challenge.id)
        assert found is not None
        return found

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        """Records the message that shows the challenge (no version change: its buttons,
        already drawn, stay valid)."""
        async with self._store.transaction() as db:
            await db.execute(
                "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
            )

    async def expired(self, now: float) -> list[Challenge]:
        """Open challenges whose time is up."""
        rows = await self._store.fetch_all(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?", (now,)
        )
        return [_challenge(row) for row in rows]


def _challenge(row: aiosqlite.Row) -> Challenge:
    return Challenge(
        id=row["id"],
        chat_id=row["chat_id"],
        message_id=row["message_id"],
        challenger_id=row["challenger_id"],
        target_id=row["target_id"],
        target_username=row["target_username"],
        variant=row["variant"],
        rule_set=row["rule_set"],
        move_seconds=row["move_seconds"],
        locale=row["locale"],
        status=ChallengeStatus(row["status"]),
        expires_at=row["expires_at"],
        game_id=row["game_id"],
        version=row["version"],
        match_length=row["match_length"],
        cube=bool(row["cube"]),
        stake=row["stake"],
        stake_mode=StakeMode(row["stake_mode"]),
    )


def encode_steps(steps: Iterable[Played]) -> str:
    """Writes played steps as ``src/dst/die/hit`` words (hit 0 or 1)."""
    return " ".join(f"{p.src}/{p.dst}/{p.die}/{int(p.hit)}" for p in steps)


def decode_steps(text: str) -> tuple[Played, ...]:
    """Reads what :func:`encode_steps` wrote."""
    steps = []
    for word in text.split():
        src, dst, die, hit = (int(part) for part in word.split("/"))
        steps.append(Played(src, dst, die, bool(hit)))
    return tuple(steps)


class GameRepository:
    """Games and their board messages; rows <-> engine values in the engine's notation."""

    def __init__(self, store: Store) -> None:
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
    ) -> StoredGame:
        """Stores a new game and its board messages (not yet sent) in one transaction.

        :raises: :exc:`VersionConflict` if the match already has a game ``game_no``.
        """
        async with self._store.transaction() as db:
            try:
                cursor = await db.execute(
                    """INSERT INTO games (chat_id, white_id, black_id, variant, rule_set,
                           position, dice, moved, ply, opening, history, last_turn,
                           move_seconds, deadline, locale, created_at, match_id, game_no, cube,
                           stake, stake_mode)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    (
                        chat_id,
                        white_id,
                        black_id,
                        game.variant,
                        game.rules.name,
                        game.position.to_text(),
                        _dice_text(game.dice),
                        _moved_text(game.moved),
                        game.ply,
                        f"{game.opening[0]}-{game.opening[1]}" if game.opening else None,
                        "\n".join(history),
                        encode_steps(last_turn),
                        move_seconds,
                        deadline,
                        locale,
                        now,
                        match_id,
                        game_no,
                        _cube_text(game.cube),
                        stake,
                        stake_mode.value,
                    ),
                )
            except aiosqlite.IntegrityError as error:
                raise VersionConflict(f"match {match_id} already has game {game_no}") from error
            game_id = int(cursor.lastrowid or 0)
            await db.executemany(
                "INSERT INTO boards (game_id, chat_id, viewer) VALUES (?, ?, ?)",
                [(game_id, board_chat, viewer.value) for board_chat, viewer in boards],
            )
        found = await self.get(game_id)
        assert found is not None
        return found

    async def get(self, game_id: int) -> StoredGame | None:
        """Returns the game, if it exists."""
        row = await self._store.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def save(self, stored: StoredGame, *, expected_version: int, now: float) -> StoredGame:
        """Writes ``stored`` if nobody changed it since ``expected_version``; returns it as
        written, with its new version.

        :raises: :exc:`VersionConflict` otherwise.
        """
        game = stored.game
        result = game.result
        deadline = None if result else stored.deadline
        finished_at = now if result and stored.finished_at is None else stored.finished_at
        changed = await self._store.write(
            """UPDATE games SET position = ?, dice = ?, moved = ?, ply = ?, input = ?,
                   last_turn = ?, history = ?, winner = ?, outcome = ?, points = ?,
                   deadline = ?, finished_at = ?, cube = ?, chips = ?, chips_status = ?,
                   version = version + 1
               WHERE id = ? AND version = ?""",
            (
                game.position.to_text(),
                _dice_text(game.dice),
                _moved_text(game.moved),
                game.ply,
                encode_steps(stored.input),
                encode_steps(stored.last_turn),
                "\n".join(stored.history),
                result.winner.value if result else None,
                result.outcome.value if result else None,
                result.points if result else None,
                deadline,
                finished_at,
                _cube_text(game.cube),
                stored.chips,
                stored.chips_status.value if stored.chips_status else None,
                stored.id,
                expected_version,
            ),
        )
        if changed != 1:
            raise VersionConflict(f"game {stored.id} changed since version {expected_version}")
        return replace(
            stored, version=expected_version + 1, deadline=deadline, finished_at=finished_at
        )

    async def due(self, now: float) -> list[int]:
        """Ids of unfinished games whose player to move has run out of time."""
        rows = await self._store.fetch_all(
            "SELECT id FROM games WHERE winner IS NULL AND deadline <= ? ORDER BY deadline",
            (now,),
        )
        return [row["id"] for row in rows]

    async def active_for(self, user_id: int, chat_id: int | None = None) -> list[StoredGame]:
        """Unfinished games of ``user_id`` (in ``chat_id`` only, when given), newest first."""
        sql = "SELECT * FROM games WHERE winner IS NULL AND (white_id = ? OR black_id = ?)"
        params: tuple[int, ...] = (user_id, user_id)
        if chat_id is not None:
            sql += " AND id IN (SELECT game_id FROM boards WHERE chat_id = ?)"
            params += (chat_id,)
        rows = await self._store.fetch_all(sql + " ORDER BY id DESC", params)
        return [_game(row) for row in rows]

    async def boards(self, game_id: int) -> list[Board]:
        """The messages that show the game."""
        rows = await self._store.fetch_all(
            "SELECT * FROM boards WHERE game_id = ? ORDER BY chat_id", (game_id,)
        )
        return [
            Board(row["game_id"], row["chat_id"], Side(row["viewer"]), row["message_id"])
            for row in rows
        ]

    async def set_board_message(self, game_id: int, chat_id: int, message_id: int | None) -> None:
        """Records which message shows the game in ``chat_id``."""
        async with self._store.transaction() as db:
            await db.execute(
                "UPDATE boards SET message_id = ? WHERE game_id = ? AND chat_id = ?",
                (message_id, game_id, chat_id),
            )

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup (its chat id changes)."""
        async with self._store.transaction() as db:
            await db.execute(
                "UPDATE boards SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
            await db.execute(
                "UPDATE games SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
            await db.execute(
                "UPDATE challenges SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )

    async def head_to_head(self, user_id: int, other_id: int) -> Tally:
        """Finished games between two players, from ``user_id``'s side."""
        return await self._tally(
            "AND ((white_id = :me AND black_id = :other)"
            " OR (white_id = :other AND black_id = :me))",
            {"me": user_id, "other": other_id},
        )

    async def _tally(self, where: str, params: dict[str, Any]) -> Tally:
        row = await self._store.fetch_one(
            f"""SELECT COUNT(*) AS games, {_WINS} AS wins, {_WON} AS won, {_LOST} AS lost
                FROM games WHERE winner IS NOT NULL {where}""",
            params,
        )
        if row is None:
            return Tally()
        return Tally(row["games"], row["wins"] or 0, row["won"] or 0, row["lost"] or 0)

    async def top(self, chat_id: int, limit: int = 10) -> list[Standing]:
        """The chat's leaderboard: net points (won minus lost), then wins."""
        rows = await self._store.fetch_all(
            """WITH results AS (
                   SELECT CASE winner WHEN 'w' THEN white_id ELSE black_id END AS user_id,
                          1 AS win, points FROM games WHERE chat_id = :chat AND winner IS NOT NULL
                   UNION ALL
                   SELECT CASE winner WHEN 'w' THEN black_id ELSE white_id END,
                          0, -points FROM games WHERE chat_id = :chat AND winner IS NOT NULL)
               SELECT users.*, COUNT(*) AS games, SUM(win) AS wins, SUM(points) AS points
               FROM results JOIN users ON users.id = results.user_id
               GROUP BY results.user_id ORDER BY points DESC, wins DESC, games ASC LIMIT :limit""",
            {"chat": chat_id, "limit": limit},
        )
        return [Standing(_user(row), row["games"], row["wins"], row["points"]) for row in rows]


_WINS = (
    "SUM(CASE WHEN (winner = 'w' AND white_id = :me) OR (winner = 'b' AND black_id = :me) "
    "THEN 1 ELSE 0 END)"
)
_WON = (
    "SUM(CASE WHEN (winner = 'w' AND white_id = :me) OR (winner = 'b' AND black_id = :me) "
    "THEN points ELSE 0 END)"
)
_LOST = (
    "SUM(CASE WHEN (winner = 'w' AND white_id = :me) OR (winner = 'b' AND black_id = :me) "
    "THEN 0 ELSE points END)"
)


def _cube_text(cube: Cube | None) -> str | None:
    if cube is None:
        return None
    owner = cube.owner.value if cube.owner else "-"
    return f"{cube.value} {owner}" + (" offered" if cube.offered else "")


def _cube(text: str | None) -> Cube | None:
    if text is None:
        return None
    value, owner, *offered = text.split()
    return Cube(int(value), None if owner == "-" else Side(owner), bool(offered))


def _dice_text(dice: Dice | None) -> str | None:
    return str(dice) if dice else None


def _moved_text(moved: frozenset[Side]) -> str:
    return "".join(side.value for side in (Side.WHITE, Side.BLACK) if side in moved)


def _game(row: aiosqlite.Row) -> StoredGame:
    variant = row["variant"]
    result = None
    if row["winner"]:
        result = Result(Side(row["winner"]), Outcome(row["outcome"]), row["points"])
    opening = None
    if row["opening"]:
        white_die, black_die = row["opening"].split("-")
        opening = (int(white_die), int(black_die))
    game = Game(
        variant=variant,
        rules=resolve_rules(variant, row["rule_set"]),
        position=Position.from_text(row["position"]),
        dice=Dice.from_text(row["dice"]) if row["dice"] else None,
        moved=frozenset(Side(c) for c in row["moved"]),
        ply=row["ply"],
        result=result,
        opening=opening,
        cube=_cube(row["cube"]),
    )
    return StoredGame(
        id=row["id"],
        chat_id=row["chat_id"],
        white_id=row["white_id"],
        black_id=row["black_id"],
        game=game,
        input=decode_steps(row["input"]),
        last_turn=decode_steps(row["last_turn"]),
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
    )


class UpdateRepository:
    """Update ids already handled, so that an update Telegram delivers twice acts once."""

    KEEP_SECONDS = 7 * 24 * 3600

    def __init__(self, store: Store) -> None:
        self._store = store

    async def claim(self, update_id: int, now: float) -> bool:
        """Records ``update_id``; returns False if it was already recorded. Every thousandth
        update also forgets ids older than :attr:`KEEP_SECONDS` (Telegram keeps an update
        for at most a day)."""
        claimed = (
            await self._store.write(
                "INSERT OR IGNORE INTO handled_updates (update_id, handled_at) VALUES (?, ?)",
                (update_id, now),
            )
            == 1
        )
        if claimed and update_id % 1000 == 0:
            await self._store.write(
                "DELETE FROM handled_updates WHERE handled_at < ?", (now - self.KEEP_SECONDS,)
            )
        return claimed
