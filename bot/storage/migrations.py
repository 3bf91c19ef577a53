"""The schema, as one list of migrations that both backends apply in the same order.

Each entry of :data:`MIGRATIONS` moves the schema version up by one, in a transaction of its
own, so a database of any earlier version is brought up to date on opening and a new one is
built the same way. They are written once, in SQLite's words; :func:`for_postgres` renders an
entry for PostgreSQL by a few mechanical rules, so the two backends cannot drift apart (a test
compares the tables and columns both end up with):

- ``REAL`` is a double (PostgreSQL's ``REAL`` has only 24 bits: a Unix time would lose
  its seconds);
- ``id INTEGER PRIMARY KEY`` (SQLite's rowid, numbered by the database) becomes a ``BIGINT``
  identity that still takes explicit values (users' ids are Telegram's);
- every other id (a column named ``id`` or ending in ``_id``) is a ``BIGINT``: Telegram's user
  and chat ids need up to 52 bits. Counts, points and flags stay ``INTEGER``, so that sums of
  them are integers in both backends.

Flags are integers 0/1 in both backends (SQLite has no booleans), so queries test them with
``<> 0``, never bare.

A database remembers the checksum of every migration it has had (:data:`CHECKSUMS_TABLE`,
:func:`checksum`), and a release whose copy of an applied migration differs is refused
(:exc:`~.database.MigrationChanged`): a migration, once released, is never edited, only
followed by another. The checksum ignores comments and spacing, so fixing a comment changes
nothing. A database built before checksums were kept has them recorded when this release
first opens it.

What SQL cannot derive in both dialects (counting the dice in the games' roll logs) a
migration names on a line ``-- then: <name>``: the backend then runs :data:`BACKFILLS`'s
``<name>`` in the migration's transaction, rows read, counted in Python, written.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

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
    # 6: several workers over one database: who is sending a game's boards, the shared pace of
    # messages, outages already made up for; correspondence games' reminders
    """
    -- Work that one worker at a time does, such as editing a game's boards ('board 12'),
    -- claimed until a time; a worker that dies lets its claims run out.
    CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,                 -- the worker: host, process id and a random tag
        until REAL NOT NULL
    );
    -- Telegram's pace, one row a chat and one (chat 0) for all chats together: the time at
    -- which the chat's next message is due (GCRA), shared by every worker.
    CREATE TABLE pace (
        chat_id INTEGER PRIMARY KEY,
        due REAL NOT NULL
    );
    -- Telegram outages whose length has been added to the deadlines (by whichever worker
    -- saw one end first).
    CREATE TABLE outages (
        id INTEGER PRIMARY KEY,
        began REAL NOT NULL,
        ended REAL NOT NULL
    );
    -- the deadline whose player was reminded that half their time is gone (long move times)
    ALTER TABLE games ADD COLUMN reminded REAL;
    """,
    # 7: languages chosen with /language: a user's own, and a group's (set by its admins)
    """
    ALTER TABLE users ADD COLUMN locale TEXT;  -- the catalog chosen; NULL: from language_code
    CREATE TABLE chat_settings (
        chat_id INTEGER PRIMARY KEY,         -- a group
        locale TEXT,                         -- the catalog of the group's messages and boards
        updated_at REAL NOT NULL
    );
    """,
    # 8: inline mode: an invitation posted through a user in any chat, and its game played in
    # that inline message; the chat it is in known by Telegram's chat_instance only
    """
    -- the inline message that shows an invitation (the bot cannot post in that chat itself)
    ALTER TABLE challenges ADD COLUMN inline_message_id TEXT;
    CREATE UNIQUE INDEX challenges_inline ON challenges (inline_message_id)
        WHERE inline_message_id IS NOT NULL;
    -- the chat of an inline game, as the Join tap named it: its pace and its leaderboard
    ALTER TABLE games ADD COLUMN chat_instance TEXT;
    CREATE INDEX games_chat_instance ON games (chat_instance, finished_at)
        WHERE chat_instance IS NOT NULL;
    -- a board kept in an inline message (its chat_id is 0: no chat the bot can write to)
    ALTER TABLE boards ADD COLUMN inline_message_id TEXT;
    """,
    # 9: provably fair dice (bot/engine/fair.py): every roll derived from a seed drawn when the
    # challenge is made (its commitment shown before anyone accepts), committed to by its SHA-256
    # and revealed when the game ends
    """
    -- the seed of the game a challenge will start, drawn with it (secret, 64 hex digits)
    ALTER TABLE challenges ADD COLUMN dice_seed TEXT;
    -- NULL in games started before fair dice (their dice came from the bot's random source)
    ALTER TABLE games ADD COLUMN dice_seed TEXT;        -- 64 hex digits, secret until the end
    ALTER TABLE games ADD COLUMN dice_commitment TEXT;  -- SHA-256 of the seed, shown from the start
    ALTER TABLE games ADD COLUMN dice_client TEXT;      -- the players' value: the starting tap's id
    -- every roll so far, one line each: '<first die's number> <w|b> <dice>' ('4 w 5-2'); the
    -- number of dice rolled, where the next roll goes on, is the last line's end
    ALTER TABLE games ADD COLUMN dice_rolls TEXT NOT NULL DEFAULT '';
    """,
    # 10: watching: games open to watchers (or kept private by their players), watchers' boards
    """
    -- open to watchers, with a Watch link; what came before had no such choice: not watchable
    ALTER TABLE challenges ADD COLUMN watchable INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN watchable INTEGER NOT NULL DEFAULT 0;
    -- a watcher's board: in the watcher's private chat, drawn from white's side, no buttons
    ALTER TABLE boards ADD COLUMN watcher INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX boards_chat ON boards (chat_id);
    """,
    # 11: games played on from a shared position; replays sent once and then by Telegram's id
    """
    -- the position a game starts at, in engine notation, its side to move to roll first;
    -- NULL: the variant's own start after an opening roll
    ALTER TABLE challenges ADD COLUMN start TEXT;
    ALTER TABLE games ADD COLUMN start TEXT;
    -- a finished game's 🎞 replay as Telegram keeps it, one per language of its words
    CREATE TABLE replays (
        game_id INTEGER NOT NULL REFERENCES games (id),
        locale TEXT NOT NULL,
        file_id TEXT NOT NULL,
        PRIMARY KEY (game_id, locale)
    );
    """,
    # 12: a challenge's messages, each with its chat; the terms of every version of a challenge
    """
    -- Every message that shows a challenge with its buttons, one a chat: where it was made,
    -- the invitation sent to the challenged, a link opened. A tap on a challenge's button
    -- counts only on one of them, and the bot edits them all (in each one's language) when
    -- the terms change or the challenge closes.
    CREATE TABLE challenge_messages (
        challenge_id INTEGER NOT NULL REFERENCES challenges (id),
        chat_id INTEGER NOT NULL,
        message_id INTEGER,                  -- NULL while being sent
        locale TEXT NOT NULL,
        PRIMARY KEY (challenge_id, chat_id)
    );
    CREATE INDEX challenge_messages_message ON challenge_messages (chat_id, message_id);
    INSERT INTO challenge_messages (challenge_id, chat_id, message_id, locale)
        SELECT id, chat_id, message_id, locale FROM challenges WHERE message_id IS NOT NULL;
    ALTER TABLE challenges DROP COLUMN message_id;  -- had no chat: challenge_messages has it
    -- The terms each version of a challenge offered, so that a tap drawn for older ones is
    -- told what changed since.
    CREATE TABLE challenge_terms (
        challenge_id INTEGER NOT NULL REFERENCES challenges (id),
        version INTEGER NOT NULL,
        target_id INTEGER,                   -- the computer's level is its id
        variant TEXT NOT NULL,
        rule_set TEXT NOT NULL,
        move_seconds INTEGER NOT NULL,
        match_length INTEGER NOT NULL,
        cube INTEGER NOT NULL,
        stake INTEGER NOT NULL,
        stake_mode TEXT NOT NULL,
        dice_mode TEXT NOT NULL,
        hints INTEGER NOT NULL,
        watchable INTEGER NOT NULL,
        PRIMARY KEY (challenge_id, version)
    );
    INSERT INTO challenge_terms
        SELECT id, version, target_id, variant, rule_set, move_seconds, match_length, cube,
               stake, stake_mode, dice_mode, hints, watchable
        FROM challenges WHERE status = 'open';
    """,
    # 13: a game in one column, in the engine's text (bot/engine/notation.py), instead of a
    # column a field with codecs of the storage's own; taps always ended by '|'
    """
    -- The game: position, rule set, dice mode, ply, moved sides, opening roll, dice, struck
    -- die, remainder, chain, cube and result, one line (Game.to_text). variant, rule_set,
    -- winner, outcome and points stay as copies of it that queries filter and sum by.
    ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT '';
    UPDATE games SET game = position
        || ' | rules ' || rule_set
        || CASE dice_mode WHEN 'two' THEN '' ELSE ' | mode ' || dice_mode END
        || ' | ply ' || CAST(ply AS TEXT)
        || CASE moved WHEN '' THEN '' ELSE ' | moved ' || moved END
        || COALESCE(' | opening ' || opening, '')
        || COALESCE(' | dice ' || dice, '')
        || COALESCE(' | struck ' || CAST(struck AS TEXT), '')
        || CASE remainder WHEN '' THEN '' ELSE ' | remainder ' || remainder END
        || CASE chain WHEN 0 THEN '' ELSE ' | chain ' || CAST(chain AS TEXT) END
        -- '1 -' (centred) was the cube's text: 'cube 1', 'cube 1 offered', 'cube 2 b'
        || COALESCE(' | cube ' || RTRIM(REPLACE(cube || ' ', ' - ', ' ')), '')
        || CASE WHEN winner IS NULL THEN ''
                ELSE ' | result ' || winner || ' ' || outcome || ' ' || CAST(points AS TEXT)
           END;
    ALTER TABLE games DROP COLUMN position;
    ALTER TABLE games DROP COLUMN dice;
    ALTER TABLE games DROP COLUMN moved;
    ALTER TABLE games DROP COLUMN ply;
    ALTER TABLE games DROP COLUMN opening;
    ALTER TABLE games DROP COLUMN cube;
    ALTER TABLE games DROP COLUMN dice_mode;
    ALTER TABLE games DROP COLUMN remainder;
    ALTER TABLE games DROP COLUMN chain;
    ALTER TABLE games DROP COLUMN struck;
    -- input tapped under schema 2 and before, one step a tap: each step its own tap now
    UPDATE games SET input = REPLACE(input, ' ', '|') || '|'
        WHERE input <> '' AND input NOT LIKE '%|%';
    """,
    # 14: the pool of players looking for anyone to play ("play anyone now"), and each
    # player's last choice of terms, kept after they leave it
    """
    -- One row per player in the pool (never two): the pool is the chat's, chat_id 0 for the
    -- private pool of everyone, a group's id for that group's members. No reference to users:
    -- a row lives for seconds and is deleted when its player is paired or leaves.
    CREATE TABLE seekers (
        user_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        rule_set TEXT,                       -- NULL: the variant's default
        match_length INTEGER NOT NULL,
        dice_mode TEXT NOT NULL,
        move_seconds INTEGER,                -- NULL: the bot's default
        stake INTEGER NOT NULL,
        rating REAL NOT NULL,                -- the player's rating in the variant on entering
        since REAL NOT NULL,
        offer_after INTEGER NOT NULL,        -- seconds before the computer is offered
        offered INTEGER NOT NULL DEFAULT 0,  -- the computer was offered (once)
        version INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX seekers_chat ON seekers (chat_id, variant);
    CREATE INDEX seekers_due ON seekers (offered, since);
    -- The terms a player last looked for, offered again next time.
    CREATE TABLE seeker_choices (
        user_id INTEGER PRIMARY KEY,
        variant TEXT NOT NULL,
        rule_set TEXT,
        match_length INTEGER NOT NULL,
        dice_mode TEXT NOT NULL,
        move_seconds INTEGER,
        stake INTEGER NOT NULL,
        offer_after INTEGER NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    # 15: the message that shows a seeker's wait ("Looking for an opponent…"), edited when
    # they are paired or offered the computer, whichever worker pairs them
    """
    ALTER TABLE seekers ADD COLUMN message_id INTEGER;  -- NULL: none to edit
    """,
    # 16: tournaments in groups (issue 24): the tournaments, their entrants, their boards
    # round by round with the game deciding each, the games counted for the group's league,
    # and who may make one in a group
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,            -- the group
        creator_id INTEGER NOT NULL REFERENCES users (id),
        format TEXT NOT NULL,                -- knockout, round_robin, swiss
        variant TEXT NOT NULL,
        rule_set TEXT,                       -- NULL: the variant's default
        dice_mode TEXT NOT NULL,
        match_length INTEGER NOT NULL,       -- 0: single games
        move_seconds INTEGER,                -- NULL: the bot's default; a day or more: by mail
        entry INTEGER NOT NULL,              -- chips paid on joining; the pot is the winner's
        starts_at REAL,                      -- NULL: started by its creator
        state TEXT NOT NULL,                 -- signup, running, finished, cancelled
        rounds INTEGER NOT NULL DEFAULT 0,   -- settled at the start
        round_no INTEGER NOT NULL DEFAULT 0, -- the current round, 0 before the start
        winner_id INTEGER REFERENCES users (id),
        locale TEXT NOT NULL,
        message_id INTEGER,                  -- the sign-up message
        pinned_id INTEGER,                   -- the pinned bracket or table
        version INTEGER NOT NULL DEFAULT 0,  -- up with each change and each result
        shown_version INTEGER NOT NULL DEFAULT -1,  -- what the pinned message shows
        created_at REAL NOT NULL,
        finished_at REAL
    );
    CREATE INDEX tournaments_chat ON tournaments (chat_id, created_at);
    CREATE INDEX tournaments_state ON tournaments (state, starts_at);

    CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        user_id INTEGER NOT NULL REFERENCES users (id),
        rating REAL NOT NULL DEFAULT 0,      -- the seed: the rating at the start
        withdrawn INTEGER NOT NULL DEFAULT 0,
        joined_at REAL NOT NULL,
        PRIMARY KEY (tournament_id, user_id)
    );

    -- One row a board of a round; the primary key pairs a round once, whichever worker tries.
    CREATE TABLE tournament_pairings (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round_no INTEGER NOT NULL,
        board INTEGER NOT NULL,
        first_id INTEGER NOT NULL REFERENCES users (id),
        second_id INTEGER REFERENCES users (id),  -- NULL: a bye
        game_id INTEGER REFERENCES games (id),    -- the (first) game deciding it
        match_id INTEGER REFERENCES matches (id),
        winner_id INTEGER REFERENCES users (id),
        decided INTEGER NOT NULL DEFAULT 0,       -- NULL winner when decided: double forfeit
        PRIMARY KEY (tournament_id, round_no, board)
    );
    CREATE UNIQUE INDEX tournament_pairings_game ON tournament_pairings (game_id)
        WHERE game_id IS NOT NULL;
    CREATE INDEX tournament_pairings_match ON tournament_pairings (match_id)
        WHERE match_id IS NOT NULL;

    -- Tournament games are played in private chats (chat_id 0): this counts them in their
    -- group's league and leaderboard.
    CREATE TABLE tournament_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        chat_id INTEGER NOT NULL
    );
    CREATE INDEX tournament_games_chat ON tournament_games (chat_id);

    CREATE TABLE tournament_settings (
        chat_id INTEGER PRIMARY KEY,
        anyone INTEGER NOT NULL DEFAULT 0,   -- anyone may make one; 0: the group's admins
        updated_at REAL NOT NULL
    );
    """,
    # 17: the automatic analysis of rated games: its queue, each player's luck and PR per game,
    # and the accounts flagged for a PR far better than their rating predicts
    """
    -- One row per finished rated game waiting for its analysis. token and claimed_at name the
    -- worker working on it (NULL: nobody); a claim older than the timeout is taken over.
    CREATE TABLE analysis_queue (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        queued_at REAL NOT NULL,
        token TEXT,
        claimed_at REAL,
        attempts INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX analysis_queue_order ON analysis_queue (queued_at);
    -- Each side's figures over an analysed game (see bot.ai.luck): luck in points per unit of
    -- the cube, PR, the error rate, and the counts behind them.
    CREATE TABLE game_luck (
        game_id INTEGER NOT NULL REFERENCES games (id),
        side TEXT NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users (id),
        variant TEXT NOT NULL,
        luck REAL NOT NULL,
        pr REAL NOT NULL,
        error_rate REAL NOT NULL,
        decisions INTEGER NOT NULL,
        rolls INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, side)
    );
    CREATE INDEX game_luck_user ON game_luck (user_id, finished_at);
    -- One flag per account and variant, renewed while it holds.
    CREATE TABLE pr_flags (
        user_id INTEGER NOT NULL REFERENCES users (id),
        variant TEXT NOT NULL,
        games INTEGER NOT NULL,
        pr REAL NOT NULL,
        expected REAL NOT NULL,
        rating REAL NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (user_id, variant)
    );
    """,
    # 18: the daily position: one position a day per variant, the players' answers and streaks,
    # the groups that have it posted each morning and their posts
    """
    -- One row per variant and day (UTC, 'YYYY-MM-DD'). position_key names the position and
    -- roll ('long w / ... 6-5'): none is chosen twice in a year. ranking holds every legal turn,
    -- one line each, best first: 'equity<TAB>position reached<TAB>turn'.
    CREATE TABLE daily_positions (
        id INTEGER PRIMARY KEY,
        variant TEXT NOT NULL,
        day TEXT NOT NULL,
        position_key TEXT NOT NULL,
        game TEXT NOT NULL,                  -- Game.to_text(), rolled, ready to play
        ranking TEXT NOT NULL,
        source_game_id INTEGER,              -- NULL: from the computer's self-play
        created_at REAL NOT NULL,
        UNIQUE (variant, day)
    );
    CREATE INDEX daily_positions_key ON daily_positions (variant, day, position_key);
    CREATE TABLE daily_answers (
        position_id INTEGER NOT NULL REFERENCES daily_positions (id),
        user_id INTEGER NOT NULL,
        turn TEXT NOT NULL,
        loss REAL NOT NULL,
        correct INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (position_id, user_id)
    );
    -- Days in a row with a right answer, up to last_day.
    CREATE TABLE daily_streaks (
        user_id INTEGER PRIMARY KEY,
        streak INTEGER NOT NULL,
        best_streak INTEGER NOT NULL,
        last_day TEXT NOT NULL
    );
    CREATE INDEX daily_streaks_alive ON daily_streaks (last_day, streak);
    -- Groups whose admins asked for the morning post (09:00 in time_zone).
    CREATE TABLE daily_groups (
        chat_id INTEGER PRIMARY KEY,
        time_zone TEXT NOT NULL,             -- IANA name: 'Europe/Moscow'
        variant TEXT NOT NULL,
        locale TEXT NOT NULL,
        next_post REAL NOT NULL,             -- Unix time of the next morning post
        updated_at REAL NOT NULL
    );
    CREATE INDEX daily_groups_due ON daily_groups (next_post);
    -- A group's message showing a position: claimed (message_id NULL) before it is sent, so
    -- that one worker sends it, once.
    CREATE TABLE daily_posts (
        chat_id INTEGER NOT NULL,
        position_id INTEGER NOT NULL REFERENCES daily_positions (id),
        message_id INTEGER,
        locale TEXT NOT NULL,
        PRIMARY KEY (chat_id, position_id)
    );
    CREATE INDEX daily_posts_position ON daily_posts (position_id);
    """,
    # 19: a game's luck made zero-sum (a side's own rolls' luck less its opponent's, see
    # bot.ai.luck), and what each side's luck-adjusted result is made of kept: its result and
    # its luck in points (NULL for the games analysed before); the boards found by their
    # inline message
    """
    ALTER TABLE game_luck ADD COLUMN own_luck REAL;
    UPDATE game_luck SET own_luck = luck;
    UPDATE game_luck SET luck = own_luck - COALESCE(
        (SELECT other.own_luck FROM game_luck AS other
          WHERE other.game_id = game_luck.game_id AND other.side <> game_luck.side), 0);
    ALTER TABLE game_luck DROP COLUMN own_luck;
    ALTER TABLE game_luck ADD COLUMN result REAL;       -- points won (+) or lost (-)
    ALTER TABLE game_luck ADD COLUMN luck_points REAL;  -- each roll's luck times the cube
    -- the latest game of an inline message (a match's games follow one another in it)
    CREATE INDEX boards_inline ON boards (inline_message_id) WHERE inline_message_id IS NOT NULL;
    """,
    # 20: competition that holds up (issue 38): a tournament made once per creation picker;
    # what its winner was paid; its entries paid to the winner held like games' results; the
    # daily position's best move shown to all when its day ends
    """
    -- the creation picker (a message of the group) that made it: one tournament per picker,
    -- however many taps on its Create button, on whichever worker
    ALTER TABLE tournaments ADD COLUMN picker_id INTEGER;
    CREATE UNIQUE INDEX tournaments_picker ON tournaments (chat_id, picker_id)
        WHERE picker_id IS NOT NULL;
    ALTER TABLE tournaments ADD COLUMN prize INTEGER;  -- chips its winner was paid, at the end

    -- A held transfer is a game's result, or the entry one player paid into a tournament that
    -- another won (a tournament's prize is its entries, each paid by an entrant to the winner).
    CREATE TABLE chip_flags_new (
        id INTEGER PRIMARY KEY,
        game_id INTEGER REFERENCES games (id),              -- a game's result, or
        tournament_id INTEGER REFERENCES tournaments (id),  -- a tournament's entry
        chat_id INTEGER NOT NULL,
        loser_id INTEGER NOT NULL REFERENCES users (id),    -- who would have paid
        winner_id INTEGER NOT NULL REFERENCES users (id),
        amount INTEGER NOT NULL,             -- what would have been paid
        payments INTEGER NOT NULL,           -- payments one way in the window, this one too
        paid INTEGER NOT NULL,               -- their chips, this one's too
        created_at REAL NOT NULL
    );
    INSERT INTO chip_flags_new
        (game_id, chat_id, loser_id, winner_id, amount, payments, paid, created_at)
        SELECT game_id, chat_id, loser_id, winner_id, amount, payments, paid, created_at
        FROM chip_flags ORDER BY created_at, game_id;
    DROP TABLE chip_flags;
    ALTER TABLE chip_flags_new RENAME TO chip_flags;
    CREATE UNIQUE INDEX chip_flags_game ON chip_flags (game_id) WHERE game_id IS NOT NULL;
    CREATE UNIQUE INDEX chip_flags_entry ON chip_flags (tournament_id, loser_id)
        WHERE tournament_id IS NOT NULL;
    CREATE INDEX chip_flags_chat ON chip_flags (chat_id, created_at);

    -- The daily position's best move is shown when its day ends: the group posts edited to
    -- show it once (1 for the positions of before).
    ALTER TABLE daily_positions ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0;
    UPDATE daily_positions SET revealed = 1;
    -- the best streak before last_day's right answer: a streak is shown as it stood when the
    -- day began until the day ends
    ALTER TABLE daily_streaks ADD COLUMN best_before INTEGER NOT NULL DEFAULT 0;
    UPDATE daily_streaks SET best_before = best_streak;
    """,
    # 21: the operators' tools: users they banned, the messages they broadcast (each recipient
    # at most once: the cursor moves past a user before the message is sent), their decisions
    # on held chip transfers, and the games of a day counted by an index
    """
    CREATE TABLE bans (
        user_id INTEGER PRIMARY KEY,         -- not REFERENCES users: a ban may come first
        operator_id INTEGER NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE TABLE broadcasts (
        id INTEGER PRIMARY KEY,
        operator_id INTEGER NOT NULL,
        text TEXT NOT NULL,                  -- HTML, as the operator wrote it
        state TEXT NOT NULL,                 -- draft, sending, done, stopped
        chat_id INTEGER NOT NULL,            -- the operator's message showing its progress
        message_id INTEGER,
        last_user_id INTEGER NOT NULL DEFAULT 0,  -- the cursor: the last recipient taken
        total INTEGER NOT NULL DEFAULT 0,    -- recipients counted when it was confirmed
        sent INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX broadcasts_state ON broadcasts (state);
    ALTER TABLE chip_flags ADD COLUMN resolution TEXT;  -- NULL: held; released, refunded
    ALTER TABLE chip_flags ADD COLUMN operator_id INTEGER;
    ALTER TABLE chip_flags ADD COLUMN resolved_at REAL;
    CREATE INDEX games_created ON games (created_at);
    """,
    # 22: every command and tick bounded by what it returns, not by the size of the history
    # (issue 36): indexes for a player's and a pair's latest games, the reminders' due time and
    # the games whose boards are not yet shown; a player's record, a pair's, a chat's standings
    # and a player's dice kept as running totals, added to as each game ends (backfilled here)
    """
    -- a player's latest finished games (/history), a pair's (the rating update's repeats,
    -- /score's latest match)
    CREATE INDEX games_white_finished ON games (white_id, finished_at) WHERE winner IS NOT NULL;
    CREATE INDEX games_black_finished ON games (black_id, finished_at) WHERE winner IS NOT NULL;
    CREATE INDEX games_pair ON games (white_id, black_id, finished_at);
    CREATE INDEX games_pair_match ON games (white_id, black_id, match_id)
        WHERE match_id IS NOT NULL AND game_no = 1;
    -- the correspondence games (an hour a move or more) by when their player is due a reminder
    -- (half the move's time gone), those not yet reminded of their deadline only
    CREATE INDEX games_remind ON games ((deadline - move_seconds * 0.5))
        WHERE winner IS NULL AND move_seconds >= 3600 AND deadline IS NOT NULL
          AND (reminded IS NULL OR reminded <> deadline);
    -- a game with a board that may not show its latest version: set by every change and new
    -- board, cleared once every board is known to show it
    ALTER TABLE games ADD COLUMN unshown INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET unshown = 1 WHERE EXISTS (
        SELECT 1 FROM boards WHERE boards.game_id = games.id
          AND (boards.shown_version IS NULL OR boards.shown_version < games.version));
    CREATE INDEX games_unshown ON games (id) WHERE unshown <> 0;
    CREATE INDEX tournaments_behind ON tournaments (id) WHERE shown_version < version;
    -- the pool's look: the seekers whose window widened (by when they entered), and each
    -- one's nearest ratings with the same terms
    CREATE INDEX seekers_since ON seekers (since);
    CREATE INDEX seekers_rating ON seekers (chat_id, variant, rating);
    DROP INDEX seekers_chat;  -- the same columns first: a planner without statistics took it

    -- A player's record over the finished games with people that count (not those from a
    -- chosen position): /stats reads one row. streak: the latest run, + wins, - losses.
    CREATE TABLE player_totals (
        user_id INTEGER PRIMARY KEY,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        points_won INTEGER NOT NULL,
        points_lost INTEGER NOT NULL,
        mars_given INTEGER NOT NULL,
        mars_taken INTEGER NOT NULL,
        koks_given INTEGER NOT NULL,
        koks_taken INTEGER NOT NULL,
        home_mars_given INTEGER NOT NULL,
        home_mars_taken INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        best_streak INTEGER NOT NULL
    );
    WITH mine AS (
        SELECT white_id AS user_id, winner = 'w' AS won, outcome, points, finished_at, id
        FROM games WHERE winner IS NOT NULL AND white_id > 0 AND black_id > 0 AND start IS NULL
        UNION ALL
        SELECT black_id, winner = 'b', outcome, points, finished_at, id
        FROM games WHERE winner IS NOT NULL AND white_id > 0 AND black_id > 0 AND start IS NULL),
    numbered AS (
        SELECT user_id, won, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY finished_at, id)
               - ROW_NUMBER() OVER (PARTITION BY user_id, won ORDER BY finished_at, id) AS run,
               ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY finished_at, id) AS seq
        FROM mine),
    runs AS (
        SELECT user_id, won, COUNT(*) AS length, MAX(seq) AS last
        FROM numbered GROUP BY user_id, won, run),
    ends AS (  -- each run signed, the latest one first
        SELECT user_id, CASE WHEN won THEN length ELSE -length END AS streak,
               ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY last DESC) AS latest
        FROM runs),
    streaks AS (
        SELECT user_id, MAX(CASE WHEN latest = 1 THEN streak END) AS streak,
               COALESCE(MAX(CASE WHEN streak > 0 THEN streak END), 0) AS best
        FROM ends GROUP BY user_id),
    totals AS (
        SELECT user_id, COUNT(*) AS games,
               COUNT(*) FILTER (WHERE won) AS wins,
               COALESCE(SUM(points) FILTER (WHERE won), 0) AS points_won,
               COALESCE(SUM(points) FILTER (WHERE NOT won), 0) AS points_lost,
               COUNT(*) FILTER (WHERE won AND outcome = 'mars') AS mars_given,
               COUNT(*) FILTER (WHERE NOT won AND outcome = 'mars') AS mars_taken,
               COUNT(*) FILTER (WHERE won AND outcome = 'koks') AS koks_given,
               COUNT(*) FILTER (WHERE NOT won AND outcome = 'koks') AS koks_taken,
               COUNT(*) FILTER (WHERE won AND outcome = 'home_mars') AS home_mars_given,
               COUNT(*) FILTER (WHERE NOT won AND outcome = 'home_mars') AS home_mars_taken
        FROM mine GROUP BY user_id)
    INSERT INTO player_totals
    SELECT totals.user_id, games, wins, points_won, points_lost, mars_given, mars_taken,
           koks_given, koks_taken, home_mars_given, home_mars_taken, streak, best
    FROM totals JOIN streaks ON streaks.user_id = totals.user_id;

    -- The finished games that count between two players (the computer too), from user_id's
    -- side: head-to-head scores, and /stats' record against each level of the computer.
    CREATE TABLE pair_totals (
        user_id INTEGER NOT NULL,
        other_id INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        won INTEGER NOT NULL,                -- points won
        lost INTEGER NOT NULL,               -- points lost
        PRIMARY KEY (user_id, other_id)
    );
    INSERT INTO pair_totals
    SELECT user_id, other_id, COUNT(*), SUM(win), SUM(won), SUM(lost) FROM (
        SELECT white_id AS user_id, black_id AS other_id,
               CASE winner WHEN 'w' THEN 1 ELSE 0 END AS win,
               CASE winner WHEN 'w' THEN points ELSE 0 END AS won,
               CASE winner WHEN 'w' THEN 0 ELSE points END AS lost
        FROM games WHERE winner IS NOT NULL AND start IS NULL
        UNION ALL
        SELECT black_id, white_id, CASE winner WHEN 'b' THEN 1 ELSE 0 END,
               CASE winner WHEN 'b' THEN points ELSE 0 END,
               CASE winner WHEN 'b' THEN 0 ELSE points END
        FROM games WHERE winner IS NOT NULL AND start IS NULL) AS sides
    GROUP BY user_id, other_id;

    -- A chat's leaderboard (/top, the league): a group's (chat_instance ''), its tournaments'
    -- games included, or the inline games of the chat Telegram calls chat_instance (chat_id 0).
    CREATE TABLE standings (
        chat_id INTEGER NOT NULL,
        chat_instance TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        points INTEGER NOT NULL,             -- won minus lost
        PRIMARY KEY (chat_id, chat_instance, user_id)
    );
    CREATE INDEX standings_rank
        ON standings (chat_id, chat_instance, points DESC, wins DESC, games, user_id);
    -- a large group's rating table: the ratings walked down from the top (/top rating)
    CREATE INDEX ratings_rank ON ratings (variant, rating);
    WITH counted AS (
        SELECT id, chat_id, '' AS chat_instance, white_id, black_id, winner, points FROM games
        WHERE chat_id <> 0 AND winner IS NOT NULL AND start IS NULL
        UNION ALL
        SELECT g.id, t.chat_id, '', g.white_id, g.black_id, g.winner, g.points
        FROM tournament_games AS t JOIN games AS g ON g.id = t.game_id
        WHERE t.chat_id <> g.chat_id AND g.winner IS NOT NULL AND g.start IS NULL
        UNION ALL
        SELECT id, 0, chat_instance, white_id, black_id, winner, points FROM games
        WHERE chat_instance IS NOT NULL AND winner IS NOT NULL AND start IS NULL)
    INSERT INTO standings
    SELECT chat_id, chat_instance, user_id, COUNT(*), SUM(win), SUM(points) FROM (
        SELECT chat_id, chat_instance, CASE winner WHEN 'w' THEN white_id ELSE black_id END
               AS user_id, 1 AS win, points FROM counted
        UNION ALL
        SELECT chat_id, chat_instance, CASE winner WHEN 'w' THEN black_id ELSE white_id END,
               0, -points FROM counted) AS sides
    GROUP BY chat_id, chat_instance, user_id;

    -- A player's own dice in their finished games with fair dice (/dice): how many games, each
    -- face's count, and over the rolls of two dice their number, doubles and pips.
    CREATE TABLE dice_totals (
        user_id INTEGER PRIMARY KEY,
        games INTEGER NOT NULL,
        ones INTEGER NOT NULL,
        twos INTEGER NOT NULL,
        threes INTEGER NOT NULL,
        fours INTEGER NOT NULL,
        fives INTEGER NOT NULL,
        sixes INTEGER NOT NULL,
        rolls INTEGER NOT NULL,
        doubles INTEGER NOT NULL,
        pips INTEGER NOT NULL
    );
    -- then: dice_totals (counted from the games' rolls: see BACKFILLS)
    """,
    # 23: learning to play: each player's place in the lessons of /learn, the offers of it,
    # the practice positions and their answers, training games against the computer and the
    # coach's message of each
    """
    -- A player who met /learn: the offers made (1: made), whether they said no (never offered
    -- again), their practice streak (right answers in a row) and best streak.
    CREATE TABLE learners (
        user_id INTEGER PRIMARY KEY,
        offered_at_start INTEGER NOT NULL DEFAULT 0,
        offered_after_loss INTEGER NOT NULL DEFAULT 0,
        declined INTEGER NOT NULL DEFAULT 0,
        streak INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL
    );
    -- One row per player and lesson begun: steps done (the next to do), finished once.
    CREATE TABLE lesson_progress (
        user_id INTEGER NOT NULL,
        lesson TEXT NOT NULL,                -- the lesson's key: 'long.head'
        done INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (user_id, lesson)
    );
    -- Positions to practise on, ranked as the daily positions are (the ranking's form is
    -- daily_positions'); position_key names the checkers, side to move and roll.
    CREATE TABLE practice_positions (
        id INTEGER PRIMARY KEY,
        variant TEXT NOT NULL,
        position_key TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,                  -- Game.to_text(), rolled, ready to play
        ranking TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE TABLE practice_answers (
        position_id INTEGER NOT NULL REFERENCES practice_positions (id),
        user_id INTEGER NOT NULL,
        turn TEXT NOT NULL,
        loss REAL NOT NULL,
        correct INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (position_id, user_id)
    );
    CREATE INDEX practice_answers_user ON practice_answers (user_id);
    -- A training game (and the challenge that offers one): each turn judged, taken back on
    -- request.
    ALTER TABLE games ADD COLUMN training INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE challenges ADD COLUMN training INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE challenge_terms ADD COLUMN training INTEGER NOT NULL DEFAULT 0;
    -- The coach's message of a training game (message_id NULL until sent) and the player's
    -- turn it judged last: its history line's number and text ('' for none yet).
    CREATE TABLE coach_messages (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        chat_id INTEGER NOT NULL,
        message_id INTEGER,
        judged TEXT NOT NULL DEFAULT ''
    );
    """,
)


CHECKSUMS_TABLE: Final = """CREATE TABLE IF NOT EXISTS schema_checksums (
    version INTEGER PRIMARY KEY,             -- the migration's number (1 is the first)
    checksum TEXT NOT NULL                   -- checksum() of its script
)"""
"""Made before the migrations, in the same words for both backends."""

_COMMENT_OR_STRING = re.compile(r"'(?:[^']|'')*'|--[^\n]*")
_SPACE = re.compile(r"\s+")


def checksum(script: str) -> str:
    """The SHA-256 of a migration's statements, without its comments and with each run of
    spaces read as one (text inside quotes is kept as it is).

    >>> checksum("CREATE TABLE t (x INTEGER);  -- why") == checksum("CREATE TABLE t (x INTEGER);")
    True
    >>> checksum("INSERT INTO t VALUES ('a -- b')") == checksum("INSERT INTO t VALUES ('a')")
    False
    """

    def keep(match: re.Match[str]) -> str:
        text = match.group(0)
        return text if text.startswith("'") else " "

    statements = _SPACE.sub(" ", _COMMENT_OR_STRING.sub(keep, script)).strip()
    return hashlib.sha256(statements.encode()).hexdigest()


def changed_migration(recorded: Mapping[int, str], version: int) -> str | None:
    """Says which applied migration differs from this release's copy, given the checksums a
    database at schema ``version`` recorded (by number); None when none does.

    >>> changed_migration({1: checksum(MIGRATIONS[0])}, 1) is None
    True
    >>> changed_migration({1: "0" * 64}, 1).split(" (")[0]
    'migration 1 was edited after this database had it'
    """
    for number in range(1, min(version, len(MIGRATIONS)) + 1):
        stored = recorded.get(number)
        ours = checksum(MIGRATIONS[number - 1])
        if stored is not None and stored != ours:
            return (
                f"migration {number} was edited after this database had it (checksum "
                f"{stored[:12]}…, this release has {ours[:12]}…)"
            )
    return None


_IDENTITY = re.compile(r"\bid INTEGER PRIMARY KEY\b")
_ID_COLUMN = re.compile(r"\b(\w*_id|id) INTEGER\b")
_REAL = re.compile(r"\bREAL\b")


def for_postgres(script: str) -> str:
    """Renders one migration, written for SQLite, for PostgreSQL (see the module's rules).

    >>> for_postgres("id INTEGER PRIMARY KEY, chat_id INTEGER, n INTEGER, at REAL").split(", ")
    ['id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY', 'chat_id BIGINT', 'n INTEGER', \
'at DOUBLE PRECISION']
    """
    script = _IDENTITY.sub("id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", script)
    script = _ID_COLUMN.sub(r"\1 BIGINT", script)
    return _REAL.sub("DOUBLE PRECISION", script)


class Counter(Protocol):
    """What a backfill adds its rows to, and the rows it then writes."""

    def add(self, row: Sequence[Any]) -> None: ...

    def rows(self) -> Iterable[Sequence[Any]]: ...


@dataclass(frozen=True, slots=True)
class Backfill:
    """Rows a migration derives in Python: ``read`` (a query), each row given to a counter
    made by ``counter``, whose rows ``write`` inserts (``?`` parameters)."""

    read: str
    write: str
    counter: Callable[[], Counter]


class _DiceTotals:
    """Each player's own dice in the finished games with fair dice, from the games' roll logs
    (lines ``<number> <w|b> <dice>``, the dice ``5``, ``5-2`` or ``5-2-3``): games, each
    face's count, and over the rolls of two dice their number, doubles and pips."""

    def __init__(self) -> None:
        self._players: dict[int, list[int]] = {}

    def add(self, row: Sequence[Any]) -> None:
        white_id, black_id, rolls = row
        for player in (white_id, black_id):
            self._of(player)[0] += 1
        for line in rolls.splitlines():
            _, side, dice = line.split()
            counts = self._of(white_id if side == "w" else black_id)
            values = [int(value) for value in dice.split("-")]
            for value in values:
                counts[value] += 1
            if len(values) == 2:
                counts[7] += 1
                if values[0] == values[1]:
                    counts[8] += 1
                    counts[9] += 4 * values[0]
                else:
                    counts[9] += values[0] + values[1]

    def _of(self, player: int) -> list[int]:
        # games, ones … sixes, rolls of two dice, doubles, pips
        return self._players.setdefault(player, [0] * 10)

    def rows(self) -> Iterable[Sequence[Any]]:
        return [(player, *counts) for player, counts in self._players.items()]


BACKFILLS: Final[dict[str, Backfill]] = {
    "dice_totals": Backfill(
        read="""SELECT white_id, black_id, dice_rolls FROM games
                WHERE winner IS NOT NULL AND dice_seed IS NOT NULL""",
        write="""INSERT INTO dice_totals (user_id, games, ones, twos, threes, fours, fives,
                     sixes, rolls, doubles, pips)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        counter=_DiceTotals,
    ),
}
"""The backfills migrations name (``-- then: <name>``), by name."""

_THEN = re.compile(r"^\s*-- then: (\w+)", re.MULTILINE)


def backfill_of(script: str) -> Backfill | None:
    """The backfill a migration names, if any."""
    found = _THEN.search(script)
    return BACKFILLS[found.group(1)] if found else None
