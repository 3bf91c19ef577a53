"""Which of a challenge's options its terms offer, and what a switch makes of the terms: the
rules :class:`~.challenges.Challenges` checks before a change, pure (no store, no clock)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bot.engine import DiceMode
from bot.model import TRAINING_VARIANTS, Challenge, Terms

from .choices import has_cube, has_dice_modes
from .errors import StaleAction

FIXED_BY_START: Final = frozenset({"variant", "match", "stake", "stake_mode"})
"""Options a challenge from a position does not offer: the position's variant, one game, no
stake."""
FIXED_BY_TRAINING: Final = frozenset({"match", "cube", "dice"})
"""Options a training game does not offer: it is one game of two dice without the cube."""


def check_offered(challenge: Challenge, option: str | None) -> None:
    """Nothing if ``challenge`` offers ``option`` (None: any) to its challenger.

    :raises: :exc:`StaleAction` for an option it does not offer.
    """
    computer = challenge.computer_level
    if option in ("stake", "stake_mode", "hints") and computer is not None:
        raise StaleAction()  # not offered against the computer
    if option == "level" and computer is None:
        raise StaleAction()
    if option in FIXED_BY_START and challenge.terms.start is not None:
        raise StaleAction()  # the position decides the variant; a single free game
    if option in FIXED_BY_TRAINING and challenge.terms.training:
        raise StaleAction()  # a training game: one game of two dice, no cube
    if option == "dice" and not has_dice_modes(challenge.terms.variant):
        raise StaleAction()


def switched(challenge: Challenge, option: str) -> Terms:
    """The terms with the switch ``option`` turned over: ``hints`` between people (turning
    them on drops a stake: fair play), ``training`` against the computer, ``watchable`` for a
    game between private chats, ``cube`` where the variant has one.

    :raises: :exc:`StaleAction` for a switch these terms do not offer.
    """
    terms = challenge.terms
    if option == "hints":
        terms = replace(terms, hints=not terms.hints)
        return replace(terms, stake=0) if terms.hints else terms
    if option == "training":
        if challenge.computer_level is None:
            raise StaleAction()  # judged against the computer only
        if terms.training:
            return replace(terms, training=False)
        return training_terms(replace(terms, training=True))
    if option == "watchable":
        if not challenge.in_private_chat:
            raise StaleAction()  # a group sees its board: nothing to keep private
        return replace(terms, watchable=not terms.watchable)
    if option == "cube":
        if not has_cube(terms.variant):
            raise StaleAction()  # the button is not offered for this variant
        return replace(terms, cube=not terms.cube)
    raise StaleAction()


def training_terms(terms: Terms) -> Terms:
    """``terms`` made a training game's: a single game of two dice without the cube, in a
    variant of :data:`~bot.model.TRAINING_VARIANTS` (long nardy for any other); none from a
    position of another variant."""
    if terms.start is not None and terms.start.variant not in TRAINING_VARIANTS:
        return replace(terms, training=False)
    variant = terms.variant if terms.variant in TRAINING_VARIANTS else TRAINING_VARIANTS[0]
    return replace(
        terms,
        training=True,
        variant=variant,
        rule_set=terms.rule_set if variant == terms.variant else None,
        match_length=0,
        cube=False,
        dice_mode=DiceMode.TWO,
    )
