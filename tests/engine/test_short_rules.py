"""Short nardy (backgammon movement), rule by rule."""

from __future__ import annotations

from .helpers import opponent_results, results

STANDARD = "24:2 13:5 8:3 6:5"


def test_bar_checkers_enter_first() -> None:
    # bar/19 is black's 6 (closed); bar/20 enters, then the 6 plays anywhere
    position = f"short w / bar:1 13:5 8:3 6:5 24:1 / {STANDARD}"
    found = results(position, (6, 5))
    assert found
    assert all("bar" not in r and ("20:1" in r or "24:2" in r or "14:1" in r) for r in found)
    assert "24:1 14:1 13:5 8:3 6:5" in found  # bar/20 20/14


def test_hit_sends_a_blot_to_the_bar() -> None:
    # black's blot on black 15 is white's 10: 13/10* hits it
    position = f"short w / {STANDARD} / 24:2 15:1 13:4 8:3 6:5"
    assert "bar:1 24:2 13:4 8:3 6:5" in opponent_results(position, (3, 1))


def test_closed_board_means_a_pass() -> None:
    # black holds its whole home (white's 19..24): white on the bar cannot enter
    position = "short w / bar:2 13:5 8:3 6:5 / 6:3 5:3 4:3 3:2 2:2 1:2"
    assert results(position, (6, 5)) == set()


def test_a_hit_checker_must_come_home_before_bearing_off_again() -> None:
    position = "short w / bar:1 6:3 5:3 4:3 off:5 / 24:2 13:5 8:3 6:5"
    found = results(position, (6, 5))
    assert found
    assert all("off:5" in r for r in found)  # nothing more is borne off this turn


def test_bearing_off_in_short_nardy() -> None:
    assert results("short w / 2:1 1:1 off:13 / 20:2 13:5 8:3 6:5", (6, 5)) == {"off:15"}
