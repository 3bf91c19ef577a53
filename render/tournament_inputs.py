"""What a tournament picture is given: plain values (the dataclasses below) with every word
already translated by the caller. Render knows no language and no tournament rule; it draws
what it is given: a knock-out :class:`Bracket`, a round robin's :class:`RoundRobinTable`, a
:class:`SwissTable` of standings. Pure, no Pillow."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

MAX_PLAYERS: Final = 64
"""The largest knock-out field drawn: six rounds."""
MAX_CROSS: Final = 16
"""The most players of a round robin cross table (cells stay at least 40 px wide)."""
MAX_ROUNDS: Final = 12
"""The most round columns of a standings table."""
# Inputs.

Outcome: TypeAlias = Literal["win", "loss", "draw", "bye", "playing", "pending"]
"""A result for one player: won, lost, drawn, had a bye, is playing it now, not begun."""


@dataclass(frozen=True, slots=True)
class Heading:
    """The title band: the tournament's name, its format and the current round, translated,
    e.g. ``Heading("Spring cup", "Knock-out", "Round 2")``."""

    title: str
    format: str = ""
    round: str = ""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a bracket: the display name (any text; what the font lacks is left out)
    and the seed, shown before the name when given."""

    name: str
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One box of a bracket.

    :param top: the upper player; ``None`` is a bye in the first round (drawn with the
        bracket's ``bye`` label) and a place not yet decided in later rounds (left blank).
    :param bottom: the lower player, likewise.
    :param winner: 0 for ``top``, 1 for ``bottom``, ``None`` while undecided. The winner's row
        is drawn bold, the loser's dimmed.
    :param score: the match score as the caller writes it, e.g. ``"3–1"``, drawn at the box's
        right; empty for none.
    :param playing: the match is under way: the box is outlined in the accent colour.
    :param note: a word or two at the box's top right, e.g. "on time" for a match its
        loser's clock decided; empty for none.
    """

    top: Entrant | None = None
    bottom: Entrant | None = None
    winner: Literal[0, 1] | None = None
    score: str = ""
    playing: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knock-out bracket: ``rounds[0]`` the first round's matches top to bottom (a power of
    two of them, byes included, in bracket order: the winners of matches ``2k`` and ``2k+1``
    meet in match ``k`` of the next round), each later round half as many.

    :param round_names: each round's column heading, e.g. ``("Round 1", "Semi-final",
        "Final")``; missing ones are left blank.
    :param champion: the winner of the final, once known; drawn in the champion's box.
    :param champion_label: the word over the champion's name, e.g. "Winner".
    :param bye: the word in the place of a missing first-round player, e.g. "bye".
    """

    heading: Heading
    rounds: tuple[tuple[BracketMatch, ...], ...]
    round_names: tuple[str, ...] = ()
    champion: Entrant | None = None
    champion_label: str = ""
    bye: str = ""

    def __post_init__(self) -> None:
        if not self.rounds:
            raise ValueError("a bracket has at least one round")
        first = len(self.rounds[0])
        size = 2 * first
        if size < 2 or size > MAX_PLAYERS or first & (first - 1):
            raise ValueError(f"a first round of 1..32 matches, a power of two, not {first}")
        expected = int(math.log2(size))
        if len(self.rounds) != expected:
            raise ValueError(f"{size} places need {expected} rounds, not {len(self.rounds)}")
        for index, matches in enumerate(self.rounds):
            if len(matches) != first >> index:
                raise ValueError(f"round {index + 1} needs {first >> index} matches")


@dataclass(frozen=True, slots=True)
class CrossResult:
    """A cell of a round robin cross table: the row player's result against the column's.

    :param score: what the cell shows, e.g. ``"1"``, ``"½"`` or ``"3–1"``; empty while the
        match is not played (a ``"playing"`` cell shows a dot then).
    """

    outcome: Outcome
    score: str = ""


@dataclass(frozen=True, slots=True)
class RoundRobinRow:
    """A row of a cross table, in the table's order (``rank`` as the caller ranks it: shared
    places may repeat). ``results[i]`` is against the player of row ``i``, ``None`` for the
    row's own cell or a pairing without a result yet."""

    rank: int
    name: str
    points: str
    results: tuple[CrossResult | None, ...]


@dataclass(frozen=True, slots=True)
class RoundRobinTable:
    """A round robin cross table (up to :data:`MAX_CROSS` players): rank, name, a column per
    opponent (numbered as the rows), the points. ``rank_label``, ``name_label`` and
    ``points_label`` are the column headings, translated."""

    heading: Heading
    rows: tuple[RoundRobinRow, ...]
    points_label: str = ""
    rank_label: str = "#"
    name_label: str = ""

    def __post_init__(self) -> None:
        if not 2 <= len(self.rows) <= MAX_CROSS:
            raise ValueError(f"a cross table has 2..{MAX_CROSS} players, not {len(self.rows)}")
        for row in self.rows:
            if len(row.results) != len(self.rows):
                raise ValueError(f"{row.name!r} needs {len(self.rows)} results")


@dataclass(frozen=True, slots=True)
class SwissResult:
    """One round of a standings row: the outcome and the opponent's number as shown in the
    rank column (``None`` for a bye or a round not paired). Drawn compactly: ``+5`` won
    against 5, ``−5`` lost, ``=5`` drawn, ``·5`` playing now, ``5`` paired, the table's
    ``bye`` word for a bye."""

    outcome: Outcome
    opponent: int | None = None


@dataclass(frozen=True, slots=True)
class SwissRow:
    """A row of a standings table, in the table's order; points and Buchholz as the caller
    formats them (``"2½"``, ``"2.5"``)."""

    rank: int
    name: str
    points: str
    buchholz: str
    results: tuple[SwissResult, ...] = ()


@dataclass(frozen=True, slots=True)
class SwissTable:
    """A Swiss (or large round robin) standings table: rank, name, points, Buchholz, each
    round's result. ``round_labels`` head the round columns (e.g. ``("1", "2", "3")``), one
    per round drawn, at most :data:`MAX_ROUNDS`; every row has that many results (rounds to
    come are ``"pending"``)."""

    heading: Heading
    rows: tuple[SwissRow, ...]
    round_labels: tuple[str, ...] = ()
    points_label: str = ""
    buchholz_label: str = ""
    rank_label: str = "#"
    name_label: str = ""
    bye: str = ""

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError("a standings table has at least one row")
        if len(self.round_labels) > MAX_ROUNDS:
            raise ValueError(f"at most {MAX_ROUNDS} rounds, not {len(self.round_labels)}")
        for row in self.rows:
            if len(row.results) != len(self.round_labels):
                raise ValueError(f"{row.name!r} needs {len(self.round_labels)} results")
