"""The SQLite database: opening it with safe settings, its schema by migrations, and
:class:`Database`, the one way the repositories read and write it.

The schema version is SQLite's ``PRAGMA user_version``; each entry of :data:`MIGRATIONS` moves it
up by one, in a transaction of its own, so a database of any earlier version is brought up to
date on opening and a new one is built the same way.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, TypeAlias

import aiosqlite

Params: TypeAlias = Sequence[Any] | Mapping[str, Any]

MIGRATIONS: Final[tuple[str, ...]] = (
    # 1: users, challenges, games and their board messages, handled updates
    """
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,              -- Telegram user id
        username TEXT,                       -- lower case, without @
        first_name TEXT NOT NULL,
        language_code TEXT,
        private_chat INTEGER NOT NULL DEFAULT 0,  -- has opened a private chat with the bot
        blocked INTEGER NOT NULL DEFAULT 0,       -- blocked the bot
        updated_at REAL NOT NULL
    );
    CREATE INDEX users_username ON users (username);

    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,            -- where it was made (a group or a private chat)
        message_id INTEGER,                  -- the challenge message there
        challenger_id INTEGER NOT NULL REFERENCES users (id),
        target_id INTEGER REFERENCES users (id),
        target_username TEXT,                -- a user the bot has not seen yet
        variant TEXT NOT NULL,
        rule_set TEXT NOT NULL,
        move_seconds INTEGER NOT NULL,
        locale TEXT NOT NULL,
        status TEXT NOT NULL,                -- open, accepted, declined, cancelled, expired
        expires_at REAL NOT NULL,
        game_id INTEGER,
        version INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL
    );
    CREATE INDEX challenges_open ON challenges (status, expires_at);

    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,            -- the group, or 0 for a game between private chats
        white_id INTEGER NOT NULL REFERENCES users (id),
        black_id INTEGER NOT NULL REFERENCES users (id),
        variant TEXT NOT NULL,
        rule_set TEXT NOT NULL,
        position TEXT NOT NULL,              -- engine notation
        dice TEXT,                           -- '5-2' or NULL
        moved TEXT NOT NULL,                 -- sides that have made a turn: '', 'w', 'b', 'wb'
        ply INTEGER NOT NULL,
        opening TEXT,                        -- the opening roll, white's die and black's: '5-2'
        input TEXT NOT NULL DEFAULT '',      -- steps chosen this turn: 'src/dst/die/hit ...'
        last_turn TEXT NOT NULL DEFAULT '',  -- the previous turn's steps, same form
        history TEXT NOT NULL DEFAULT '',    -- every turn, one line each: 'w 5-2 24/19 13/11'
        winner TEXT,                         -- 'w' or 'b'
        outcome TEXT,
        points INTEGER,
        move_seconds INTEGER NOT NULL,
        deadline REAL,                       -- when the side to move runs out of time
        locale TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,  -- optimistic lock; buttons carry it
        created_at REAL NOT NULL,
        finished_at REAL
    );
    CREATE INDEX games_deadline ON games (deadline) WHERE winner IS NULL;
    CREATE INDEX games_white ON games (white_id, winner);
    CREATE INDEX games_black ON games (black_id, winner);
    CREATE INDEX games_chat ON games (chat_id, finished_at);

    CREATE TABLE boards (
        game_id INTEGER NOT NULL REFERENCES games (id),
        chat_id INTEGER NOT NULL,
        viewer TEXT NOT NULL,                -- whose side is drawn at the bottom: 'w' or 'b'
        message_id INTEGER,                  -- NULL until sent
        PRIMARY KEY (game_id, chat_id)
    );

    CREATE TABLE handled_updates (
        update_id INTEGER PRIMARY KEY,
        handled_at REAL NOT NULL
    );
    """,
    # 2: matches, the doubling cube, chip stakes with their ledger, ratings, group leagues
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        length INTEGER NOT NULL,             -- points to win
        cube INTEGER NOT NULL,               -- games are played with the cube (but Crawford's)
        white_score INTEGER NOT NULL DEFAULT 0,
        black_score INTEGER NOT NULL DEFAULT 0,
        crawford INTEGER NOT NULL DEFAULT 0,         -- the next game is the Crawford game
        crawford_played INTEGER NOT NULL DEFAULT 0,
        winner TEXT,                         -- 'w' or 'b' once over
        created_at REAL NOT NULL,
        finished_at REAL
    );

    ALTER TABLE challenges ADD COLUMN match_length INTEGER NOT NULL DEFAULT 0;  -- 0: one game
    ALTER TABLE challenges ADD COLUMN cube INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE challenges ADD COLUMN stake INTEGER NOT NULL DEFAULT 0;          -- chips
    ALTER TABLE challenges ADD COLUMN stake_mode TEXT NOT NULL DEFAULT 'rules';

    ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES matches (id);
    ALTER TABLE games ADD COLUMN game_no INTEGER NOT NULL DEFAULT 1;  -- within its match
    ALTER TABLE games ADD COLUMN cube TEXT;      -- NULL: no cube; '2 b', '1 -', '4 w offered'
    ALTER TABLE games ADD COLUMN stake INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN stake_mode TEXT NOT NULL DEFAULT 'rules';
    ALTER TABLE games ADD COLUMN chips INTEGER;  -- what the result moved, once settled
    ALTER TABLE games ADD COLUMN chips_status TEXT;  -- paid, held, void (NULL: no stake)
    CREATE UNIQUE INDEX games_match ON games (match_id, game_no) WHERE match_id IS NOT NULL;

    CREATE TABLE wallets (
        user_id INTEGER PRIMARY KEY REFERENCES users (id),
        chips INTEGER NOT NULL CHECK (chips >= 0),
        topped_up_at REAL NOT NULL           -- the last grant: the first one or a daily top-up
    );

    -- Every change of a balance. A game's transfer is two rows (the loser's -n, the winner's
    -- +n) written with the game's result; grants are single rows.
    CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users (id),
        delta INTEGER NOT NULL,
        balance INTEGER NOT NULL CHECK (balance >= 0),  -- after this row
        kind TEXT NOT NULL,                  -- grant, top_up, game
        game_id INTEGER REFERENCES games (id),
        other_id INTEGER REFERENCES users (id),  -- the other side of a transfer
        created_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX ledger_game ON ledger (game_id, user_id) WHERE game_id IS NOT NULL;
    CREATE INDEX ledger_user ON ledger (user_id, created_at);

    -- Transfers held back as possible chip dumping, for a group's admins to look at.
    CREATE TABLE chip_flags (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        chat_id INTEGER NOT NULL,
        loser_id INTEGER NOT NULL REFERENCES users (id),
        winner_id INTEGER NOT NULL REFERENCES users (id),
        amount INTEGER NOT NULL,             -- what would have been paid
        payments INTEGER NOT NULL,           -- payments one way in the window, this one too
        paid INTEGER NOT NULL,               -- their chips, this one's too
        created_at REAL NOT NULL
    );
    CREATE INDEX chip_flags_chat ON chip_flags (chat_id, created_at);

    CREATE TABLE ratings (
        user_id INTEGER NOT NULL REFERENCES users (id),
        variant TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (user_id, variant)
    );

    -- A group's pinned standings message.
    CREATE TABLE leagues (
        chat_id INTEGER PRIMARY KEY,
        message_id INTEGER,                  -- NULL until sent
        locale TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
    # 3: which version each board message shows; quick mode; turn input kept tap by tap
    """
    ALTER TABLE boards ADD COLUMN shown_version INTEGER;  -- NULL: not known to show any
    UPDATE boards SET shown_version = (SELECT version FROM games WHERE games.id = boards.game_id)
        WHERE message_id IS NOT NULL;
    ALTER TABLE users ADD COLUMN quick INTEGER NOT NULL DEFAULT 0;  -- a completing tap confirms
    """,
    # 4: every game of the rule texts: dice modes, gul-bara's remainders and chains, the strike
    """
    -- dice modes: two, three, anti_three
    ALTER TABLE challenges ADD COLUMN dice_mode TEXT NOT NULL DEFAULT 'two';
    ALTER TABLE games ADD COLUMN dice_mode TEXT NOT NULL DEFAULT 'two';
    -- gul-bara: the moves handed over ('5,6,6'), and rolls again this turn
    ALTER TABLE games ADD COLUMN remainder TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN chain INTEGER NOT NULL DEFAULT 0;
    -- anti_three: the die struck from this roll
    ALTER TABLE games ADD COLUMN struck INTEGER;
    """,
    # 5: the computer as a player, one user a level (ids -1..-5, named in every language by
    # stars, which the board font draws); hints
    """
    INSERT INTO users (id, username, first_name, language_code, updated_at)
        VALUES (-1, NULL, 'AI ★☆☆☆☆', NULL, 0), (-2, NULL, 'AI ★★☆☆☆', NULL, 0),
               (-3, NULL, 'AI ★★★☆☆', NULL, 0), (-4, NULL, 'AI ★★★★☆', NULL, 0),
               (-5, NULL, 'AI ★★★★★', NULL, 0);
    -- the 💡 button: always against the computer; between people when both agreed
    ALTER TABLE challenges ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    """,
)


async def open_database(path: Path | str) -> aiosqlite.Connection:
    """Opens (creating if needed) the database at ``path`` and migrates it to the latest schema.

    WAL journal: readers do not wait for the writer, and every commit survives the process
    being killed. ``synchronous = NORMAL`` by default; :meth:`Database.transaction` and
    :meth:`Database.write` with ``durable=True`` commit at ``FULL`` (the log is on disk when the
    commit returns), so a confirmed turn survives a power cut too (``bench/results.py``
    measures what that costs per saved turn).
    """
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = aiosqlite.Row
    await db.execute("PRAGMA journal_mode = WAL")
    await db.execute("PRAGMA synchronous = NORMAL")
    await db.execute("PRAGMA foreign_keys = ON")
    await db.execute("PRAGMA busy_timeout = 5000")
    await migrate(db)
    return db


async def schema_version(db: aiosqlite.Connection) -> int:
    """Returns the schema version of ``db`` (0 for an empty database)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection) -> int:
    """Applies the migrations ``db`` has not had yet; returns the new schema version."""
    version = await schema_version(db)
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        await db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    return len(MIGRATIONS)


class VersionConflict(Exception):
    """Raised when a row changed since it was read (another tap won the race)."""


class Database:
    """An open database with the write lock its repositories share.

    Every write runs in a transaction under one lock: aiosqlite runs one connection on one
    thread, and two coroutines must not interleave ``BEGIN``s on it. A write made inside
    :meth:`transaction` joins it, so a service can make several repositories' writes one atomic
    change (a game's result with its chips, match score and ratings).
    """

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._lock = asyncio.Lock()
        # Set while the current task holds the write lock in a transaction.
        self._inside: contextvars.ContextVar[bool] = contextvars.ContextVar(
            "inside_transaction", default=False
        )

    @asynccontextmanager
    async def transaction(self, *, durable: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed on leaving, rolled back on an exception. Inside
        another one (in the same task) it joins the outer transaction, whose ``durable``
        decides.

        ``durable``: on disk when the commit returns (``synchronous = FULL`` for this commit),
        so it survives a power cut; for what a player was told is done (a confirmed turn, a
        result, a new game). Other writes (handled updates, which version a board shows, names)
        commit at ``NORMAL``: safe from a crash of the process, but a power cut may take back
        the last of them, and each can be redone."""
        if self._inside.get():
            yield self.db
            return
        async with self._lock:
            token = self._inside.set(True)
            try:
                if durable:
                    await self.db.execute("PRAGMA synchronous = FULL")
                try:
                    await self.db.execute("BEGIN IMMEDIATE")
                    try:
                        yield self.db
                    except BaseException:
                        await self.db.execute("ROLLBACK")
                        raise
                    await self.db.execute("COMMIT")
                finally:
                    if durable:
                        await self.db.execute("PRAGMA synchronous = NORMAL")
            finally:
                self._inside.reset(token)

    async def write(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        """Runs one writing statement as its own transaction (SQLite's autocommit: one round
        trip to the database thread instead of three; ``durable`` as for :meth:`transaction`),
        or as part of the transaction the task is in; returns the rows it changed."""
        if self._inside.get():
            cursor = await self.db.execute(sql, params)
            return cursor.rowcount
        async with self._lock:
            if not durable:
                cursor = await self.db.execute(sql, params)
                return cursor.rowcount
            await self.db.execute("PRAGMA synchronous = FULL")
            try:
                cursor = await self.db.execute(sql, params)
                return cursor.rowcount
            finally:
                await self.db.execute("PRAGMA synchronous = NORMAL")

    async def fetch_one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        """Runs a query and returns its first row."""
        async with self.db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetch_all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        """Runs a query and returns its rows."""
        async with self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def ping(self) -> None:
        """Raises if the database cannot be reached (for /healthz)."""
        await self.fetch_one("SELECT 1")
