"""Taking back a turn of a training game: the game as it was before the player's latest
chosen turn, with the same roll to play again (see :mod:`.training` for why the dice stay
provably fair). Pure functions of a stored game, as :mod:`.flow`'s are; the game service
saves what they return (:meth:`~.games.GameService.take_back`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from bot.engine import Game, NardyError, RecordError, Roll, Side, Turn, TurnRecord
from bot.model import StoredGame

from .errors import StaleAction
from .export import starting_game

AUTOMATIC: Final = frozenset({"forced", "pass"})
"""History notes of the turns the bot played by itself (no choice to judge)."""


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """A turn of a game's history: its line's number, the game ready to play it (rolled), the
    turn, and its line as recorded."""

    line: int
    before: Game
    turn: Turn
    record: TurnRecord

    @property
    def chosen(self) -> bool:
        """Whether the player chose it (the bot plays forced turns and passes by itself)."""
        return self.record.note not in AUTOMATIC


def played_turns(stored: StoredGame) -> list[PlayedTurn]:
    """Every turn of ``stored``'s history replayed from its start (lines that are no turn, a
    resignation or a timeout, are skipped).

    :raises: :exc:`StaleAction` if the history does not replay (it always does in play).
    """
    game = starting_game(stored.game, stored.start)
    found: list[PlayedTurn] = []
    for line, text in enumerate(stored.history):
        try:
            record = TurnRecord.from_text(text)
        except RecordError:
            continue
        if not found and game.opening is None and record.side is not game.turn:
            game = replace(game, position=game.position.with_turn(record.side))
        try:
            ready = game.rolled_for(record)
            current = ready.turn_input()
            for step in record.steps:
                current = current.play(next(o for o in current.options if o.step == step))
            turn = current.turn()
            game = ready.play(turn)
        except (NardyError, StopIteration):
            raise StaleAction() from None
        found.append(PlayedTurn(line, ready, turn, record))
    return found


def latest_choice(stored: StoredGame, side: Side) -> PlayedTurn | None:
    """The latest turn ``side`` chose in ``stored`` (None before its first)."""
    return next(
        (t for t in reversed(played_turns(stored)) if t.record.side is side and t.chosen), None
    )


def taken_back(stored: StoredGame, side: Side, line: int, now: float) -> StoredGame:
    """``stored`` as it was before ``side``'s turn of history line ``line``, its latest chosen
    turn: the game ready to play the same roll, the history up to that line, the dice's log up
    to that roll, no taps, the time for a move from ``now`` (see the module docstring).

    :raises: :exc:`StaleAction` if that is not ``side``'s latest chosen turn, or the dice's
        log does not end with its roll where the history says it should.
    """
    turns = played_turns(stored)
    latest = next((t for t in reversed(turns) if t.record.side is side and t.chosen), None)
    if latest is None or latest.line != line:
        raise StaleAction()
    proof = stored.dice_proof
    rolls = proof.rolls if proof is not None else ()
    # each turn line after it made one roll, and so did the roll waiting to be played now
    later = sum(1 for t in turns if t.line > line) + (stored.game.dice is not None)
    kept = rolls[: len(rolls) - later]
    dice = latest.before.dice
    if proof is not None and (dice is None or not _ends_with(kept, latest.before)):
        raise StaleAction()
    earlier = [t for t in turns if t.line < line and t.turn.played]
    return replace(
        stored,
        game=latest.before,
        input=(),
        history=stored.history[:line],
        last_turn=earlier[-1].turn.played if earlier else (),
        deadline=now + stored.move_seconds,
        dice_proof=replace(proof, rolls=kept) if proof is not None else None,
    )


def _ends_with(rolls: tuple[Roll, ...], ready: Game) -> bool:
    """Whether the dice's log ``rolls`` ends with the roll ``ready`` plays: its own roll, or
    (short nardy's first turn) the opening's last two dice, one each side's."""
    dice = ready.dice
    if dice is None or not rolls:
        return False
    last = rolls[-1]
    if last.side is ready.turn and sorted(last.values) == sorted(dice.values):
        return True
    if len(rolls) >= 2 and ready.opening is not None:
        before = rolls[-2]
        pair = sorted((*before.values, *last.values))
        return len(before.values) == len(last.values) == 1 and pair == sorted(dice.values)
    return False
