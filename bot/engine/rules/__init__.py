"""Variants behind one interface, and the legal turns of a position.

A variant is a class with a ``name``, its rule sets, the moves a roll gives and a search board
(see :class:`Variant`); each lives in a module of its own, and adding one means adding a module
here and a line in :data:`REGISTRY`, without touching the others. The new variants reuse the
old ones' movement by composition: Abkhaz nardy wraps short nardy's board, the gul-bara variants
play on long nardy's.

:class:`~.plan.TurnPlan` (step-by-step input's search) is imported from :mod:`.plan`, not from
here: ``python -m bot.engine turns`` loads this package at its start and has no use for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..dice import Dice, DiceMode, MoveList
from ..errors import InvalidPositionError
from ..moves import Played, Turn, make_turns
from ..position import Position
from ..types import Family
from .abkhaz import AbkhazBoard, AbkhazNardy
from .common import SearchBoard, played_rank, search_turns
from .crazy_gulbara import CrazyGulBara, cascade
from .gulbara import GulBara
from .long import LongNardy
from .ruleset import Outcome, RuleSet, UnknownRuleError
from .short import ShortNardy

__all__ = [
    "SearchBoard",
    "Outcome",
    "RuleSet",
    "UnknownRuleError",
    "REGISTRY",
    "Variant",
    "cascade",
    "find_variant",
    "legal_turns",
    "played_rank",
    "remainder_turns",
    "resolve_rules",
    "turns_for",
]


class Variant(Protocol):
    """The rules of one variant."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> Family:
        """The board it is played on (:class:`~bot.engine.types.Family`): the numbering and
        the scoring follow it."""
        ...

    @property
    def rule_sets(self) -> Mapping[str, RuleSet]: ...

    @property
    def default_rule_set(self) -> str: ...

    @property
    def switches(self) -> frozenset[str]:
        """The rule switches a request may turn (``engine-cli.md``'s ``rules`` object)."""
        ...

    @property
    def has_cube(self) -> bool:
        """Whether games of the variant may be played with the doubling cube."""
        ...

    @property
    def dice_modes(self) -> tuple[DiceMode, ...]:
        """The dice modes games of the variant may be played with, two dice first (the
        default); a variant with only ``TWO`` offers no choice."""
        ...

    @property
    def chains(self) -> bool:
        """Whether a double played in full rolls again (gul-bara)."""
        ...

    def starting_position(self) -> Position: ...

    def move_list(self, dice: Dice, rules: RuleSet) -> MoveList:
        """The moves ``dice`` give (a double's four, crazy gul-bara's cascade, three dice).

        :raises: :exc:`~bot.engine.errors.InvalidDiceError` for dice the variant and rule set
            do not roll (three dice without ``three_dice``, say).
        """
        ...

    def board(
        self, position: Position, moves: MoveList | Dice, *, first_turn: bool, rules: RuleSet
    ) -> SearchBoard: ...


REGISTRY: dict[str, Variant] = {
    "long": LongNardy(),
    "short": ShortNardy(),
    "abkhaz": AbkhazNardy(),
    "gulbara": GulBara(),
    "crazy_gulbara": CrazyGulBara(),
}
"""Every variant by its name, in the order the bot offers them: long nardy first (the game a
challenge plays when it names none), then short nardy, Abkhaz nardy, gul-bara and crazy
gul-bara. The names are those of :data:`bot.engine.position.VARIANTS`, in the same order."""


def find_variant(name: str) -> Variant:
    """Returns the rules for ``name`` (a key of :data:`REGISTRY`).

    :raises: :exc:`InvalidPositionError` (a :exc:`ValueError`) if the variant is unknown.
    """
    try:
        return REGISTRY[name]
    except KeyError:
        raise InvalidPositionError(
            f"unknown variant {name!r} (known: {', '.join(REGISTRY)})"
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
    bearing off; for short nardy hits, the bar and entering; Abkhaz nardy's home-hit
    restrictions; crazy gul-bara's cascade. In the gul-bara variants each turn's
    :attr:`~bot.engine.moves.Turn.remainder` holds the moves it did not play. An empty tuple
    means a pass (in gul-bara the whole roll is then the remainder).

    >>> from bot.engine import Dice, Position
    >>> start = Position.from_text("long w / 24:15 / 24:15")
    >>> [str(t) for t in legal_turns(start, Dice(6, 5), first_turn=True)]
    ['24/18 18/13']

    :raises: :exc:`~bot.engine.errors.InvalidDiceError` for dice the variant does not roll.
    """
    rule_set = resolve_rules(position.variant, rules)
    variant = find_variant(position.variant)
    moves = variant.move_list(dice, rule_set)
    return _turns(variant, position, moves, first_turn, rule_set)


def remainder_turns(
    position: Position,
    remainder: tuple[int, ...],
    *,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
) -> tuple[Turn, ...]:
    """Returns the legal turns that play a gul-bara ``remainder`` (the moves the opponent could
    not play, in order): the longest beginning of the list the side can play, one turn per
    distinct position; what is left is lost, so every turn's remainder is empty.

    >>> from bot.engine import Position
    >>> after = Position.from_text("gulbara b / 24:14 19:1 / 24:15")
    >>> [str(t) for t in remainder_turns(after, (6, 5))]
    ['24/18 18/13']
    """
    rule_set = resolve_rules(position.variant, rules)
    return turns_for(position, MoveList.remainder(remainder), first_turn=False, rules=rule_set)


def turns_for(
    position: Position, moves: MoveList, *, first_turn: bool, rules: RuleSet
) -> tuple[Turn, ...]:
    """Returns the legal turns that play ``moves`` (see :func:`legal_turns`)."""
    return _turns(find_variant(position.variant), position, moves, first_turn, rules)


def _turns(
    variant: Variant, position: Position, moves: MoveList, first_turn: bool, rules: RuleSet
) -> tuple[Turn, ...]:
    board = variant.board(position, moves, first_turn=first_turn, rules=rules)
    found = search_turns(board, moves, rules)
    if isinstance(board, AbkhazBoard):
        # its states hold the hitters too: two of them may be one position, listed once
        unique: dict[Position, tuple[Played, ...]] = {}
        for played, result in found:
            unique.setdefault(result, played)
        found = [(played, result) for result, played in unique.items()]
    if not moves.hands_on:
        return make_turns(found, None)
    left = moves.left_after
    return make_turns(found, [left(tuple(p.die for p in played)) for played, _ in found])
