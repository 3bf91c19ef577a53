"""The registry of variants (:data:`bot.engine.REGISTRY`): what the bot reads of each variant
(its name, family, rule sets, dice modes, cube) agrees with the position format and the
games the engine plays."""

from __future__ import annotations

import random

import pytest

from bot.engine import REGISTRY, DiceMode, Family, Game, InvalidDiceError, find_variant
from bot.engine.position import FAMILY
from bot.engine.position import VARIANTS as POSITION_VARIANTS
from bot.engine.position_id import VARIANT_CODES


def test_the_registry_knows_the_variants_of_the_position_format_in_its_order() -> None:
    assert tuple(REGISTRY) == POSITION_VARIANTS
    assert tuple(REGISTRY) == ("long", "short", "abkhaz", "gulbara", "crazy_gulbara")
    assert set(VARIANT_CODES) == set(REGISTRY)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_each_variant_says_what_it_offers(name: str) -> None:
    variant = find_variant(name)
    assert variant.name == name
    assert variant.family is FAMILY[name]
    assert isinstance(variant.family, Family)
    assert variant.default_rule_set in variant.rule_sets
    assert all(rules.name == key for key, rules in variant.rule_sets.items())
    assert variant.dice_modes[0] is DiceMode.TWO
    assert len(set(variant.dice_modes)) == len(variant.dice_modes)


def test_the_short_family_offers_every_dice_mode_and_the_long_family_two_dice() -> None:
    for name, variant in REGISTRY.items():
        expected = tuple(DiceMode) if variant.family is Family.SHORT else (DiceMode.TWO,)
        assert variant.dice_modes == expected, name


@pytest.mark.parametrize("name", list(REGISTRY))
def test_a_game_starts_in_just_the_dice_modes_its_variant_offers(name: str) -> None:
    offered = find_variant(name).dice_modes
    for mode in DiceMode:
        if mode in offered:
            assert Game.start(name, random.Random(1), dice_mode=mode).dice_mode is mode
        else:
            with pytest.raises(InvalidDiceError):
                Game.start(name, random.Random(1), dice_mode=mode)


def test_a_family_is_also_its_name() -> None:
    assert Family.LONG == "long" and Family("short") is Family.SHORT  # type: ignore[comparison-overlap]  # a family is its string
    assert f"{Family.LONG}.npz" == "long.npz"
