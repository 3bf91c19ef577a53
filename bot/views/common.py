"""What every view shares: the names of variants, rules, dice modes and outcomes (translated
where they are shown), the players' names, durations and moments, and ``_`` outside a handler."""

from __future__ import annotations

import datetime as dt
from typing import Final, Protocol

from aiogram.utils.i18n import I18n

from bot.engine import DiceMode, Outcome, Side, StakeMode
from bot.i18n import N_
from bot.model import User
from bot.views.texts import echo


class Translate(Protocol):
    """A gettext: ``_`` of the reader's locale. ``_(msgid)`` translates a text;
    ``_(singular, plural, n)`` one that shows the count ``n``, in the catalog's plural form for
    it (see :mod:`bot.i18n`). aiogram's ``gettext`` (a handler's locale) is one;
    :func:`translator` makes one for a locale outside a handler."""

    def __call__(self, message: str, plural: str | None = None, n: int = 1, /) -> str: ...


OUTCOME_NAMES: Final = {
    Outcome.OIN: N_("oin"),
    Outcome.MARS: N_("mars"),
    Outcome.KOKS: N_("koks"),
    Outcome.HOME_MARS: N_("home mars"),
    Outcome.RESIGN: N_("resignation"),
    Outcome.TIMEOUT: N_("time ran out"),
    Outcome.DROP: N_("double dropped"),
}
VARIANT_NAMES: Final = {
    "long": N_("long nardy"),
    "short": N_("short nardy"),
    "abkhaz": N_("Abkhaz nardy"),
    "gulbara": N_("gul-bara"),
    "crazy_gulbara": N_("crazy gul-bara"),
}
"""Each variant's name, by its name in the engine's registry (which orders them)."""
RULE_SET_NAMES: Final = {
    "classic": N_("classic"),
    "sheshbesh": N_("Shesh Besh"),
    "karzar": N_("karzar"),
    "standard": N_("standard"),
    "international": N_("international (four of each)"),
}
"""Each rule set's name, by its name in the variants' rule sets (several variants share one)."""
DICE_MODE_NAMES: Final = {
    DiceMode.TWO: N_("two dice"),
    DiceMode.THREE: N_("three dice"),
    DiceMode.ANTI_THREE: N_("anti three dice"),
}
"""Each dice mode's name (the modes a variant offers are its ``dice_modes``)."""
STAKE_MODE_NAMES: Final = {
    StakeMode.RULES: N_("by the rules"),
    StakeMode.AMATEUR: N_("amateur"),
    StakeMode.PRO: N_("PRO"),
}
SIDE_MARKS: Final = {Side.WHITE: "⚪", Side.BLACK: "⚫"}


class Translator:
    """``_`` for one locale, outside a handler's context (see :func:`translator`); its
    :attr:`locale` tells :mod:`bot.views.numbers` how the reader writes numbers."""

    __slots__ = ("i18n", "locale")

    def __init__(self, i18n: I18n, locale: str) -> None:
        self.i18n = i18n
        self.locale = locale

    def __call__(self, message: str, plural: str | None = None, n: int = 1, /) -> str:
        return self.i18n.gettext(message, plural, n, locale=self.locale)


def translator(i18n: I18n, locale: str) -> Translator:
    """Returns ``_`` for ``locale``: gettext outside a handler's context."""
    return Translator(i18n, locale)


def player_name(user: User) -> str:
    """How a player is named in captions: @username, else the first name (as
    :func:`bot.views.texts.echo` shows a user's text: escaped, isolated when right-to-left); the
    computer as 🤖 and its level in stars."""
    name = echo(user.mention)
    return f"🤖 {name}" if user.computer_level is not None else name


def duration(seconds: int, _: Translate) -> str:
    """A move time in its largest whole unit: ``90 s``, ``5 min``, ``12 h``, ``3 d``."""
    if seconds % 86_400 == 0:
        return _("{n} d").format(n=seconds // 86_400)
    if seconds % 3600 == 0:
        return _("{n} h").format(n=seconds // 3600)
    if seconds % 60 == 0 and seconds > 300:
        return _("{n} min").format(n=seconds // 60)
    return _("{n} s").format(n=seconds)


def moment(at: float, move_seconds: int) -> str:
    """A deadline, in UTC: the time of day for a game played at one sitting, the date too for
    a correspondence game (a move time of an hour or more)."""
    form = "%Y-%m-%d %H:%M" if move_seconds >= 3600 else "%H:%M:%S"
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime(form)
