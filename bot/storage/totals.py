"""Running totals of finished games (migration 20): a player's record (``player_totals``), a
pair's (``pair_totals``), a chat's standings (``standings``) and a player's dice
(``dice_totals``), each added to in the transaction that saves a game's result, so that
``/stats``, ``/dice``, head-to-head scores, ``/top`` and the leagues read a few rows whatever
the length of the history. The migration that made them filled them in from the games before.

What counts is what the queries over the games counted: a finished game not played on from a
chosen position (:data:`~.games.COUNTED`); a player's record over games between people only;
the dice over every finished game with fair dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine import Outcome, Side
from bot.model import PlayerRolls, StoredGame

if TYPE_CHECKING:
    from .database import Database


def counts(stored: StoredGame) -> bool:
    """Whether a finished game counts in records, scores and standings (not one played on
    from a chosen position)."""
    return stored.start is None


async def add_result(db: Database, stored: StoredGame) -> None:
    """Adds the game that has just ended to every total it counts in (inside the transaction
    that saves its result)."""
    result = stored.game.result
    assert result is not None
    if counts(stored):
        for side in Side:
            await _add_pair(db, stored, side)
        if stored.white_id > 0 and stored.black_id > 0:
            for side in Side:
                await _add_player(db, stored, side)
        if stored.chat_id != 0:
            await add_standing(db, stored, chat_id=stored.chat_id)
        if stored.chat_instance is not None:
            await add_standing(db, stored, chat_instance=stored.chat_instance)
    if stored.dice_proof is not None:
        for side in Side:
            await _add_dice(db, stored, side)


async def add_standing(
    db: Database, stored: StoredGame, *, chat_id: int = 0, chat_instance: str = ""
) -> None:
    """Adds a finished game that counts to the standings of a group (``chat_id``: where it
    was played, or whose tournament it is) or of an inline chat (``chat_instance``)."""
    result = stored.game.result
    assert result is not None
    for side in Side:
        won = side is result.winner
        await db.write(
            f"""INSERT INTO standings (chat_id, chat_instance, user_id, games, wins, points)
               VALUES (?, ?, ?, 1, ?, ?)
               ON CONFLICT (chat_id, chat_instance, user_id) DO UPDATE SET
                   {_added("standings", "games", "wins", "points")}""",
            (
                chat_id,
                chat_instance,
                stored.player(side),
                int(won),
                result.points if won else -result.points,
            ),
        )


def _added(table: str, *columns: str) -> str:
    """An upsert's ``SET`` that adds the new row's ``columns`` to the kept row's."""
    return ", ".join(f"{column} = {table}.{column} + excluded.{column}" for column in columns)


async def _add_pair(db: Database, stored: StoredGame, side: Side) -> None:
    result = stored.game.result
    assert result is not None
    won = side is result.winner
    await db.write(
        f"""INSERT INTO pair_totals (user_id, other_id, games, wins, won, lost)
           VALUES (?, ?, 1, ?, ?, ?)
           ON CONFLICT (user_id, other_id) DO UPDATE SET
               {_added("pair_totals", "games", "wins", "won", "lost")}""",
        (
            stored.player(side),
            stored.player(side.other),
            int(won),
            result.points if won else 0,
            0 if won else result.points,
        ),
    )


_STREAK = """CASE WHEN excluded.wins > 0
                  THEN CASE WHEN player_totals.streak > 0 THEN player_totals.streak + 1 ELSE 1 END
                  ELSE CASE WHEN player_totals.streak < 0 THEN player_totals.streak - 1 ELSE -1 END
             END"""
"""The latest run after this game: one more win (or loss) in a row, or the first of a run."""


async def _add_player(db: Database, stored: StoredGame, side: Side) -> None:
    result = stored.game.result
    assert result is not None
    won = side is result.winner
    given = [int(won and result.outcome is outcome) for outcome in _MARKED]
    taken = [int(not won and result.outcome is outcome) for outcome in _MARKED]
    await db.write(
        f"""INSERT INTO player_totals (user_id, games, wins, points_won, points_lost,
                mars_given, mars_taken, koks_given, koks_taken, home_mars_given,
                home_mars_taken, streak, best_streak)
            VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET
                {_added("player_totals", *_PLAYER_COUNTS)},
                streak = {_STREAK},
                best_streak = CASE WHEN {_STREAK} > player_totals.best_streak
                                   THEN {_STREAK} ELSE player_totals.best_streak END""",
        (
            stored.player(side),
            int(won),
            result.points if won else 0,
            0 if won else result.points,
            given[0],
            taken[0],
            given[1],
            taken[1],
            given[2],
            taken[2],
            1 if won else -1,
            1 if won else 0,
        ),
    )


_MARKED = (Outcome.MARS, Outcome.KOKS, Outcome.HOME_MARS)
_PLAYER_COUNTS = (
    "games",
    "wins",
    "points_won",
    "points_lost",
    "mars_given",
    "mars_taken",
    "koks_given",
    "koks_taken",
    "home_mars_given",
    "home_mars_taken",
)


async def _add_dice(db: Database, stored: StoredGame, side: Side) -> None:
    proof = stored.dice_proof
    assert proof is not None
    own = PlayerRolls.counted((roll.values for roll in proof.rolls if roll.side is side), 1)
    await db.write(
        f"""INSERT INTO dice_totals (user_id, games, ones, twos, threes, fours, fives, sixes,
               rolls, doubles, pips)
           VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (user_id) DO UPDATE SET
               {_added("dice_totals", *_DICE_COUNTS)}""",
        (stored.player(side), *own.faces, own.rolls, own.doubles, own.pips),
    )


_DICE_COUNTS = (
    "games",
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "rolls",
    "doubles",
    "pips",
)
