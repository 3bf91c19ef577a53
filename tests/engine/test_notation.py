"""A game's text form (bot/engine/notation.py): every state of every kind of game reads back
equal, the documented examples are what the code writes, and text that is not a game is
refused with a NotationError; the steps-with-dice codec of a turn being input, likewise."""

from __future__ import annotations

import doctest
import inspect
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    Cube,
    Dice,
    DiceMode,
    Game,
    IllegalTurnError,
    InvalidDiceError,
    NardyError,
    NotationError,
    Played,
    Position,
    RuleSet,
    Side,
    find_variant,
    moves_text,
    notation,
    opening_text,
    parse_moves,
    parse_opening,
    parse_played,
    parse_taps,
    played_text,
    resolve_rules,
    taps_text,
)
from bot.engine import dice as dice_module
from bot.engine import moves as moves_module
from tests.engine.strategies import MODES, PLAYS, positions, walk

FEATURES = ("mode", "moved", "opening", "dice", "struck", "remainder", "chain", "cube", "result")


def assert_round_trips(game: Game) -> str:
    text = game.to_text()
    assert "\n" not in text
    assert Game.from_text(text) == game, text
    assert Game.from_text(text).to_text() == text
    return text


@settings(max_examples=150, deadline=None)
@given(
    play=st.sampled_from(PLAYS),
    cube=st.booleans(),
    seed=st.integers(0, 2**32),
    turns=st.integers(0, 300),
)
def test_every_state_of_a_random_game_reads_back_equal(
    play: tuple[str, str, str], cube: bool, seed: int, turns: int
) -> None:
    variant, mode, rules = play
    rng = random.Random(seed)
    game = Game.start(
        variant, rng, rules=rules, dice_mode=mode, cube=cube and find_variant(variant).has_cube
    )
    for state in walk(game, rng, turns):
        assert_round_trips(state)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32), cube=st.booleans())
def test_games_set_up_at_a_position_and_with_switched_rules_read_back_equal(
    data: st.DataObject, seed: int, cube: bool
) -> None:
    variant = data.draw(st.sampled_from(sorted(MODES)))
    found = find_variant(variant)
    names = sorted(found.switches)
    switches = data.draw(
        st.dictionaries(st.sampled_from(names), st.booleans()) if names else st.just({})
    )
    mode = data.draw(st.sampled_from(MODES[variant]))
    position = data.draw(positions(variant))
    try:
        game = Game.setup(
            position,
            rules=resolve_rules(variant, switches),
            cube=cube and found.has_cube,
            dice_mode=mode,
        )
    except NardyError:  # a side with every checker off, a deadlock: no game to store
        return
    rng = random.Random(seed)
    for state in walk(game, rng, 6):
        assert_round_trips(state)


def test_the_sweep_meets_every_item_and_every_item_reads_back() -> None:
    seen: set[str] = set()
    for variant, mode, rules in PLAYS:
        for seed in range(3):
            rng = random.Random(seed)
            game = Game.start(
                variant, rng, rules=rules, dice_mode=mode, cube=find_variant(variant).has_cube
            )
            for state in walk(game, rng, 400):
                text = assert_round_trips(state)
                seen |= {key for key in FEATURES if f"| {key} " in text}
                if state.cube is not None and state.cube.offered:
                    seen.add("offered")
    assert seen == {*FEATURES, "offered"}


def test_the_documented_examples_are_what_the_games_write() -> None:
    documented = inspect.getdoc(notation.game_text) or ""
    block = documented.split("::\n\n", 1)[1].split("\n\nItems", 1)[0]
    examples = [" ".join(part.split()) for part in block.split("\n\n")]
    assert len(examples) == 3
    for text in examples:
        assert Game.from_text(text).to_text() == text
    first = Game.from_text(examples[0])
    assert first.turn is Side.WHITE and first.dice == Dice(3, 4) and first.moved == {Side.BLACK}
    struck = Game.from_text(examples[1])
    assert struck.dice_mode is DiceMode.ANTI_THREE and struck.struck == 5
    assert struck.cube == Cube(2, Side.BLACK)
    over = Game.from_text(examples[2])
    assert over.result is not None and over.result.points == 1 and over.rules.name == "sheshbesh"
    for module in (notation, moves_module, dice_module):
        assert doctest.testmod(module).failed == 0


def test_a_rule_set_changed_from_its_preset_is_written_field_by_field() -> None:
    start = Position.from_text("long w / 24:15 / 24:15")
    game = Game.setup(start, rules=resolve_rules("long", {"karzar_block": True}))
    assert "| rules classic karzar_block=true |" in assert_round_trips(game)
    odd = RuleSet("sheshbesh", higher_die_first=True, koks=None, home_mars=4, resign=4, timeout=4)
    assert "| rules sheshbesh koks=none |" in assert_round_trips(Game.setup(start, rules=odd))
    # three_dice follows the dice mode, so it is never written
    short = Game.setup(Position.from_text("short w / 6:15 / 6:15"), dice_mode="three")
    assert short.rules.three_dice and "three_dice" not in assert_round_trips(short)
    with pytest.raises(NotationError, match="not one of long's presets"):
        Game.setup(start, rules=RuleSet("house")).to_text()


BASE = "long w / 24:15 / 24:15 | rules classic | ply 0"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "begins with its position"),
        ("long w / 24:15 | rules classic | ply 0", "begins with its position"),
        ("long w / 24:15 / 24:14", "begins with its position"),
        ("long w / 24:15 / 24:15", "no 'rules' or 'ply'"),
        ("long w / 24:15 / 24:15 | ply 0", "no 'rules'"),
        ("long w / 24:15 / 24:15 | rules classic", "no 'ply'"),
        ("long w / 24:15 / 24:15 | ply 0 | rules classic", "'rules' out of order"),
        (BASE + " | dice 5-2 | dice 5-2", "'dice' again"),
        (BASE + " | colour red", "unknown item"),
        ("long w / 24:15 / 24:15 | rules standard | ply 0", "unknown rule set"),
        ("long w / 24:15 / 24:15 | rules classic koks | ply 0", "'<field>=<value>'"),
        ("long w / 24:15 / 24:15 | rules classic name=x | ply 0", "'<field>=<value>'"),
        ("long w / 24:15 / 24:15 | rules classic koks=yes | ply 0", "not a number"),
        ("long w / 24:15 / 24:15 | rules classic karzar_block=1 | ply 0", "true or false"),
        ("long w / 24:15 / 24:15 | rules classic koks=3 koks=4 | ply 0", "changed twice"),
        ("long w / 24:15 / 24:15 | rules classic | mode three | ply 0", "two dice"),
        ("short w / 6:15 / 6:15 | rules standard | mode four | ply 0", "mode 'four'"),
        ("long w / 24:15 / 24:15 | rules classic | ply -1", "not a number"),
        ("long w / 24:15 / 24:15 | rules classic | ply 07", "not a number"),
        (BASE + " | moved bw", "'w', 'b' or 'wb'"),
        (BASE + " | opening 5", "opening roll"),
        (BASE + " | opening 7-2", "opening roll"),
        (BASE + " | dice 5-9", "dice"),
        (BASE + " | dice 5-2-1-1", "dice"),
        (BASE + " | struck 0", "a die shows 1..6"),
        (BASE + " | remainder 5,,6", "moves are written"),
        (BASE + " | chain x", "not a number"),
        (BASE + " | cube 3", "a cube shows"),
        (BASE + " | cube 2 x", "a side is"),
        (BASE + " | cube 2 w b", "a cube is written"),
        ("gulbara w / 24:15 / 24:15 | rules classic | ply 0 | cube 1", "without the doubling"),
        (BASE + " | result w", "a result is written"),
        (BASE + " | result w win 2", "'win'"),
        (BASE + " | result x mars 2", "a side is"),
    ],
)
def test_text_that_is_not_a_game_is_refused(text: str, says: str) -> None:
    with pytest.raises(NotationError, match=re.escape(says)) as raised:
        Game.from_text(text)
    assert isinstance(raised.value, NardyError) and isinstance(raised.value, ValueError)


def test_spaces_around_items_do_not_matter() -> None:
    assert Game.from_text(f"  {BASE.replace(' | ', '|')}|  dice   5-2 ") == Game.from_text(
        BASE + " | dice 5-2"
    )


def test_openings_and_lists_of_moves() -> None:
    assert opening_text((5, 2)) == "5-2" and parse_opening(" 5-2 ") == (5, 2)
    for bad in ("5", "5-2-1", "0-3", "a-b", ""):
        with pytest.raises(NotationError):
            parse_opening(bad)
    assert moves_text((5, 6, 6)) == "5,6,6" and parse_moves("5,6,6") == (5, 6, 6)
    for bad in ("", "5,", "7", "5;6"):
        with pytest.raises(InvalidDiceError):
            parse_moves(bad)


def test_steps_with_their_dice_read_back() -> None:
    game = Game.start("short", random.Random(5))
    for turn in game.legal_turns():
        assert parse_played(played_text(turn.played)) == turn.played
    taps = ((Played(24, 18, 6), Played(18, 13, 5)), (Played(13, 7, 6, True),), ())
    assert taps_text(taps) == "24/18/6/0 18/13/5/0|13/7/6/1||"
    assert parse_taps(taps_text(taps)) == taps
    assert parse_taps("") == () and taps_text(()) == "" and parse_played("") == ()
    assert parse_played("25/20/5/1 3/0/6/0") == (Played(25, 20, 5, True), Played(3, 0, 6))


@pytest.mark.parametrize(
    "text", ["24/18/6", "24/18/7/0", "24/18/6/2", "18/24/6/0", "26/20/6/0", "bar/20/5/0"]
)
def test_steps_with_dice_that_are_not_are_refused(text: str) -> None:
    with pytest.raises(IllegalTurnError):
        parse_played(text)
    with pytest.raises(IllegalTurnError):
        parse_taps(text + "|")


def test_taps_not_ended_by_a_bar_are_refused() -> None:
    with pytest.raises(IllegalTurnError, match="ended by"):
        parse_taps("24/18/6/0")
