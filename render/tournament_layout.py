"""Tournament pictures' geometry and look: where a knock-out bracket's boxes and lines go, a
standings table's rows and columns, the pages each takes, the themes.

Pure arithmetic, no Pillow (like :mod:`render.layout`), so that it is tested exactly. The
picture for the pinned tournament message is drawn by :mod:`render.tournament` from it and
from its inputs (:mod:`render.tournament_inputs`). A bracket is portrait,
:attr:`TournamentTheme.bracket_width` wide, read on a phone (:data:`SHOWN_WIDTH`,
:data:`MIN_TEXT`), a page for each 16 places of a bigger first round (:func:`bracket_pages`);
tables are :attr:`TournamentTheme.width` wide, at most :data:`ROWS_PER_PAGE` rows a page
(:func:`page_count`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from .theme import ASSETS, RGB
from .tournament_inputs import MAX_CROSS, MAX_PLAYERS, MAX_ROUNDS

Box: TypeAlias = tuple[int, int, int, int]
"""``(left, top, right, bottom)``; right and bottom are exclusive, as in Pillow."""
Segment: TypeAlias = tuple[int, int, int, int]
"""A connector line, horizontal or vertical: ``(x0, y0, x1, y1)``, both ends included."""

ROWS_PER_PAGE: Final = 32
"""Rows of a table on one picture; a 256-player Swiss takes 8 pages."""


# The look.


@dataclass(frozen=True, slots=True)
class TournamentTheme:
    """Sizes (pixels of the final image), colours and fonts of the tournament pictures."""

    width: int = 1280
    margin: int = 28
    title_height: int = 104
    """The title band: the name on one line, format and round on the next."""
    title_size: int = 38
    subtitle_size: int = 24
    header_height: int = 36
    """The band of headings over a table."""
    header_size: int = 19
    bracket_width: int = 720
    """A bracket's width: names of :attr:`name_size` read :data:`MIN_TEXT` pixels high or more
    at :data:`SHOWN_WIDTH`."""
    row_height: int = 40
    """One player's row in a bracket box."""
    name_size: int = 24
    seed_size: int = 17
    seed_width: int = 32
    score_width: int = 64
    label_height: int = 26
    """The strip at the top of a bracket box: the round's name, a note."""
    label_size: int = 18
    pad: int = 6
    """Space between a box's edge and its text."""
    match_gap: int = 12
    """Vertical space between two bracket boxes, where the lines run."""
    indent: int = 44
    """How much further right each round of a bracket starts than the one before."""
    table_row: int = 40
    table_size: int = 21
    rank_width: int = 56
    points_width: int = 90
    buchholz_width: int = 130
    round_width: int = 64
    """A round column of a standings table, narrowed down to ``min_cell`` for many rounds."""
    cross_width: int = 60
    """A cross table's cell, narrowed down to ``min_cell`` for many players."""
    min_cell: int = 40
    min_name: int = 200
    radius: int = 6

    background: RGB = (250, 248, 244)
    band: RGB = (46, 64, 96)
    """The title band."""
    band_text: RGB = (255, 255, 255)
    band_dim: RGB = (190, 204, 226)
    header: RGB = (232, 228, 220)
    header_text: RGB = (70, 66, 60)
    box: RGB = (255, 255, 255)
    box_edge: RGB = (196, 190, 180)
    stripe: RGB = (243, 240, 234)
    """Every other table row."""
    divider: RGB = (232, 228, 220)
    """The line between a bracket box's two rows."""
    own_cell: RGB = (214, 208, 198)
    """A cross table's diagonal."""
    text: RGB = (30, 30, 34)
    text_dim: RGB = (140, 136, 130)
    line: RGB = (160, 154, 146)
    accent: RGB = (214, 120, 20)
    """A match being played; the champion's box."""
    win: RGB = (28, 128, 60)
    loss: RGB = (190, 50, 40)
    draw: RGB = (90, 110, 160)

    font_regular: str = str(ASSETS / "DejaVuSans.ttf")
    font_bold: str = str(ASSETS / "DejaVuSans-Bold.ttf")


LIGHT: Final = TournamentTheme()
"""The default look: light, like a printed table."""
DARK: Final = TournamentTheme(
    background=(30, 32, 36),
    band=(16, 18, 22),
    band_text=(240, 240, 240),
    band_dim=(150, 156, 168),
    header=(46, 50, 58),
    header_text=(200, 200, 206),
    box=(44, 48, 56),
    box_edge=(78, 84, 96),
    stripe=(38, 41, 47),
    divider=(64, 70, 80),
    own_cell=(70, 74, 84),
    text=(236, 236, 240),
    text_dim=(130, 136, 148),
    line=(104, 110, 124),
    accent=(255, 170, 40),
    win=(96, 200, 120),
    loss=(240, 110, 96),
    draw=(140, 170, 230),
)
"""The same sizes on a dark ground, for chats in a dark theme."""


# The title band.


@dataclass(frozen=True, slots=True)
class TitleBand:
    """The title band's box and its two text lines' boxes (the page number, when a table has
    several pages, at the right of the second line)."""

    box: Box
    title: Box
    subtitle: Box


def title_band(theme: TournamentTheme, width: int | None = None) -> TitleBand:
    """Returns the title band at the top of every picture (``width`` wide: the theme's, a
    table's, by default)."""
    t = theme
    width = t.width if width is None else width
    inner = width - t.margin
    title_top = (t.title_height - t.title_size - t.subtitle_size - 16) // 2
    title = (t.margin, title_top, inner, title_top + t.title_size + 6)
    subtitle = (t.margin, title[3] + 6, inner, title[3] + 10 + t.subtitle_size)
    return TitleBand((0, 0, width, t.title_height), title, subtitle)


# The bracket.

PAGE_ROUNDS: Final = 4
"""The most rounds of a bracket on one picture: 16 places, a knock-out of up to 16 players."""
SHOWN_WIDTH: Final = 400
"""The width a chat shows a photo at on a phone, in pixels (about what Telegram gives a photo
on a phone's screen): the width a bracket's text is measured at."""
MIN_TEXT: Final = 12
"""The least height of a player's name or score at :data:`SHOWN_WIDTH`, in pixels of the
phone's screen (the font's size, as CSS counts ``font-size``)."""


def shown_size(size: int, width: int) -> float:
    """Returns how high text of ``size`` pixels reads on a picture ``width`` pixels wide
    shown :data:`SHOWN_WIDTH` wide.

    >>> shown_size(24, 720), shown_size(19, 1280)
    (13.333333333333334, 5.9375)
    """
    return size * SHOWN_WIDTH / width


@dataclass(frozen=True, slots=True)
class BracketPage:
    """A part of a bracket drawn on one picture: ``rounds`` rounds from round ``first_round``
    (0-based), the matches of that round from ``first_match`` on (``2 ** (rounds - 1)`` of
    them) and those they lead to; ``champion``: it ends with the champion's box (the page
    with the final)."""

    first_round: int
    rounds: int
    first_match: int
    champion: bool

    def matches(self, r: int) -> range:
        """The indices, in the whole bracket's round ``first_round + r``, of the page's
        matches of its ``r``-th round."""
        count = 1 << (self.rounds - 1 - r)
        start = self.first_match >> r
        return range(start, start + count)


def bracket_pages(size: int) -> tuple[BracketPage, ...]:
    """Returns the pages a bracket of ``size`` places is drawn on: one up to 16 places; for
    32 and 64, each 16 places of the first round with their first four rounds, then the
    rounds after them (the semi-finals and the final for 64, the final for 32) with the
    champion.

    >>> [(p.first_round, p.rounds, p.first_match, p.champion) for p in bracket_pages(32)]
    [(0, 4, 0, False), (0, 4, 8, False), (4, 1, 0, True)]
    """
    rounds = _rounds(size)
    if rounds <= PAGE_ROUNDS:
        return (BracketPage(0, rounds, 0, True),)
    parts = 1 << (rounds - PAGE_ROUNDS)
    half = 1 << (PAGE_ROUNDS - 1)
    lower = tuple(BracketPage(0, PAGE_ROUNDS, k * half, False) for k in range(parts))
    return (*lower, BracketPage(PAGE_ROUNDS, rounds - PAGE_ROUNDS, 0, True))


@dataclass(frozen=True, slots=True)
class MatchBox:
    """A match's box in a bracket and the slots of its text: the label strip at its top (the
    round's name at the left, a note such as "on time" at the right), then for each of its
    two rows (top, bottom) the seed's and the name's, and the score's at the right of both
    rows. The champion's box has one row (``rows[1]`` is then empty, as wide as ``rows[0]``
    and zero high)."""

    box: Box
    label: Box
    note: Box
    rows: tuple[Box, Box]
    seeds: tuple[Box, Box]
    names: tuple[Box, Box]
    score: Box

    @property
    def centre_y(self) -> int:
        """Returns the y of the middle of the box's player rows, where the line to the match
        its winner plays next leaves it."""
        return (self.rows[0][1] + self.box[3]) // 2


@dataclass(frozen=True, slots=True)
class BracketLayout:
    """The geometry of one page of a bracket (:class:`BracketPage`), portrait, to be read on a
    phone: every match is a full-width box on a row of its own, in the order the tree is read
    from top to bottom (each match between the two it follows), each round a step right of
    the one before, and the champion's box last, below them all, after the final. Lines run
    from each match's right edge a half step right, then up or down into the top or the
    bottom of the match its winner plays next."""

    page: BracketPage
    width: int
    height: int
    title: TitleBand
    matches: tuple[tuple[MatchBox, ...], ...]
    """``matches[r][k]``: the page's match ``k`` of its round ``r``, top to bottom."""
    champion: MatchBox | None
    """The champion's box, after the final; None on a page without the final."""
    connectors: tuple[Segment, ...]


def bracket_size(players: int) -> int:
    """Returns the places of a bracket for ``players``: the next power of two, at least 2.

    >>> bracket_size(5), bracket_size(8), bracket_size(2)
    (8, 8, 2)
    """
    if not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"a knock-out has 2..{MAX_PLAYERS} players, not {players}")
    return 1 << (players - 1).bit_length()


def _rounds(size: int) -> int:
    if size < 2 or size > MAX_PLAYERS or size & (size - 1):
        raise ValueError(f"a bracket has a power of two of places, 2..{MAX_PLAYERS}, not {size}")
    return size.bit_length() - 1


def tree_row(r: int, k: int) -> int:
    """Returns the row of match ``k`` of round ``r`` (both 0-based, rounds counted on the
    page) when a bracket is read from top to bottom: each match between the two it follows.

    >>> [tree_row(0, k) for k in range(4)], [tree_row(1, k) for k in range(2)], tree_row(2, 0)
    ([0, 2, 4, 6], [1, 5], 3)
    """
    return k * (2 << r) + (1 << r) - 1


def bracket_layout(
    size: int, theme: TournamentTheme = LIGHT, page: BracketPage | None = None
) -> BracketLayout:
    """Returns the geometry of ``page`` (the first by default, see :func:`bracket_pages`) of
    a bracket of ``size`` places (see :func:`bracket_size`)."""
    pages = bracket_pages(size)
    page = pages[0] if page is None else page
    if page not in pages:
        raise ValueError(f"a bracket of {size} places has no page {page}")
    t = theme
    width = t.bracket_width
    steps = page.rounds if page.champion else page.rounds - 1
    box_width = width - 2 * t.margin - steps * t.indent - (0 if page.champion else t.indent // 2)
    box_h = t.label_height + 2 * t.row_height
    pitch = box_h + t.match_gap
    top = t.title_height + t.margin
    matches = []
    for r in range(page.rounds):
        left = t.margin + r * t.indent
        matches.append(
            tuple(
                _match_box(left, top + tree_row(r, k) * pitch, box_width, t)
                for k in range(1 << (page.rounds - 1 - r))
            )
        )
    rows = (1 << page.rounds) - 1
    champion = None
    if page.champion:
        left = t.margin + page.rounds * t.indent
        champion = _match_box(left, top + rows * pitch, box_width, t, players=1)
        bottom = champion.box[3]
    else:
        bottom = top + rows * pitch - t.match_gap
    connectors: list[Segment] = []
    for r in range(1, page.rounds):
        for k, match in enumerate(matches[r]):
            a, b = matches[r - 1][2 * k], matches[r - 1][2 * k + 1]
            x = a.box[2] + t.indent // 2
            connectors += [
                (a.box[2], a.centre_y, x, a.centre_y),
                (x, a.centre_y, x, match.box[1] - 1),
                (b.box[2], b.centre_y, x, b.centre_y),
                (x, match.box[3], x, b.centre_y),
            ]
    last = matches[-1][0]
    x = last.box[2] + t.indent // 2
    end = champion.box[1] - 1 if champion is not None else bottom + t.margin // 2
    connectors += [(last.box[2], last.centre_y, x, last.centre_y), (x, last.centre_y, x, end)]
    return BracketLayout(
        page=page,
        width=width,
        height=bottom + t.margin,
        title=title_band(t, width),
        matches=tuple(matches),
        champion=champion,
        connectors=tuple(connectors),
    )


def _match_box(
    left: int, top: int, width: int, t: TournamentTheme, *, players: int = 2
) -> MatchBox:
    right = left + width
    strip = top + t.label_height
    bottom = strip + players * t.row_height
    half = (right - left - 2 * t.pad) // 2
    label = (left + t.pad, top, left + t.pad + half, strip)
    note = (label[2], top, right - t.pad, strip)
    score = (right - t.pad - t.score_width, strip, right - t.pad, bottom)
    rows = []
    seeds = []
    names = []
    for i in range(2):
        y0 = min(strip + i * t.row_height, bottom)
        y1 = min(y0 + t.row_height, bottom)
        rows.append((left, y0, right, y1))
        seeds.append((left + t.pad, y0, left + t.pad + t.seed_width, y1))
        names.append((seeds[-1][2] + t.pad // 2, y0, score[0] - t.pad, y1))
    return MatchBox(
        box=(left, top, right, bottom),
        label=label,
        note=note,
        rows=(rows[0], rows[1]),
        seeds=(seeds[0], seeds[1]),
        names=(names[0], names[1]),
        score=score,
    )


# Tables.


@dataclass(frozen=True, slots=True)
class TableLayout:
    """The geometry of one page of a table: the heading cells, then each row's cells, left
    to right in the order of the column widths given to :func:`table_layout`."""

    width: int
    height: int
    title: TitleBand
    header: tuple[Box, ...]
    rows: tuple[Box, ...]
    """Each row's whole box (for its stripe)."""
    cells: tuple[tuple[Box, ...], ...]


def page_count(rows: int) -> int:
    """Returns the pages a table of ``rows`` rows takes (:data:`ROWS_PER_PAGE` a page).

    >>> page_count(7), page_count(256)
    (1, 8)
    """
    return max(1, -(-rows // ROWS_PER_PAGE))


def page_rows(rows: int, page: int) -> range:
    """Returns the indices of the rows on ``page`` (0-based) of a table of ``rows`` rows."""
    if not 0 <= page < page_count(rows):
        raise ValueError(f"a table of {rows} rows has no page {page}")
    return range(page * ROWS_PER_PAGE, min(rows, (page + 1) * ROWS_PER_PAGE))


def table_layout(
    columns: tuple[int | None, ...], rows: int, theme: TournamentTheme = LIGHT
) -> TableLayout:
    """Returns the geometry of a table of ``rows`` rows (one page, at most
    :data:`ROWS_PER_PAGE`) and ``columns`` of these widths; the one ``None`` takes what is
    left of the width (the names), at least ``min_name``."""
    if not 1 <= rows <= ROWS_PER_PAGE:
        raise ValueError(f"a page has 1..{ROWS_PER_PAGE} rows, not {rows}")
    if list(columns).count(None) != 1:
        raise ValueError("exactly one column takes the rest of the width")
    t = theme
    span = t.width - 2 * t.margin
    fixed = sum(w for w in columns if w is not None)
    rest = span - fixed
    if rest < t.min_name:
        raise ValueError(f"columns of {fixed} px leave the names {rest} px, under {t.min_name}")
    widths = [rest if w is None else w for w in columns]
    edges = [t.margin]
    for w in widths:
        edges.append(edges[-1] + w)
    header_top = t.title_height + t.margin // 2
    header_bottom = header_top + t.header_height
    header = tuple((edges[i], header_top, edges[i + 1], header_bottom) for i in range(len(widths)))
    row_boxes = []
    cells = []
    for r in range(rows):
        y0 = header_bottom + r * t.table_row
        y1 = y0 + t.table_row
        row_boxes.append((t.margin, y0, t.width - t.margin, y1))
        cells.append(tuple((edges[i], y0, edges[i + 1], y1) for i in range(len(widths))))
    return TableLayout(
        width=t.width,
        height=header_bottom + rows * t.table_row + t.margin,
        title=title_band(t),
        header=header,
        rows=tuple(row_boxes),
        cells=tuple(cells),
    )


def cross_columns(players: int, theme: TournamentTheme = LIGHT) -> tuple[int | None, ...]:
    """Returns the column widths of a cross table: rank, name, one cell per player, points."""
    if not 2 <= players <= MAX_CROSS:
        raise ValueError(f"a cross table has 2..{MAX_CROSS} players, not {players}")
    t = theme
    room = t.width - 2 * t.margin - t.rank_width - t.points_width - t.min_name
    cell = max(t.min_cell, min(t.cross_width, room // players))
    return (t.rank_width, None, *(cell,) * players, t.points_width)


def swiss_columns(rounds: int, theme: TournamentTheme = LIGHT) -> tuple[int | None, ...]:
    """Returns the column widths of a standings table: rank, name, points, Buchholz, one
    column per round."""
    if not 0 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"a standings table has 0..{MAX_ROUNDS} rounds, not {rounds}")
    t = theme
    fixed = t.rank_width + t.points_width + t.buchholz_width
    room = t.width - 2 * t.margin - fixed - t.min_name
    cell = max(t.min_cell, min(t.round_width, room // rounds)) if rounds else 0
    return (t.rank_width, None, t.points_width, t.buchholz_width, *(cell,) * rounds)
