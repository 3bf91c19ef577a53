"""How every picker offers a choice (the challenge's options, ``/find``'s terms, the tournament
creation picker): an option's button names its current choice; a tap on it shows that
option's choices as a short list, the current one marked, and a tap on one picks it (↩ Back
keeps it as it was). One tap from the list, never a cycle through the choices. The choices
come from one table (:mod:`bot.services.choices`); each picker writes its buttons' data its
own way (a challenge's terms are stored, ``/find``'s and a tournament picker's travel in its
buttons), and this module draws them all alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from aiogram.types import InlineKeyboardButton

from bot.ai import level as computer_level
from bot.engine import DiceMode, StakeMode
from bot.i18n import N_
from bot.views.common import (
    DICE_MODE_NAMES,
    RULE_SET_NAMES,
    STAKE_MODE_NAMES,
    VARIANT_NAMES,
    Translate,
    duration,
)

T = TypeVar("T")

EMOJI: Final = {
    "variant": "🎲",
    "rules": "📜",
    "dice": "🎲",
    "match": "🏁",
    "time": "⏱",
    "stake": "💰",
    "stake_mode": "⚖",
    "level": "🤖",
}
"""Each option's mark, on its button and in its list's heading."""

LEVEL_WORDS: Final = {
    1: N_("beginner: errs often"),
    2: N_("casual: errs now and then"),
    3: N_("club player: a fair game"),
    4: N_("strong: rarely errs"),
    5: N_("expert: looks a roll ahead"),
}
"""What each of the computer's levels is like, in words (its rating is shown beside)."""

PER_ROW: Final = 2
CURRENT: Final = "✓ "
BACK: Final = "↩ "


def match_name(length: int, _: Translate) -> str:
    return _("match to {length}").format(length=length) if length else _("single game")


def stake_name(stake: int, _: Translate) -> str:
    return _("stake {stake}").format(stake=stake) if stake else _("no stake")


def level_name(level: int, _: Translate) -> str:
    """``level 1 · beginner: errs often (1030)``: the level, its strength in words, its
    rating."""
    return _("level {level} · {words} ({rating})").format(
        level=level, words=_(LEVEL_WORDS[level]), rating=computer_level(level).rating
    )


def choice_name(option: str, value: object, _: Translate) -> str:
    """How a choice of ``option`` (one of :data:`bot.services.choices.OPTIONS`) is named."""
    if option == "variant":
        return _(VARIANT_NAMES[str(value)])
    if option == "rules":
        return _(RULE_SET_NAMES[str(value)])
    if option == "dice":
        assert isinstance(value, DiceMode)
        return _(DICE_MODE_NAMES[value])
    if option == "stake_mode":
        assert isinstance(value, StakeMode)
        return _(STAKE_MODE_NAMES[value])
    assert isinstance(value, int)
    if option == "match":
        return match_name(value, _)
    if option == "time":
        return duration(value, _)
    if option == "stake":
        return stake_name(value, _)
    if option == "level":
        return level_name(value, _)
    raise ValueError(f"{option!r} is no list of choices")


def option_text(option: str, value: object, _: Translate) -> str:
    """An option's button: its mark and its current choice (``🏁 single game``)."""
    return f"{EMOJI[option]} {choice_name(option, value, _)}"


def choice_rows(
    values: Sequence[T],
    current: T,
    name: Callable[[T], str],
    data: Callable[[int], str],
    back: str,
    _: Translate,
    *,
    per_row: int = PER_ROW,
) -> list[list[InlineKeyboardButton]]:
    """An option's choices as buttons, :data:`PER_ROW` a row, the ``current`` one marked, each
    with ``data`` of its index, then ↩ Back (``back``)."""
    buttons = [
        InlineKeyboardButton(
            text=(CURRENT if value == current else "") + name(value), callback_data=data(index)
        )
        for index, value in enumerate(values)
    ]
    rows = [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]
    rows.append([InlineKeyboardButton(text=BACK + _("Back"), callback_data=back)])
    return rows
