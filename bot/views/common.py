"""What every view shares: the names of variants, rules, dice modes and outcomes (translated
where they are shown), the players' names, durations and moments, and ``_`` outside a handler."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Final

from aiogram.utils.i18n import I18n

from bot.engine import DiceMode, Outcome, Side, StakeMode
from bot.i18n import N_
from bot.model import User
from bot.views.texts import echo

Translate = Callable[[str], str]
"""A gettext: ``_`` of the reader's locale."""

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


def translator(i18n: I18n, locale: str) -> Translate:
    """Returns ``_`` for ``locale``: gettext outside a handler's context."""

    def translate(message: str) -> str:
        return i18n.gettext(message, locale=locale)

    return translate


def player_name(user: User, _: Translate) -> str:
    """How a player is named in captions: @username, else the first name (as
    :func:`bot.views.texts.echo` shows a user's text: escaped, isolated when right-to-left); the
    computer as 🤖 and its level in stars; a user who asked to be forgotten as "deleted
    player"."""
    if user.forgotten:
        return _(DELETED_PLAYER)
    name = echo(user.mention)
    return f"🤖 {name}" if user.computer_level is not None else name


DELETED_PLAYER: Final = N_("deleted player")
"""How a user who asked to be forgotten (``/forget``) is named, wherever they played."""


def mention(user: User, _: Translate) -> str:
    """A player's name as plain text (a picture's, a chart's): ``@username``, else the first
    name; "deleted player" for a user who asked to be forgotten."""
    return _(DELETED_PLAYER) if user.forgotten else user.mention


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
