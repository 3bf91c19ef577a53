"""The charts (render/charts.py) against golden images with the boards' tolerance: a player's
PR and luck trend in two variants, and a game's per-turn equity and luck; the gridlines'
values; charts with no values or one value still draw, but the bot draws no line of fewer than
a few points; every title of every catalog fits, uncut.

    NARDY_REGEN_GOLDEN=1 python -m pytest -n0 tests/render/test_charts.py
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.ai.luck import RollLuck
from bot.engine import Side
from bot.i18n import LOCALES, create_i18n
from bot.model import PlayerLuck, User
from bot.views.common import translator
from bot.views.luck import CHART_POINTS, game_panels, trend_panels
from bot.views.numbers import axis_number
from render._text import font, printable
from render.charts import (
    CHART,
    Panel,
    Series,
    chart_image,
    render_chart,
    tick_text,
    ticks,
    title_lines,
)
from tests.render.golden import assert_like_golden
from tests.support.catalogs import untranslated

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "charts"


def _figures() -> list[PlayerLuck]:
    found = []
    for n in range(15):
        variant = "long" if n % 3 else "short"
        luck = ((n * 37) % 11 - 5) / 7
        pr = 6.0 + (n * 53) % 9 + (4 if variant == "short" else 0)
        found.append(PlayerLuck(n, 1, Side.WHITE, variant, luck, pr, 2 * pr, 30, 25, 1e9 + n))
    return found


def _rolls() -> list[RollLuck]:
    found = []
    for n in range(40):
        side = Side.WHITE if n % 2 == 0 else Side.BLACK
        mean = ((n * 29) % 17 - 8) / 20
        found.append(RollLuck(n, side, mean + ((n * 13) % 7 - 3) / 10, mean, n % 9 == 0))
    return found


@pytest.mark.parametrize("name", ["trend", "game"])
def test_charts_look_like_their_golden_images(name: str, tmp_path: Path) -> None:
    if name == "trend":
        panels = trend_panels(_figures(), untranslated)
    else:
        alice = User(1, "alice", "Alice", "en")
        bob = User(2, None, "Боб", "ru")
        panels = game_panels(_rolls(), alice, bob, untranslated)
    assert chart_image(panels).size == (CHART.width, 2 * CHART.panel_height)
    data = render_chart(panels)
    with Image.open(io.BytesIO(data)) as decoded:
        assert decoded.format == "PNG" and decoded.size == (CHART.width, 2 * CHART.panel_height)
        fresh = decoded.convert("RGB")
    assert_like_golden(
        fresh, GOLDEN / f"{name}.png", tmp_path, save=lambda to: to.write_bytes(data)
    )


def test_the_trend_has_a_line_per_variant_and_adds_luck_up() -> None:
    pr, luck = trend_panels(_figures(), untranslated)
    assert [s.name for s in pr.series] == ["long nardy", "short nardy"]
    long = [f for f in _figures() if f.variant == "long"]
    assert pr.series[0].values == tuple(f.pr for f in long)
    assert luck.series[0].values[-1] == pytest.approx(sum(f.luck for f in long))


def test_empty_and_single_values_still_draw() -> None:
    for panel in (Panel("empty", ()), Panel("one", (Series("a", (3.0,)),))):
        assert render_chart([panel])[:8] == b"\x89PNG\r\n\x1a\n"


@given(
    st.floats(-1e4, 1e4, allow_nan=False),
    st.floats(1e-3, 1e4, allow_nan=False),
)
def test_ticks_are_round_evenly_spaced_and_within_range(low: float, span: float) -> None:
    high = low + span
    found = ticks(low, high)
    assert 2 <= len(found) <= 12
    assert all(low - 1e-6 * span <= t <= high + 1e-6 * span for t in found)
    steps = {round(b - a, 9) for a, b in zip(found, found[1:], strict=False)}
    assert len(steps) <= 1


def test_no_line_of_fewer_than_a_few_points() -> None:
    """/stats in a group once posted a chart of one dot: a variant with fewer than
    CHART_POINTS analysed games gets no line, and no variant with enough, no chart."""
    figures = _figures()
    few = [f for f in figures if f.variant == "short"][: CHART_POINTS - 1]
    assert trend_panels(few, untranslated) == []
    pr, _luck = trend_panels([*few, *(f for f in figures if f.variant == "long")], untranslated)
    assert [s.name for s in pr.series] == ["long nardy"]
    alice, bob = User(1, "alice", "Alice", "en"), User(2, None, "Боб", "ru")
    assert game_panels(_rolls()[: CHART_POINTS - 1], alice, bob, untranslated) == []
    assert len(game_panels(_rolls()[:CHART_POINTS], alice, bob, untranslated)) == 2


CHART_TITLES = (
    "PR by game (lower is better)",
    "Luck added up, points",
    "Equity before each roll, white's side",
)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_title_fits_uncut(locale: str) -> None:
    """«Эквити перед каждым броском, со стор…» was cut at two thirds of the width: a title
    takes the chart's width, and a second line when it needs one."""
    words = translator(create_i18n(), locale)
    face = font(CHART.font_bold, CHART.title_size)
    for msgid in CHART_TITLES:
        title = words(msgid)
        lines = title_lines(title)
        assert " ".join(lines) == printable(title, CHART.font_bold), lines
        assert len(lines) <= 2 and "…" not in " ".join(lines)
        assert all(face.getlength(line) <= CHART.width - 2 * CHART.margin for line in lines)


def test_a_long_title_is_drawn_whole() -> None:
    """The Russian title of the equity panel is drawn past where it used to be cut."""
    title = translator(create_i18n(), "ru")("Equity before each roll, white's side")
    image = chart_image([Panel(title, ())]).convert("L")
    row = CHART.margin + CHART.title_size // 2
    inked = [x for x in range(CHART.width) if image.getpixel((x, row)) < 100]  # type: ignore[operator]
    assert inked and max(inked) > CHART.width * 2 // 3 + CHART.margin + 20


def test_gridline_values_as_the_reader_writes_them() -> None:
    """The gridlines' values with the reader's decimal sign and the real minus sign."""
    ru = axis_number(translator(create_i18n(), "ru"))
    en = axis_number(translator(create_i18n(), "en"))
    assert [ru(v) for v in (-0.5, 0.0, 0.25, 2.0)] == ["−0,5", "0", "0,25", "2"]
    assert [en(v) for v in (-0.5, 0.0, 0.25, 2.0)] == ["−0.5", "0", "0.25", "2"]
    assert [tick_text(v) for v in (-0.5, 0.0, 2.0)] == ["−0.5", "0", "2"]
