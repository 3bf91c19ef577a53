"""What the views show differently by format: its name, its rounds' names (a bracket's
"Final"), and its picture for :mod:`render.tournament` (a knock-out's bracket, a round robin's
cross table, a Swiss's standings). :data:`FORMAT_VIEWS` has a row per format, beside the
services' :data:`~bot.services.tournament_formats.FORMATS`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from bot.i18n import N_
from bot.model import Tournament, TournamentFormat, TournamentState
from bot.services.tournament_values import TournamentOverview
from bot.views.common import Translate, mention
from render.tournament_inputs import (
    Bracket,
    BracketMatch,
    CrossResult,
    Entrant,
    Heading,
    RoundRobinRow,
    RoundRobinTable,
    SwissResult,
    SwissRow,
    SwissTable,
)

Picture: TypeAlias = Bracket | RoundRobinTable | SwissTable
"""What :mod:`render.tournament` draws for a tournament."""


def title(tournament: Tournament, _: Translate) -> str:
    """The tournament's name, as its picture and messages head it."""
    return _("Tournament #{id}").format(id=tournament.id)


KNOCKOUT_ROUNDS: Final = (
    N_("Final"),
    N_("Semi-final"),
    N_("Quarter-final"),
    N_("Round of 16"),
    N_("Round of 32"),
    N_("Round of 64"),
)
"""A knock-out's rounds by what is left after them, the final first, as people name them
(«Финал», «Полуфинал», «Четвертьфинал», «1/8 финала»...)."""


def round_name(overview: TournamentOverview, number: int, _: Translate) -> str:
    """Round ``number``'s name: a bracket's as people say it, else "Round 3"."""
    t = overview.tournament
    left = t.rounds - number
    if overview.rules.bracket and 0 <= left < len(KNOCKOUT_ROUNDS):
        return _(KNOCKOUT_ROUNDS[left])
    return _("Round {n}").format(n=number)


def round_line(overview: TournamentOverview, _: Translate) -> str:
    """Where the tournament stands: a bracket's round by its name ("Semi-final"), a table's
    by its number of all ("Round 3 of 5")."""
    t = overview.tournament
    if overview.rules.bracket:
        return round_name(overview, t.round, _)
    return _("Round {n} of {rounds}").format(n=t.round, rounds=t.rounds)


def format_name(format: TournamentFormat, _: Translate) -> str:
    """The format's name, translated."""
    return _(FORMAT_VIEWS[format].name)


def picture(overview: TournamentOverview, _: Translate) -> Picture:
    """What :mod:`render.tournament` draws for the tournament: a knock-out's bracket, a round
    robin's cross table, a Swiss's standings."""
    t = overview.tournament
    heading = Heading(title(t, _), format_name(t.format, _), round_line(overview, _))
    return FORMAT_VIEWS[t.format].picture(overview, heading, _)


def _seeds(overview: TournamentOverview) -> dict[int, int]:
    ranked = sorted(overview.entrants, key=lambda e: (-e.rating, e.user_id))
    return {e.user_id: number for number, e in enumerate(ranked, start=1)}


def _bracket(overview: TournamentOverview, heading: Heading, _: Translate) -> Bracket:
    t = overview.tournament
    seeds = _seeds(overview)

    def entrant(user_id: int | None) -> Entrant | None:
        if user_id is None:
            return None
        return Entrant(mention(overview.user(user_id), _), seeds.get(user_id))

    first = [p for p in overview.pairings if p.round == 1]
    rounds = []
    for number in range(1, t.rounds + 1):
        boards = [p for p in overview.pairings if p.round == number]
        size = len(first) >> (number - 1)
        matches = []
        for index in range(size):
            if index >= len(boards):
                matches.append(BracketMatch())
                continue
            p = boards[index]
            winner: Literal[0, 1] | None = None
            if p.decided and p.second_id is not None:
                winner = 0 if p.winner_id == p.first_id else 1
            matches.append(
                BracketMatch(
                    entrant(p.first_id),
                    entrant(p.second_id),
                    winner,
                    playing=not p.decided,
                    note=_("on time") if (p.round, p.board) in overview.on_time else "",
                )
            )
        rounds.append(tuple(matches))
    champion = entrant(t.winner_id) if t.state is TournamentState.FINISHED else None
    return Bracket(
        heading,
        tuple(rounds),
        tuple(round_name(overview, n, _) for n in range(1, t.rounds + 1)),
        champion=champion,
        champion_label=_("Winner"),
        bye=_("bye"),
    )


def _cross(overview: TournamentOverview, heading: Heading, _: Translate) -> RoundRobinTable:
    order = [placing.player for placing in overview.standings]
    rows = []
    for placing in overview.standings:
        results: list[CrossResult | None] = []
        for other in order:
            if other == placing.player:
                results.append(None)
                continue
            board = next(
                (p for p in overview.pairings if set(p.players) == {placing.player, other}),
                None,
            )
            if board is None or board.game_id is None and not board.decided:
                results.append(None)
            elif not board.decided:
                results.append(CrossResult("playing"))
            elif board.winner_id == placing.player:
                results.append(CrossResult("win", "1"))
            else:
                results.append(CrossResult("loss", "0"))
        rows.append(
            RoundRobinRow(
                placing.place,
                mention(overview.user(placing.player), _),
                str(placing.score),
                tuple(results),
            )
        )
    return RoundRobinTable(heading, tuple(rows), _("Pts"), "#", _("Player"))


def _swiss(overview: TournamentOverview, heading: Heading, _: Translate) -> SwissTable:
    rank = {placing.player: placing.place for placing in overview.standings}
    rounds = overview.tournament.rounds
    rows = []
    for placing in overview.standings:
        results = []
        for number in range(1, rounds + 1):
            board = next(
                (p for p in overview.pairings if p.round == number and placing.player in p.players),
                None,
            )
            if board is None:
                results.append(SwissResult("pending"))
                continue
            if board.second_id is None:
                results.append(SwissResult("bye"))
                continue
            other = board.second_id if board.first_id == placing.player else board.first_id
            outcome: Literal["win", "loss", "playing"] = (
                "playing"
                if not board.decided
                else "win"
                if board.winner_id == placing.player
                else "loss"
            )
            results.append(SwissResult(outcome, rank.get(other)))
        rows.append(
            SwissRow(
                placing.place,
                mention(overview.user(placing.player), _),
                str(placing.score),
                str(placing.buchholz),
                tuple(results),
            )
        )
    return SwissTable(
        heading,
        tuple(rows),
        tuple(str(n) for n in range(1, rounds + 1)),
        _("Pts"),
        _("Buchholz"),
        "#",
        _("Player"),
        _("bye"),
    )


@dataclass(frozen=True, slots=True)
class FormatView:
    """What the views show of a format: its name (marked for translation) and how its
    picture is made from the overview, under its heading."""

    name: str
    picture: Callable[[TournamentOverview, Heading, Translate], Picture]


FORMAT_VIEWS: Final[Mapping[TournamentFormat, FormatView]] = {
    TournamentFormat.KNOCKOUT: FormatView(N_("Knock-out"), _bracket),
    TournamentFormat.ROUND_ROBIN: FormatView(N_("Round robin"), _cross),
    TournamentFormat.SWISS: FormatView(N_("Swiss"), _swiss),
}
if set(FORMAT_VIEWS) != set(TournamentFormat):  # pragma: no cover - a format without its view
    raise RuntimeError(f"formats without a view: {set(TournamentFormat) - set(FORMAT_VIEWS)}")
