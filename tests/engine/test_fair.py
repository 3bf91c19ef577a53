"""Provably fair dice (bot/engine/fair.py): the derivation's known answers, the rejection of
bytes 252..255, uniformity over a million dice, and the roll log of a game's start."""

from __future__ import annotations

import doctest
import hashlib
import hmac
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    Dice,
    DiceMode,
    FairDice,
    FairDiceError,
    Roll,
    Side,
    commitment,
    derive_die,
    fair,
)
from bot.engine.fair import ACCEPT_BELOW, CLIENT_VALUE, die_message, face

# Known answers, computed once with the formula and nothing else:
#   digest = hmac.new(SEED, f"{CLIENT}:{n}:0".encode(), hashlib.sha256).digest()
#   die    = first byte b of digest with b < 252, then b % 6 + 1
# Die 0's digest begins de 51 56: 0xde = 222, 222 % 6 + 1 = 1. Die 9's begins ff bd 00: 0xff is
# rejected, 0xbd = 189 gives 4. Die 5039's begins ff fd e9: two rejected, 0xe9 = 233 gives 6.
SEED = bytes(range(32))
CLIENT = "4242"
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
FIRST_DICE = [1, 6, 2, 5, 5, 4, 6, 5, 2, 4, 1, 5]
REJECTED = {9: ("ffbd", 4), 5039: ("fffde9", 6)}


def _digest(seed: bytes, client: str, n: int, attempt: int = 0) -> bytes:
    return hmac.new(seed, f"{client}:{n}:{attempt}".encode(), hashlib.sha256).digest()


def test_known_answers() -> None:
    assert commitment(SEED) == COMMITMENT == hashlib.sha256(SEED).hexdigest()
    assert [derive_die(SEED, CLIENT, n) for n in range(12)] == FIRST_DICE
    dice = FairDice(SEED, CLIENT)
    assert [dice.randint(1, 6) for _ in range(12)] == FIRST_DICE
    assert dice.count == 12 and dice.commitment == COMMITMENT
    assert die_message(CLIENT, 9) == b"4242:9:0" and die_message("x", 0, 1) == b"x:0:1"


@pytest.mark.parametrize(("number", "expected"), sorted(REJECTED.items()))
def test_bytes_from_252_up_are_rejected(number: int, expected: tuple[str, int]) -> None:
    start, value = expected
    digest = _digest(SEED, CLIENT, number)
    assert digest.hex().startswith(start)
    assert derive_die(SEED, CLIENT, number) == value
    accepted = next(b for b in digest if b < ACCEPT_BELOW)
    assert digest[0] >= ACCEPT_BELOW and value == accepted % 6 + 1


def test_each_face_comes_from_exactly_42_byte_values() -> None:
    faces = Counter(face([bytes([b])]) for b in range(ACCEPT_BELOW))
    assert faces == dict.fromkeys(range(1, 7), 42)
    # a digest whose every byte is rejected: the die reads the next one (attempt 1)
    assert face([bytes([252, 253, 254, 255] * 8), bytes([255, 11])]) == 11 % 6 + 1
    for rejected in range(ACCEPT_BELOW, 256):
        with pytest.raises(FairDiceError):
            face([bytes([rejected] * 32)])


def test_a_million_dice_are_uniform_and_doubles_one_in_six() -> None:
    """Bounds a correct derivation meets with overwhelming probability: each face's count
    within 6 standard deviations of n/6 (a failure chance of 2e-9 a face), chi-square below
    50 (p = 1.3e-9 with 5 degrees of freedom), doubles among the 500,000 pairs (dice 2i and
    2i + 1) within 6 standard deviations of one in six."""
    seed, client = hashlib.sha256(b"uniformity").digest(), "7301442855912344781"
    total = 1_000_000
    dice = [derive_die(seed, client, n) for n in range(total)]
    counts = Counter(dice)
    expected = total / 6
    sigma = math.sqrt(total * (1 / 6) * (5 / 6))
    worst = max(abs(counts[f] - expected) for f in range(1, 7))
    assert set(counts) == set(range(1, 7))
    assert worst < 6 * sigma, (counts, worst / sigma)
    chi_square = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi_square < 50, chi_square
    pairs = total // 2
    doubles = sum(dice[2 * i] == dice[2 * i + 1] for i in range(pairs))
    assert abs(doubles - pairs / 6) < 6 * math.sqrt(pairs * (1 / 6) * (5 / 6)), doubles


def test_one_die_in_64_needs_a_second_byte() -> None:
    """4 of 256 first bytes are rejected: among 100,000 dice about 1,562 (sd 39.2) read on,
    and each of them is the next accepted byte."""
    seed, client = hashlib.sha256(b"rejections").digest(), "made-0011223344556677"
    rejected = [n for n in range(100_000) if _digest(seed, client, n)[0] >= ACCEPT_BELOW]
    assert abs(len(rejected) - 100_000 * 4 / 256) < 6 * 39.2, len(rejected)
    for n in rejected[:200]:
        accepted = next(b for b in _digest(seed, client, n) if b < ACCEPT_BELOW)
        assert derive_die(seed, client, n) == accepted % 6 + 1


@pytest.mark.parametrize("client", ["", "two words", "é", "x" * 129, "tab\there", "new\nline"])
def test_a_client_value_is_printable_ascii_without_spaces(client: str) -> None:
    assert not CLIENT_VALUE.fullmatch(client)
    with pytest.raises(FairDiceError):
        FairDice(SEED, client)


def test_bad_seeds_counts_and_ranges_are_refused_and_the_seed_never_shows() -> None:
    for seed in (b"", bytes(31), bytes(33)):
        with pytest.raises(FairDiceError):
            FairDice(seed, CLIENT)
    with pytest.raises(FairDiceError):
        FairDice(SEED, CLIENT, -1)
    dice = FairDice(SEED, CLIENT)
    with pytest.raises(FairDiceError):
        dice.randint(1, 7)
    assert dice.count == 0  # a refused call rolled nothing
    shown = repr(dice) + str(dice)
    assert SEED.hex() not in shown and COMMITMENT in shown


@pytest.mark.parametrize(
    ("text", "roll"),
    [
        ("0 w 5", Roll(0, Side.WHITE, (5,))),
        ("4 b 5-2", Roll(4, Side.BLACK, (5, 2))),
        ("120 w 6-3-5", Roll(120, Side.WHITE, (6, 3, 5))),
    ],
)
def test_roll_text_round_trips(text: str, roll: Roll) -> None:
    assert Roll.from_text(text) == roll and roll.to_text() == text
    assert roll.end == roll.number + len(roll.values)


@pytest.mark.parametrize("text", ["", "w 5-2", "4 x 5-2", "4 w 7-2", "4 w 5-2-1-3", "-1 w 5"])
def test_malformed_rolls_are_refused(text: str) -> None:
    with pytest.raises(FairDiceError):
        Roll.from_text(text)


VARIANTS = [
    ("long", DiceMode.TWO),
    ("gulbara", DiceMode.TWO),
    ("crazy_gulbara", DiceMode.TWO),
    ("short", DiceMode.TWO),
    ("abkhaz", DiceMode.THREE),
    ("short", DiceMode.ANTI_THREE),
]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    client=st.from_regex(CLIENT_VALUE, fullmatch=True),
    kind=st.sampled_from(VARIANTS),
)
def test_the_start_logs_every_die_it_rolls(
    seed: bytes, client: str, kind: tuple[str, DiceMode]
) -> None:
    variant, mode = kind
    dice = FairDice(seed, client)
    game, rolls = dice.start(variant, dice_mode=mode)
    drawn = [derive_die(seed, client, n) for n in range(dice.count)]
    assert [v for roll in rolls for v in roll.values] == drawn
    assert [roll.number for roll in rolls] == [0, *(r.end for r in rolls[:-1])]
    index = 0
    while True:  # white's die and black's, again while they are equal
        white, black = rolls[index], rolls[index + 1]
        assert (white.side, black.side) == (Side.WHITE, Side.BLACK)
        assert len(white.values) == len(black.values) == 1
        index += 2
        if white.values != black.values:
            break
    assert game.opening == (white.values[0], black.values[0])
    extra = rolls[index:]
    if variant in ("long", "gulbara", "crazy_gulbara"):
        [first] = extra
        assert first.side is game.turn and game.dice == Dice(*first.values)
    elif mode is DiceMode.THREE:
        [third] = extra
        assert third.side is game.turn and game.dice is not None
        assert game.dice.third == third.values[0]
    else:
        assert extra == ()


@settings(max_examples=40, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), split=st.integers(0, 40))
def test_dice_go_on_where_they_stopped(seed: bytes, split: int) -> None:
    """A game read back from storage makes its dice from the count it reached: the same dice
    as if the bot had never stopped."""
    once = FairDice(seed, CLIENT)
    straight = [once.randint(1, 6) for _ in range(50)]
    again = FairDice(seed, CLIENT, split)
    assert [again.randint(1, 6) for _ in range(50 - split)] == straight[split:]


def test_roll_records_the_dice_and_who_rolled() -> None:
    dice = FairDice(SEED, CLIENT)
    game, rolls = dice.start("long")
    after = game.play(game.legal_turns()[0])
    rolled, roll = dice.roll(after)
    assert roll.number == rolls[-1].end and roll.side is after.turn
    assert rolled.dice == Dice(*roll.values) == Dice(*FIRST_DICE[roll.number : roll.end])


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(fair).failed == 0
