"""Position IDs: the documented bits, a round trip for reachable positions of every variant,
and a decoder that answers any text with a position or a clear error."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    CHECKERS,
    POSITION_ID_LENGTH,
    Dice,
    Game,
    GameOverError,
    InvalidPositionError,
    Position,
    Side,
    starting_position,
)
from bot.engine.position_id import ALPHABET, BITS, VARIANT_CODES

from .strategies import MODES, advance, played_positions, positions

VARIANTS = tuple(MODES)


def _bits(text: str) -> str:
    return "".join(f"{ALPHABET.index(char):06b}" for char in text)


def _id(bits: str) -> str:
    bits = bits.ljust(BITS, "0")
    return "".join(ALPHABET[int(bits[i : i + 6], 2)] for i in range(0, BITS, 6))


def _side_bits(position: Position, side: Side) -> str:
    slots = range(1, 26) if position.variant in ("short", "abkhaz") else range(1, 25)
    return "".join("1" * position.checkers(side)[slot] + "0" for slot in slots)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("long w / 24:15 / 24:15", "AAAAH__AAAA__4"),
        ("gulbara w / 24:15 / 24:15", "YAAAH__AAAA__4"),
        ("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", "IHzg-ADAfOD4AM"),
        ("abkhaz w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", "QHzg-ADAfOD4AM"),
    ],
)
def test_known_ids(text: str, expected: str) -> None:
    assert Position.from_text(text).to_id() == expected
    assert Position.from_id(expected) == Position.from_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "long w / 24:15 / 24:15",
        "crazy_gulbara b / 20:3 6:2 1:1 off:9 / 14:2 off:13",
        "short b / bar:2 20:1 6:5 2:1 off:6 / bar:1 24:2 13:5 8:3 off:4",
        "abkhaz w / off:15 / 1:15",
    ],
)
def test_the_bits_are_the_documented_ones(text: str) -> None:
    # variant (3 bits), side to move (1), white's points 1..24 (+ bar) in unary, black's, zeros
    position = Position.from_text(text)
    header = f"{VARIANT_CODES.index(position.variant):03b}" + (
        "1" if position.turn is Side.BLACK else "0"
    )
    expected = header + _side_bits(position, Side.WHITE) + _side_bits(position, Side.BLACK)
    found = position.to_id()
    assert len(found) == POSITION_ID_LENGTH == 14
    assert _bits(found) == expected.ljust(BITS, "0")
    assert set(found) <= set(ALPHABET)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS).flatmap(lambda variant: played_positions(variant)))
def test_round_trip_of_reachable_positions(played: tuple[Game, object]) -> None:
    game, _rules = played
    for position in (game.position, game.position.with_turn(game.turn.other)):
        found = position.to_id()
        assert len(found) == POSITION_ID_LENGTH
        assert Position.from_id(found) == position
        assert Position.from_id(found).to_text() == position.to_text()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["long", "short"]).flatmap(positions))
def test_round_trip_of_any_valid_position(position: Position) -> None:
    assert Position.from_id(position.to_id()) == position


def test_every_position_of_whole_games_round_trips_in_every_variant() -> None:
    for variant in VARIANTS:
        for mode in MODES[variant]:
            rng = random.Random(f"{variant} {mode}")
            game = Game.start(variant, rng, dice_mode=mode)
            seen = 0
            while not game.is_over:
                assert Position.from_id(game.position.to_id()) == game.position
                game = advance(game, rng)
                seen += 1
            assert Position.from_id(game.position.to_id()) == game.position
            assert seen > 20, (variant, mode)


def test_ids_differ_by_variant_and_side_to_move() -> None:
    found = {starting_position(v).to_id() for v in VARIANTS}
    found |= {starting_position(v).with_turn(Side.BLACK).to_id() for v in VARIANTS}
    assert len(found) == 2 * len(VARIANTS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "14 characters"),
        ("AAAAH__AAAA__", "14 characters"),
        ("AAAAH__AAAA__44", "14 characters"),
        ("AAAAH__AAAA_+4", "'+' is not a character"),
        ("AAAAH__AAAA _4", "' ' is not a character"),
        ("AAAAH__AAAA__ё", "'ё' is not a character"),
        ("/" * 14, "'/' is not a character"),
        ("oAAAH__AAAA__4", "no variant has the number 5"),
        ("_AAAH__AAAA__4", "no variant has the number 7"),
        ("AAAAP__AAAA__4", "more than 15 checkers"),  # 16 on white's 24
        ("A_____________", "more than 15 checkers"),
        ("AAAAH__AAAA__5", "left over"),
    ],
)
def test_bad_ids_are_refused_clearly(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(message)):
        Position.from_id(text)


def test_an_id_of_an_impossible_position_is_refused() -> None:
    # both colours on white's 1 (black's 13 on the long board)
    both = "000" + "0" + "1" * 15 + "0" + "0" * 23 + "0" * 12 + "1" * 15 + "0" + "0" * 11
    with pytest.raises(InvalidPositionError, match="both colours"):
        Position.from_id(_id(both))
    # on the short board the bar is each side's 25th slot
    bar = "001" + "0" + "0" * 24 + "1" * 15 + "0" + "0" * 24 + "1" * 15 + "0"
    assert Position.from_id(_id(bar)) == Position.from_text("short w / bar:15 / bar:15")


def test_ids_carry_no_bar_for_the_long_board() -> None:
    # 24 slots a side on the long board, 25 on the short one: the longest IDs need 84 bits
    long_bits = _bits(Position.from_text("long b / 1:15 / 1:15").to_id())
    assert long_bits.startswith("0001" + "1" * 15 + "0" + "0" * 23 + "1" * 15 + "0")
    assert set(long_bits[4 + 2 * 39 :]) == {"0"}


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=ALPHABET, min_size=14, max_size=14))
def test_any_string_of_id_characters_is_a_position_or_a_clear_error(text: str) -> None:
    try:
        position = Position.from_id(text)
    except InvalidPositionError as error:
        assert str(error)
    else:
        assert position.to_id() == text  # one ID per position
        for side in Side:
            assert sum(position.checkers(side)) == CHECKERS


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_any_text_is_a_position_or_a_clear_error(text: str) -> None:
    try:
        Position.from_id(text)
    except InvalidPositionError as error:
        assert str(error)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_set_up_at_a_position_rolls_for_its_side_to_move(variant: str) -> None:
    rng = random.Random(variant)
    game = Game.start(variant, rng)
    for _ in range(12):
        game = advance(game, rng)
    start = game.position.with_turn(Side.BLACK)
    set_up = Game.setup(Position.from_id(start.to_id()))
    assert set_up.position == start and set_up.needs_roll and set_up.opening is None
    assert set_up.moved == frozenset(Side)  # both have left their start
    rolled = set_up.roll(rng)
    assert rolled.turn is Side.BLACK and rolled.dice is not None
    assert rolled.legal_turns() or rolled.moves is not None


def test_a_side_still_at_its_start_gets_the_first_turn_head_exception() -> None:
    start = Position.from_text("long b / 24:14 18:1 / 24:15")
    game = Game.setup(start, rules="classic")
    assert game.moved == {Side.WHITE} and game.first_turn
    # 6-6 on the first turn: two checkers may leave the head (24/18 twice, then on)
    turns = game.with_dice(Dice(6, 6)).legal_turns()
    assert any(t.position.black[24] == 13 for t in turns)


def test_a_finished_position_cannot_be_set_up() -> None:
    with pytest.raises(GameOverError):
        Game.setup(Position.from_text("long w / off:15 / 24:15"))
