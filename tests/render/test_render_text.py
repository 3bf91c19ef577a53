"""Names from Telegram and the words of every language: each letter is drawn with a real glyph
(never the font's .notdef box), whatever the font cannot draw is left out, nothing crashes."""

from __future__ import annotations

import unicodedata

import pytest
from PIL import ImageFont

from bot.i18n import LOCALES, read_catalog
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


# Names and words of each language of the bot, in every script it speaks.
NAMES_AND_WORDS = (
    "ნარდი გიორგი ნინო თამარ",  # Georgian
    "Արամ նարդի Անահիտ Գևորգ",  # Armenian
    "nərd Əli Ağa Şahin Gülbəniz İlqar",  # Azerbaijani
    "нарды Қайрат Әлия Үміт Ғалым Ұлан Ңң Өмір Һһ Іі",  # Kazakh
    "нарди Її Євген Ґанна Ярослав",  # Ukrainian
)


def _box(face: ImageFont.FreeTypeFont) -> tuple[tuple[int, int], bytes]:
    """How ``face`` draws a character it has no glyph for: its .notdef box."""
    mask = face.getmask("\U0010fffd")  # a private-use code point no font maps
    return mask.size, bytes(mask)


def _drawn_as_box(face: ImageFont.FreeTypeFont, ch: str) -> bool:
    mask = face.getmask(ch)
    return (mask.size, bytes(mask)) == _box(face)


@pytest.mark.parametrize("path", [REGULAR, BOLD])
def test_every_script_of_the_bot_is_drawn_with_real_glyphs_not_boxes(path: str) -> None:
    face = ImageFont.truetype(path, 26, layout_engine=ImageFont.Layout.BASIC)
    assert _drawn_as_box(face, "\U000e0fff") and not _drawn_as_box(face, "A")  # the check works
    letters = set("".join(NAMES_AND_WORDS))
    for locale in LOCALES:  # every word of every catalog, the board's words among them
        letters |= {ch for m in read_catalog(locale) if m.id for ch in str(m.string)}
    letters = {ch for ch in letters if not ch.isspace()}
    drawable = {ch for ch in letters if _text.printable(ch, path) == ch}
    boxes = sorted(ch for ch in drawable if _drawn_as_box(face, ch))
    assert boxes == []
    for text in NAMES_AND_WORDS:  # no letter is left out either
        assert _text.printable(text, path) == text
    emoji = {ch for ch in letters if ord(ch) > 0x2000 and unicodedata.category(ch) == "So"}
    assert letters - drawable <= emoji  # only caption emoji, never a letter, is dropped


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("ᲜᲐᲠᲓᲘ", "ნარდი"),  # Georgian Mtavruli capitals, missing from DejaVu: as Mkhedruli
        ("𝓐𝓵𝓲 Ａｌｉ", "Ali Ali"),  # decorated letters: as their plain forms
    ],
)
def test_letters_the_font_lacks_are_drawn_as_their_plain_forms(name: str, shown: str) -> None:
    face = ImageFont.truetype(BOLD, 26, layout_engine=ImageFont.Layout.BASIC)
    assert all(_drawn_as_box(face, ch) for ch in name if not ch.isspace())
    assert _text.printable(name, BOLD) == shown
