"""Games between players, with paired dice: the yardstick of every strength figure.

A *pair* is two games with the same dice (the same seeded dice stream) and the colours
swapped, so luck largely cancels out. :func:`duel` plays pairs and reports the first player's
share of the points with a 95% confidence interval over the pairs.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from bot.engine import Game, Side

from .players import Player


def play(
    white: Player,
    black: Player,
    variant: str,
    dice: random.Random,
    choices: random.Random,
    *,
    rules: str | None = None,
    dice_mode: str = "two",
) -> Game:
    """Plays one game to its end, cubeless; the dice come from ``dice``, the players' random
    choices from ``choices``. Strikes (``anti_three``) are made by the opponent when it has a
    ``strike`` method, else the highest die is struck."""
    game = Game.start(variant, dice, rules=rules, dice_mode=dice_mode)
    players = {Side.WHITE: white, Side.BLACK: black}
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(dice)
        if game.strike_pending:
            striker = players[game.turn.other]
            strike = getattr(striker, "strike", None)
            assert game.dice is not None
            value = strike(game, choices) if strike else max(game.dice.values)
            game = game.strike(value)
        turn = players[game.turn].choose(game, choices)
        game = game.pass_turn() if turn is None else game.play(turn)
    return game


@dataclass(frozen=True, slots=True)
class Duel:
    """The first player's results over ``pairs`` pairs of games."""

    first: str
    second: str
    games: int
    points_for: int
    points_against: int
    wins: int
    low: float
    high: float

    @property
    def share(self) -> float:
        """The first player's share of all points scored."""
        return self.points_for / max(1, self.points_for + self.points_against)

    def __str__(self) -> str:
        return (
            f"{self.first} vs {self.second}: {self.games} games, points share "
            f"{self.share:.1%} (95% CI {self.low:.1%}..{self.high:.1%}), "
            f"wins {self.wins / max(1, self.games):.1%}"
        )


def duel(
    first: Player,
    second: Player,
    variant: str,
    pairs: int,
    seed: int,
    *,
    rules: str | None = None,
    dice_mode: str = "two",
) -> Duel:
    """Plays ``pairs`` pairs of games (see the module docstring)."""
    points_for = points_against = wins = 0
    pair_shares: list[float] = []
    for index in range(pairs):
        pair_for = pair_against = 0
        for first_white in (True, False):
            dice = random.Random(seed * 1_000_003 + index)
            choices = random.Random(seed * 7_919 + index * 2 + first_white)
            white, black = (first, second) if first_white else (second, first)
            result = play(white, black, variant, dice, choices, rules=rules, dice_mode=dice_mode)
            outcome = result.result
            assert outcome is not None
            won = (outcome.winner is Side.WHITE) == first_white
            wins += won
            if won:
                pair_for += outcome.points
            else:
                pair_against += outcome.points
        points_for += pair_for
        points_against += pair_against
        pair_shares.append(pair_for / (pair_for + pair_against))
    low, high = _interval(pair_shares, points_for / max(1, points_for + points_against))
    return Duel(first.name, second.name, 2 * pairs, points_for, points_against, wins, low, high)


def _interval(shares: list[float], centre: float) -> tuple[float, float]:
    """A 95% normal interval around ``centre`` from the spread of the pairs' shares."""
    if len(shares) < 2:
        return 0.0, 1.0
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares))
    return max(0.0, centre - half), min(1.0, centre + half)
