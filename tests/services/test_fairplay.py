"""Fair play's rules as pure functions: hints never with a stake or in a tournament, a game with
hints not rated, and the PR flag's formula (a flag only for play far better than the rating
predicts, over enough games)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.engine import Side
from bot.model import PlayerLuck, Rating, Terms
from bot.services import fairplay
from bot.services.fairplay import FLAG_GAP, FLAG_RATIO, expected_pr, hints_allowed, pr_flag


def test_hints_only_where_nothing_is_at_stake() -> None:
    free, staked = Terms(hints=True), Terms(hints=True, stake=50)
    assert hints_allowed(free, computer=False)
    assert not hints_allowed(staked, computer=False)
    assert not hints_allowed(free, computer=False, tournament=True)
    assert hints_allowed(free, computer=True)


def test_the_expected_pr_line() -> None:
    assert expected_pr(1500) == 12.0
    assert expected_pr(1700) == 9.0
    assert expected_pr(3000) == fairplay.PR_FLOOR


def _games(pr: float, n: int, *, decisions: int = 30, variant: str = "long") -> list[PlayerLuck]:
    return [
        PlayerLuck(g, 7, Side.WHITE, variant, 0.0, pr, 2 * pr, decisions, 25, float(g))
        for g in range(n)
    ]


def test_a_flag_needs_enough_games_and_play_far_better_than_the_rating() -> None:
    rating = Rating(1500.0)
    flag = pr_flag(7, "long", _games(3.0, 20), rating, 5.0)
    assert flag is not None and (flag.games, flag.pr, flag.expected) == (20, 3.0, 12.0)
    assert pr_flag(7, "long", _games(3.0, 19), rating, 5.0) is None  # too few games
    assert pr_flag(7, "long", _games(3.0, 20, decisions=5), rating, 5.0) is None  # few choices
    assert pr_flag(7, "long", _games(5.0, 20), rating, 5.0) is None  # good, not far too good
    assert pr_flag(7, "short", _games(3.0, 20), rating, 5.0) is None  # another variant
    assert pr_flag(7, "long", _games(3.0, 20), Rating(2100.0), 5.0) is None  # as rated
    # the last games count: twenty strong games after weak ones flag
    assert pr_flag(7, "long", _games(20.0, 10) + _games(1.0, 20), rating, 5.0) is not None


@given(
    st.lists(st.floats(0, 40), min_size=20, max_size=30),
    st.floats(800, 2600),
)
def test_a_flag_always_means_far_below_the_expected_pr(prs: list[float], rating: float) -> None:
    games = [
        PlayerLuck(g, 7, Side.WHITE, "long", 0.0, pr, 2 * pr, 30, 25, float(g))
        for g, pr in enumerate(prs)
    ]
    flag = pr_flag(7, "long", games, Rating(rating), 1.0)
    expected = expected_pr(rating)
    pooled = fairplay.pooled_pr(games[-fairplay.FLAG_GAMES :])
    if flag is None:
        assert pooled > FLAG_RATIO * expected or expected - pooled < FLAG_GAP
    else:
        assert flag.pr == pooled <= FLAG_RATIO * expected and expected - flag.pr >= FLAG_GAP
