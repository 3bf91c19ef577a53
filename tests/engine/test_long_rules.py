"""Long nardy, rule by rule, on hand-made positions (notation: see docs/engine.md)."""

from __future__ import annotations

import pytest

from .helpers import owns, results

START = "long w / 24:15 / 24:15"


@pytest.mark.parametrize(
    ("dice", "first", "expected"),
    [
        # 6-5 on the first turn: only one checker leaves the head, so it travels 24/18/13
        ((6, 5), True, {"24:14 13:1"}),
        # 6-6, 4-4, 3-3 for the starter: one head checker cannot play all four moves (black's
        # head on white's 12 is in the way), so a second one may leave [000, 001, 004]
        ((6, 6), True, {"24:13 18:2"}),
        ((4, 4), True, {"24:13 16:2"}),
        ((3, 3), True, {"24:13 18:2", "24:13 21:1 15:1"}),
        # 5-5: one checker can play it all (24/19/14/9/4), so no exception
        ((5, 5), True, {"24:14 4:1"}),
        # the exception is for the first turn only: later, 6-6 plays a single die
        ((6, 6), False, {"24:14 18:1"}),
    ],
)
def test_head_rule_and_first_turn_doubles(
    dice: tuple[int, int], first: bool, expected: set[str]
) -> None:
    assert results(START, dice, first=first) == expected


def test_second_side_first_double_with_the_starter_in_the_way() -> None:
    # White opened 5-5: 24/4. White's 4 is black's 16, so black's 2-2 head checker cannot go
    # 24/22/20/18/16: on black's first turn a second checker may leave the head.
    position = "long b / 24:14 4:1 / 24:15"
    assert results(position, (2, 2), first=True) == {"24:13 22:1 18:1", "24:13 20:2"}
    assert results(position, (2, 2), first=False) == {"24:14 18:1"}


# White (own numbering)      11 10  9  8  7 | 6  5
#                             2  2  1  1  1 |  .  .    a five-run 11..7; 11/6 or 10/6 makes six
FIVE_RUN = "24:8 11:2 10:2 9:1 8:1 7:1"


def test_six_run_without_an_opponent_checker_past_it_is_forbidden() -> None:
    # Black is all on its head (white's 12), before the run on black's route.
    found = results(f"long w / {FIVE_RUN} / 24:15", (5, 4))
    assert not any(owns(r, range(6, 12)) for r in found)
    # 9/5 first breaks the run, then 11/6 is allowed: checked after every single step
    assert "24:8 11:1 10:2 8:1 7:1 6:1 5:1" in found


def test_six_run_with_an_opponent_checker_past_it_is_allowed() -> None:
    # Black's 1 is white's 13: past the run on black's route (black goes 12..1, 24..13 in
    # white's numbering).
    found = results(f"long w / {FIVE_RUN} / 24:14 1:1", (5, 4))
    assert "24:7 20:1 11:1 10:2 9:1 8:1 7:1 6:1" in found  # 24/20 11/6
    assert any(owns(r, range(6, 12)) for r in found)


def test_run_of_seven_follows_the_same_rule() -> None:
    position = "24:8 11:2 10:1 9:1 8:1 7:1 5:1"  # 11/6 joins 11..7 and 5: seven in a row
    blocked = results(f"long w / {position} / 24:15", (5, 1))
    assert not any(owns(r, range(5, 12)) for r in blocked)
    allowed = results(f"long w / {position} / 24:14 1:1", (5, 1))
    assert any(owns(r, range(5, 12)) for r in allowed)


def test_six_run_straddling_the_24_1_boundary() -> None:
    # White holds 2, 1, 24, 23, 22: consecutive on black's route (white's 24 is black's 12 and
    # white's 1 is black's 13). 24/21 would make six.
    position = "24:9 23:2 22:1 15:1 2:1 1:1"
    blocked = results(f"long w / {position} / 24:15", (3, 1))
    assert not any(owns(r, range(21, 25)) and owns(r, range(1, 3)) for r in blocked)
    # black's 5 is white's 17: past the run
    allowed = results(f"long w / {position} / 24:14 5:1", (3, 1))
    assert any(owns(r, range(21, 25)) and owns(r, range(1, 3)) for r in allowed)


def test_karzar_forbids_any_six_run_until_an_opponent_checker_is_home() -> None:
    # Black's 10 (white's 22) stands past the run, but black has nobody home yet.
    position = f"long w / {FIVE_RUN} / 24:14 10:1"
    assert any(owns(r, range(6, 12)) for r in results(position, (5, 4)))
    assert not any(owns(r, range(6, 12)) for r in results(position, (5, 4), rules="karzar"))
    home = f"long w / {FIVE_RUN} / 24:14 3:1"
    assert any(owns(r, range(6, 12)) for r in results(home, (5, 4), rules="karzar"))


def test_only_one_die_playable_must_be_the_larger() -> None:
    # Black's 1 (white's 13) stops both 24/18/13 and 24/19/13: either die alone could be played.
    assert results("long w / 24:1 1:14 / 24:14 1:1", (6, 5)) == {"18:1 1:14"}


def test_only_the_smaller_die_playable() -> None:
    # Black's 6 is white's 18: the 6 cannot be played at all.
    assert results("long w / 24:1 1:14 / 24:13 6:1 1:1", (6, 5)) == {"19:1 1:14"}


def test_no_legal_move_is_a_pass() -> None:
    assert results("long w / 24:1 1:14 / 24:13 7:1 6:1", (6, 5)) == set()


def test_bearing_off_with_a_higher_die() -> None:
    # point 6 and 5 are empty: both dice bear off from the highest point, 3
    assert results("long w / 3:2 2:1 off:12 / 24:15", (6, 5)) == {"2:1 off:14"}
    # a checker stands higher than the die: the 5 must be played inside home
    assert results("long w / 6:1 2:1 off:13 / 24:15", (5, 3)) == {"1:1 off:14", "2:1 off:14"}


def test_entering_home_then_bearing_off() -> None:
    assert results("long w / 8:1 3:1 2:13 / 24:15", (5, 3)) == {"3:1 2:13 off:1"}


def test_bearing_off_the_last_checker_ends_the_turn() -> None:
    assert results("long w / 1:1 off:14 / 24:15", (6, 6)) == {"off:15"}


# 8 5 | 3 ...: 5-2. Played 5 first, the 2 cannot bear off; played 2 first (8/6), the 5 bears off
# from 5. Шеш Беш demands the higher die first in a turn that bears off [000].
def test_sheshbesh_plays_the_higher_die_first_when_bearing_off() -> None:
    position = "long w / 8:1 5:1 off:13 / 24:15"
    classic = results(position, (5, 2))
    assert classic == {"3:2 off:13", "5:1 1:1 off:13", "6:1 off:14"}
    assert results(position, (5, 2), rules="sheshbesh") == {"3:2 off:13", "5:1 1:1 off:13"}
