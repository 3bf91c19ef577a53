"""Analysis of a played game (:mod:`bot.ai.analysis`), from its history lines as the bot keeps
them: losses are never negative, the strongest level's own turns lose nothing, each side's
summary counts its own turns, and the results cross a process boundary (pickle)."""

from __future__ import annotations

import pickle
import random

import pytest

from bot.ai.analysis import BLUNDER, ERROR, analyse, review, states, summarise
from bot.ai.computer import Computer
from bot.ai.players import Player
from bot.engine import Game, Side, Turn, TurnRecord

GAMES: list[tuple[str, str]] = [("short", "two"), ("short", "anti_three"), ("gulbara", "two")]


def self_played(
    variant: str, dice_mode: str, white: Player, black: Player, seed: int
) -> tuple[Game, list[TurnRecord]]:
    """A whole game between ``white`` and ``black``: its start and its history, each line
    written before its turn is played and read back from its text, as the bot does."""
    rng = random.Random(seed)
    start = Game.start(variant, rng, dice_mode=dice_mode)
    players = {Side.WHITE: white, Side.BLACK: black}
    game = start
    records = []
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        if game.strike_pending:
            assert game.dice is not None
            game = game.strike(Computer(4).strike(game, rng))
        turn = players[game.turn].choose(game, rng)
        if turn is None:
            turn = game.only_turn()  # the pass
            assert turn is not None and not turn.played
        records.append(TurnRecord.from_text(game.record(turn).to_text()))
        game = game.play(turn)
    return start, records


class AnalysisBest:
    """The turn the analysis calls best when the turn played is 0-ply's best (the analysis
    looks at that one a roll ahead, or two, with the others it looks at anyway), so that it
    plays the analysis's own best."""

    name = "the analysis's best"

    def choose(self, game: Game, rng: random.Random) -> Turn | None:
        turns = game.legal_turns()
        if len(turns) < 2:
            return turns[0] if turns else None
        first = Computer(5).rank(game, lookahead=0).turns[0]
        return review([(game, first)], range(1))[0].best


@pytest.fixture(scope="module")
def short_game() -> tuple[Game, list[TurnRecord]]:
    return self_played("short", "two", AnalysisBest(), Computer(1), seed=4)


def test_the_strongest_level_loses_nothing(short_game: tuple[Game, list[TurnRecord]]) -> None:
    start, records = short_game
    played = states(start, records)
    assert len(played) == len(records)
    reviews = review(played, range(len(played)))
    assert reviews
    for found in reviews:
        assert found.loss >= 0.0
        before, turn = played[found.index]
        assert found.before == before and found.played == turn
        assert found.best in before.legal_turns()
        if found.side is Side.WHITE:  # it plays the analysis's own best
            assert found.loss < 1e-9, found
    summaries = summarise(reviews)
    white = summaries[Side.WHITE]
    assert (white.errors, white.blunders, white.worst) == (0, 0, ())
    assert white.error_rate < 1e-6


@pytest.mark.parametrize(("variant", "dice_mode"), GAMES)
def test_summaries(variant: str, dice_mode: str) -> None:
    start, records = self_played(variant, dice_mode, Computer(4), Computer(1), seed=9)
    summaries = analyse(start, records)
    played = states(start, records)
    reviews = review(played, range(len(played)))
    assert summarise(reviews) == summaries
    for side in (Side.WHITE, Side.BLACK):
        summary = summaries[side]
        assert summary.side is side
        own = [r for r in reviews if r.side is side]
        chosen = [g for g, _ in played if g.turn is side and len(g.legal_turns()) >= 2]
        assert summary.turns == len(own) == len(chosen)
        losses = [r.loss for r in own]
        assert all(loss >= 0.0 for loss in losses)
        assert summary.errors == sum(ERROR <= loss < BLUNDER for loss in losses)
        assert summary.blunders == sum(loss >= BLUNDER for loss in losses)
        assert summary.error_rate == pytest.approx(1000.0 * sum(losses) / max(1, len(losses)))
        assert len(summary.worst) <= 3
        assert all(r.side is side and r.loss >= ERROR for r in summary.worst)
        worst_losses = [r.loss for r in summary.worst]
        assert worst_losses == sorted(worst_losses, reverse=True)
        assert len(summary.worst) == min(3, summary.errors + summary.blunders)
        if summary.worst:
            assert summary.worst[0].loss == max(losses)


def test_reviews_and_summaries_pickle(short_game: tuple[Game, list[TurnRecord]]) -> None:
    """They cross a process pool."""
    start, records = short_game
    played = states(start, records)
    reviews = review(played, range(0, len(played), 2))
    assert pickle.loads(pickle.dumps(reviews)) == reviews
    summaries = summarise(reviews)
    back = pickle.loads(pickle.dumps(summaries))
    assert back == summaries
    assert all(back[side].side is side for side in back)


def test_reviews_split_by_turns(short_game: tuple[Game, list[TurnRecord]]) -> None:
    """The work split into parts gives the same reviews as in one go."""
    start, records = short_game
    played = states(start, records)
    middle = len(played) // 2
    parts = review(played, range(middle)) + review(played, range(middle, len(played)))
    assert parts == review(played, range(len(played)))
