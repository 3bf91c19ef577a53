"""Migrations from 17 on: the analysis of rated games, the daily position, the operators'
tools, running totals, learning to play, one game at one sitting."""

from __future__ import annotations

from typing import Final

SCRIPTS: Final[tuple[str, ...]] = (
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
    # 24: one game at one sitting (issue 37): a tournament board whose player was still in
    # another game when its round began waits for it, until a time, instead of starting
    """
    -- NULL: started with its round (or decided); else when its player still busy forfeits
    ALTER TABLE tournament_pairings ADD COLUMN waits_until REAL;
    """,
)
