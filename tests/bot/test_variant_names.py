"""The bot's lists of variants come from the engine's registry: the views can name every
variant, rule set and dice mode the registry has, the words of ``/play``, ``/rules`` and inline
queries reach every variant, and the order the buttons cycle is the registry's."""

from __future__ import annotations

from bot.engine import REGISTRY, VARIANTS, DiceMode
from bot.services import Terms, choices
from bot.services.choices import has_cube, has_dice_modes, rule_sets
from bot.views.commands import COMMANDS
from bot.views.common import DICE_MODE_NAMES, RULE_SET_NAMES, VARIANT_NAMES
from bot.views.inline import VARIANT_QUERY_WORDS
from bot.views.texts import RULES, VARIANT_WORDS


def test_the_choices_follow_the_registry_in_its_order() -> None:
    assert tuple(VARIANTS) == choices.VARIANTS
    assert choices.VARIANTS == ("long", "short", "abkhaz", "gulbara", "crazy_gulbara")
    assert choices.VARIANTS[0] == Terms().variant  # the first is what no word asks for
    for name, variant in REGISTRY.items():
        assert rule_sets(name) == tuple(variant.rule_sets)
        assert has_cube(name) is variant.has_cube
        assert has_dice_modes(name) is (len(variant.dice_modes) > 1)
    assert [v for v in VARIANTS if has_dice_modes(v)] == ["short", "abkhaz"]


def test_the_views_name_every_variant_rule_set_and_dice_mode_of_the_registry() -> None:
    assert set(VARIANT_NAMES) == set(VARIANTS)
    rule_sets = {rules for variant in REGISTRY.values() for rules in variant.rule_sets}
    assert set(RULE_SET_NAMES) == rule_sets
    modes = {mode for variant in REGISTRY.values() for mode in variant.dice_modes}
    assert modes == set(DiceMode) == set(DICE_MODE_NAMES)


def test_every_variant_has_its_rules() -> None:
    assert set(RULES) == {*VARIANTS, "results", "dice", "cube"}


def test_the_words_reach_every_variant() -> None:
    assert set(VARIANT_WORDS.values()) == set(choices.VARIANTS[1:])
    for name in choices.VARIANTS[1:]:
        assert VARIANT_WORDS[name] == name
    assert choices.VARIANTS[0] not in VARIANT_WORDS  # long nardy: what no word names
    assert {VARIANT_WORDS[word] for word in VARIANT_QUERY_WORDS.values()} == set(
        choices.VARIANTS[1:]
    )
    assert all(VARIANT_WORDS[word] == name for name, word in VARIANT_QUERY_WORDS.items())


def test_the_rules_command_lists_every_variant_with_a_word() -> None:
    description = next(c.description for c in COMMANDS if c.name == "rules")
    assert description == "Rules: /rules " + ", ".join(choices.VARIANTS[1:])


def test_a_table_by_variant_fails_without_a_variant_of_the_registry() -> None:
    names = {name: name.upper() for name in VARIANTS}
    assert list(choices.per_variant(dict(reversed(names.items())), "names")) == list(VARIANTS)
    for broken in ({k: v for k, v in names.items() if k != "abkhaz"}, {**names, "tavla": "T"}):
        try:
            choices.per_variant(broken, "names")
        except RuntimeError as error:
            assert "names" in str(error)
        else:
            raise AssertionError("a table without a variant was taken")
