"""Numbers as the reader writes them: counts and amounts grouped by thousands and decimals with
the locale's separator (Babel's CLDR data: ``1,000`` and ``0.29`` in English, ``1 000`` and
``0,29`` in Russian and Ukrainian), and one minus sign everywhere, the real one (U+2212), not
the hyphen that CLDR gives most locales. (Parsing what people write is :mod:`bot.numbers`.)

The locale is the one of the reader's ``_``: a :class:`~bot.views.common.Translator`'s, else the
handler's (aiogram's context), else English.

>>> from bot.i18n import create_i18n
>>> from bot.views.common import translator
>>> ru, en = translator(create_i18n(), "ru"), translator(create_i18n(), "en")
>>> decimal(0.29, ru), decimal(-0.29, en, sign=True), decimal(0.001, en, sign=True)
('0,29', '−0.29', '0.00')
>>> count(1000, ru) == "1\\N{NO-BREAK SPACE}000", count(21, en)
(True, '21')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from aiogram.utils.i18n import I18n
from babel.numbers import format_decimal

from bot.i18n import DEFAULT_LOCALE, Translate
from render.charts import tick_decimals

MINUS: Final = "\N{MINUS SIGN}"


def reader_locale(_: Translate) -> str:
    """The locale ``_`` translates into (see the module docstring)."""
    locale = getattr(_, "locale", None)
    if isinstance(locale, str):
        return locale
    i18n = I18n.get_current(no_error=True)
    return i18n.current_locale if i18n is not None else DEFAULT_LOCALE


def count(n: int, _: Translate) -> str:
    """A whole number as the reader writes it, grouped by thousands; a negative one with the
    real minus sign."""
    text = format_decimal(abs(n), format="#,##0", locale=reader_locale(_))
    return MINUS + text if n < 0 else text


def decimal(value: float, _: Translate, *, digits: int = 2, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals as the reader writes them; a negative one with the real
    minus sign, a positive one with a plus when ``sign`` is asked for (luck, a loss against
    the best). What rounds to zero has no sign."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    text = format_decimal(abs(value), format=pattern, locale=reader_locale(_))
    if round(abs(value), digits) == 0:
        return text
    if value < 0:
        return MINUS + text
    return "+" + text if sign else text


def chips_text(n: int, _: Translate) -> str:
    """``21 chips``: an amount of chips standing alone (a label's value, a list's item), in the
    plural form for it (a sentence that pays or holds them says it in its own words)."""
    return _("{n} chip", "{n} chips", n).format(n=count(n, _))


def points_text(n: int, _: Translate) -> str:
    """``3 points``, ``−1 point``: a whole number of points standing alone (a standing's net
    points may be negative: the form is the one of its size)."""
    return _("{n} point", "{n} points", abs(n)).format(n=count(n, _))


def axis_number(_: Translate) -> Callable[[float], str]:
    """How a chart's gridlines write their values for the reader of ``_`` (``0,5``,
    ``−1``): with as many decimals as the value needs."""

    def write(value: float) -> str:
        return decimal(value, _, digits=tick_decimals(value))

    return write
