"""The SQLite database: opening it with safe settings, and its schema by migrations.

The schema version is SQLite's ``PRAGMA user_version``; each entry of :data:`MIGRATIONS` moves it
up by one, in a transaction of its own, so a database of any earlier version is brought up to
date on opening and a new one is built the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import aiosqlite

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
)


async def open_database(path: Path | str) -> aiosqlite.Connection:
    """Opens (creating if needed) the database at ``path`` and migrates it to the latest schema.

    WAL journal: readers do not wait for the writer, and a committed transaction survives the
    process being killed at any moment.
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
