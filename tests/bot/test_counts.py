"""Counts in every language: every text that shows a count takes its catalog's plural form for
it (CLDR's rules: 1 очко, 2 очка, 5 очков, 21 очко), rendered with 0, 1, 2, 5, 11, 21, 22, 25
and 101 in every language; no text puts a counted noun after a number without plural forms;
the catalogs pass gettext's own check (``msgfmt -c``)."""

from __future__ import annotations

import re
import shutil
import subprocess
from string import Formatter
from typing import Final

import pytest
from babel import Locale

from bot.i18n import DOMAIN, LOCALES, LOCALES_DIR, create_i18n, extract_messages, read_catalog
from bot.views.common import translator
from bot.views.numbers import count
from tests.support.catalogs import forms

I18N = create_i18n()
COUNTS: Final = (0, 1, 2, 5, 11, 21, 22, 25, 101)
CATEGORIES: Final = ("zero", "one", "two", "few", "many", "other")
"""CLDR's plural categories in the order gettext catalogs list their forms."""
COUNTED: Final = re.compile(
    r"\{(\w+)(?::[^}]*)?\}[ /]+(?:(?:more|rated|analysed|finished|cube) )?"
    r"(games?|moves?|chips?|points?|pts?\b|days?|players?|watchers?|turns?|rolls?|dice|"
    r"errors?|blunders?|decisions?|payments?|boards?|entries|pips?|wins?|times|rounds?|"
    r"members?|answers?)\b"
)
"""A number followed by the noun it counts ("{n} more players", "{turns} moves"); unit
symbols (``90 s``, ``5 min``) are not nouns."""
NOT_COUNTS: Final = frozenset(
    {"name", "winner", "loser", "mark", "challenger", "target", "friend", "me", "other"}
    | {"match", "game", "id", "tournament", "duration", "time", "variant", "outcome", "turn"}
)
"""Placeholders that hold names, ids and words, never a count."""


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def _plurals() -> list[tuple[str, str]]:
    return sorted(
        (str(m.id[0]), str(m.id[1])) for m in extract_messages() if m.id and isinstance(m.id, tuple)
    )


PLURALS: Final = _plurals()


def test_the_code_has_texts_that_count() -> None:
    assert len(PLURALS) >= 30, PLURALS


@pytest.mark.parametrize("locale", LOCALES)
def test_every_count_takes_its_plural_form(locale: str) -> None:
    """Each text that counts, with each of the counts, through the compiled catalog: the form
    CLDR's rule gives the count (the catalog's source says which form that is), with the
    count in it as the reader writes numbers."""
    _ = translator(I18N, locale)
    catalog = read_catalog(locale)
    rule = Locale.parse(locale).plural_form
    order: list[str] = [c for c in CATEGORIES if c in rule.tags or c == "other"]
    for singular, plural in PLURALS:
        forms = catalog[singular].string if locale != "en" else (singular, plural)
        assert isinstance(forms, tuple) and all(forms), (locale, singular)
        for n in COUNTS:
            written = count(n, _)
            values = dict.fromkeys(_fields(plural), written)
            text = _(singular, plural, n).format(**values)
            expected = forms[order.index(rule(n))].format(**values)
            assert text == expected, (locale, n, text, expected)
            assert written in text, (locale, n, text)


def _commented_decimal(message: object) -> bool:
    comments = " ".join(getattr(message, "auto_comments", []))
    return "decimal" in comments


def test_no_counted_noun_without_plural_forms() -> None:
    """«1 очк.», «41 ходов», «0 дн. подряд»: a text with a number before the noun it counts
    goes through plural forms. A decimal (0.29 points) is no count: it takes CLDR's form for
    fractions, in a text whose translator comment says it is a decimal."""
    found = []
    for message in extract_messages():
        if not message.id or isinstance(message.id, tuple | list):
            continue
        counted = [m for m in COUNTED.finditer(str(message.id)) if m[1] not in NOT_COUNTS]
        if counted and not _commented_decimal(message):
            found.append(str(message.id))
    assert found == []


@pytest.mark.parametrize("locale", ["ru", "uk"])
def test_no_abbreviated_nouns_after_numbers(locale: str) -> None:
    """The abbreviations that dodged plural forms («1 очк.», «0 дн.») are gone."""
    for message in read_catalog(locale):
        if not message.id:
            continue
        for text in forms(message):
            assert not re.search(r"\}\s*(очк|дн|парт|фиш)\.", text), text


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogs_pass_msgfmt_check(locale: str) -> None:
    """gettext's own check of a catalog (headers, plural forms, formats): the
    ``{percent}% found`` text was once flagged as a printf format it is not."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt (GNU gettext) is not installed here: .ci/run installs it")
    source = LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    checked = subprocess.run(
        [msgfmt, "-c", "-o", "/dev/null", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    assert "python-format" not in source.read_text(encoding="utf-8")
