"""The doubling cube in a game, and matches with the Crawford rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import (
    MAX_CUBE,
    Cube,
    CubeError,
    Dice,
    Game,
    Match,
    Outcome,
    Position,
    Side,
    StakeMode,
    chips_due,
    resolve_rules,
)

W, B = Side.WHITE, Side.BLACK


def cube_game(dice: Dice | None = None, cube: Cube | None = None) -> Game:
    """A long game between turns (no dice rolled), white to move, with a cube."""
    game = Game.start("long", random.Random(1), cube=True)
    return Game(
        "long",
        game.rules,
        Position.from_text("long w / 24:14 13:1 / 24:14 10:1"),
        dice=dice,
        moved=frozenset({W, B}),
        ply=2,
        cube=cube or Cube(),
    )


def test_a_new_game_with_the_cube_starts_centred_and_rolled() -> None:
    game = Game.start("long", random.Random(3), cube=True)
    assert game.cube == Cube(1, None)
    assert game.dice is not None  # the opening roll is played at once: no double before it
    assert not game.can_double
    assert Game.start("long", random.Random(3)).cube is None


def test_double_take_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    game = cube_game()
    assert game.can_double and game.to_act is W
    offered = game.double()
    assert offered.cube == Cube(1, None, offered=True)
    assert offered.to_act is B  # black must answer
    with pytest.raises(CubeError):
        offered.roll(random.Random(0))
    taken = offered.take()
    assert taken.cube == Cube(2, B)
    assert taken.to_act is W and not taken.can_double  # white rolls; only black may redouble
    assert taken.roll(random.Random(0)).dice is not None


def test_only_the_owner_redoubles() -> None:
    assert not cube_game(cube=Cube(2, B)).can_double
    assert cube_game(cube=Cube(2, W)).double().cube == Cube(2, W, offered=True)
    with pytest.raises(CubeError):
        cube_game(cube=Cube(2, B)).double()


def test_no_double_after_rolling_nor_past_the_top_value() -> None:
    assert not cube_game(dice=Dice(3, 1)).can_double
    assert not cube_game(cube=Cube(MAX_CUBE, W)).can_double
    with pytest.raises(CubeError):
        cube_game(dice=Dice(3, 1)).double()


def test_drop_loses_at_the_value_before_the_offer() -> None:
    dropped = cube_game(cube=Cube(4, W)).double().drop()
    assert dropped.result is not None
    assert dropped.result.winner is W
    assert dropped.result.outcome is Outcome.DROP
    assert dropped.result.points == 4
    assert dropped.cube == Cube(4, W)


@pytest.mark.parametrize(
    ("rules", "value", "points"),
    [("classic", 1, 2), ("classic", 4, 8), ("sheshbesh", 2, 8)],
)
def test_resigning_scores_the_rule_set_times_the_cube(rules: str, value: int, points: int) -> None:
    game = Game.start("long", random.Random(5), rules=rules, cube=True)
    game = Game(game.variant, game.rules, game.position, cube=Cube(value, W), moved=game.moved)
    resigned = game.resign(B)
    assert resigned.result is not None and resigned.result.points == points


def test_a_timeout_during_an_offer_is_lost_by_the_side_that_must_answer() -> None:
    game = cube_game().double().timeout()
    assert game.result is not None
    assert game.result.winner is W and game.result.outcome is Outcome.TIMEOUT
    assert game.cube is not None and not game.cube.offered


def test_bearing_off_scores_times_the_cube() -> None:
    # white bears off its last checker; black has borne off none and is not home: mars
    game = Game(
        "long",
        cube_game().rules,
        Position.from_text("long w / 1:1 off:14 / 24:1 12:14"),
        dice=Dice(2, 1),
        moved=frozenset({W, B}),
        cube=Cube(8, B),
    )
    over = game.play(game.legal_turns()[0])
    assert over.result is not None
    assert over.result.outcome is Outcome.MARS and over.result.points == 16


def test_take_and_drop_need_an_offer() -> None:
    with pytest.raises(CubeError):
        cube_game().drop()
    with pytest.raises(CubeError):
        cube_game().take()
    with pytest.raises(CubeError):
        Cube(3)


# --- matches -----------------------------------------------------------------------------


def test_a_match_to_7_with_the_crawford_game() -> None:
    match = Match(7)
    assert match.cube_allowed and not match.is_over
    match = match.after_game(W, 4)  # 4:0
    match = match.after_game(B, 2)  # 4:2
    assert match.cube_allowed
    match = match.after_game(W, 2)  # 6:2: white is one point away, the next game is Crawford
    assert match.crawford and not match.cube_allowed
    match = match.after_game(B, 1)  # the Crawford game is played; 6:3
    assert not match.crawford and match.crawford_played and match.cube_allowed
    match = match.after_game(B, 3)  # 6:6: both one away, no second Crawford game
    assert match.cube_allowed
    match = match.after_game(W, 1)
    assert match.winner is W and match.is_over and (match.white, match.black) == (7, 6)
    with pytest.raises(ValueError, match="over"):
        match.after_game(W, 1)


def test_jumping_past_match_point_minus_one_skips_crawford() -> None:
    match = Match(5).after_game(W, 3).after_game(W, 2)
    assert match.winner is W
    assert not Match(5).after_game(B, 2).crawford


@given(
    length=st.sampled_from([1, 3, 5, 7, 9]),
    games=st.lists(st.tuples(st.sampled_from([W, B]), st.integers(1, 12)), max_size=40),
)
def test_match_invariants(length: int, games: list[tuple[Side, int]]) -> None:
    match = Match(length)
    crawford_games = 0
    total = 0
    for winner, points in games:
        if match.is_over:
            break
        crawford_games += match.crawford
        leader_before = max(match.white, match.black)
        match = match.after_game(winner, points)
        total += points
        assert match.white + match.black == total
        if match.crawford:  # only right after someone first reached length - 1
            assert max(match.white, match.black) == length - 1 > leader_before
    assert crawford_games <= 1
    if match.is_over:
        assert match.score(match.winner or W) >= length


# --- stakes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "rules", "outcome", "cube", "chips"),
    [
        # amateur [003]: oin 0.5, mars 1, no koks
        (StakeMode.AMATEUR, "standard", Outcome.OIN, 1, 50),
        (StakeMode.AMATEUR, "standard", Outcome.MARS, 1, 100),
        (StakeMode.AMATEUR, "standard", Outcome.KOKS, 1, 100),
        (StakeMode.AMATEUR, "classic", Outcome.RESIGN, 1, 100),
        (StakeMode.AMATEUR, "standard", Outcome.OIN, 4, 200),
        # PRO [003]: oin 1, mars 2, koks 3
        (StakeMode.PRO, "standard", Outcome.OIN, 1, 100),
        (StakeMode.PRO, "standard", Outcome.MARS, 1, 200),
        (StakeMode.PRO, "standard", Outcome.KOKS, 2, 600),
        (StakeMode.PRO, "sheshbesh", Outcome.HOME_MARS, 1, 200),
        (StakeMode.PRO, "classic", Outcome.DROP, 8, 800),
        # the rule set's own table: Шеш Беш [000]
        (StakeMode.RULES, "sheshbesh", Outcome.OIN, 1, 100),
        (StakeMode.RULES, "sheshbesh", Outcome.KOKS, 1, 300),
        (StakeMode.RULES, "sheshbesh", Outcome.HOME_MARS, 1, 400),
        (StakeMode.RULES, "sheshbesh", Outcome.RESIGN, 1, 400),
        (StakeMode.RULES, "sheshbesh", Outcome.TIMEOUT, 2, 800),
        (StakeMode.RULES, "classic", Outcome.RESIGN, 1, 200),
    ],
)
def test_each_stake_mode_table(
    mode: StakeMode, rules: str, outcome: Outcome, cube: int, chips: int
) -> None:
    variant = "short" if rules == "standard" else "long"
    assert chips_due(100, mode, resolve_rules(variant, rules), outcome, cube) == chips


def test_an_odd_amateur_oin_rounds_down() -> None:
    assert chips_due(15, StakeMode.AMATEUR, resolve_rules("long", None), Outcome.OIN) == 7
