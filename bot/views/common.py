"""What every view shares: the names of variants, rules, dice modes and outcomes (translated
where they are shown), the players' names, durations and moments, and ``_`` outside a handler."""

from __future__ import annotations

import datetime as dt
from typing import Final

from aiogram.utils.i18n import I18n

from bot.engine import DiceMode, Outcome, Side, StakeMode
from bot.i18n import N_
from bot.i18n import Translate as Translate  # every view's name for a gettext
from bot.model import COMPUTER_LEVELS, User
from bot.services.choices import per_variant
from bot.views.texts import echo

OUTCOME_NAMES: Final = {
    Outcome.OIN: N_("oin"),
    Outcome.MARS: N_("mars"),
    Outcome.KOKS: N_("koks"),
    Outcome.HOME_MARS: N_("home mars"),
    Outcome.RESIGN: N_("resignation"),
    Outcome.TIMEOUT: N_("time ran out"),
    Outcome.DROP: N_("double dropped"),
}
VARIANT_NAMES: Final = per_variant(
    {
        "long": N_("long nardy"),
        "short": N_("short nardy"),
        "abkhaz": N_("Abkhaz nardy"),
        "gulbara": N_("gul-bara"),
        "crazy_gulbara": N_("crazy gul-bara"),
    },
    "VARIANT_NAMES",
)
"""Each variant's name, by its name in the engine's registry, in its order (a variant of the
registry without one fails at import)."""
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


def player_name(user: User, _: Translate) -> str:
    """How a player is named in captions: @username, else the first name (as
    :func:`bot.views.texts.echo` shows a user's text: escaped, isolated when right-to-left); the
    computer as 🤖, the reader's word for it and its level in stars; a user who asked to be
    forgotten as "deleted player"."""
    if user.computer_level is not None:
        return "🤖 " + mention(user, _)
    return mention(user, _) if user.forgotten else echo(user.mention)


DELETED_PLAYER: Final = N_("deleted player")
"""How a user who asked to be forgotten (``/forget``) is named, wherever they played."""


def mention(user: User, _: Translate) -> str:
    """A player's name as plain text (a picture's, a chart's): ``@username``, else the first
    name; the computer as the reader's word for it and its level in stars (``computer
    ★★★☆☆``; its stored name, ``AI ★★★☆☆``, is shown nowhere); "deleted player" for a user who
    asked to be forgotten."""
    if user.forgotten:
        return _(DELETED_PLAYER)
    level = user.computer_level
    if level is None:
        return user.mention
    return _("computer") + " " + "★" * level + "☆" * (COMPUTER_LEVELS[-1] - level)


def duration(seconds: int, _: Translate) -> str:
    """A move time in its largest whole unit: ``90 s``, ``5 min``, ``12 h``, ``3 days`` (the
    units' symbols; days, which have none, in words)."""
    if seconds % 86_400 == 0:
        days = seconds // 86_400
        return _("{n} day", "{n} days", days).format(n=days)
    if seconds % 3600 == 0:
        return _("{n} h").format(n=seconds // 3600)
    if seconds % 60 == 0 and seconds > 300:
        return _("{n} min").format(n=seconds // 60)
    return _("{n} s").format(n=seconds)


CLOCK_FORMATS: Final = {"time": ("T", "%H:%M:%S"), "day": ("dt", "%Y-%m-%d %H:%M")}
"""How :func:`clock` shows a moment: Telegram's date-time format (``T``: the time with its
seconds; ``dt``: the date and the time) and the UTC text older clients show instead."""


def clock(at: float, kind: str = "time") -> str:
    """A moment (Unix time ``at``) as every reader sees it in their own time zone: Telegram's
    date-time entity (``<tg-time>``, Bot API 9.5), which each reader's app shows in its own time
    zone and format; its text, the moment in UTC (``14:05:09 UTC``), is what an app too old for
    it shows.

    Telegram tells a bot nobody's time zone, and one group message is read in many: a
    ``/timezone`` setting would show each board in one zone only, and a countdown ("2 min
    left") would need an edit every minute, which a group's pace cannot pay for (a board is
    edited only when its game changes). The entity is a fact of the message, the same for
    everyone, that each app shows in its reader's zone. ``kind``: ``"time"`` (a game played at
    one sitting) or ``"day"`` (the date too)."""
    entity, form = CLOCK_FORMATS[kind]
    text = dt.datetime.fromtimestamp(at, dt.UTC).strftime(form) + " UTC"
    return f'<tg-time unix="{int(at)}" format="{entity}">{text}</tg-time>'


def moment(at: float, move_seconds: int) -> str:
    """A move's deadline (see :func:`clock`): the time of day for a game played at one
    sitting, the date too for a correspondence game (a move time of an hour or more)."""
    return clock(at, "day" if move_seconds >= 3600 else "time")
