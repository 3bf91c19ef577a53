"""A game from the opening roll to its result, moved forward by returning new values.

:meth:`Game.start` makes the opening roll (one die each, ties roll again; in short and Abkhaz
nardy the starter plays the two opening dice [003], elsewhere it then rolls). Each turn the side
to move :meth:`~Game.roll`\\ s, then :meth:`~Game.play`\\ s one of :meth:`~Game.legal_turns` (or
builds one with :meth:`~Game.turn_input`), or passes when there is none; bearing off the last
checker, :meth:`~Game.resign` and :meth:`~Game.timeout` end the game. :attr:`Game.to_act` names
the side that must act, :attr:`Game.needs_roll` whether that is a roll. The variants add the
dice modes (``three``; ``anti_three``, where the opponent :meth:`~Game.strike`\\ s a die),
gul-bara's :attr:`~Game.remainder` handed to the opponent and its :attr:`~Game.chain` of rolls
after a double played in full, crazy gul-bara's cascade (:attr:`~Game.moves`), and the doubling
cube (:meth:`~Game.double`, :meth:`~Game.take`, :meth:`~Game.drop`; a result's points are the
rule set's table times the cube's value).

Where rules.md is silent (three dice's first roll, anti three's opening and the cube while a
strike is pending, a remainder turn and the head exception), the decisions are in
``docs/decisions.md``, section ``bot/engine/game.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cube import Cube, CubeError
from .dice import Dice, DiceMode, DiceSource, MoveList, roll, roll_die
from .errors import GameOverError, IllegalTurnError, InvalidDiceError, NardyError
from .moves import Turn, steps_text
from .notation import NotationError, game_text, parse_game
from .position import Position
from .record import TurnRecord
from .result import Result, score
from .rules import Outcome, RuleSet, find_variant, resolve_rules, turns_for
from .rules.plan import TurnPlan
from .stepwise import TurnInput, plan_for
from .types import CHECKERS, Family, Side


@dataclass(frozen=True, slots=True)
class Game:
    """A game: variant, rule set, position (with the side to move), the roll to play, which
    sides have made a turn, the number of turns played (``ply``), the doubling cube (``None``
    when the game is played without one) and the result once over; then what the new variants
    add (see the module docstring): the dice mode, a remainder handed to the side to move, the
    chain count, and the die struck from this roll."""

    variant: str
    rules: RuleSet
    position: Position
    dice: Dice | None = None
    """The roll to play (three dice while an ``anti_three`` strike is pending, the two left
    after it); ``None`` before the roll and during a remainder turn."""
    moved: frozenset[Side] = frozenset()
    ply: int = 0
    result: Result | None = None
    opening: tuple[int, int] | None = None
    """The opening roll: white's die and black's die."""
    cube: Cube | None = None
    dice_mode: DiceMode = DiceMode.TWO
    """How many dice a roll has (short variants only)."""
    remainder: tuple[int, ...] = ()
    """Gul-bara: the moves the opponent did not play, which the side to move plays now, before
    its own roll; empty when there are none."""
    chain: int = 0
    """Gul-bara: how many times the side to move has rolled again this turn after playing a
    double in full (0 on a turn's first roll)."""
    struck: int | None = None
    """``anti_three``: the value the opponent struck from this roll's three dice."""

    def __post_init__(self) -> None:
        mode = DiceMode(self.dice_mode)
        if mode is not DiceMode.TWO and mode not in find_variant(self.variant).dice_modes:
            raise InvalidDiceError(f"{self.variant} is played with two dice, not {mode.value}")
        three = mode is DiceMode.THREE
        if self.rules.three_dice != three:
            # the rule set's three_dice switch follows the dice mode, so that a game read back
            # with its rule set by name plays the right dice
            object.__setattr__(self, "rules", replace(self.rules, three_dice=three))
        if mode is not self.dice_mode:
            object.__setattr__(self, "dice_mode", mode)

    @classmethod
    def start(
        cls,
        variant: str,
        rng: DiceSource,
        *,
        rules: RuleSet | str | None = None,
        cube: bool = False,
        dice_mode: DiceMode | str = DiceMode.TWO,
    ) -> Game:
        """Returns a new game after the opening roll, the starter to play with its dice; with a
        centred cube when ``cube`` is true; with ``dice_mode`` (``"two"``, ``"three"`` or
        ``"anti_three"``, short variants only).

        Dice come from ``rng`` one ``randint(1, 6)`` at a time, in this order (the game's
        roll log, :meth:`bot.engine.fair.FairDice.start`, reads it so): white's opening die,
        black's, again while they are equal; then the starter's first roll (two dice in long
        nardy and gul-bara, the third die in the ``three`` mode, none otherwise).

        :raises: :exc:`CubeError` for a cube in a variant without one;
            :exc:`~bot.engine.errors.InvalidDiceError` for a dice mode the variant lacks.
        """
        found = find_variant(variant)
        mode = DiceMode(dice_mode)
        rule_set = resolve_rules(variant, rules)
        if cube and not found.has_cube:
            raise CubeError(f"{variant} is played without the doubling cube")
        if rule_set.three_dice and mode is DiceMode.TWO:
            mode = DiceMode.THREE  # a rule set asking for three dice
        while True:
            white, black = roll_die(rng), roll_die(rng)
            if white != black:
                break
        starter = Side.WHITE if white > black else Side.BLACK
        position = found.starting_position().with_turn(starter)
        if found.family is Family.SHORT:
            high, low = max(white, black), min(white, black)
            dice = Dice(high, low, roll_die(rng)) if mode is DiceMode.THREE else Dice(high, low)
        else:
            dice = roll(rng)
        return cls(
            variant,
            rule_set,
            position,
            dice,
            opening=(white, black),
            cube=Cube() if cube else None,
            dice_mode=mode,
        )

    @classmethod
    def setup(
        cls,
        position: Position,
        *,
        rules: RuleSet | str | None = None,
        cube: bool = False,
        dice_mode: DiceMode | str = DiceMode.TWO,
    ) -> Game:
        """Returns a game that begins at ``position`` (a shared position played on), its side
        to move about to roll: no opening roll, a centred cube when ``cube`` is true. Call
        :meth:`roll` for the first roll.

        The position alone does not say which sides have made a turn, so a side counts as
        having made one unless all its checkers stand where the variant starts them: on the
        long board that is exact (a checker that leaves the head never returns), so long
        nardy's first-turn head exception applies just when it would in the game itself.

        :raises: :exc:`GameOverError` if a side has borne off all its checkers;
            :exc:`CubeError` for a cube in a variant without one;
            :exc:`~bot.engine.errors.InvalidDiceError` for a dice mode the variant lacks.
        """
        found = find_variant(position.variant)
        if CHECKERS in (position.borne_off(Side.WHITE), position.borne_off(Side.BLACK)):
            raise GameOverError(f"a side has borne off every checker in {position.to_text()}")
        if cube and not found.has_cube:
            raise CubeError(f"{position.variant} is played without the doubling cube")
        rule_set = resolve_rules(position.variant, rules)
        mode = DiceMode(dice_mode)
        if rule_set.three_dice and mode is DiceMode.TWO:
            mode = DiceMode.THREE
        start = found.starting_position()
        moved = frozenset(side for side in Side if position.checkers(side) != start.checkers(side))
        return cls(
            position.variant,
            rule_set,
            position,
            moved=moved,
            cube=Cube() if cube else None,
            dice_mode=mode,
        )

    def to_text(self) -> str:
        """The game as one line of text, everything in it (the form is in
        :mod:`bot.engine.notation`); :meth:`from_text` reads it back, equal.

        >>> Game.setup(Position.from_text("short w / 6:15 / 6:15"), cube=True).to_text()
        'short w / 6:15 / 6:15 | rules standard | ply 0 | moved wb | cube 1'

        :raises: :exc:`~bot.engine.notation.NotationError` for a rule set that is no preset of
            the variant (nor one changed from a preset).
        """
        return game_text(self)

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Reads the text :meth:`to_text` writes.

        :raises: :exc:`~bot.engine.notation.NotationError` for text that is not a game, or not
            a game that can be (a dice mode its variant lacks, say).
        """
        fields = parse_game(text)
        try:
            return cls(**fields)
        except NardyError as error:
            raise NotationError(f"not a game: {error}") from None

    @property
    def turn(self) -> Side:
        """The side to move (the winner once the game is over)."""
        return self.position.turn

    @property
    def to_act(self) -> Side:
        """The side that must act now: the opponent while a double is offered or while it must
        strike a die (``anti_three``), else the side to move."""
        offered = self.cube is not None and self.cube.offered
        return self.turn.other if offered or self.strike_pending else self.turn

    @property
    def strike_pending(self) -> bool:
        """True while the opponent of the side to move must strike one of three dice
        (``anti_three``)."""
        return (
            self.dice is not None
            and self.dice.third is not None
            and (self.dice_mode is DiceMode.ANTI_THREE)
        )

    @property
    def needs_roll(self) -> bool:
        """True when the side to move must roll now: the game in progress, no dice, no
        remainder to play first and no double offered (it may :meth:`double` instead where
        :attr:`can_double`)."""
        return (
            self.result is None
            and self.dice is None
            and not self.remainder
            and not (self.cube is not None and self.cube.offered)
        )

    @property
    def moves(self) -> MoveList | None:
        """The moves the side to move plays now: the remainder handed to it, or what its dice
        give (both dice, a double's four, three dice, crazy gul-bara's cascade); ``None``
        before the roll or while a strike is pending."""
        if self.result is not None:
            return None
        if self.remainder:
            return MoveList.remainder(self.remainder)
        if self.dice is None or self.strike_pending:
            return None
        return find_variant(self.variant).move_list(self.dice, self.rules)

    @property
    def can_double(self) -> bool:
        """True if the side to move may offer to double now: a cube in play that is centred or
        its own, before its own roll (not before a remainder turn, nor a chain roll)."""
        return (
            self.cube is not None
            and self.result is None
            and self.dice is None
            and not self.remainder
            and not self.chain
            and self.cube.may_double(self.turn)
        )

    @property
    def is_deadlocked(self) -> bool:
        """True when neither side can ever move: on every roll both sides would pass, so the
        position never changes and the game never ends (short nardy's both sides on the bar,
        facing closed home boards). The bot starts no game from such a position.

        The 15 rolls of two different dice decide it, whatever the dice mode: they include
        every die value, so a step a side could make on some roll (three dice, a double's four
        moves, a cascade) it could make on one of them, and a side with a step to make never
        passes (the rules ask for the most moves, never none).

        >>> Game.setup(Position.from_id("LbbYDAAtttgMAC")).is_deadlocked
        True
        """
        rules = replace(self.rules, three_dice=False)  # the two-dice rolls below, in any mode
        return not any(
            turns_for(
                self.position.with_turn(side),
                find_variant(self.variant).move_list(Dice(high, low), rules),
                first_turn=False,
                rules=rules,
            )
            for side in Side
            for high in range(2, 7)
            for low in range(1, high)
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
        """True when the side to move has not played a roll of its own yet (long nardy's head
        exception; a remainder turn is not one, and does not apply it)."""
        return self.position.turn not in self.moved

    def _require_moves(self) -> MoveList:
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if self.strike_pending:
            raise IllegalTurnError(f"{self.turn.other} must strike one of {self.dice} first")
        moves = self.moves
        if moves is None:
            raise IllegalTurnError(f"{self.turn} has not rolled yet")
        return moves

    def _first(self) -> bool:
        """Whether the turn to play gets the first-turn head exception."""
        return self.first_turn and not self.remainder

    def roll(self, rng: DiceSource) -> Game:
        """Returns the game with the dice rolled for the side to move (three dice in the
        ``three`` and ``anti_three`` modes).

        :raises: :exc:`GameOverError` if the game is over; :exc:`IllegalTurnError` if the dice
            are already rolled or a remainder must be played first.
        """
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if self.dice is not None:
            raise IllegalTurnError(f"{self.turn} has already rolled {self.dice}")
        if self.remainder:
            raise IllegalTurnError(
                f"{self.turn} must first play the remainder {','.join(map(str, self.remainder))}"
            )
        if self.cube is not None and self.cube.offered:
            raise CubeError("a double is offered: it must be taken or dropped first")
        count = 2 if self.dice_mode is DiceMode.TWO else 3
        return replace(self, dice=roll(rng, count), struck=None)

    def strike(self, value: int) -> Game:
        """Returns the game after the opponent of the side to move strikes a die showing
        ``value`` from the three rolled (``anti_three``): the two left are the roll to play.

        :raises: :exc:`IllegalTurnError` if no strike is pending;
            :exc:`~bot.engine.errors.InvalidDiceError` if no die shows ``value``.
        """
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        if not self.strike_pending or self.dice is None:
            raise IllegalTurnError("there are no three dice to strike from")
        return replace(self, dice=self.dice.without(value), struck=value)

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
        """Returns the game with ``dice`` to play (for replays and tests; three dice in
        ``anti_three`` are a roll waiting for its strike)."""
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        return replace(self, dice=dice, struck=None)

    def legal_turns(self) -> tuple[Turn, ...]:
        """The legal turns for the current roll or remainder; empty means the side must pass.

        A crazy gul-bara cascade can have thousands: to build a turn, or to find whether it is
        forced, use :meth:`turn_input` or :meth:`only_turn`, which do not list them all.
        """
        moves = self._require_moves()
        return turns_for(self.position, moves, first_turn=self._first(), rules=self.rules)

    def turn_input(self) -> TurnInput:
        """Starts step-by-step input of the current roll's (or remainder's) turn."""
        moves = self._require_moves()
        dice = None if self.remainder else self.dice
        return TurnInput(self.position, dice, self._first(), self.rules, moves)

    def only_turn(self) -> Turn | None:
        """The turn to play when there is exactly one (a pass when the side cannot move), else
        None: what a player need not choose. Stops at the second distinct turn."""
        current = self.turn_input()
        if current.is_complete:
            return current.turn()
        finishes = current.finishes(1)
        if finishes is None or len(finishes) != 1:
            return None
        return current.finish(finishes[0]).turn()

    def _plan(self, moves: MoveList) -> TurnPlan:
        # The search the turn's input used (a bot checks the turn its player tapped): shared.
        return plan_for(self.position, moves, self._first(), self.rules)

    def play(self, turn: Turn) -> Game:
        """Returns the game after ``turn`` (a pass is ``Turn((), ...)``, allowed only when there
        is no legal turn); the receiver is unchanged.

        Its steps must be a legal complete turn reaching its position, with the remainder the
        rules give (gul-bara). Then: a remainder passes to the opponent; a gul-bara double
        played in full leaves the mover to roll again; a remainder turn leaves its side to roll.

        :raises: :exc:`IllegalTurnError` if ``turn`` is not legal for the current dice.
        """
        moves = self._require_moves()
        mover = self.turn
        reached = self._plan(moves).check(turn.played)
        expected = moves.left_after(turn.dice_used) if moves.hands_on and reached else ()
        if reached is None or reached != turn.position or turn.remainder != expected:
            if not turn.played:
                raise IllegalTurnError(
                    f"cannot pass with {self._what()} in {self.position.to_text()}: "
                    "a legal turn exists"
                )
            raise IllegalTurnError(
                f"illegal turn {steps_text(turn.steps)!r}"
                f"{' leaving ' + ','.join(map(str, turn.remainder)) if turn.remainder else ''}"
                f" for {self._what()} in {self.position.to_text()}"
            )
        after = turn.position
        ply = self.ply + 1
        if after.borne_off(mover) == CHECKERS:
            result = score(self.variant, self.rules, after, mover, self.cube_value)
            return replace(
                self,
                position=after.with_turn(mover),
                dice=None,
                moved=self.moved if self.remainder else self.moved | {mover},
                ply=ply,
                result=result,
                remainder=(),
            )
        if self.remainder:  # the remainder is played: the same side now rolls its own dice
            return replace(self, position=after.with_turn(mover), ply=ply, remainder=())
        moved = self.moved | {mover}
        if turn.remainder:  # gul-bara: the moves not played pass to the opponent
            return replace(
                self,
                position=after,
                dice=None,
                moved=moved,
                ply=ply,
                remainder=turn.remainder,
                chain=0,
                struck=None,
            )
        if moves.double and turn.played and find_variant(self.variant).chains:
            # gul-bara: a double played in full rolls again
            return replace(
                self,
                position=after.with_turn(mover),
                dice=None,
                moved=moved,
                ply=ply,
                chain=self.chain + 1,
                struck=None,
            )
        return replace(self, position=after, dice=None, moved=moved, ply=ply, chain=0, struck=None)

    def record(self, turn: Turn, note: str = "") -> TurnRecord:
        """The history line of ``turn``, to be written before it is played (it reads the
        dice, the strike, the chain and the remainder from this game): pass the result's
        :meth:`~bot.engine.record.TurnRecord.to_text` to the history, and
        :meth:`~bot.engine.record.TurnRecord.from_text` reads it back.

        :raises: :exc:`IllegalTurnError` if there is nothing to play now.
        """
        self._require_moves()
        if self.remainder:
            return TurnRecord(self.turn, remainder=self.remainder, steps=turn.steps, note=note)
        return TurnRecord(
            self.turn,
            self.dice,
            self.struck,
            self.chain > 0,
            steps=turn.steps,
            left=turn.remainder,
            note=note,
        )

    def rolled_for(self, record: TurnRecord) -> Game:
        """Returns the game ready to play the turn ``record`` describes: its roll (and strike)
        made if the game is waiting for one; the turn itself is not played (see
        :meth:`replay`).

        :raises: :exc:`IllegalTurnError` if the record does not fit the game: another side,
            other dice, another remainder.
        """
        game = self
        if record.side is not game.turn:
            raise IllegalTurnError(f"{record} is not {game.turn}'s turn")
        if record.remainder:
            if record.remainder != game.remainder:
                raise IllegalTurnError(f"{record} does not play the remainder {game._what()}")
            return game
        dice = record.dice
        assert dice is not None  # a record has dice or a remainder
        if record.struck is not None and game.dice is None:
            dice = Dice(record.struck, dice.first, dice.second)
        if game.dice is None:
            game = game.with_dice(dice)
        if record.struck is not None and game.strike_pending:
            game = game.strike(record.struck)
        if game.dice != record.dice:
            raise IllegalTurnError(f"{record} does not play {game._what()}")
        return game

    def replay(self, record: TurnRecord) -> Game:
        """Returns the game after the turn ``record`` describes (a stored history read back):
        its roll (and strike) made if the game is waiting for one, then its steps played.

        :raises: :exc:`IllegalTurnError` if the record does not fit the game: another side,
            other dice, a step that is not legal.
        """
        game = self.rolled_for(record)
        current = game.turn_input()
        for step in record.steps:
            match = [o for o in current.options if o.step == step]
            if not match:
                raise IllegalTurnError(f"{record}: step {step} is not legal in turn")
            current = current.play(match[0])
        if not current.is_complete:
            raise IllegalTurnError(f"{record} is not a complete turn")
        return game.play(current.turn())

    def _what(self) -> str:
        if self.remainder:
            return f"remainder {','.join(map(str, self.remainder))}"
        return f"dice {self.dice}"

    def pass_turn(self) -> Game:
        """Returns the game after the side to move passes (it must have no legal turn); in
        gul-bara the whole roll passes to the opponent."""
        moves = self._require_moves()
        remainder = moves.values if moves.hands_on else ()
        return self.play(Turn((), self.position.with_turn(self.turn.other), remainder))

    def resign(self, side: Side) -> Game:
        """Returns the game lost by ``side``'s resignation, scored as the rule set says."""
        return self._concede(side, Outcome.RESIGN)

    def timeout(self) -> Game:
        """Returns the game lost for running out of time by the side that had to act (the
        opponent, while a double is offered or a die is to be struck)."""
        return self._concede(self.to_act, Outcome.TIMEOUT)

    def _concede(self, loser: Side, outcome: Outcome) -> Game:
        if self.result is not None:
            raise GameOverError(f"the game is over: {self.result}")
        winner = loser.other
        result = Result(winner, outcome, self.rules.points(outcome) * self.cube_value)
        cube = replace(self.cube, offered=False) if self.cube is not None else None
        return replace(
            self,
            position=self.position.with_turn(winner),
            dice=None,
            result=result,
            cube=cube,
            remainder=(),
        )
