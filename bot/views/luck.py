"""What the automatic analysis shows: the luck and PR line under a finished game's board, a
finished match's luck per player, the captions of the trend and the per-turn graph, the PR
flags for ``/flags``. Pure functions of domain values and ``_`` (the reader's gettext).

Luck is zero-sum (see :mod:`bot.ai.luck`): a side's luck is its own rolls' luck less its
opponent's, so the two figures of a game or a match are opposite."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate
from typing import Final

from bot.ai.luck import RollLuck
from bot.engine import VARIANTS, Side
from bot.model import PlayerLuck, PrFlag, User
from bot.services.autoanalysis import MatchLuck
from bot.views.common import SIDE_MARKS, VARIANT_NAMES, Translate, mention, player_name
from bot.views.numbers import count, decimal
from render.charts import Panel, Series

CHART_POINTS: Final = 5
"""A line of a chart needs at least this many points: with fewer it says nothing that a
sentence does not (``/stats`` once posted a chart of one dot)."""


def luck_line(figures: Sequence[PlayerLuck], _: Translate) -> str:
    """``🍀 luck: ⚪ +0.42 ⚫ −0.42 · PR 8.1 / 12.4``: each side's luck (zero-sum, points per
    unit of the cube) and PR, white's first."""
    by_side = {f.side: f for f in figures}
    white, black = by_side[Side.WHITE], by_side[Side.BLACK]
    text = _("luck: {white} {white_luck} {black} {black_luck} · PR {white_pr} / {black_pr}")
    return "🍀 " + text.format(
        white=SIDE_MARKS[Side.WHITE],
        black=SIDE_MARKS[Side.BLACK],
        white_luck=decimal(white.luck, _, sign=True),
        black_luck=decimal(black.luck, _, sign=True),
        white_pr=decimal(white.pr, _, digits=1),
        black_pr=decimal(black.pr, _, digits=1),
    )


def match_luck_line(match: MatchLuck, white: User, black: User, _: Translate) -> str:
    """``🍀 match luck, 3 games analysed: ⚪ +0.80 ⚫ −0.80 · luck-adjusted result +1.20 /
    −1.20``: each player's luck over the match's analysed games (``white`` and ``black``, the
    players of its last game) and, where every game's was kept, their luck-adjusted results
    in points."""
    sides = [match.players.get(white.id), match.players.get(black.id)]
    text = _(
        "match luck, {games} game analysed: {white} {white_luck} {black} {black_luck}",
        "match luck, {games} games analysed: {white} {white_luck} {black} {black_luck}",
        match.games,
    ).format(
        games=count(match.games, _),
        white=SIDE_MARKS[Side.WHITE],
        black=SIDE_MARKS[Side.BLACK],
        white_luck=decimal(sides[0].luck, _, sign=True) if sides[0] is not None else "?",
        black_luck=decimal(sides[1].luck, _, sign=True) if sides[1] is not None else "?",
    )
    adjusted = [one.adjusted if one is not None else None for one in sides]
    if adjusted[0] is not None and adjusted[1] is not None:
        text += " · " + _("luck-adjusted result {white} / {black}").format(
            white=decimal(adjusted[0], _, sign=True), black=decimal(adjusted[1], _, sign=True)
        )
    return "🍀 " + text


def charted(figures: Sequence[PlayerLuck]) -> list[PlayerLuck]:
    """The figures of the variants that have :data:`CHART_POINTS` games or more among
    ``figures``, in their order: what the trend chart draws (nothing, when none has)."""
    games = Counter(f.variant for f in figures)
    return [f for f in figures if games[f.variant] >= CHART_POINTS]


def trend_caption(user: User, figures: Sequence[PlayerLuck], _: Translate) -> str:
    """Under the trend chart: whose, over how many games, the mean PR and the luck in all."""
    decisions = sum(f.decisions for f in figures)
    pr = sum(f.pr * f.decisions for f in figures) / decisions if decisions else 0.0
    text = _(
        "{name}: PR and luck over the last {games} analysed game. PR {pr} (lower is better), "
        "luck {luck} points.",
        "{name}: PR and luck over the last {games} analysed games. PR {pr} (lower is better), "
        "luck in all {luck} points.",
        len(figures),
    )
    return "📈 " + text.format(
        name=player_name(user, _),
        games=count(len(figures), _),
        pr=decimal(pr, _, digits=1),
        luck=decimal(sum(f.luck for f in figures), _, sign=True),
    )


def graph_caption(game_id: int, _: Translate) -> str:
    """Under a game's per-turn graph."""
    return "📈 " + _(
        "Game #{game}: white's equity before each roll, and each side's luck so far."
    ).format(game=game_id)


def pr_flag_line(flag: PrFlag, user: User, _: Translate) -> str:
    """One PR flag: who, the variant, their PR over how many games, the PR their rating
    predicts, the rating and the date (UTC)."""
    return _(
        "{name} ({variant}): PR {pr} over {games} rated game, {expected} expected at rating "
        "{rating}, {date}",
        "{name} ({variant}): PR {pr} over {games} rated games, {expected} expected at rating "
        "{rating}, {date}",
        flag.games,
    ).format(
        name=player_name(user, _),
        variant=_(VARIANT_NAMES.get(flag.variant, flag.variant)),
        pr=decimal(flag.pr, _, digits=1),
        games=count(flag.games, _),
        expected=decimal(flag.expected, _, digits=1),
        rating=f"{flag.rating:.0f}",
        date=dt.datetime.fromtimestamp(flag.created_at, dt.UTC).strftime("%Y-%m-%d"),
    )


def trend_panels(figures: Sequence[PlayerLuck], _: Translate) -> list[Panel]:
    """The ``/stats`` chart of a player's ``figures`` (oldest first): PR game by game, and
    luck added up game by game, a line per variant (in the registry's order) that has
    :data:`CHART_POINTS` games or more; no panel when none has."""
    figures = charted(figures)
    if not figures:
        return []
    by_variant = {
        variant: [f for f in figures if f.variant == variant]
        for variant in VARIANTS
        if any(f.variant == variant for f in figures)
    }
    names = {variant: _(VARIANT_NAMES.get(variant, variant)) for variant in by_variant}
    return [
        Panel(
            _("PR by game (lower is better)"),
            tuple(Series(names[v], tuple(f.pr for f in games)) for v, games in by_variant.items()),
        ),
        Panel(
            _("Luck added up, points"),
            tuple(
                Series(names[v], tuple(accumulate(f.luck for f in games)))
                for v, games in by_variant.items()
            ),
        ),
    ]


def game_panels(rolls: Sequence[RollLuck], white: User, black: User, _: Translate) -> list[Panel]:
    """A game's per-turn graph: white's equity before each roll (the mean value of the roll
    to come, from white's side), and each side's luck added up roll by roll (zero-sum: the
    two lines mirror each other, and end at the luck line's figures); no panel for a game of
    fewer than :data:`CHART_POINTS` rolls."""
    if len(rolls) < CHART_POINTS:
        return []
    equity = tuple(r.mean if r.side is Side.WHITE else -r.mean for r in rolls)
    luck = {
        side: tuple(accumulate(r.luck_for(side) for r in rolls))
        for side in (Side.WHITE, Side.BLACK)
    }
    return [
        Panel(_("Equity before each roll, white's side"), (Series(mention(white, _), equity),)),
        Panel(
            _("Luck added up, points"),
            (
                Series(mention(white, _), luck[Side.WHITE]),
                Series(mention(black, _), luck[Side.BLACK]),
            ),
        ),
    ]
