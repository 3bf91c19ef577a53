"""How a stored game moves on, step by step, whoever plays: a person's tap or the computer's
decision. Pure functions of the stored game, the dice and the clock; the
:class:`~.games.Games` checks who may act, then saves what they return.

After every step the game plays what needs no choice (:func:`play_automatic`): the next roll,
passes and forced turns, each written to the history as such, until a player must choose (steps,
to double or roll, to take or drop, to strike a die) or the game ends. The deadline is then the
next player's: ``now`` plus the game's time per move (the service shortens it when the computer
is to answer).

Every die comes from the game's :class:`GameDice`: its provably fair dice
(:class:`bot.engine.FairDice`, going on from the stored proof's last roll), each roll added to
the proof; only a game started before fair dice still rolls with the service's random source.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Final

from bot.ai import Action, Decision
from bot.engine import (
    CubeError,
    DiceMode,
    Game,
    IllegalTurnError,
    InvalidDiceError,
    Played,
    Roll,
    RuleSet,
    Turn,
)
from bot.model import DiceProof, StoredGame

from .errors import StaleAction


class GameDice:
    """The dice one step of a game rolls with, and the rolls it made: the game's fair dice
    when it has a :class:`~bot.model.DiceProof` (the step's rolls then join it), else
    ``rng``."""

    def __init__(self, proof: DiceProof | None, rng: random.Random) -> None:
        self._proof = proof
        self._fair = proof.dice() if proof is not None else None
        self._rng = rng
        self._rolls: list[Roll] = []

    @property
    def proof(self) -> DiceProof | None:
        """The proof with this step's rolls added (None for a game without one)."""
        if self._proof is None:
            return None
        return self._proof.after(tuple(self._rolls))

    def start(
        self, variant: str, *, rules: RuleSet | str | None, cube: bool, dice_mode: DiceMode
    ) -> Game:
        """:meth:`Game.start` with these dice (the opening roll, its re-rolls, the starter's
        first roll)."""
        if self._fair is None:
            return Game.start(variant, self._rng, rules=rules, cube=cube, dice_mode=dice_mode)
        game, rolls = self._fair.start(variant, rules=rules, cube=cube, dice_mode=dice_mode)
        self._rolls += rolls
        return game

    def roll(self, game: Game) -> Game:
        """:meth:`Game.roll` with these dice."""
        if self._fair is None:
            return game.roll(self._rng)
        game, made = self._fair.roll(game)
        self._rolls.append(made)
        return game


MAX_AUTOMATIC_TURNS: Final = 200
"""Passes and forced turns played in a row without a player; a guard, never reached in play."""


def play_automatic(
    game: Game, history: tuple[str, ...], dice: GameDice
) -> tuple[Game, tuple[str, ...], tuple[Played, ...]]:
    """Rolls for the side to move (again, after a gul-bara double played in full) and plays
    its passes and forced turns, until a player has a choice (of steps, to double, to strike
    a die) or the game ends. Returns the game, the history with each of them, and the steps of
    the last one that moved a checker (empty if none did)."""
    last: tuple[Played, ...] = ()
    for _ in range(MAX_AUTOMATIC_TURNS):
        if game.is_over or game.can_double or game.to_act is not game.turn:
            break  # over, or a player chooses: to double or roll, take or drop, strike
        if game.needs_roll:
            game = dice.roll(game)
            if game.strike_pending:
                break  # the opponent strikes a die first
        only = game.only_turn()
        if only is None:
            break
        note = "forced" if only.played else "pass"
        history = (*history, game.record(only, note).to_text())
        last = only.played or last
        game = game.play(only)
    return game, history, last


def _moved_on(
    stored: StoredGame,
    game: Game,
    history: tuple[str, ...],
    played: tuple[Played, ...],
    dice: GameDice,
    now: float,
) -> StoredGame:
    """``stored`` with ``game`` after a step, what plays itself played after it."""
    game, history, last_turn = play_automatic(game, history, dice)
    return replace(
        stored,
        game=game,
        input=(),
        history=history,
        last_turn=last_turn or played or stored.last_turn,
        deadline=now + stored.move_seconds,
        dice_proof=dice.proof,
    )


def played(stored: StoredGame, turn: Turn, rng: random.Random, now: float) -> StoredGame:
    """``stored`` after the side to move plays ``turn`` (a complete legal turn).

    :raises: :exc:`StaleAction` if ``turn`` is not legal now.
    """
    game = stored.game
    try:
        line = game.record(turn).to_text()
        game = game.play(turn)
    except IllegalTurnError:
        raise StaleAction() from None
    dice = GameDice(stored.dice_proof, rng)
    return _moved_on(stored, game, (*stored.history, line), turn.played, dice, now)


def struck(stored: StoredGame, value: int, rng: random.Random, now: float) -> StoredGame:
    """``stored`` after the mover's opponent strikes the die showing ``value`` (anti three).

    :raises: :exc:`StaleAction` if no die shows ``value`` or no strike is due.
    """
    try:
        game = stored.game.strike(value)
    except (IllegalTurnError, InvalidDiceError):  # not one of the dice: a forged tap
        raise StaleAction() from None
    return _moved_on(stored, game, stored.history, (), GameDice(stored.dice_proof, rng), now)


def acted(stored: StoredGame, action: Action, rng: random.Random, now: float) -> StoredGame:
    """``stored`` after its side to act rolls, doubles, takes or drops.

    :raises: :exc:`StaleAction` if the game has moved on since the button was drawn.
    """
    game = stored.game
    side = game.to_act
    dice = GameDice(stored.dice_proof, rng)
    try:
        if action is Action.ROLL:
            game, line = dice.roll(game), None
        elif action is Action.DOUBLE:
            game = game.double()
            line = f"{side.value} double {game.cube_value * 2}"
        elif action is Action.TAKE:
            game, line = game.take(), f"{side.value} take"
        elif action is Action.DROP:
            game, line = game.drop(), f"{side.value} drop"
        else:
            raise StaleAction()
    except (CubeError, IllegalTurnError):
        raise StaleAction() from None
    history = (*stored.history, line) if line else stored.history
    return _moved_on(stored, game, history, (), dice, now)


def decided(stored: StoredGame, decision: Decision, rng: random.Random, now: float) -> StoredGame:
    """``stored`` after the computer's ``decision``.

    :raises: :exc:`StaleAction` if the decision no longer fits the game.
    """
    if decision.action is Action.STRIKE:
        return struck(stored, decision.value or 0, rng, now)
    if decision.action is Action.PLAY:
        # passes play themselves: a turn the computer is asked for is always a choice
        turn = decision.turn if decision.turn is not None else stored.game.only_turn()
        if turn is None:
            raise StaleAction()
        return played(stored, turn, rng, now)
    return acted(stored, decision.action, rng, now)


def concluded(stored: StoredGame, game: Game, line: str) -> StoredGame:
    """``stored`` ended by a resignation or a timeout: the tapped steps dropped, the line
    added to the history."""
    return replace(stored, game=game, input=(), history=(*stored.history, line))
