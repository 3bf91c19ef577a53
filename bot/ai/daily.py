"""Finding a daily position: a roll whose best turn beats the second best by a blunder's margin,
among several a player could reasonably choose (a real decision, not a pick between two
buttons one of which is plainly wrong).

A candidate is a game ready to play a roll of two dice with a real choice. It is screened at
0-ply (cheap: one net evaluation per turn), and one whose margin there is at least half a
blunder is ranked as the strongest level ranks it at 1-ply (its best turns a roll ahead); it
is a daily position when the best turn's equity is at least :data:`MARGIN` above the
second's and the roll is a real decision: at least :data:`MIN_TURNS` distinct turns, of which
at least :data:`MIN_REASONABLE` (the best one too) are within :data:`REASONABLE` of the best,
at both depths. 1-ply, not level 5's 2-ply, is the analysis's judge too (:mod:`bot.ai.analysis`):
a daily answer is judged as a review judges the same turn, and 2-ply could not change the
verdict much where it matters (it looks only where 1-ply's two best are within an error of
each other, half the margin wanted) for half a second of a worker a candidate.

Candidates come from finished games (the caller replays them), and, for a new bot with no
games yet, from the computer's own seeded self-play (:func:`self_play`): the same seed gives
the same positions. Run in the :class:`~bot.services.computer.Brain`'s worker processes: the
net and numpy are loaded there.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from bot.engine import DiceMode, Game

from .analysis import BLUNDER
from .answers import Ranked
from .levels import MAX_LISTED, STRONGEST

if TYPE_CHECKING:
    from .computer import Computer

MARGIN: Final = BLUNDER
"""The best turn beats the second best by at least this (a blunder's loss, in points)."""
SCREEN: Final = MARGIN / 2
"""The 0-ply margin a candidate needs to be looked at a roll ahead."""
MIN_TURNS: Final = 3
"""Distinct turns (resulting positions) a daily position's roll offers at least: a pick
between two buttons is no puzzle."""
REASONABLE: Final = 0.6
"""A turn whose equity is within this of the best one's is one a player could choose."""
MIN_REASONABLE: Final = 3
"""Reasonable turns a daily position has at least, its best one among them: the answer is
found among real candidates, not by ruling out absurd ones."""
SELF_PLAY_GAMES: Final = 6
"""Self-play games tried for one position before giving up."""
SELF_PLAY_LEVEL: Final = 3
"""The level that plays the self-play games: it errs like people, so its games reach the
positions people reach."""


@dataclass(frozen=True, slots=True)
class DailyCandidate:
    """A daily position: the game ready to play its roll, every legal turn ranked best first,
    and which candidate it was (its index in the list given; None from self-play)."""

    game: Game
    ranked: Ranked
    index: int | None

    @property
    def margin(self) -> float:
        return self.ranked.equities[0] - self.ranked.equities[1]


def key(game: Game) -> str:
    """What makes two daily positions the same: the checkers, the side to move and the roll.

    >>> from bot.engine import Dice, Position
    >>> key(Game.setup(Position.from_text("long w / 24:15 / 24:15")).with_dice(Dice(6, 5)))
    'long w / 24:15 / 24:15 6-5'
    """
    return f"{game.position.to_text()} {game.dice}"


def eligible(game: Game) -> bool:
    """Whether ``game`` can be a daily position: two dice rolled, no remainder or strike, a
    choice of at least :data:`MIN_TURNS` turns (and not so many moves that they cannot be
    listed)."""
    if game.is_over or game.dice is None or game.remainder or game.strike_pending:
        return False
    if game.dice_mode is not DiceMode.TWO:
        return False
    moves = game.moves
    if moves is None or len(moves.values) > MAX_LISTED:
        return False
    return len(game.legal_turns()) >= MIN_TURNS


def cubeless(game: Game) -> Game:
    """The game as a daily position shows it: without the cube (the valuation is cubeless)."""
    return replace(game, cube=None) if game.cube is not None else game


def find(
    candidates: Sequence[Game], exclude: frozenset[str] = frozenset()
) -> DailyCandidate | None:
    """The first of ``candidates`` that is a daily position (see the module docstring), its
    key not in ``exclude``; None if none is."""
    from .computer import Computer

    computer = Computer(STRONGEST)
    for index, game in enumerate(candidates):
        found = _judge(computer, game, exclude)
        if found is not None:
            return DailyCandidate(found.game, found.ranked, index)
    return None


def self_play(
    variant: str, seed: int, exclude: frozenset[str] = frozenset()
) -> DailyCandidate | None:
    """A daily position from the computer's self-play in ``variant``: up to
    :data:`SELF_PLAY_GAMES` games seeded from ``seed``, the first position found."""
    from .computer import Computer

    judge = Computer(STRONGEST)
    player = Computer(SELF_PLAY_LEVEL)
    for number in range(SELF_PLAY_GAMES):
        rng = random.Random(f"daily {variant} {seed} {number}")
        for game in _positions(player, variant, rng):
            found = _judge(judge, game, exclude)
            if found is not None:
                return found
    return None


def _positions(player: Computer, variant: str, rng: random.Random) -> Iterable[Game]:
    """Every position of one self-play game, ready to play its roll."""
    game = Game.start(variant, rng)
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        yield game
        turn = player.choose(game, rng)
        game = game.pass_turn() if turn is None else game.play(turn)


def _judge(computer: Computer, game: Game, exclude: frozenset[str]) -> DailyCandidate | None:
    if not eligible(game):
        return None
    game = cubeless(game)
    if key(game) in exclude:
        return None
    screened = computer.rank(game, lookahead=0)
    if screened.equities[0] - screened.equities[1] < SCREEN or not decision(screened):
        return None
    ranked = computer.rank(game, lookahead=computer.level.lookahead)  # 1-ply: no 2-ply
    if ranked.equities[0] - ranked.equities[1] < MARGIN or not decision(ranked):
        return None
    return DailyCandidate(game, ranked, None)


def decision(ranked: Ranked) -> bool:
    """Whether a roll ranked so is a real decision: at least :data:`MIN_REASONABLE` of its
    turns within :data:`REASONABLE` of the best.

    >>> decision(Ranked((), (0.3, 0.1, -0.2, -0.9))), decision(Ranked((), (0.3, -0.2, -0.9)))
    (True, False)
    """
    best = ranked.equities[0]
    return sum(best - equity <= REASONABLE for equity in ranked.equities) >= MIN_REASONABLE
