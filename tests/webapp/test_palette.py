"""The board page's colours are the chat picture's, and its checkers stand out from what they
stand on (the contrast ratio WCAG 2 defines), without a browser."""

from __future__ import annotations

import doctest

from bot.webapp import palette
from bot.webapp.palette import CHECKER_GROUNDS, MIN_CONTRAST, contrast, page_colours, palette_css
from render.theme import DEFAULT_THEME


def test_the_page_has_the_pictures_colours() -> None:
    colours = page_colours()
    t = DEFAULT_THEME
    assert colours["--field"] == t.field_wood and colours["--frame"] == t.frame_wood
    assert (colours["--point-a"], colours["--point-b"]) == (t.point_dark, t.point_light)
    assert (colours["--white"], colours["--black"]) == (t.white_checker, t.black_checker)
    assert (colours["--die-face"], colours["--die-pip"]) == (t.die_face, t.die_pip)
    css = palette_css()
    assert css.startswith(":root {") and "--field: #d6b27e;" in css
    assert "--target: rgba(90, 230, 110, 0.902);" in css


def test_every_checker_stands_out_from_what_it_stands_on() -> None:
    colours = page_colours()
    for side in ("--white", "--black"):
        for ground in CHECKER_GROUNDS:
            best = max(
                contrast(colours[side], colours[ground]),
                contrast(colours[side + "-edge"], colours[ground]),
            )
            assert best >= MIN_CONTRAST, (side, ground, best)
    # the dark checker alone, without its rim, is lost on a dark point: the rim is what holds
    assert contrast(colours["--black"], colours["--point-a"]) < MIN_CONTRAST
    assert doctest.testmod(palette).failed == 0
