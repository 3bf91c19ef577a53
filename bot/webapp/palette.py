"""The board page's colours: the chat picture's (:mod:`render.theme`), as CSS variables in a
style sheet the server makes at start (``palette.css``), so that the board in Telegram and the
picture in the chat are one look, in Telegram's light theme and its dark one alike; and the
contrast ratio (WCAG 2's) that a test holds the checkers to."""

from __future__ import annotations

from typing import Final

from render.theme import DEFAULT_THEME, RGB, RGBA, Theme

MIN_CONTRAST: Final = 3.0
"""The least contrast ratio of a checker with whatever it stands on, by its fill or its rim
(WCAG 2.1's for the parts of a picture one must see, 1.4.11)."""


def page_colours(theme: Theme = DEFAULT_THEME) -> dict[str, RGB | RGBA]:
    """The page's colour variables, each the picture's colour of the same thing."""
    return {
        "--frame": theme.frame_wood,
        "--frame-dark": theme.frame_dark,
        "--field": theme.field_wood,
        "--bar": theme.bar_wood,
        "--tray": theme.tray_wood,
        "--point-a": theme.point_dark,
        "--point-b": theme.point_light,
        "--number": theme.number,
        "--white": theme.white_checker,
        "--white-edge": theme.white_label,
        "--white-label": theme.white_label,
        "--black": theme.black_checker,
        "--black-edge": theme.black_edge,
        "--black-label": theme.black_label,
        "--last-from": theme.last_from,
        "--last-to": theme.last_to,
        "--selected": theme.selected,
        "--target": theme.target,
        "--die-face": theme.die_face,
        "--die-pip": theme.die_pip,
        "--cube-face": theme.cube_face,
        "--cube-digit": theme.cube_digit,
        "--cube-offered": theme.cube_offered,
        "--struck": theme.struck,
    }


CHECKER_GROUNDS: Final = ("--field", "--point-a", "--point-b", "--bar")
"""What a checker can stand on: the field, either colour of point, the bar."""


def palette_css(theme: Theme = DEFAULT_THEME) -> str:
    """The style sheet: ``:root`` with every colour of :func:`page_colours`."""
    lines = [f"  {name}: {_css(colour)};" for name, colour in page_colours(theme).items()]
    return ":root {\n" + "\n".join(lines) + "\n}\n"


def _css(colour: RGB | RGBA) -> str:
    if len(colour) == 4:
        return f"rgba({colour[0]}, {colour[1]}, {colour[2]}, {colour[3] / 255:.3f})"
    return "#" + "".join(f"{c:02x}" for c in colour)


def luminance(colour: RGB | RGBA) -> float:
    """The relative luminance of an sRGB colour (WCAG 2), 0 for black to 1 for white."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB | RGBA, b: RGB | RGBA) -> float:
    """The contrast ratio of two colours (WCAG 2): 1 for the same, 21 for black on white.

    >>> round(contrast((0, 0, 0), (255, 255, 255)), 1), contrast((9, 9, 9), (9, 9, 9))
    (21.0, 1.0)
    """
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
