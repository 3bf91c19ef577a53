"""Every decision of every level is legal, a pass exactly when there is nothing to play, and the
same for the same seed: over random self-play positions of every variant, rule set and dice
mode, gul-bara remainders and ``anti_three`` strikes."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.ai import LEVELS, STRONGEST, choose_strike, choose_turn, hint
from bot.ai.computer import Computer
from bot.engine import Dice, DiceMode, Game, Position, Side, Turn, find_variant, resolve_rules
from tests.engine.strategies import random_turn

from .games import BOTH, PLAYS, games, play_id

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""For crazy gul-bara: a cascade can have thousands of turns."""
SEARCHED = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Where the strongest level searches each example (two rolls ahead, up to half a second a
turn): four random positions for each way of play (new ones each run; six cost the two tests
that use them 21 s of CPU)."""
ZERO_PLY = [lv.number for lv in LEVELS if not lv.lookahead]
"""The levels that look no roll ahead: in crazy gul-bara a look-ahead lists every cascade the
opponent may roll next, which can take seconds (up to minutes with ``four_per_value``), so
random positions there are given to these levels only; see
:func:`test_the_strongest_level_in_crazy_gulbara` for the others."""
NUMBERS = [lv.number for lv in LEVELS]
seeds = st.integers(0, 2**31)
HUGE = 3000


def huge(game: Game) -> bool:
    """Whether the roll has more than ``HUGE`` legal turns (found without listing them all):
    a crazy gul-bara cascade early in the game can have 150 000, and a decision on one takes
    the computer seconds to minutes (``bench/ai.py --only speed``), so the tests here
    leave those out."""
    return game.moves is not None and game.turn_input().finishes(HUGE) is None


def struck(game: Game, seed: int) -> Game:
    """``game`` with its pending strike made by the strongest level (if one is pending)."""
    if game.strike_pending:
        game = game.strike(choose_strike(game, STRONGEST, seed))
    return game


def check_levels(game: Game, seed: int, numbers: list[int] = NUMBERS) -> None:
    """Each level's turn is a legal one (None exactly when there is none), the engine plays
    it, and the same seed gives the same turn."""
    legal = game.legal_turns()
    for number in numbers:
        turn = choose_turn(game, number, seed)
        if not legal:
            assert turn is None, f"level {number} plays {turn} where there is no legal turn"
            game.pass_turn()  # the engine agrees it is a pass
            continue
        assert turn is not None, f"level {number} passes with {len(legal)} legal turns"
        # the same turn as one listed: the same position and remainder (a cascade played step
        # by step may reach a listed position by another order of steps)
        reached = [(t.position, t.remainder) for t in legal]
        assert (turn.position, turn.remainder) in reached, f"level {number}: {turn} is not legal"
        game.play(turn)
        assert choose_turn(game, number, seed) == turn


@pytest.mark.parametrize("play", [p for p in PLAYS if p[0] != "crazy_gulbara"], ids=play_id)
@SEARCHED
@given(data=st.data(), seed=seeds)
def test_every_level_plays_a_legal_turn(
    play: tuple[str, str, str], data: st.DataObject, seed: int
) -> None:
    game = struck(data.draw(games(play)), seed)
    check_levels(game, seed)


@pytest.mark.parametrize("play", [p for p in PLAYS if p[0] == "crazy_gulbara"], ids=play_id)
@FEWER
@given(data=st.data(), seed=seeds)
def test_every_level_plays_a_legal_crazy_gulbara_turn(
    play: tuple[str, str, str], data: st.DataObject, seed: int
) -> None:
    game = data.draw(games(play))
    assume(not huge(game))
    check_levels(game, seed, ZERO_PLY)


remainders = st.lists(st.integers(1, 6), min_size=1, max_size=6).map(tuple)


def check_remainder(
    variant: str, data: st.DataObject, remainder: tuple[int, ...], seed: int
) -> None:
    """A remainder handed over (any list of moves) before the side's own roll."""
    rules = data.draw(st.sampled_from(sorted(find_variant(variant).rule_sets)))
    game = data.draw(games((variant, "two", rules)))
    handed = Game(variant, game.rules, game.position, moved=BOTH, remainder=remainder)
    assume(not huge(handed))
    check_levels(handed, seed, NUMBERS if variant == "gulbara" else ZERO_PLY)


@SETTINGS
@given(data=st.data(), remainder=remainders, seed=seeds)
def test_every_level_plays_a_legal_remainder(
    data: st.DataObject, remainder: tuple[int, ...], seed: int
) -> None:
    check_remainder("gulbara", data, remainder, seed)


@FEWER
@given(data=st.data(), remainder=remainders, seed=seeds)
def test_every_level_plays_a_legal_crazy_gulbara_remainder(
    data: st.DataObject, remainder: tuple[int, ...], seed: int
) -> None:
    check_remainder("crazy_gulbara", data, remainder, seed)


CRAZY: list[tuple[str, str, tuple[int, ...] | None, tuple[int, ...]]] = [
    # (rule set, position, dice, remainder)
    ("classic", "crazy_gulbara w / 20:1 1:14 / 24:13 3:2", (4, 4), ()),
    ("classic", "crazy_gulbara w / 24:14 20:1 / 24:14 21:1", (3, 3), ()),
    (
        "classic",
        "crazy_gulbara b / 24:9 19:1 16:1 5:1 3:1 1:2 / 24:9 19:1 18:2 14:1 2:1 1:1",
        (1, 4),
        (),
    ),
    ("classic", "crazy_gulbara w / 2:1 off:14 / 24:15", None, (3, 4, 4, 5, 5, 6, 6)),
    (
        "international",
        "crazy_gulbara w / 24:4 20:1 18:1 4:3 3:3 1:3 / 24:2 19:1 4:3 2:4 1:5",
        (2, 6),
        (),
    ),
    (
        "international",
        "crazy_gulbara b / 22:1 11:1 10:1 2:4 1:8 / 21:1 6:1 3:4 2:2 1:7",
        (2, 2),
        (),
    ),
]


@pytest.mark.parametrize(("rules", "text", "dice", "remainder"), CRAZY)
def test_the_strongest_level_in_crazy_gulbara(
    rules: str, text: str, dice: tuple[int, ...] | None, remainder: tuple[int, ...]
) -> None:
    position = Position.from_text(text)
    game = Game(
        "crazy_gulbara",
        resolve_rules("crazy_gulbara", rules),
        position,
        moved=BOTH,
        remainder=remainder,
    )
    if dice is not None:
        game = game.with_dice(Dice(*dice))
    check_levels(game, 7)


@pytest.mark.parametrize("play", [p for p in PLAYS if p[1] == "anti_three"], ids=play_id)
@SETTINGS
@given(data=st.data(), dice=st.builds(Dice, *[st.integers(1, 6)] * 3), seed=seeds)
def test_strikes_are_one_of_the_dice(
    play: tuple[str, str, str], data: st.DataObject, dice: Dice, seed: int
) -> None:
    """Each level strikes a die the opponent rolled, the same for the same seed, and the
    two dice left are played legally."""
    position = data.draw(games(play)).position
    game = Game(
        play[0],
        find_variant(play[0]).rule_sets[play[2]],
        position,
        moved=BOTH,
        dice_mode=DiceMode(play[1]),
    ).with_dice(dice)
    assert game.strike_pending
    for number in NUMBERS:
        value = choose_strike(game, number, seed)
        assert value in dice.values
        assert choose_strike(game, number, seed) == value
    check_levels(game.strike(choose_strike(game, 1, seed)), seed)


@pytest.mark.parametrize("play", [p for p in PLAYS if p[1] == "anti_three"], ids=play_id)
@SETTINGS
@given(data=st.data(), dice=st.builds(Dice, *[st.integers(1, 6)] * 3))
def test_the_best_strike_leaves_the_mover_least(
    play: tuple[str, str, str], data: st.DataObject, dice: Dice
) -> None:
    """Level 5 (no randomness) strikes the die after which the mover's best turn is worth the
    least to it, by the same net at 0-ply."""
    position = data.draw(games(play)).position
    game = Game(
        play[0],
        find_variant(play[0]).rule_sets[play[2]],
        position,
        moved=BOTH,
        dice_mode=DiceMode(play[1]),
    ).with_dice(dice)
    computer = Computer(5)

    def left_to_mover(value: int) -> float:
        after = game.strike(value)
        ranked = computer.rank(after, lookahead=0)
        if ranked.turns:
            return ranked.equities[0]
        passed = Game(
            play[0],
            game.rules,
            position.with_turn(position.turn.other),
            moved=BOTH,
            dice_mode=DiceMode(play[1]),
        )
        return -computer.equity(passed)

    chosen = choose_strike(game, 5, 0)
    assert left_to_mover(chosen) <= min(left_to_mover(v) for v in dice.values) + 1e-9


@pytest.mark.parametrize("play", PLAYS, ids=play_id)
def test_whole_games_between_levels(play: tuple[str, str, str]) -> None:
    """Whole games, strikes included, between a strong and a weak level: every turn they choose
    is played by the engine to the game's end (in crazy gul-bara a huge cascade is played at
    random). The strongest level plays short nardy's first way (its 2-ply, the same code for
    every variant, costs ten or more seconds a game on the long board: random positions of
    every variant give it turns in :func:`test_every_level_plays_a_legal_turn`), level 4 the
    others."""
    variant, mode, rules = play
    strong = 5 if play == PLAYS[[p[0] for p in PLAYS].index("short")] else 4
    players = {Side.WHITE: Computer(strong), Side.BLACK: Computer(1)}
    rng = random.Random(3)
    game = Game.start(variant, rng, rules=rules, dice_mode=mode)
    while not game.is_over:
        if game.needs_roll:
            game = game.roll(rng)
        if game.strike_pending:
            game = game.strike(players[game.turn.other].strike(game, rng))
        if variant == "crazy_gulbara" and huge(game):
            turn: Turn | None = random_turn(game, rng)
        else:
            turn = players[game.turn].choose(game, rng)
        game = game.pass_turn() if turn is None else game.play(turn)
    assert game.result is not None
    assert game.rules.name == rules


@pytest.mark.parametrize("play", [p for p in PLAYS if p[0] in ("long", "short")], ids=play_id)
@SEARCHED
@given(data=st.data())
def test_hints(play: tuple[str, str, str], data: st.DataObject) -> None:
    """The hint's best turn is the strongest level's; it loses nothing, every other turn of
    the roll loses zero or more, and a turn of another roll is not judged."""
    game = struck(data.draw(games(play)), 0)
    found = hint(game)
    legal = game.legal_turns()
    assert set(found.ranked.turns) == set(legal)
    assert list(found.ranked.equities) == sorted(found.ranked.equities, reverse=True)
    if not legal:
        assert found.best is None
        return
    assert found.best == choose_turn(game, STRONGEST, 0)
    assert found.best is not None and found.loss(found.best) == 0.0
    for turn in legal:
        loss = found.loss(turn)
        assert loss is not None and loss >= 0.0
    other = Game(game.variant, game.rules, game.position.with_turn(game.turn.other), moved=BOTH)
    for turn in other.with_dice(Dice(6, 5)).legal_turns():
        assert found.loss(turn) is None or turn.position in {t.position for t in legal}
