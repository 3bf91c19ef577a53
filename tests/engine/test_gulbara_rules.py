"""Gul-bara and crazy gul-bara [002], case by case: remainders, chains, cascades, the head rule.

Numbering as long nardy: each side's head is its 24, the opponent's head its 12.
"""

from __future__ import annotations

import pytest

from .helpers import remainder_results, results, turns_left

START = "24:15 / 24:15"


@pytest.mark.parametrize(
    ("position", "dice", "first", "expected"),
    [
        # a non-double with one die played: the larger one (6), and the 5 is the remainder
        ("gulbara w / 24:1 1:14 / 24:14 1:1", (6, 5), False, {"24/18": (5,)}),
        # a double played in part: one checker from the head, 18/12 is black's head: 6,6,6 left
        (f"gulbara w / {START}", (6, 6), False, {"24/18": (6, 6, 6)}),
        # the first-turn exception: a second head checker, and still 6,6 left
        (f"gulbara w / {START}", (6, 6), True, {"24/18(2)": (6, 6)}),
        # a double played in full leaves nothing (the player rolls again: see test_game_flow)
        (f"gulbara w / {START}", (2, 2), False, {"24/22 22/20 20/18 18/16": ()}),
        # crazy gul-bara: 6-6 gives just 6, 6 (two moves); one from the head, one left over
        (f"crazy_gulbara w / {START}", (6, 6), False, {"24/18": (6,)}),
        # on the first turn both 6s leave the head (one checker cannot play 6, 6: 12 is closed)
        (f"crazy_gulbara w / {START}", (6, 6), True, {"24/18(2)": ()}),
        # 5-5 gives 5, 5, 6, 6, which one head checker plays in full: 24/19/14/8/2
        (f"crazy_gulbara w / {START}", (5, 5), True, {"24/19 19/14 14/8 8/2": ()}),
    ],
)
def test_what_a_roll_leaves(
    position: str, dice: tuple[int, int], first: bool, expected: dict[str, tuple[int, ...]]
) -> None:
    assert turns_left(position, dice, first=first) == expected


def test_four_per_value() -> None:
    position = f"crazy_gulbara w / {START}"
    # 6-6 with four_per_value is 6, 6, 6, 6: two from the head on the first turn, 6, 6 left
    assert turns_left(position, (6, 6), first=True, rules="international") == {"24/18(2)": (6, 6)}
    assert turns_left(position, (6, 6), first=True, rules={"four_per_value": True}) == {
        "24/18(2)": (6, 6)
    }


def test_a_cascade_that_stops() -> None:
    #  white: a runner on 20, the rest on its 1 (not all home: nothing is borne off); black
    #  has its head on white's 12 and a point on white's 15 (its 3).
    #  4-4 gives 4, 4, 5, 5, 6, 6: 20/16, then 16/12 is closed: the rest passes on
    assert turns_left("crazy_gulbara w / 20:1 1:14 / 24:13 3:2", (4, 4)) == {
        "20/16": (4, 5, 5, 6, 6)
    }
    #  3-3 from 21: 21/18, then 18/15 is closed. The 4s could be played (18/14), but the
    #  cascade is played from its beginning: it stops at the first move that cannot be
    assert turns_left("crazy_gulbara w / 21:1 2:14 / 24:13 3:2", (3, 3)) == {
        "21/18": (3, 4, 4, 5, 5, 6, 6)
    }


def test_a_remainder_is_played_from_its_beginning_under_the_head_rule() -> None:
    # black hands 6, 6 to white at the start: one checker leaves the head (no first-turn
    # exception for a remainder) and 18/12 is black's head: one 6 played, the other lost
    assert remainder_results(f"gulbara w / {START}", (6, 6)) == {"24:14 18:1"}
    # the longest beginning: with 6, 5 the 6 comes first, and 24/18 18/13 plays both
    assert remainder_results(f"gulbara w / {START}", (6, 5)) == {"24:14 13:1"}


def test_a_move_that_cannot_be_played_ends_the_remainder() -> None:
    # white: head and home; its 6s are blocked (24/18 is black's 6, a black point) but a 1 is not.
    # The remainder 6, 1 cannot begin, so nothing is played, though the 1 alone could be.
    position = "gulbara w / 24:1 5:14 / 24:13 6:2"
    assert results(position.replace("gulbara", "long"), (6, 1))  # the 1 alone is playable
    assert remainder_results(position, (6, 1)) == set()
    assert remainder_results(position, (1, 6)) != set()


def test_no_legal_move_hands_the_whole_roll_over() -> None:
    position = "gulbara w / 24:1 1:14 / 24:13 7:1 6:1"
    assert results(position, (6, 5)) == set()
