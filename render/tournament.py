"""Drawing the tournament pictures: :func:`render_bracket` and :func:`render_table`.

The geometry is in :mod:`render.tournament_layout`, the inputs in
:mod:`render.tournament_inputs`. Every text is placed through :func:`bracket_texts` or
:func:`table_texts` (what is written where, in which font, already cut to its slot), so that
a test measures exactly what is drawn.

PNG, not JPEG: the pictures are flat colours and small text, which JPEG blurs and rings, and
JPEG is the larger here (quality 90: 60 KB for an 8-player bracket, 320 KB for 64 players).
As PNG with its colours reduced to a palette of 64 (flat fills and the anti-aliased edges of
text need no more; the largest error is about 28 of 255 on an edge pixel) an 8-player bracket
is about 14 KB, a 64-player bracket 84 KB and a 32-row page of a standings table 63 KB, each
encoded in 7..60 ms (``bench/tournament_image.py``). Telegram re-encodes a photo anyway; a
sharp source keeps its copy sharp.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from . import _text
from .theme import RGB
from .tournament_inputs import (
    Bracket,
    BracketMatch,
    Entrant,
    Heading,
    Outcome,
    RoundRobinRow,
    RoundRobinTable,
    SwissResult,
    SwissRow,
    SwissTable,
)
from .tournament_layout import (
    LIGHT,
    Box,
    BracketLayout,
    MatchBox,
    TableLayout,
    TournamentTheme,
    bracket_layout,
    bracket_pages,
    cross_columns,
    page_count,
    page_rows,
    swiss_columns,
    table_layout,
)

TOURNAMENT_FORMAT: Final = "PNG"
TOURNAMENT_FILE_NAME: Final = "tournament.png"
TOURNAMENT_MIME_TYPE: Final = "image/png"
PALETTE_COLOURS: Final = 64


@dataclass(frozen=True, slots=True)
class Text:
    """A text to draw: already :func:`~render._text.printable`, cut to ``slot``'s width and
    put in screen order (:func:`visual`), drawn at ``anchor`` ("l", "m" or "r": left, centre
    or right of the slot, middle of its height)."""

    text: str
    slot: Box
    bold: bool
    size: int
    fill: RGB
    anchor: str = "l"


def render_bracket(bracket: Bracket, *, page: int = 0, theme: TournamentTheme = LIGHT) -> bytes:
    """Returns ``page`` (0-based, see :func:`bracket_page_count`) of ``bracket`` drawn as PNG
    bytes (see the module docstring). Pure and synchronous, like
    :func:`~render.board.render_board`: run it on a worker thread."""
    return _encode(bracket_image(bracket, page=page, theme=theme))


def render_table(
    table: RoundRobinTable | SwissTable, *, page: int = 0, theme: TournamentTheme = LIGHT
) -> bytes:
    """Returns ``page`` (0-based, see :func:`~render.tournament_layout.page_count`) of
    ``table`` drawn as PNG bytes: a cross table for a :class:`RoundRobinTable`, a standings
    table for a :class:`SwissTable`."""
    return _encode(table_image(table, page=page, theme=theme))


def table_pages(table: RoundRobinTable | SwissTable) -> int:
    """Returns how many pages :func:`render_table` draws ``table`` on."""
    return page_count(len(table.rows))


# Brackets.


def bracket_page_count(bracket: Bracket) -> int:
    """Returns how many pages :func:`render_bracket` draws ``bracket`` on (see
    :func:`~render.tournament_layout.bracket_pages`)."""
    return len(bracket_pages(_size(bracket)))


def _size(bracket: Bracket) -> int:
    return 2 * len(bracket.rounds[0])


def bracket_geometry(
    bracket: Bracket, theme: TournamentTheme = LIGHT, *, page: int = 0
) -> BracketLayout:
    """Returns the layout ``page`` of ``bracket`` is drawn on."""
    pages = bracket_pages(_size(bracket))
    if not 0 <= page < len(pages):
        raise ValueError(f"a bracket of {_size(bracket)} places has no page {page}")
    return bracket_layout(_size(bracket), theme, pages[page])


def bracket_image(
    bracket: Bracket, *, page: int = 0, theme: TournamentTheme = LIGHT
) -> Image.Image:
    """Returns ``page`` of ``bracket`` drawn as an RGB image."""
    t = theme
    geo = bracket_geometry(bracket, t, page=page)
    image = Image.new("RGB", (geo.width, geo.height), t.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle(_inclusive(geo.title.box), fill=t.band)
    for x0, y0, x1, y1 in geo.connectors:
        draw.line((x0, y0, x1, y1), fill=t.line, width=2)
    for match, box in _page_matches(bracket, geo):
        _draw_box(draw, box, t.accent if match.playing else t.box_edge, match.playing, t)
    if geo.champion is not None:
        known = bracket.champion is not None
        _draw_box(draw, geo.champion, t.accent if known else t.box_edge, known, t)
    for text in bracket_texts(bracket, page=page, theme=t):
        _write(image, text, t)
    return image


def _page_matches(bracket: Bracket, geo: BracketLayout) -> Iterator[tuple[BracketMatch, MatchBox]]:
    """Each match of the page with its box, round by round."""
    page = geo.page
    for r, boxes in enumerate(geo.matches):
        matches = bracket.rounds[page.first_round + r]
        for index, box in zip(page.matches(r), boxes, strict=True):
            yield matches[index], box


def _draw_box(
    draw: ImageDraw.ImageDraw, box: MatchBox, edge: RGB, strong: bool, t: TournamentTheme
) -> None:
    """A bracket box: white, its label strip tinted, a line between its two rows."""
    draw.rounded_rectangle(_inclusive(box.box), t.radius, fill=t.box)
    x0, y0, x1, _ = box.box
    strip = box.label[3]
    draw.rounded_rectangle((x0, y0, x1 - 1, strip - 1), t.radius, fill=t.header)
    draw.rectangle((x0, strip - t.radius, x1 - 1, strip - 1), fill=t.header)
    if box.rows[1][3] > box.rows[1][1]:
        y = box.rows[0][3]
        draw.line((x0 + 1, y, x1 - 2, y), fill=t.divider)
    draw.rounded_rectangle(_inclusive(box.box), t.radius, outline=edge, width=3 if strong else 1)


def bracket_texts(
    bracket: Bracket, *, page: int = 0, theme: TournamentTheme = LIGHT
) -> Iterator[Text]:
    """Yields every text of ``page`` of ``bracket``'s picture with its slot."""
    t = theme
    geo = bracket_geometry(bracket, t, page=page)
    pages = bracket_page_count(bracket)
    corner = f"{page + 1}/{pages}" if pages > 1 else ""
    yield from _heading_texts(bracket.heading.title, _subtitle(bracket.heading), corner, geo, t)
    for r, boxes in enumerate(geo.matches):
        number = geo.page.first_round + r
        matches = bracket.rounds[number]
        label = bracket.round_names[number] if number < len(bracket.round_names) else ""
        for index, box in zip(geo.page.matches(r), boxes, strict=True):
            match = matches[index]
            yield _cut(label, box.label, False, t.label_size, t.header_text, t)
            if match.note:
                yield _cut(match.note, box.note, True, t.label_size, t.loss, t, "r")
            players = (match.top, match.bottom)
            for i in (0, 1):
                player = players[i]
                won = match.winner == i
                lost = match.winner is not None and not won
                if player is None:
                    if number == 0 and bracket.bye:
                        yield _cut(bracket.bye, box.names[i], False, t.name_size, t.text_dim, t)
                    continue
                fill = t.text_dim if lost else t.text
                if player.seed is not None:
                    yield _cut(str(player.seed), box.seeds[i], False, t.seed_size, t.text_dim, t)
                yield _cut(player.name, box.names[i], won, t.name_size, fill, t)
            if match.score:
                fill = t.accent if match.playing else t.text
                yield _cut(match.score, box.score, True, t.name_size, fill, t, "r")
    place = geo.champion
    if place is None:
        return
    if bracket.champion_label:
        yield _cut(bracket.champion_label, place.label, False, t.label_size, t.header_text, t)
    champion: Entrant | None = bracket.champion
    if champion is not None:
        if champion.seed is not None:
            yield _cut(str(champion.seed), place.seeds[0], False, t.seed_size, t.text_dim, t)
        yield _cut(champion.name, place.names[0], True, t.name_size, t.accent, t)


# Tables.


def table_geometry(
    table: RoundRobinTable | SwissTable, *, page: int = 0, theme: TournamentTheme = LIGHT
) -> TableLayout:
    """Returns the layout of ``page`` of ``table``."""
    rows = len(page_rows(len(table.rows), page))
    if isinstance(table, RoundRobinTable):
        return table_layout(cross_columns(len(table.rows), theme), rows, theme)
    return table_layout(swiss_columns(len(table.round_labels), theme), rows, theme)


def table_image(
    table: RoundRobinTable | SwissTable, *, page: int = 0, theme: TournamentTheme = LIGHT
) -> Image.Image:
    """Returns ``page`` of ``table`` drawn as an RGB image."""
    t = theme
    geo = table_geometry(table, page=page, theme=t)
    image = Image.new("RGB", (geo.width, geo.height), t.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle(_inclusive(geo.title.box), fill=t.band)
    left, top = geo.header[0][0], geo.header[0][1]
    right, bottom = geo.header[-1][2], geo.header[-1][3]
    draw.rectangle(_inclusive((left, top, right, bottom)), fill=t.header)
    for index, row in enumerate(geo.rows):
        if index % 2:
            draw.rectangle(_inclusive(row), fill=t.stripe)
    if isinstance(table, RoundRobinTable):
        for index, number in enumerate(page_rows(len(table.rows), page)):
            draw.rectangle(_inclusive(geo.cells[index][2 + number]), fill=t.own_cell)
    for edge in geo.header[1:]:
        x = edge[0]
        draw.line((x, top, x, geo.rows[-1][3] - 1), fill=t.header)
    draw.line((left, geo.rows[-1][3], right - 1, geo.rows[-1][3]), fill=t.box_edge)
    for text in table_texts(table, page=page, theme=t):
        _write(image, text, t)
    return image


def table_texts(
    table: RoundRobinTable | SwissTable, *, page: int = 0, theme: TournamentTheme = LIGHT
) -> Iterator[Text]:
    """Yields every text of ``page`` of ``table``'s picture with its slot."""
    t = theme
    geo = table_geometry(table, page=page, theme=t)
    pages = page_count(len(table.rows))
    corner = f"{page + 1}/{pages}" if pages > 1 else ""
    yield from _heading_texts(table.heading.title, _subtitle(table.heading), corner, geo, t)
    if isinstance(table, RoundRobinTable):
        labels = (
            table.rank_label,
            table.name_label,
            *(str(i + 1) for i in range(len(table.rows))),
            table.points_label,
        )
    else:
        labels = (
            table.rank_label,
            table.name_label,
            table.points_label,
            table.buchholz_label,
            *table.round_labels,
        )
    for i, (label, cell) in enumerate(zip(labels, geo.header, strict=True)):
        anchor = "l" if i == 1 else "m"
        yield _cut(label, _inset(cell, t.pad), True, t.header_size, t.header_text, t, anchor)
    for index, number in enumerate(page_rows(len(table.rows), page)):
        cells = tuple(_inset(cell, t.pad) for cell in geo.cells[index])
        if isinstance(table, RoundRobinTable):
            yield from _cross_row(table.rows[number], number, cells, t)
        else:
            yield from _swiss_row(table.rows[number], table.bye, cells, t)


def _cross_row(
    row: RoundRobinRow, number: int, cells: tuple[Box, ...], t: TournamentTheme
) -> Iterator[Text]:
    size = t.table_size
    yield _cut(str(row.rank), cells[0], True, size, t.text, t, "m")
    yield _cut(row.name, cells[1], False, size, t.text, t)
    for other, result in enumerate(row.results):
        if result is None or other == number:
            continue
        text = result.score or ("•" if result.outcome == "playing" else "")
        fill = _outcome_fill(result.outcome, t)
        yield _cut(text, cells[2 + other], True, size, fill, t, "m")
    yield _cut(row.points, cells[-1], True, size, t.text, t, "m")


def _swiss_row(
    row: SwissRow, bye: str, cells: tuple[Box, ...], t: TournamentTheme
) -> Iterator[Text]:
    size = t.table_size
    yield _cut(str(row.rank), cells[0], True, size, t.text, t, "m")
    yield _cut(row.name, cells[1], False, size, t.text, t)
    yield _cut(row.points, cells[2], True, size, t.text, t, "m")
    yield _cut(row.buchholz, cells[3], False, size, t.text, t, "m")
    for r, result in enumerate(row.results):
        text = _swiss_text(result, bye)
        fill = _outcome_fill(result.outcome, t)
        yield _cut(text, cells[4 + r], result.outcome == "win", size - 2, fill, t, "m")


def _swiss_text(result: SwissResult, bye: str) -> str:
    if result.outcome == "bye":
        return bye
    if result.opponent is None:
        return ""
    sign = {"win": "+", "loss": "−", "draw": "=", "playing": "·"}.get(result.outcome, "")
    return f"{sign}{result.opponent}"


def _outcome_fill(outcome: Outcome, t: TournamentTheme) -> RGB:
    return {
        "win": t.win,
        "loss": t.loss,
        "draw": t.draw,
        "bye": t.text_dim,
        "playing": t.accent,
    }.get(outcome, t.text_dim)


# Shared.


def _subtitle(heading: Heading) -> str:
    return " · ".join(part for part in (heading.format, heading.round) if part)


def _heading_texts(
    title: str, subtitle: str, corner: str, geo: BracketLayout | TableLayout, t: TournamentTheme
) -> Iterator[Text]:
    band = geo.title
    yield _cut(title, band.title, True, t.title_size, t.band_text, t)
    sub = band.subtitle
    if corner:
        corner_width = 4 * t.subtitle_size
        corner_box = (sub[2] - corner_width, sub[1], sub[2], sub[3])
        yield _cut(corner, corner_box, False, t.subtitle_size, t.band_dim, t, "r")
        sub = (sub[0], sub[1], corner_box[0] - t.pad, sub[3])
    yield _cut(subtitle, sub, False, t.subtitle_size, t.band_dim, t)


def _cut(
    text: str,
    slot: Box,
    bold: bool,
    size: int,
    fill: RGB,
    t: TournamentTheme,
    anchor: str = "l",
) -> Text:
    path = t.font_bold if bold else t.font_regular
    shown = _text.fit(_text.printable(text, path), path, size, max(slot[2] - slot[0], 1))
    return Text(visual(shown), slot, bold, size, fill, anchor)


_RTL: Final = frozenset({"R", "AL"})
_LTR: Final = frozenset({"L", "EN", "AN"})
"""Characters that set a run's direction (digits read left to right inside a right-to-left
name too); the others (spaces, punctuation, the "…") join the run around them."""
_MIRROR: Final = str.maketrans("()[]{}<>«»", ")(][}{><»«")
"""Brackets in a right-to-left run face the other way (Unicode's mirrored pairs)."""


def visual(text: str) -> str:
    """Returns ``text`` in the order its letters appear on the screen, for a right-to-left
    script (Hebrew) drawn by the fonts' basic layout, which puts letters left to right.

    A simplified bidirectional algorithm, enough for one line of a name: a space or mark takes
    the direction of the letters on both sides of it, or the line's (its first letter's) where
    they differ; runs of right-to-left letters are reversed, and so is the order of the runs in
    a line that starts with a right-to-left letter. Text with no
    right-to-left letter comes back as it is. (The basic layout is kept, as on the boards, so
    that a picture has the same pixels on every machine.)

    >>> visual("שלמה"), visual("Bob"), visual("שלמה 2"), visual("Ali (שלמה)")
    ('המלש', 'Bob', '2 המלש', 'Ali (המלש)')
    """
    kinds: list[bool | None] = []
    for ch in text:
        c = unicodedata.bidirectional(ch)
        kinds.append(True if c in _RTL else False if c in _LTR else None)
    if True not in kinds:
        return text
    base = next(kind for kind in kinds if kind is not None)
    # Neutral characters take their neighbours' direction where both agree, else the line's.
    resolved: list[bool] = []
    for i, kind in enumerate(kinds):
        if kind is None:
            before = next((k for k in reversed(kinds[:i]) if k is not None), base)
            after = next((k for k in kinds[i + 1 :] if k is not None), base)
            kind = before if before == after else base
        resolved.append(kind)
    runs: list[tuple[bool, str]] = []
    for ch, rtl in zip(text, resolved, strict=True):
        if runs and runs[-1][0] == rtl:
            runs[-1] = (rtl, runs[-1][1] + ch)
        else:
            runs.append((rtl, ch))
    pieces = [chars[::-1].translate(_MIRROR) if rtl else chars for rtl, chars in runs]
    if base:
        pieces.reverse()
    return "".join(pieces)


def _write(image: Image.Image, text: Text, t: TournamentTheme) -> None:
    left, top, right, bottom = text.slot
    y = (top + bottom) // 2
    x = {"l": left, "m": (left + right) // 2, "r": right}[text.anchor]
    path = t.font_bold if text.bold else t.font_regular
    _text.draw(
        image,
        (x, y),
        text.text,
        path=path,
        size=text.size,
        fill=text.fill,
        anchor=text.anchor + "m",
    )


def _inset(box: Box, pad: int) -> Box:
    """``box`` less ``pad`` on the left and the right (a cell's text keeps off its edges)."""
    return (box[0] + pad, box[1], box[2] - pad, box[3])


def _inclusive(box: Box) -> tuple[int, int, int, int]:
    """Pillow's shapes include their right and bottom edges; layout boxes exclude them."""
    return (box[0], box[1], box[2] - 1, box[3] - 1)


def _encode(image: Image.Image) -> bytes:
    """Returns ``image`` as PNG with a palette of :data:`PALETTE_COLOURS` (fast octree, no
    dithering: a flat fill stays flat). Median cut and ``optimize`` save a tenth of the bytes
    at four times the time (280 ms for a 64-player bracket)."""
    palette = image.quantize(
        PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    palette.save(out, TOURNAMENT_FORMAT)
    return out.getvalue()
