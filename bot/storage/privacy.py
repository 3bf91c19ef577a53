"""Forgetting a user (``/forget``, ``python -m bot forget``): every table's share of it.

A forgotten user's own rows go (their settings, the pool, their daily answers and streaks,
their ratings and flags, their challenges, the messages in their private chat, the replays
that show their name); the rows they share with other players stay, with a pseudonym in their
place: a new user id (:func:`bot.model.is_forgotten`) that has no name and is linked to the old
one nowhere. Opponents keep their games, results, scores, ratings, chips, tournaments and
analyses, and see "deleted player" there.

:data:`PERSONAL_COLUMNS` names, for every table of the schema, the columns that can hold a
person (their id, their private chat's id, which is the same number, or their name);
:data:`FORGET` is what is done to each. A test checks that every table of the schema is listed,
and that after forgetting no row of any table holds the user's id, name or @username.
"""

from __future__ import annotations

from typing import Final

from bot.model import Holding

from .database import Database

PERSONAL_COLUMNS: Final[dict[str, frozenset[str]]] = {
    "users": frozenset({"id", "username", "first_name"}),
    "challenges": frozenset({"chat_id", "challenger_id", "target_id", "target_username"}),
    "challenge_terms": frozenset({"target_id"}),
    "challenge_messages": frozenset({"chat_id"}),
    "games": frozenset({"chat_id", "white_id", "black_id"}),
    "boards": frozenset({"chat_id"}),
    "replays": frozenset(),  # pictures that show the players' names: by game, below
    "handled_updates": frozenset(),
    "matches": frozenset(),
    "wallets": frozenset({"user_id"}),
    "ledger": frozenset({"user_id", "other_id"}),
    "chip_flags": frozenset({"chat_id", "loser_id", "winner_id", "operator_id"}),
    "ratings": frozenset({"user_id"}),
    "leagues": frozenset({"chat_id"}),
    "leases": frozenset(),
    "pace": frozenset({"chat_id"}),
    "outages": frozenset(),
    "chat_settings": frozenset({"chat_id"}),
    "seekers": frozenset({"user_id", "chat_id"}),
    "seeker_choices": frozenset({"user_id"}),
    "tournaments": frozenset({"creator_id", "winner_id"}),  # in groups only
    "tournament_entrants": frozenset({"user_id"}),
    "tournament_pairings": frozenset({"first_id", "second_id", "winner_id"}),
    "tournament_games": frozenset(),  # its group
    "tournament_settings": frozenset({"chat_id"}),
    "analysis_queue": frozenset(),
    "game_luck": frozenset({"user_id"}),
    "pr_flags": frozenset({"user_id"}),
    "daily_positions": frozenset(),
    "daily_answers": frozenset({"user_id"}),
    "daily_streaks": frozenset({"user_id"}),
    "daily_groups": frozenset({"chat_id"}),
    "daily_posts": frozenset({"chat_id"}),
    "schema_checksums": frozenset(),
    "bans": frozenset({"user_id", "operator_id"}),
    "player_totals": frozenset({"user_id"}),
    "pair_totals": frozenset({"user_id", "other_id"}),
    "standings": frozenset({"chat_id", "user_id"}),
    "dice_totals": frozenset({"user_id"}),
    "broadcasts": frozenset({"operator_id", "chat_id", "last_user_id"}),
    "learners": frozenset({"user_id"}),
    "lesson_progress": frozenset({"user_id"}),
    "practice_positions": frozenset(),
    "practice_answers": frozenset({"user_id"}),
    "coach_messages": frozenset({"chat_id"}),  # a training game's, in its player's chat
}
"""Every table, and its columns that can name a person (empty: none can)."""

_THEIR_CHALLENGES: Final = """SELECT id FROM challenges
    WHERE challenger_id = :user OR target_id = :user OR chat_id = :user
       OR (target_username IS NOT NULL AND target_username = :username)"""

FORGET: Final[tuple[str, ...]] = (
    # the pseudonym first: the rows that stay point at it before the user's row goes
    """INSERT INTO users (id, username, first_name, language_code, updated_at)
       VALUES (:pseudonym, NULL, '', NULL, :now)""",
    # their challenges (open ones too: nobody can accept them any more), and the messages in
    # their private chat
    f"DELETE FROM challenge_terms WHERE challenge_id IN ({_THEIR_CHALLENGES})",
    f"DELETE FROM challenge_messages WHERE challenge_id IN ({_THEIR_CHALLENGES})",
    f"DELETE FROM challenges WHERE id IN ({_THEIR_CHALLENGES})",
    "UPDATE challenge_terms SET target_id = :pseudonym WHERE target_id = :user",
    "DELETE FROM challenge_messages WHERE chat_id = :user",
    "DELETE FROM boards WHERE chat_id = :user",
    "DELETE FROM pace WHERE chat_id = :user",
    "DELETE FROM chat_settings WHERE chat_id = :user",
    "DELETE FROM leagues WHERE chat_id = :user",
    "DELETE FROM daily_groups WHERE chat_id = :user",
    "DELETE FROM daily_posts WHERE chat_id = :user",
    "DELETE FROM tournament_settings WHERE chat_id = :user",
    # replays are pictures with their name in them: drawn again if asked for
    """DELETE FROM replays WHERE game_id IN
       (SELECT id FROM games WHERE white_id = :user OR black_id = :user)""",
    # what was theirs alone
    "DELETE FROM seekers WHERE user_id = :user OR chat_id = :user",
    "DELETE FROM seeker_choices WHERE user_id = :user",
    "DELETE FROM daily_answers WHERE user_id = :user",
    "DELETE FROM daily_streaks WHERE user_id = :user",
    "DELETE FROM ratings WHERE user_id = :user",
    "DELETE FROM pr_flags WHERE user_id = :user",
    "DELETE FROM player_totals WHERE user_id = :user",
    "DELETE FROM dice_totals WHERE user_id = :user",
    "DELETE FROM pair_totals WHERE user_id = :user",
    "DELETE FROM standings WHERE chat_id = :user",
    "DELETE FROM learners WHERE user_id = :user",
    "DELETE FROM lesson_progress WHERE user_id = :user",
    "DELETE FROM practice_answers WHERE user_id = :user",
    "DELETE FROM coach_messages WHERE chat_id = :user",
    # what they share with others: the pseudonym in their place
    "UPDATE games SET chat_id = 0 WHERE chat_id = :user",  # a game in their private chat
    "UPDATE games SET white_id = :pseudonym WHERE white_id = :user",
    "UPDATE games SET black_id = :pseudonym WHERE black_id = :user",
    "UPDATE wallets SET user_id = :pseudonym WHERE user_id = :user",
    "UPDATE ledger SET user_id = :pseudonym WHERE user_id = :user",
    "UPDATE ledger SET other_id = :pseudonym WHERE other_id = :user",
    "UPDATE chip_flags SET chat_id = 0 WHERE chat_id = :user",
    "UPDATE chip_flags SET loser_id = :pseudonym WHERE loser_id = :user",
    "UPDATE chip_flags SET winner_id = :pseudonym WHERE winner_id = :user",
    "UPDATE chip_flags SET operator_id = :pseudonym WHERE operator_id = :user",
    # a ban goes with the banned (who cannot ask, their commands turned away: an operator's
    # `python -m bot forget` lifts it); an operator's own bans and broadcasts stay, unsigned
    "DELETE FROM bans WHERE user_id = :user",
    "UPDATE bans SET operator_id = :pseudonym WHERE operator_id = :user",
    "UPDATE broadcasts SET operator_id = :pseudonym, chat_id = 0 WHERE operator_id = :user",
    # a broadcast's cursor past them: the next recipient is the same
    "UPDATE broadcasts SET last_user_id = last_user_id - 1 WHERE last_user_id = :user",
    "UPDATE tournaments SET creator_id = :pseudonym WHERE creator_id = :user",
    "UPDATE tournaments SET winner_id = :pseudonym WHERE winner_id = :user",
    "UPDATE tournament_entrants SET user_id = :pseudonym WHERE user_id = :user",
    "UPDATE tournament_pairings SET first_id = :pseudonym WHERE first_id = :user",
    "UPDATE tournament_pairings SET second_id = :pseudonym WHERE second_id = :user",
    "UPDATE tournament_pairings SET winner_id = :pseudonym WHERE winner_id = :user",
    "UPDATE game_luck SET user_id = :pseudonym WHERE user_id = :user",
    # the running totals of the games that stay: their opponents' records, a chat's standings
    "UPDATE pair_totals SET other_id = :pseudonym WHERE other_id = :user",
    "UPDATE standings SET user_id = :pseudonym WHERE user_id = :user",
    "DELETE FROM users WHERE id = :user",
)
"""The statements of :meth:`PrivacyRepository.forget`, in order, in one transaction."""


class PrivacyRepository:
    """What the bot keeps about one user: whether it may be forgotten now, and forgetting it."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def holding(self, user_id: int) -> Holding:
        """What keeps the user from being forgotten now: their unfinished games (a match
        between its games counts as one), and the tournaments they are in that have not
        ended."""
        games = await self._database.fetch_all(
            """SELECT g.id FROM games AS g LEFT JOIN matches AS m ON m.id = g.match_id
               WHERE (g.white_id = :user OR g.black_id = :user)
                 AND (g.winner IS NULL OR (m.id IS NOT NULL AND m.winner IS NULL))
               ORDER BY g.id""",
            {"user": user_id},
        )
        tournaments = await self._database.fetch_all(
            """SELECT t.id FROM tournaments AS t
               JOIN tournament_entrants AS e ON e.tournament_id = t.id
               WHERE e.user_id = ? AND e.withdrawn = 0 AND t.state IN ('signup', 'running')
               ORDER BY t.id""",
            (user_id,),
        )
        return Holding(
            games=tuple(dict.fromkeys(int(row[0]) for row in games)),
            tournaments=tuple(int(row[0]) for row in tournaments),
        )

    async def forget(self, user_id: int, *, pseudonym: int, now: float) -> Holding | None:
        """Forgets the user, putting ``pseudonym`` (a new user id) in their place where they
        share a row with others (see the module docstring), in one durable transaction, unless
        something holds them (:meth:`holding`, checked inside it). Returns what holds them (an
        empty :class:`Holding` when they are forgotten), or None if the bot knows nothing of
        them; nothing is written unless they are forgotten."""
        async with self._database.transaction(durable=True):
            user = await self._database.fetch_one(
                "SELECT username FROM users WHERE id = ?", (user_id,)
            )
            if user is None:
                return None
            holding = await self.holding(user_id)
            if holding:
                return holding
            params = {
                "user": user_id,
                "pseudonym": pseudonym,
                "username": user["username"],
                "now": now,
            }  # each statement takes the names it uses
            for statement in FORGET:
                await self._database.write(statement, params)
        return Holding()
