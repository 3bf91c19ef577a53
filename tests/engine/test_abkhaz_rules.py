"""Abkhaz nardy: short nardy with the home-hit restrictions [003 7.3, 7.5], case by case.

Diagrams show white's home (its points 6..1) and what stands there: ``W`` white checkers,
``b`` a black blot, ``BB`` a black point; white moves right to left, towards off.
"""

from __future__ import annotations

import pytest

from bot.engine import Dice, Position, legal_turns

from .helpers import opponent_results, results

START = "24:2 13:5 8:3 6:5"
# black: its standard set-up with one checker moved to black 21 = white's 4, a blot in white's home
BLOT_ON_4 = "24:2 21:1 13:5 8:3 6:4"


def _after(variant: str, white: str, black: str, dice: tuple[int, ...]) -> set[str]:
    start = Position.from_text(f"{variant} w / {white} / {black}")
    return {t.position.to_text().split(" / ", 1)[1] for t in legal_turns(start, Dice(*dice))}


def both(white: str, black: str, dice: tuple[int, ...]) -> tuple[set[str], set[str]]:
    """The positions after white's legal turns (``"<white> / <black>"``) in short nardy and in
    Abkhaz nardy, from the same position."""
    return _after("short", white, black, dice), _after("abkhaz", white, black, dice)


def test_a_hitter_may_not_be_covered() -> None:
    #   8  7  6  5  4  3  2  1
    #   WWW   W5    b            4-2: 8/4* hits in the home; 6/4 would cover the hitter
    short, abkhaz = both(START, BLOT_ON_4, (4, 2))
    covered = "24:2 13:5 8:2 6:4 4:2 / bar:1 24:2 13:5 8:3 6:4"
    assert covered in short and covered not in abkhaz
    assert short - abkhaz == {covered}  # every other turn is the same in both


def test_a_hitter_moves_on_to_an_empty_point() -> None:
    # 8/4* 4/2: the hitter goes on to the empty 2 and stands alone there
    _, abkhaz = both(START, BLOT_ON_4, (4, 2))
    assert "24:2 13:5 8:2 6:5 2:1 / bar:1 24:2 13:5 8:3 6:4" in abkhaz


def test_a_hitter_may_not_move_on_to_an_own_checker() -> None:
    #   8  7  6  5  4  3  2  1
    #   WWW   W4    b     W      8/4* 4/2 would put the hitter on white's own checker on 2
    white = "24:2 13:5 8:3 6:4 2:1"
    short, abkhaz = both(white, BLOT_ON_4, (4, 2))
    onto_own = "24:2 13:5 8:2 6:4 2:2 / bar:1 24:2 13:5 8:3 6:4"
    assert onto_own in short and onto_own not in abkhaz
    assert "24:2 13:5 8:2 6:4 2:2 / 24:2 21:1 13:5 8:3 6:4" in abkhaz  # 8/6 6/2, no hit


def test_two_hits_in_the_home() -> None:
    #   8  7  6  5  4  3  2  1
    #   WWW   W5    b  b         4-3: 8/4* and 6/3*, each hitter alone: both allowed
    black = "24:2 22:1 21:1 13:5 8:3 6:3"
    short, abkhaz = both(START, black, (4, 3))
    assert "24:2 13:5 8:2 6:4 4:1 3:1 / bar:2 24:2 13:5 8:3 6:3" in abkhaz
    assert short == abkhaz  # nothing here breaks a restriction


def test_no_bearing_off_in_a_turn_with_a_home_hit_before_or_after() -> None:
    #   6  5  4  3  2  1   off
    #   W  b     WW WW     10    1-3: 6/5* then 3/off, or 3/off then 6/5*: a home hit and a
    #                             bear-off in one turn; 6/5* 5/2 puts the hitter on own checkers
    white, black = "6:1 3:2 2:2 off:10", "20:1 13:14"
    short, abkhaz = both(white, black, (1, 3))
    hit_and_off = "5:1 3:1 2:2 off:11 / bar:1 13:14"
    hitter_on_own = "3:2 2:3 off:10 / bar:1 13:14"
    assert {hit_and_off, hitter_on_own} <= short
    assert abkhaz == short - {hit_and_off, hitter_on_own}
    assert abkhaz and all(r.endswith("/ 20:1 13:14") for r in abkhaz)  # the blot is not hit


def test_a_die_lost_to_the_restrictions() -> None:
    #   6  5  4  3  2  1
    #      W  b        BB     1-4: the 4 cannot be played from 5 (1 is closed); after 5/4*
    #                         the hitter may not be borne off, so the 4 is lost
    white, black = "5:1 off:14", "24:2 21:1 13:12"
    short, abkhaz = both(white, black, (1, 4))
    assert short == {"off:15 / bar:1 24:2 13:12"}  # 5/4* 4/off
    assert abkhaz == {"4:1 off:14 / bar:1 24:2 13:12"}  # 5/4*, and the 4 is lost


def test_a_hit_outside_the_home_makes_no_hitter() -> None:
    #   13/9* hits on white's 9 (outside the home); 9/7 may then go on as in short nardy, and
    #   another checker may join the hitter on 9 (8/... cannot: white moves down only)
    black = "24:2 16:1 13:5 8:3 6:4"  # black 16 = white's 9
    short, abkhaz = both(START, black, (4, 2))
    assert short == abkhaz
    assert "24:2 13:4 8:3 7:1 6:5 / bar:1 24:2 13:5 8:3 6:4" in abkhaz  # 13/9* 9/7


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        # rules.md's example of the full-use rule: short nardy must play both dice (2/1* 1/off)
        ("short", {"off:15"}),
        # in Abkhaz nardy 2/1* is a home hit: the hitter cannot be borne off, so 2/off it is
        ("abkhaz", {"off:15"}),
    ],
)
def test_last_checker_on_2_with_3_1_and_a_blot_on_1(variant: str, expected: set[str]) -> None:
    position = f"{variant} w / 2:1 off:14 / 24:1 13:5 8:3 6:6"
    assert results(position, (3, 1)) == expected
    hit = opponent_results(position, (3, 1))
    assert hit == ({"bar:1 13:5 8:3 6:6"} if variant == "short" else {"24:1 13:5 8:3 6:6"})


def test_home_hits_with_three_dice() -> None:
    # three dice 4-2-1: 8/4* 4/2 4/... the hitter still may not be covered or borne off
    rules = {"three_dice": True}
    position = f"abkhaz w / {START} / {BLOT_ON_4}"
    found = results(position, (4, 2, 1), rules=rules)
    short = results(position.replace("abkhaz", "short"), (4, 2, 1), rules=rules)
    assert found < short
    assert "24:2 13:5 8:2 6:3 5:1 4:2" in short - found  # 8/4* 6/4 6/5: the hitter covered


def test_one_position_reached_with_different_hitters_is_one_turn() -> None:
    # 4-2-1: 8/4* 4/3 6/4 (the hitter on 3) and 8/4* 6/5 5/3 (the hitter on 4) reach one
    # position; the search tells them apart (their futures differ), the answer lists it once
    position = Position.from_text(f"abkhaz w / {START} / {BLOT_ON_4}")
    turns = legal_turns(position, Dice(4, 2, 1), rules={"three_dice": True})
    assert len({t.position for t in turns}) == len(turns)
    after = Position.from_text("abkhaz b / 24:2 13:5 8:2 6:4 4:1 3:1 / bar:1 24:2 13:5 8:3 6:4")
    assert after in {t.position for t in turns}
