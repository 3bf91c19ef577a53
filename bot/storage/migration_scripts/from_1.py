"""Migrations 1 to 16: users, challenges, games, matches, chips, ratings, leagues, the
workers' coordination, languages, inline mode, fair dice, watching, the pool, tournaments."""

from __future__ import annotations

from typing import Final

SCRIPTS: Final[tuple[str, ...]] = (
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
)
