"""Rule sets: a variant's named presets of switches and its scoring table."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

from ..errors import NardyError


class UnknownRuleError(NardyError, ValueError):
    """Raised for an unknown rule set or rule switch."""


class Outcome(enum.Enum):
    """How a game ended, by the loser's position (or a resignation or timeout)."""

    OIN = "oin"  # ойн: the loser has borne off at least one checker
    MARS = "mars"  # марс: the loser has borne off none
    # кокс: long: a loser's checker still on its head; short: on the bar or in the winner's home
    KOKS = "koks"
    HOME_MARS = "home_mars"  # домашний марс: all the loser's checkers home, none borne off
    RESIGN = "resign"
    TIMEOUT = "timeout"
    DROP = "drop"  # the loser dropped an offered double


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A variant's rule switches and the points each outcome scores (times the stake).

    ``koks`` and ``home_mars`` are ``None`` where the rule set does not count them: the outcome
    then falls back to mars.

    Switches (``engine-cli.md``'s ``rules`` object; each belongs to its variant):
    ``higher_die_first`` and ``karzar_block`` (long nardy), ``three_dice`` (short and Abkhaz:
    rolls are three dice) and ``four_per_value`` (crazy gul-bara: a double's cascade has four
    moves of each value).
    """

    name: str
    higher_die_first: bool = False
    karzar_block: bool = False
    three_dice: bool = False
    four_per_value: bool = False
    oin: int = 1
    mars: int = 2
    koks: int | None = None
    home_mars: int | None = None
    resign: int = 2
    timeout: int = 2
    drop: int = 1

    def points(self, outcome: Outcome) -> int:
        """Returns the points ``outcome`` scores; an outcome the rule set does not count scores
        as mars."""
        value = getattr(self, outcome.value)
        return self.mars if value is None else int(value)

    def with_switches(self, switches: dict[str, Any], known: frozenset[str]) -> RuleSet:
        """Returns the rule set with the boolean ``switches`` (CLI ``rules`` object) applied;
        ``known`` names the switches the variant has.

        :raises: :exc:`UnknownRuleError` for an unknown switch or a non-boolean value.
        """
        changes: dict[str, bool] = {}
        for key, value in switches.items():
            if key not in known:
                raise UnknownRuleError(
                    f"unknown rule switch {key!r} (known: {', '.join(sorted(known)) or 'none'})"
                )
            if not isinstance(value, bool):
                raise UnknownRuleError(f"rule switch {key!r} takes true or false, not {value!r}")
            changes[key] = value
        if not changes:
            return self
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return RuleSet(**values)


LONG_RULE_SETS: dict[str, RuleSet] = {
    # [001]/[004]: oin 1, mars 2; resign and timeout score as a mars.
    "classic": RuleSet("classic"),
    # [000] Шеш Беш: koks 3, home mars 4, resign/timeout 4; the higher die first when bearing off.
    "sheshbesh": RuleSet(
        "sheshbesh", higher_die_first=True, koks=3, home_mars=4, resign=4, timeout=4
    ),
    # [004] Арена karzar: no six-run at all until an opponent checker has entered its home.
    "karzar": RuleSet("karzar", karzar_block=True),
}

SHORT_RULE_SETS: dict[str, RuleSet] = {
    # [003]: oin 1, mars 2, koks 3; resigning concedes a mars.
    "standard": RuleSet("standard", koks=3),
}

ABKHAZ_RULE_SETS: dict[str, RuleSet] = {
    # [003 7.6]: oin, mars, koks as in short nardy.
    "standard": RuleSet("standard", koks=3),
}

GULBARA_RULE_SETS: dict[str, RuleSet] = {
    # rules.md: results, resignation and timeout score as classic long nardy.
    "classic": RuleSet("classic"),
}

CRAZY_GULBARA_RULE_SETS: dict[str, RuleSet] = {
    "classic": RuleSet("classic"),
    # rules.md: the international Gul bara, four moves of each value of a double's cascade.
    "international": RuleSet("international", four_per_value=True),
}
