"""Names from Telegram: whatever the font cannot draw is left out, nothing crashes."""

from __future__ import annotations

import pytest

from render import _text
from render.theme import DEFAULT_THEME

REGULAR = DEFAULT_THEME.font_regular
BOLD = DEFAULT_THEME.font_bold


def test_the_fonts_cover_latin_and_cyrillic_but_not_colour_emoji() -> None:
    for path in (REGULAR, BOLD):
        have = _text.coverage(path)
        assert {ord(c) for c in "AzÄßЖжЁёЇїҐґ0123456789…—×"} <= have
        assert not {ord(c) for c in "🔥👨🐉🎲"} & have


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Алексей", "Алексей"),
        ("Bob 🔥", "Bob"),
        ("🔥🔥🔥", ""),
        ("👨‍👩‍👧 Семья", "Семья"),  # zero-width joiners go with the emoji
        ("Ali\u200f\u202e Veli", "Ali Veli"),  # direction marks and overrides
        ("tab\there\nnew\x00line", "tab here newline"),
        ("  spaced   out  ", "spaced out"),
        ("Zoë Ğül Ærø", "Zoë Ğül Ærø"),
    ],
)
def test_printable(name: str, shown: str) -> None:
    assert _text.printable(name, BOLD) == shown


def test_fit_cuts_with_an_ellipsis() -> None:
    long = "Александра Константиновна Преображенская-Милославская"
    cut = _text.fit(long, BOLD, 26, 300)
    assert cut.endswith("…") and len(cut) < len(long)
    assert _text.font(BOLD, 26).getlength(cut) <= 300
    assert _text.fit("Bob", BOLD, 26, 300) == "Bob"
    assert _text.fit("Bob", BOLD, 26, 1) == "…"
