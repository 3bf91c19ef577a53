"""The one table of what a game's terms are chosen from, for every picker (a challenge's
options, ``/find``'s terms, the tournament creation picker) and every reader of words (``/play``
and inline queries): the variants, rule sets, dice modes, match lengths, move times, stakes and
their pricing, the computer's levels. A picker offers an option's choices as a short list and
takes the one tapped (:func:`offered`, :func:`chosen`); nothing cycles through them.
No Telegram here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final, TypeVar

from bot.engine import VARIANTS as VARIANTS  # every game of the rule texts, in the pickers' order
from bot.engine import DiceMode, StakeMode, find_variant
from bot.model import COMPUTER_LEVELS, TRAINING_VARIANTS, Terms

from .chips import STAKE_CHOICES

DICE_MODES: Final = tuple(DiceMode)
"""Every dice mode, two dice first (those a variant offers: :func:`dice_modes`)."""
MATCH_LENGTHS: Final = (0, 3, 5, 7, 9)
"""A single game (0) or a match to so many points."""
MOVE_TIMES: Final = (30, 60, 90, 180, 300, 3600, 43_200, 86_400, 259_200)
"""Move times, in seconds: seconds for a game played at one sitting, and 1 hour, 12 hours, 1
day and 3 days for a correspondence game, whose players are reminded when half the time for a
move is gone."""
STAKES: Final = STAKE_CHOICES
"""No stake, or the chips each game is played for (a tournament's entry too)."""
STAKE_MODES: Final = tuple(StakeMode)
LEVELS: Final = tuple(COMPUTER_LEVELS)
"""The computer's levels, 1 (a beginner) to 5."""
DEFAULT_LEVEL: Final = 3
"""The computer's level when the challenger names none: a fair game for most people."""

OPTIONS: Final = ("variant", "rules", "dice", "match", "time", "stake", "stake_mode", "level")
"""The options picked from a list of choices (the others are switched on and off)."""


_T = TypeVar("_T")


def per_variant(table: Mapping[str, _T], what: str) -> dict[str, _T]:
    """``table``, something of each variant by its name, in the registry's order.

    :raises: :exc:`RuntimeError` when a variant of the registry has no entry in it, or it
        names a variant the registry lacks: a variant added without its words (its name, its
        rules) fails where the table is made, at import.
    """
    missing, unknown = set(VARIANTS) - set(table), set(table) - set(VARIANTS)
    if missing or unknown:
        raise RuntimeError(f"{what}: no entry for {sorted(missing)}; unknown {sorted(unknown)}")
    return {name: table[name] for name in VARIANTS}


def dice_modes(variant: str) -> tuple[DiceMode, ...]:
    """The dice modes ``variant`` is played with, two dice first (the registry's)."""
    return tuple(find_variant(variant).dice_modes)


def has_dice_modes(variant: str) -> bool:
    """Whether ``variant`` offers a choice of dice modes (short and Abkhaz nardy)."""
    return len(dice_modes(variant)) > 1


def has_cube(variant: str) -> bool:
    """Whether ``variant`` is played with the doubling cube when the players want it."""
    return bool(find_variant(variant).has_cube)


def rule_sets(variant: str) -> tuple[str, ...]:
    """The rule sets of ``variant``, its default first."""
    return tuple(find_variant(variant).rule_sets)


def move_times(current: int) -> tuple[int, ...]:
    """The move times offered where ``current`` is chosen: :data:`MOVE_TIMES`, with
    ``current`` among them (the bot's configured default may be none of them)."""
    return tuple(sorted({*MOVE_TIMES, current}))


def offered(option: str, terms: Terms, move_seconds: int) -> tuple[object, ...]:
    """The choices of ``option`` (one of :data:`OPTIONS`) for ``terms``, whose move time is
    ``move_seconds``, in the order a picker lists them (a training game's variants are
    :data:`~bot.model.TRAINING_VARIANTS`); () for an option these terms do not have (dice
    modes of a long variant).

    :raises: :exc:`ValueError` for an option that is no list of choices.
    """
    lists: dict[str, tuple[object, ...]] = {
        "variant": TRAINING_VARIANTS if terms.training else VARIANTS,
        "rules": rule_sets(terms.variant),
        "dice": dice_modes(terms.variant) if has_dice_modes(terms.variant) else (),
        "match": MATCH_LENGTHS,
        "time": move_times(move_seconds),
        "stake": STAKES,
        "stake_mode": STAKE_MODES,
        "level": LEVELS,
    }
    if option not in lists:
        raise ValueError(f"{option!r} is no list of choices")
    return lists[option]


def current(option: str, terms: Terms, move_seconds: int, level: int | None = None) -> object:
    """The choice of ``option`` (one of :data:`OPTIONS`) that ``terms`` (their move time
    ``move_seconds``, against the computer at ``level``) have now."""
    return {
        "variant": terms.variant,
        "rules": terms.rules.name,
        "dice": terms.dice_mode,
        "match": terms.match_length,
        "time": move_seconds,
        "stake": terms.stake,
        "stake_mode": terms.stake_mode,
        "level": level,
    }[option]


def fitted(terms: Terms) -> Terms:
    """``terms`` without what their variant lacks: the cube only where it has one, a dice mode
    only among those it is played with (else two dice)."""
    modes = dice_modes(terms.variant)
    return replace(
        terms,
        cube=terms.cube and has_cube(terms.variant),
        dice_mode=terms.dice_mode if terms.dice_mode in modes else modes[0],
    )


def with_variant(terms: Terms, variant: str) -> Terms:
    """``terms`` for ``variant``: its default rule set, the cube only where it has one, a dice
    mode only where it has them (:func:`fitted`)."""
    return fitted(replace(terms, variant=variant, rule_set=rule_sets(variant)[0]))


def chosen(option: str, terms: Terms, move_seconds: int, index: int) -> Terms:
    """``terms`` with ``option`` set to its ``index``-th choice (see :func:`offered`); the
    computer's level is no term (the caller reads it from :func:`offered`).

    :raises: :exc:`ValueError` for an option or an index that is none of the choices.
    """
    values = offered(option, terms, move_seconds)
    if not 0 <= index < len(values):
        raise ValueError(f"{option} has no choice {index}")
    value = values[index]
    if option == "variant":
        assert isinstance(value, str)
        return with_variant(terms, value)
    fields = {
        "rules": "rule_set",
        "dice": "dice_mode",
        "match": "match_length",
        "time": "move_seconds",
        "stake": "stake",
        "stake_mode": "stake_mode",
    }
    if option not in fields:
        return terms
    changed: dict[str, Any] = {fields[option]: value}
    return replace(terms, **changed)
