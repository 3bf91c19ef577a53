"""Variants behind one interface, and the legal turns of a position.

A variant is a class with a ``name``, its rule sets and a ``search`` (see :class:`Variant`);
adding one (Abkhaz, gul-bara, three dice) means adding a module here and a line in
:data:`VARIANTS`, without touching the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..dice import Dice
from ..errors import InvalidPositionError
from ..moves import Turn
from ..position import Position
from .common import Board, search_turns
from .long import LongNardy
from .ruleset import Outcome, RuleSet, UnknownRuleError
from .short import ShortNardy

__all__ = [
    "Board",
    "Outcome",
    "RuleSet",
    "UnknownRuleError",
    "VARIANTS",
    "Variant",
    "find_variant",
    "legal_turns",
    "resolve_rules",
]


class Variant(Protocol):
    """The rules of one variant."""

    @property
    def name(self) -> str: ...

    @property
    def rule_sets(self) -> Mapping[str, RuleSet]: ...

    @property
    def default_rule_set(self) -> str: ...

    @property
    def switches(self) -> frozenset[str]:
        """The rule switches a request may turn (``engine-cli.md``'s ``rules`` object)."""
        ...

    def starting_position(self) -> Position: ...

    def board(
        self, position: Position, dice: Dice, *, first_turn: bool, rules: RuleSet
    ) -> Board: ...


VARIANTS: dict[str, Variant] = {"long": LongNardy(), "short": ShortNardy()}


def find_variant(name: str) -> Variant:
    """Returns the rules for ``name`` ("long" or "short").

    :raises: :exc:`InvalidPositionError` (a :exc:`ValueError`) if the variant is unknown.
    """
    try:
        return VARIANTS[name]
    except KeyError:
        raise InvalidPositionError(
            f"unknown variant {name!r} (known: {', '.join(VARIANTS)})"
        ) from None


def resolve_rules(variant: str, rules: RuleSet | str | Mapping[str, Any] | None) -> RuleSet:
    """Returns the rule set meant by ``rules``: a :class:`RuleSet` as is, a preset's name, a
    mapping of switches applied to the default preset (the CLI's ``rules`` object), or ``None``
    for the default.

    :raises: :exc:`UnknownRuleError` for an unknown preset or switch.
    """
    if isinstance(rules, RuleSet):
        return rules
    found = find_variant(variant)
    default = found.rule_sets[found.default_rule_set]
    if rules is None:
        return default
    if isinstance(rules, str):
        try:
            return found.rule_sets[rules]
        except KeyError:
            raise UnknownRuleError(
                f"unknown rule set {rules!r} for {variant} (known: {', '.join(found.rule_sets)})"
            ) from None
    return default.with_switches(dict(rules), found.switches)


def legal_turns(
    position: Position,
    dice: Dice,
    *,
    first_turn: bool = False,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
) -> tuple[Turn, ...]:
    """Returns the legal complete turns of the side to move: one per distinct resulting
    position, each with one legal step sequence, in a deterministic order.

    Every rule of the variant applies: full use of the dice and the larger die, and for long
    nardy the head rule (``first_turn`` enables its first-turn exception), the blocking rule and
    bearing off; for short nardy hits, the bar and entering. An empty tuple means a pass.

    >>> from bot.engine import Dice, Position
    >>> start = Position.from_text("long w / 24:15 / 24:15")
    >>> [str(t) for t in legal_turns(start, Dice(6, 5), first_turn=True)]
    ['24/18 18/13']
    """
    rule_set = resolve_rules(position.variant, rules)
    board = find_variant(position.variant).board(
        position, dice, first_turn=first_turn, rules=rule_set
    )
    return tuple(Turn(played, result) for played, result in search_turns(board, dice, rule_set))
