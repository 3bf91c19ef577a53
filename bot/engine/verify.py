"""Checks the dice of a finished game from its moves file: ``python -m bot.engine verify FILE``.

The moves file is the bot's ``/moves`` (:mod:`bot.services.export`): its header of fair dice
(:mod:`.fair`: commitment, client value, seed), its start, opening and history lines, its end
position and one ``roll`` line per roll. :func:`read_moves_file` reads it; :func:`verify`
checks that the seed matches the commitment, that every die is the one the seed gives, and that
the game replayed with those dice plays every turn line legally to the file's end; it reports
the first thing that does not hold. Text that is not a moves file raises
:exc:`MovesFileError`: the command's exit status 2, as against 1 for a file that fails a check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .dice import Dice, DiceMode
from .errors import NardyError
from .fair import FairDice, FairDiceError, Roll, check_client, commitment, derive_die
from .game import Game
from .notation import parse_opening
from .position import Position
from .record import RecordError, TurnRecord
from .types import Side

RULE_SET_KEY: Final = "Rule set"
DICE_MODE_KEY: Final = "Dice mode"
COMMITMENT_KEY: Final = "Dice commitment"
CLIENT_KEY: Final = "Dice client value"
SEED_KEY: Final = "Dice seed"
SET_UP_KEY: Final = "Set up"
SET_UP_VALUE: Final = "from a position, not rated"
START_WORD: Final = "start"
OPENING_WORD: Final = "opening"
END_WORD: Final = "end"
ROLL_WORD: Final = "roll"
"""Header keys and the lines' first words, as the moves file writes them. ``# Set up: from
a position, not rated`` marks a game played on from a position (``Game.setup``): its ``start``
is that position, it has no opening roll, and its first roll is its side to move's."""
ENDINGS: Final = frozenset({"resign", "timeout", "drop"})
"""History lines' words after the side that end a game without its last checker borne off."""
CUBE_WORDS: Final = frozenset({"double", "take"})
"""History lines' words that change nothing but the cube (the replay plays without one)."""

_HEX64: Final = re.compile(r"[0-9a-f]{64}")


class MovesFileError(NardyError, ValueError):
    """Raised for text that is not a moves file with fair dice, saying what is wrong."""


@dataclass(frozen=True, slots=True)
class MovesFile:
    """What :func:`verify` reads of a moves file (see the module docstring)."""

    header: dict[str, str]
    start: Position
    opening: tuple[int, int] | None
    history: tuple[str, ...]
    end: Position
    rolls: tuple[Roll, ...]


@dataclass(frozen=True, slots=True)
class DiceVerdict:
    """The outcome of :func:`verify`: ``ok``, and a line saying so or naming the first
    failure."""

    ok: bool
    text: str


def read_moves_file(text: str) -> MovesFile:
    """Reads a moves file's header, start, opening, history, end and rolls. The file is UTF-8
    text, one item a line; what this reads of it:

    - header lines ``# Key: value``: ``Rule set``, ``Dice mode`` (``two`` when absent), and the
      fair dice (:mod:`.fair`): ``Dice commitment`` (SHA-256 of the seed, hex), ``Dice client
      value``, ``Dice seed`` (hex, written once the game is over);
    - ``start <position>`` (the winner of the opening roll to move, or, after ``# Set up: from a
      position, not rated``, the position the game was set up at; :meth:`Position.from_text
      <bot.engine.position.Position.from_text>`), ``opening 5-2`` (white's die, black's:
      :func:`~bot.engine.notation.parse_opening`; none in a game set up at a position), the
      history lines (:class:`~bot.engine.record.TurnRecord`, and ``w double 2``, ``b take``,
      ``b drop``, ``w resign``, ``b timeout``), ``end <position>``;
    - one ``roll <number> <side> <dice>`` line for every roll of the game, in order
      (:class:`~bot.engine.fair.Roll`: ``roll 4 w 5-2`` is dice 4 and 5, white's).

    :raises: :exc:`MovesFileError` for text that is not one.
    """
    header: dict[str, str] = {}
    start: Position | None = None
    end: Position | None = None
    opening: tuple[int, int] | None = None
    history: list[str] = []
    rolls: list[Roll] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        try:
            if line.startswith("#"):
                key, colon, value = line[1:].strip().partition(": ")
                if colon:
                    header[key] = value.strip()
            elif word == START_WORD and start is None:
                start = Position.from_text(rest)
            elif start is None:
                raise MovesFileError("the first line after the header is 'start <position>'")
            elif word == OPENING_WORD and opening is None and not history:
                opening = parse_opening(rest)
            elif word == END_WORD and end is None:
                end = Position.from_text(rest)
            elif word == ROLL_WORD:
                if end is None:
                    raise MovesFileError("the rolls come after the 'end' line")
                rolls.append(Roll.from_text(rest))
            elif end is None:
                history.append(line)
            else:
                raise MovesFileError(f"{line!r} after the 'end' line")
        except NardyError as error:
            raise MovesFileError(f"line {number}: {error}") from None
    if start is None or end is None:
        raise MovesFileError("a moves file has a 'start' line and an 'end' line")
    return MovesFile(header, start, opening, tuple(history), end, tuple(rolls))


def verify(text: str) -> DiceVerdict:
    """Checks the fair dice of the moves file ``text`` (:func:`read_moves_file`), and reports
    the first thing that does not hold:

    1. the seed's SHA-256 is the commitment;
    2. the rolls are numbered 0, 1, 2 … with no die missing or added, and every die is the one
       the seed, the client value and its number give;
    3. the game replayed from its start with those dice: its opening roll and starter are the
       file's, and each turn line plays the roll the game was given at that point (in anti three
       dice, the two left after the strike), with legal steps;
    4. every roll listed was played, in order, except that a game resigned or lost on time may
       end with one roll not yet played;
    5. the replay ends in the file's ``end`` position.

    :raises: :exc:`MovesFileError` if ``text`` is not a moves file of a game with fair dice
        whose seed is revealed.
    """
    moves = read_moves_file(text)
    seed, client, promised = _dice_header(moves.header)
    if commitment(seed) != promised:
        return DiceVerdict(
            False,
            f"FAIL: the seed's SHA-256 is {commitment(seed)}, not the commitment {promised}",
        )
    failure = _check_rolls(moves.rolls, seed, client)
    if failure is None:
        failure = _check_replay(moves, seed, client)
    if failure is not None:
        return DiceVerdict(False, "FAIL: " + failure)
    dice = moves.rolls[-1].end if moves.rolls else 0
    return DiceVerdict(
        True,
        f"OK: the seed matches the commitment, the {len(moves.rolls)} rolls ({dice} dice) are "
        "the ones it gives, and every turn played the roll it was given.",
    )


def _dice_header(header: dict[str, str]) -> tuple[bytes, str, str]:
    """The seed, client value and commitment of the header."""
    missing = [k for k in (COMMITMENT_KEY, CLIENT_KEY) if k not in header]
    if missing:
        raise MovesFileError(f"no {' or '.join(map(repr, missing))} in the header: no fair dice")
    if SEED_KEY not in header:
        raise MovesFileError(f"no {SEED_KEY!r} in the header: it is revealed when the game ends")
    seed_text, promised = header[SEED_KEY].lower(), header[COMMITMENT_KEY].lower()
    for key, value in ((SEED_KEY, seed_text), (COMMITMENT_KEY, promised)):
        if not _HEX64.fullmatch(value):
            raise MovesFileError(f"{key} is 64 hex digits, not {value!r}")
    client = header[CLIENT_KEY]
    try:
        check_client(client)
    except FairDiceError as error:
        raise MovesFileError(str(error)) from None
    return bytes.fromhex(seed_text), client, promised


def _check_rolls(rolls: tuple[Roll, ...], seed: bytes, client: str) -> str | None:
    """The first roll that is out of order or not what the seed gives, as a sentence."""
    expected = 0
    for roll in rolls:
        if roll.number != expected:
            return f"roll {roll.number} comes where roll {expected} should: dice missing or added"
        derived = tuple(derive_die(seed, client, n) for n in range(roll.number, roll.end))
        if derived != roll.values:
            return (
                f"roll {roll.number} ({roll.side}): the file says {_dice(roll.values)}, "
                f"the seed gives {_dice(derived)}"
            )
        expected = roll.end
    return None


def _check_replay(moves: MovesFile, seed: bytes, client: str) -> str | None:
    """Replays the game with the seed's dice; the first thing that differs from the file."""
    fair = FairDice(seed, client)
    rules = moves.header.get(RULE_SET_KEY)
    dice_mode = moves.header.get(DICE_MODE_KEY, DiceMode.TWO.value)
    opening: tuple[Roll, ...] = ()
    try:
        if SET_UP_KEY in moves.header:  # played on from a position: no opening roll
            game = Game.setup(moves.start, rules=rules, dice_mode=dice_mode)
        else:
            game, opening = fair.start(moves.start.variant, rules=rules, dice_mode=dice_mode)
    except NardyError as error:
        raise MovesFileError(f"the game cannot start: {error}") from None
    if moves.opening is not None and game.opening != moves.opening:
        derived = _dice(game.opening or ())
        return f"the opening roll is {_dice(moves.opening)}, the seed gives {derived}"
    if game.position != moves.start:
        return f"{game.turn} starts with the seed's dice, not {moves.start.turn}"
    played = list(opening)
    ending = ""
    for line in moves.history:
        try:
            record = TurnRecord.from_text(line)
        except RecordError:
            side, _, word = line.partition(" ")
            word = word.split(" ")[0]
            if side not in ("w", "b") or word not in ENDINGS | CUBE_WORDS:
                raise MovesFileError(f"{line!r} is neither a turn nor a cube action") from None
            if word in ENDINGS:
                if game.is_over:
                    return f"{line!r} comes after the game's end"
                game, ending = game.resign(Side(side)), word
            continue
        if game.is_over:
            return f"the turn {line!r} comes after the game's end"
        try:
            if record.dice is not None:
                if game.remainder:
                    return f"the turn {line!r} rolls while a remainder is to be played"
                roll: Roll | None = None
                if game.dice is None:
                    game, roll = fair.roll(game)
                    played.append(roll)
                rolled = game.dice
                assert rolled is not None
                if not _plays(record, rolled):
                    which = f" (roll {roll.number})" if roll else ""
                    return f"the turn {line!r} plays {record.dice}, but its roll{which} is {rolled}"
            game = game.replay(record)
        except NardyError as error:
            return f"the turn {line!r} does not replay: {error}"
    listed = list(moves.rolls)
    unplayed = listed[len(played) :]
    # a resignation or a timeout may come after a roll that was never played
    allowed = 1 if ending in ("resign", "timeout") else 0
    if listed[: len(played)] != played or len(unplayed) > allowed:
        return _rolls_differ(listed, played)
    if game.position != moves.end:
        return f"the game ends in {game.position.to_text()}, not {moves.end.to_text()}"
    return None


def _plays(record: TurnRecord, rolled: Dice) -> bool:
    """Whether the turn ``record`` plays the dice ``rolled`` (three dice with a strike pending:
    the two left after its strike)."""
    if record.struck is not None and rolled.third is not None:
        return record.struck in rolled.values and rolled.without(record.struck) == record.dice
    return rolled == record.dice


def _rolls_differ(listed: list[Roll], played: list[Roll]) -> str:
    for index, (mine, theirs) in enumerate(zip(listed, played, strict=False)):
        if mine != theirs:
            return f"the game's roll {index + 1} is {theirs}, the file lists {mine}"
    if len(played) > len(listed):
        return f"the game played roll {played[len(listed)]}, which the file does not list"
    return f"the file lists roll {listed[len(played)]}, which the game never played"


def _dice(values: tuple[int, ...]) -> str:
    return "-".join(map(str, values))
