"""A finished game's moves as a text file that people can read and programs can replay.

UTF-8 text, one item a line: a ``# Key: value`` header, the ``start`` position, the ``opening``
roll, the game's history as stored, the ``end`` position, and every ``roll`` of the game in
order; the format, line by line, is :func:`moves_text`'s. To replay, play each turn line from
``start`` with its dice: its steps (:func:`bot.engine.parse_steps`) make exactly one of the legal
turns. Games with fair dice (:mod:`bot.engine.fair`) add what ``python -m bot.engine verify
FILE`` (:mod:`bot.engine.verify`) needs to recompute every roll; the seed only once the game is
over. The header is in English whatever the players' language, like a PGN file's tags.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from bot.engine import Cube, Game, Outcome, Position, Side, opening_text, starting_position
from bot.engine.verify import (
    CLIENT_KEY,
    COMMITMENT_KEY,
    DICE_MODE_KEY,
    END_WORD,
    OPENING_WORD,
    ROLL_WORD,
    RULE_SET_KEY,
    SEED_KEY,
    SET_UP_KEY,
    SET_UP_VALUE,
    START_WORD,
)
from bot.model import MatchRecord, StoredGame, User

OUTCOME_WORDS: Final = {
    Outcome.OIN: "oin",
    Outcome.MARS: "mars",
    Outcome.KOKS: "koks",
    Outcome.HOME_MARS: "home mars",
    Outcome.RESIGN: "resignation",
    Outcome.TIMEOUT: "timeout",
    Outcome.DROP: "dropped double",
}
SIDE_WORDS: Final = {Side.WHITE: "white", Side.BLACK: "black"}


@dataclass(frozen=True, slots=True)
class GameFile:
    """A file to send: its name and its bytes."""

    name: str
    data: bytes


def file_name(game_id: int) -> str:
    """The moves file's name: ``nardy-game-12.txt``."""
    return f"nardy-game-{game_id}.txt"


def moves_text(
    stored: StoredGame, white: User | None, black: User | None, match: MatchRecord | None = None
) -> str:
    """The moves file of ``stored``, ending with a newline. UTF-8 text, one item a line:

    - ``# Key: value`` lines: the header (game, variant, rule set, players, times in UTC,
      result, match, stake, the position IDs of the start and the end:
      :meth:`bot.engine.Position.to_id`). A program needs only ``Rule set`` (``classic``,
      ``sheshbesh``, ``karzar``, ``standard``), the variant being in the positions; it can skip
      the rest. Games with fair dice add the dice mode, the dice's commitment and client value,
      and, once the game is over, the seed; while the game is played the seed is never written.
    - ``start <position>``: the variant's starting position in the engine's notation
      (:meth:`bot.engine.Position.to_text`), the winner of the opening roll to move; or, for a
      game played on from a position (header ``# Set up: from a position, not rated``), that
      position with its side to move, which rolled first.
    - ``opening 5-2``: the opening roll, white's die first (:func:`bot.engine.opening_text`; not
      in a game from a position).
    - The game's history as stored, one line each: a turn ``w 5-2 24/19 13/11`` (side, dice,
      steps in the mover's own numbering as :func:`bot.engine.steps_text` writes them; ``pass``
      when there was no legal turn; ``forced`` at the end when the bot played the only one), or
      ``w double 2``, ``b take``, ``b drop``, ``w resign``, ``b timeout``, which move no checker.
    - ``end <position>``: the final position, the winner to move.
    - ``roll 4 w 5-2``: every roll of the game, in order, with its number (the number of its
      first die, counting every die the game rolled from 0) and who rolled it
      (:class:`bot.engine.Roll`), the opening roll's dice and their re-rolls included.
    """
    game = stored.game
    lines = [
        f"# Nardy game #{stored.id}",
        f"# Variant: {game.variant}",
        f"# {RULE_SET_KEY}: {game.rules.name}",
        f"# White: {_player(white, stored.white_id)}",
        f"# Black: {_player(black, stored.black_id)}",
        f"# Started: {_time(stored.created_at)}",
    ]
    if stored.finished_at is not None:
        lines.append(f"# Finished: {_time(stored.finished_at)}")
    result = game.result
    if result is not None:
        cube = f" (cube {game.cube_value})" if game.cube_value > 1 else ""
        lines.append(
            f"# Result: {SIDE_WORDS[result.winner]} wins by {OUTCOME_WORDS[result.outcome]}, "
            f"{result.points} points{cube}"
        )
    if stored.match_id is not None:
        length = f" to {match.match.length}" if match else ""
        lines.append(f"# Match: #{stored.match_id}{length}, game {stored.game_no}")
    if stored.stake:
        stake = f"# Stake: {stored.stake} chips, {stored.stake_mode.value} table"
        if stored.chips_status is not None:
            stake += f"; chips: {stored.chips or 0} {stored.chips_status.value}"
        lines.append(stake)
    proof = stored.dice_proof
    if proof is not None:
        lines += [
            f"# {DICE_MODE_KEY}: {game.dice_mode.value}",
            "# Dice: HMAC-SHA256 of the seed, checked by: python -m bot.engine verify FILE",
            f"# {COMMITMENT_KEY}: {proof.commitment}",
            f"# {CLIENT_KEY}: {proof.client}",
        ]
        seed = stored.revealed_seed
        if seed is not None:
            lines.append(f"# {SEED_KEY}: {seed}")
    start = starting_game(game, stored.start)
    if stored.start is not None:
        lines.append(f"# {SET_UP_KEY}: {SET_UP_VALUE}")
    lines.append(f"# Start position ID: {start.position.to_id()}")
    lines.append(f"# End position ID: {game.position.to_id()}")
    lines.append(f"{START_WORD} {start.position.to_text()}")
    if game.opening is not None:
        lines.append(f"{OPENING_WORD} {opening_text(game.opening)}")
    lines += stored.history
    lines.append(f"{END_WORD} {game.position.to_text()}")
    if proof is not None:
        lines += [f"{ROLL_WORD} {roll}" for roll in proof.rolls]
    return "\n".join(lines) + "\n"


def starting_game(game: Game, start_at: Position | None = None) -> Game:
    """``game`` as it began, before its first turn's roll: the variant's starting position with
    the winner of the opening roll to move, the same rule set, dice mode and opening roll, a
    centred cube if it has one; or, for a game played on from ``start_at``, that position set
    up as it was (:meth:`bot.engine.Game.setup`). Its history's turns replay from here
    (``start`` in the file)."""
    if start_at is not None:
        return Game.setup(
            start_at, rules=game.rules, cube=game.cube is not None, dice_mode=game.dice_mode
        )
    start = starting_position(game.variant)
    if game.opening is not None:
        white_die, black_die = game.opening
        start = start.with_turn(Side.WHITE if white_die > black_die else Side.BLACK)
    return Game(
        game.variant,
        game.rules,
        start,
        opening=game.opening,
        cube=Cube() if game.cube is not None else None,
        dice_mode=game.dice_mode,
    )


def moves_file(
    stored: StoredGame, white: User | None, black: User | None, match: MatchRecord | None = None
) -> GameFile:
    """The moves file of ``stored``, named and encoded."""
    return GameFile(file_name(stored.id), moves_text(stored, white, black, match).encode())


def _player(user: User | None, user_id: int) -> str:
    if user is None:
        return f"user {user_id}"
    name = " ".join(user.first_name.split())  # a header item stays on its line
    return f"@{user.username} ({name})" if user.username else name


def _time(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
