"""Tournament pictures: the geometry's properties (hypothesis), every text within its slot as
the font measures it, and golden pictures.

The golden pictures are the bytes :func:`render_bracket` and :func:`render_table` return for
the samples of ``tests/render/tournament_samples.py``, kept in tests/golden/tournament/. They are
compared within a tolerance (another FreeType build, another Pillow's palette); after an
intended change of the look, look at the new pictures and regenerate::

    NARDY_REGEN_GOLDEN=1 python -m pytest -n0 tests/render/test_tournament.py

On a failure the new picture and a difference map are written to pytest's temporary folder.
"""

from __future__ import annotations

import doctest
import io
import itertools
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import _text, tournament, tournament_layout
from render.tournament import (
    Text,
    bracket_geometry,
    bracket_page_count,
    bracket_texts,
    render_bracket,
    render_table,
    table_geometry,
    table_pages,
    table_texts,
)
from render.tournament_inputs import (
    MAX_CROSS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    Bracket,
    BracketMatch,
    Entrant,
    Heading,
)
from render.tournament_layout import (
    DARK,
    LIGHT,
    MIN_TEXT,
    ROWS_PER_PAGE,
    Box,
    TournamentTheme,
    bracket_layout,
    bracket_pages,
    bracket_size,
    cross_columns,
    page_count,
    page_rows,
    shown_size,
    swiss_columns,
    table_layout,
    tree_row,
)
from tests.render.golden import assert_like_golden
from tests.render.tournament_samples import knockout, round_robin, seeding, swiss

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "tournament"
themes = st.builds(
    lambda width, row, gap, indent: replace(
        LIGHT, bracket_width=width, row_height=row, match_gap=gap, indent=indent
    ),
    st.integers(640, 800),
    st.integers(32, 44),
    st.integers(6, 16),
    st.integers(30, 60),
)
names = st.text(st.characters(codec="utf-8"), min_size=0, max_size=40) | st.sampled_from(
    ("Алексей", "გიორგი", "Արամ", "שלמה", "W" * 60, "Ёжик в тумане")
)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _within(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0] < inner[2] <= outer[2] and outer[1] <= inner[1] < inner[3] <= outer[3]
    )


def _disjoint(boxes: Iterable[Box]) -> None:
    for a, b in itertools.combinations(list(boxes), 2):
        assert not _overlap(a, b), (a, b)


# The bracket's geometry.


@settings(max_examples=100, deadline=None)
@given(st.integers(2, MAX_PLAYERS), st.data(), themes)
def test_bracket_geometry(players: int, data: st.DataObject, theme: TournamentTheme) -> None:
    """A page's boxes never overlap and lie in the canvas, one to a row; every match lies
    between the two it follows, a step right of them; the champion's box comes after the
    final, below every match; lines run outside every box."""
    size = bracket_size(players)
    pages = bracket_pages(size)
    page = data.draw(st.sampled_from(pages))
    geo = bracket_layout(size, theme, page)
    canvas = (0, 0, geo.width, geo.height)
    assert geo.width == theme.bracket_width and geo.height <= 2560  # what Telegram keeps
    assert [len(column) for column in geo.matches] == [
        1 << (page.rounds - 1 - r) for r in range(page.rounds)
    ]
    matches = [m for column in geo.matches for m in column]
    boxes = [m.box for m in matches] + ([geo.champion.box] if geo.champion else [])
    _disjoint([*boxes, geo.title.box])
    for box in [*boxes, geo.title.box]:
        assert _within(box, canvas), box
    rows = sorted(box[1] for box in boxes)
    assert len(set(rows)) == len(rows)  # one box a row: full width for the names
    for r in range(1, len(geo.matches)):
        for k, match in enumerate(geo.matches[r]):
            a, b = geo.matches[r - 1][2 * k], geo.matches[r - 1][2 * k + 1]
            assert a.box[3] < match.box[1] and match.box[3] < b.box[1]
            assert match.box[0] == a.box[0] + theme.indent and match.box[2] > a.box[2]
    if page.champion:
        final = geo.matches[-1][0]
        assert geo.champion is not None
        assert geo.champion.box[1] > max(m.box[3] for m in matches)  # after the final
        assert geo.champion.box[0] == final.box[0] + theme.indent
    else:
        assert geo.champion is None
    for x0, y0, x1, y1 in geo.connectors:
        assert x0 == x1 or y0 == y1
        line = (min(x0, x1), min(y0, y1), max(x0, x1) + 1, max(y0, y1) + 1)
        assert _within(line, canvas)
        for box in boxes:
            inside = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
            assert not _overlap(line, inside), (line, box)
    for match in [*matches, *([geo.champion] if geo.champion else [])]:
        for slot in (match.label, match.note, match.rows[0], match.seeds[0], match.names[0]):
            assert _within(slot, match.box), (slot, match.box)
        _disjoint([match.label, match.note, match.rows[0], match.rows[1]])
        _disjoint([match.seeds[0], match.names[0], match.score])
        _disjoint([match.seeds[1], match.names[1], match.score])


def test_bracket_sizes() -> None:
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 33, 64)] == [2, 4, 4, 8, 8, 16, 64, 64]
    for bad in (1, 65):
        with pytest.raises(ValueError):
            bracket_size(bad)
    with pytest.raises(ValueError):
        bracket_layout(6)
    assert seeding(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_a_knockout_of_up_to_16_is_one_portrait_page_and_a_bigger_one_is_paged() -> None:
    """Up to 16 places, one picture of a phone's width (taller than wide from 8); 32 and 64,
    a page for each 16 places of the first round (its four rounds) and one for the rounds
    after them, with the champion: each match on exactly one page."""
    for size in (2, 4, 8, 16):
        [page] = bracket_pages(size)
        geo = bracket_layout(size, LIGHT, page)
        assert page.champion and page.rounds == size.bit_length() - 1
        assert geo.width == LIGHT.bracket_width and (size <= 4 or geo.height > geo.width)
    for size, count in ((32, 3), (64, 5)):
        pages = bracket_pages(size)
        assert len(pages) == count and [p.champion for p in pages] == [False] * (count - 1) + [True]
        seen = [
            (p.first_round + r, k) for p in pages for r in range(p.rounds) for k in p.matches(r)
        ]
        rounds = size.bit_length() - 1
        every = [(r, k) for r in range(rounds) for k in range(size >> (r + 1))]
        assert sorted(seen) == every
    assert [tree_row(0, k) for k in range(8)] == [0, 2, 4, 6, 8, 10, 12, 14]
    assert [tree_row(3, 0), tree_row(2, 1), tree_row(1, 3)] == [7, 11, 13]


def test_names_and_scores_read_at_least_12_px_high_at_400_px_wide() -> None:
    """The theme's sizes (no Pillow: arithmetic), then every name and score a bracket draws,
    on every page of the largest field."""
    assert shown_size(LIGHT.name_size, LIGHT.bracket_width) >= MIN_TEXT == 12
    assert shown_size(19, 1280) < 6  # the old picture's names: about 5 px at 400 px wide
    bracket = knockout(64, 3)
    for page in range(bracket_page_count(bracket)):
        geo = bracket_geometry(bracket, page=page)
        for text in bracket_texts(bracket, page=page):
            if text.slot in {s for m in geo.matches for b in m for s in (*b.names, b.score)}:
                assert shown_size(text.size, geo.width) >= MIN_TEXT, text


def test_the_layout_imports_no_pillow() -> None:
    code = "import sys, render.tournament_layout; sys.exit('PIL' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr or "render.tournament_layout imported Pillow"


def test_bracket_refuses_a_malformed_field() -> None:
    heading = Heading("Cup")
    with pytest.raises(ValueError):
        Bracket(heading, ((BracketMatch(), BracketMatch(), BracketMatch()),))
    with pytest.raises(ValueError):
        Bracket(heading, ((BracketMatch(), BracketMatch()),))  # no final
    Bracket(heading, ((BracketMatch(), BracketMatch()), (BracketMatch(),)))


# Tables' geometry.


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, ROWS_PER_PAGE),
    st.one_of(
        st.integers(2, MAX_CROSS).map(lambda n: ("cross", n)),
        st.integers(0, MAX_ROUNDS).map(lambda n: ("swiss", n)),
    ),
    st.sampled_from((LIGHT, replace(LIGHT, width=1080), replace(LIGHT, table_row=34))),
)
def test_table_geometry(rows: int, kind: tuple[str, int], theme: TournamentTheme) -> None:
    """Cells tile their row left to right without overlapping, rows follow each other under
    the heading, all inside the canvas, and the names keep at least ``min_name``."""
    columns = cross_columns(kind[1], theme) if kind[0] == "cross" else swiss_columns(kind[1], theme)
    geo = table_layout(columns, rows, theme)
    canvas = (0, 0, geo.width, geo.height)
    assert len(geo.cells) == len(geo.rows) == rows
    for line in (geo.header, *geo.cells):
        assert len(line) == len(columns)
        for a, b in itertools.pairwise(line):
            assert a[2] == b[0] and a[1] == b[1] and a[3] == b[3]
        assert line[0][0] == theme.margin and line[-1][2] == theme.width - theme.margin
        assert line[1][2] - line[1][0] >= theme.min_name
        for box in line:
            assert _within(box, canvas)
    assert geo.title.box[3] <= geo.header[0][1] and geo.header[0][3] == geo.rows[0][1]
    for a, b in itertools.pairwise(geo.rows):
        assert a[3] == b[1]
    assert _within(geo.title.title, geo.title.box) and _within(geo.title.subtitle, geo.title.box)


def test_pages() -> None:
    assert [page_count(n) for n in (1, 32, 33, 256)] == [1, 1, 2, 8]
    assert list(page_rows(40, 1)) == list(range(32, 40))
    with pytest.raises(ValueError):
        page_rows(40, 2)
    with pytest.raises(ValueError):
        cross_columns(MAX_CROSS + 1)
    with pytest.raises(ValueError):
        swiss_columns(MAX_ROUNDS + 1)


# Texts.


def _fits(texts: Iterable[Text], theme: TournamentTheme) -> int:
    """Asserts every text fits its slot as the font measures it; returns how many."""
    count = 0
    for text in texts:
        path = theme.font_bold if text.bold else theme.font_regular
        face = _text.font(path, text.size)
        width = face.getlength(text.text)
        left, top, right, bottom = text.slot
        assert width <= right - left, (text, width)
        assert text.size <= bottom - top, text
        count += 1
    return count


@settings(max_examples=40, deadline=None)
@given(st.lists(names, min_size=2, max_size=16), names, names)
def test_bracket_texts_fit(players: list[str], title: str, label: str) -> None:
    """Whatever the names and labels, every text is cut to its slot."""
    size = bracket_size(len(players))
    slots: list[Entrant | None] = [Entrant(name, i + 1) for i, name in enumerate(players)]
    slots += [None] * (size - len(players))
    first = tuple(BracketMatch(slots[2 * k], slots[2 * k + 1], 0, label) for k in range(size // 2))
    later = tuple(
        tuple(BracketMatch(Entrant(label), Entrant(title), 1, "10–10") for _ in range(size >> r))
        for r in range(2, size.bit_length())
    )
    bracket = Bracket(
        Heading(title, label, label),
        (first, *later),
        (label,) * 6,
        champion=Entrant(title, 64),
        champion_label=label,
        bye=label,
    )
    assert _fits(bracket_texts(bracket), LIGHT) > 2 * len(players)
    matches = [replace(m, note=label, playing=True) for m in first]
    noted = replace(bracket, rounds=(tuple(matches), *later))
    assert _fits(bracket_texts(noted, theme=DARK), DARK) > 3 * len(players)


@settings(max_examples=40, deadline=None)
@given(st.lists(names, min_size=2, max_size=12), names)
def test_table_texts_fit(players: list[str], label: str) -> None:
    cross = round_robin(len(players))
    cross = replace(
        cross,
        heading=Heading(label, label, label),
        rows=tuple(replace(row, name=name) for row, name in zip(cross.rows, players, strict=True)),
        points_label=label,
        name_label=label,
    )
    assert _fits(table_texts(cross), LIGHT) > len(players)
    standings = swiss(len(players), 8, 3)
    standings = replace(
        standings,
        rows=tuple(replace(row, name=n) for row, n in zip(standings.rows, players, strict=True)),
        buchholz_label=label,
        bye=label,
    )
    assert _fits(table_texts(standings, theme=DARK), DARK) > len(players)


def test_swiss_cells_are_compact() -> None:
    table = swiss(7, 3, 3)
    texts = list(table_texts(table))
    assert [t.text for t in texts[:2]] == ["Швейцарка клуба", "Швейцарская система · Тур 3 из 3"]
    geo = table_geometry(table)
    rounds = geo.header[4][0], geo.header[-1][2]
    results = {
        t.text for t in texts if t.slot[1] >= geo.rows[0][1] and rounds[0] <= t.slot[0] < rounds[1]
    }
    assert results <= {"своб."} | {f"{s}{n}" for s in "+−=" for n in range(1, 8)}
    assert "своб." in results
    assert len(results) > 5


def test_right_to_left_names_read_right_to_left() -> None:
    """The fonts' basic layout puts letters left to right; a Hebrew name is turned to the
    order it is read in, and other names are left alone."""
    assert tournament.visual("שלמה כהן") == "ןהכ המלש"
    assert tournament.visual("Ёжик в тумане") == "Ёжик в тумане"
    assert tournament.visual("שלמה 12") == "12 המלש"
    assert tournament.visual("(שלמה)") == "(המלש)"
    bracket = knockout(8, 0)
    texts = [t.text for t in bracket_texts(bracket)]
    assert "המלש" in texts and "Алексей" in texts


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(tournament).failed == 0
    assert doctest.testmod(tournament_layout).failed == 0


# Pictures.


def test_large_fields_render() -> None:
    """A 64-player bracket is five portrait pages; a 256-player Swiss is 8 pages, each a PNG."""
    bracket = knockout(64, 2)
    assert bracket_page_count(bracket) == 5
    for page in (0, 4):
        data = render_bracket(bracket, page=page, theme=DARK)
        with Image.open(io.BytesIO(data)) as image:
            assert image.format == "PNG"
            assert image.size == (720, bracket_geometry(bracket, page=page).height)
        assert len(data) < 120_000
    with pytest.raises(ValueError):
        render_bracket(bracket, page=5)
    table = swiss(256, 8, 4)
    assert table_pages(table) == 8
    last = render_table(table, page=7)
    with Image.open(io.BytesIO(last)) as image:
        assert image.size[1] == table_layout(swiss_columns(8), 32).height
    assert len(last) < 150_000
    with pytest.raises(ValueError):
        render_table(table, page=8)


SAMPLES = {
    "knockout-5": lambda: render_bracket(knockout(5, 1)),
    "knockout-8": lambda: render_bracket(knockout(8, 2, seed=3)),
    "knockout-16": lambda: render_bracket(knockout(16, 4, seed=2)),
    "knockout-32-final": lambda: render_bracket(knockout(32, 4, seed=5), page=2),
    "round-robin-4": lambda: render_table(round_robin(4)),
    "swiss-7": lambda: render_table(swiss(7, 3, 3)),
}


@pytest.mark.parametrize("name", SAMPLES)
def test_golden(name: str, tmp_path: Path) -> None:
    data = SAMPLES[name]()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as fresh:
        fresh.load()
        assert_like_golden(
            fresh, GOLDEN / f"{name}.png", tmp_path, save=lambda to: to.write_bytes(data)
        )
