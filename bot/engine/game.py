"""A game from the opening roll to its result, moved forward by returning new values.

Flow: :meth:`Game.start` makes the opening roll (one die each, ties roll again, the higher die
starts). In long nardy the starter then rolls two dice for its first turn; in short nardy it
plays the two opening dice [003]. Each turn the side to move :meth:`~Game.roll`\\ s, then
:meth:`~Game.play`\\ s one of :meth:`~Game.legal_turns`, or passes when there is none. Bearing off
the last checker ends the game; so do :meth:`~Game.resign` and :meth:`~Game.timeout`.

With the doubling cube (:mod:`.cube`), the side to move may :meth:`~Game.double` instead of
rolling; the opponent then :meth:`~Game.take`\\ s or :meth:`~Game.drop`\\ s. Every result's points
are the rule set's table times the cube's value.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .cube import Cube, CubeError
from .dice import Dice, roll, roll_die
from .errors import GameOverError, IllegalTurnError
from .moves import Turn, steps_text
from .position import Position
from .rules import Outcome, RuleSet, find_variant, legal_turns, resolve_rules
from .stepwise import TurnInput
from .types import CHECKERS, Side

HOME = range(1, 7)


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winner, the outcome and the points it scores (times the stake)."""

    winner: Side
    outcome: Outcome
    points: int

    def __str__(self) -> str:
        return f"{self.winner} wins: {self.outcome.value} x{self.points}"


@dataclass(frozen=True, slots=True)
class Game:
    """A game: variant, rule set, position (with the side to move), the roll to play, which
    sides have made a turn, the number of turns played (``ply``), the doubling cube (``None``
    when the game is played without one) and the result once over."""

    variant: str
    rules: RuleSet
    position: Position
    dice: Dice | None = None
    moved: frozenset[Side] = frozenset()
    ply: int = 0
    result: Result | None = None
    opening: tuple[int, int] | None = None
    """The opening roll: white's die and black's die."""
    cube: Cube | None = None

    @classmethod
    def start(
        cls,
        variant: str,
        rng: random.Random,
        *,
        rules: RuleSet | str | None = None,
        cube: bool = False,
    ) -> Game:
        """Returns a new game after the opening roll, the starter to play with its dice; with a
        centred cube when ``cube`` is true."""
        found = find_variant(variant)
        while True:
            white, black = roll_die(rng), roll_die(rng)
            if white != black:
                break
        starter = Side.WHITE if white > black else Side.BLACK
        position = found.starting_position().with_turn(starter)
        if variant == "short":
            high, low = max(white, black), min(white, black)
            dice = Dice(high, low)
        else:
            dice = roll(rng)
        return cls(
            variant,
            resolve_rules(variant, rules),
            position,
            dice,
            opening=(white, black),
            cube=Cube() if cube else None,
        )

    @property
    def turn(self) -> Side:
        """The side to move (the winner once the game is over)."""
        return self.position.turn

    @property
    def to_act(self) -> Side:
        """The side that must act now: the opponent while a double is offered, else the side to
        move."""
        offered = self.cube is not None and self.cube.offered
        return self.turn.other if offered else self.turn

    @property
    def can_double(self) -> bool:
        """True if the side to move may offer to double now: a cube in play that is centred or
        its own, and the dice not yet rolled."""
        return (
            self.cube is not None
            and self.result is None
            and self.dice is None
            and self.cube.may_double(self.turn)
        )

    @property
    def cube_value(self) -> int:
        """What the result's points are multiplied by: the cube's value (1 without a cube)."""
        return self.cube.value if self.cube is not None else 1

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    @property
    def first_turn(self) -> bool:
        """True when the side to move has not made a turn yet (long nardy's head exception)."""
        return self.position.turn not in self.moved

    def _require_dice(self) -> Dice:
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if self.dice is None:
            raise IllegalTurnError(f"{self.turn} has not rolled yet")
        return self.dice

    def roll(self, rng: random.Random) -> Game:
        """Returns the game with the dice rolled for the side to move.

        :raises: :exc:`GameOverError` if the game is over; :exc:`IllegalTurnError` if the dice
            are already rolled.
        """
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if self.dice is not None:
            raise IllegalTurnError(f"{self.turn} has already rolled {self.dice}")
        if self.cube is not None and self.cube.offered:
            raise CubeError("a double is offered: it must be taken or dropped first")
        return replace(self, dice=roll(rng))

    def double(self) -> Game:
        """Returns the game with the side to move offering to double.

        :raises: :exc:`CubeError` unless :attr:`can_double`.
        """
        if self.cube is None or not self.can_double:
            raise CubeError(f"{self.turn} may not double now")
        return replace(self, cube=self.cube.offer(self.turn))

    def take(self) -> Game:
        """Returns the game after the opponent takes the offered double: the cube doubles and
        is the taker's; the side to move then rolls."""
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if self.cube is None:
            raise CubeError("this game has no cube")
        return replace(self, cube=self.cube.take(self.turn.other))

    def drop(self) -> Game:
        """Returns the game lost by the opponent dropping the offered double, at the cube's
        value before the offer."""
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if self.cube is None or not self.cube.offered:
            raise CubeError("no double has been offered")
        return self._concede(self.turn.other, Outcome.DROP)

    def with_dice(self, dice: Dice) -> Game:
        """Returns the game with ``dice`` to play (for replays and tests)."""
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        return replace(self, dice=dice)

    def legal_turns(self) -> tuple[Turn, ...]:
        """The legal turns for the current roll; empty means the side must pass."""
        return legal_turns(
            self.position, self._require_dice(), first_turn=self.first_turn, rules=self.rules
        )

    def turn_input(self) -> TurnInput:
        """Starts step-by-step input of the current roll's turn."""
        dice = self._require_dice()
        return TurnInput.begin(self.position, dice, first_turn=self.first_turn, rules=self.rules)

    def play(self, turn: Turn) -> Game:
        """Returns the game after ``turn`` (a pass is ``Turn((), ...)``, allowed only when there
        is no legal turn); the receiver is unchanged.

        :raises: :exc:`IllegalTurnError` if ``turn`` is not legal for the current dice.
        """
        dice = self._require_dice()
        legal = self.legal_turns()
        if not turn.played:
            if legal:
                raise IllegalTurnError(
                    f"cannot pass with {dice} in {self.position.to_text()}: a legal turn exists"
                )
            after = self.position.with_turn(self.turn.other)
        else:
            positions = {t.position for t in legal}
            if turn.position not in positions:
                raise IllegalTurnError(
                    f"illegal turn {steps_text(turn.steps)!r} for dice {dice} "
                    f"in {self.position.to_text()}"
                )
            after = turn.position
        mover = self.turn
        moved = self.moved | {mover}
        if after.borne_off(mover) == CHECKERS:
            result = _result(self.variant, self.rules, after, mover, self.cube_value)
            return replace(
                self,
                position=after.with_turn(mover),
                dice=None,
                moved=moved,
                ply=self.ply + 1,
                result=result,
            )
        return replace(self, position=after, dice=None, moved=moved, ply=self.ply + 1)

    def pass_turn(self) -> Game:
        """Returns the game after the side to move passes (it must have no legal turn)."""
        return self.play(Turn((), self.position.with_turn(self.turn.other)))

    def resign(self, side: Side) -> Game:
        """Returns the game lost by ``side``'s resignation, scored as the rule set says."""
        return self._concede(side, Outcome.RESIGN)

    def timeout(self) -> Game:
        """Returns the game lost for running out of time by the side that had to act (the
        opponent, while a double is offered)."""
        return self._concede(self.to_act, Outcome.TIMEOUT)

    def _concede(self, loser: Side, outcome: Outcome) -> Game:
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        winner = loser.other
        result = Result(winner, outcome, self.rules.points(outcome) * self.cube_value)
        cube = replace(self.cube, offered=False) if self.cube is not None else None
        return replace(
            self, position=self.position.with_turn(winner), dice=None, result=result, cube=cube
        )


def score(variant: str, rules: RuleSet, position: Position, winner: Side, cube: int = 1) -> Result:
    """Returns the result when ``winner`` has borne off its last checker in ``position``, its
    points multiplied by the ``cube``'s value.

    Long nardy: oin if the loser has borne off a checker; else home mars where the rule set
    counts it and all the loser's checkers are home; else koks where counted and a loser's
    checker is still on its head (24); else mars. Short nardy [003]: oin; koks if the loser has
    borne off none and has a checker on the bar or in the winner's home (the loser's 19..24);
    else mars.
    """
    return _result(variant, rules, position, winner, cube)


def _result(variant: str, rules: RuleSet, position: Position, winner: Side, cube: int) -> Result:
    loser = position.checkers(winner.other)
    if loser[0]:
        outcome = Outcome.OIN
    elif variant == "long":
        if rules.home_mars is not None and sum(loser[p] for p in HOME) == CHECKERS:
            outcome = Outcome.HOME_MARS
        elif rules.koks is not None and loser[24]:
            outcome = Outcome.KOKS
        else:
            outcome = Outcome.MARS
    elif rules.koks is not None and (loser[25] or any(loser[19:25])):
        outcome = Outcome.KOKS
    else:
        outcome = Outcome.MARS
    return Result(winner, outcome, rules.points(outcome) * cube)
