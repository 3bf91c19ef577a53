"""Glicko-2 updates against known values."""

from __future__ import annotations

import glicko2
import pytest

from bot.model import Rating
from bot.services.ratings import REPEAT_WINDOW_SECONDS, rate_game, repeat_weight


def test_glickmans_worked_example_through_three_games() -> None:
    # Glickman, "Example of the Glicko-2 system": a 1500/200 player beats a 1400/30 player and
    # loses to 1550/100 and 1700/300 in one period: r' 1464.06, RD' 151.52, σ' 0.05999.
    # The bot rates game by game, so this checks the library's arithmetic directly.
    player = glicko2.Player(rating=1500, rd=200, vol=0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert player.rating == pytest.approx(1464.06, abs=0.02)
    assert player.rd == pytest.approx(151.52, abs=0.01)
    assert player.vol == pytest.approx(0.05999, abs=0.00001)


def test_two_new_players() -> None:
    # Two newcomers: the winner gains what the loser loses, about 162.3 points (Glicko-2 with
    # RD 350 on both sides), and both deviations shrink to about 290.3.
    winner, loser = rate_game(Rating(), Rating())
    assert winner.rating == pytest.approx(1662.3, abs=0.1)
    assert loser.rating == pytest.approx(1337.7, abs=0.1)
    assert winner.deviation == pytest.approx(290.3, abs=0.1)
    assert loser.deviation == pytest.approx(winner.deviation)
    assert (winner.games, loser.games) == (1, 1)


def test_beating_a_much_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    me = Rating(1500, 100)
    upset, _ = rate_game(me, Rating(1900, 100))
    expected, _ = rate_game(me, Rating(1100, 100))
    assert upset.rating - me.rating > expected.rating - me.rating > 0


def test_repeated_games_between_two_accounts_count_less_within_the_window() -> None:
    now = 10 * REPEAT_WINDOW_SECONDS
    assert repeat_weight([], now) == 1
    assert repeat_weight([now - 60], now) == 1 / 2
    assert repeat_weight([now - 60, now - 3600, now - 86_400], now) == 1 / 4
    # a month back and more counts no longer, and nothing from the future counts
    assert repeat_weight([now - REPEAT_WINDOW_SECONDS - 1, now + 5], now) == 1
    assert repeat_weight([now - 10] * 9, now, window=5) == 1


def test_a_weighed_game_moves_the_ratings_that_part_of_the_way() -> None:
    before = (Rating(1500, 200), Rating(1600, 80))
    full, half = rate_game(*before), rate_game(*before, 0.5)
    for was, moved, halved in zip(before, full, half, strict=True):
        assert halved.rating - was.rating == pytest.approx((moved.rating - was.rating) / 2)
        assert halved.deviation - was.deviation == pytest.approx(
            (moved.deviation - was.deviation) / 2
        )
        assert halved.games == moved.games == was.games + 1
    assert rate_game(*before, 1.0) == full
