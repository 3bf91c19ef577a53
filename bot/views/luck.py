"""What the automatic analysis shows: the luck and PR line under a finished game's board, a
finished match's luck per player, the captions of the trend and the per-turn graph, the PR
flags for ``/flags``. Pure functions of domain values and ``_`` (the reader's gettext).

Luck is zero-sum (see :mod:`bot.ai.luck`): a side's luck is its own rolls' luck less its
opponent's, so the two figures of a game or a match are opposite."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from itertools import accumulate

from bot.ai.luck import RollLuck
from bot.engine import VARIANTS, Side
from bot.model import PlayerLuck, PrFlag, User
from bot.services.autoanalysis import MatchLuck
from bot.views.common import SIDE_MARKS, VARIANT_NAMES, Translate, mention, player_name
from render.charts import Panel, Series

MINUS = "\N{MINUS SIGN}"


def signed(value: float) -> str:
    """``+0.42``, ``−0.42`` (a real minus sign), ``0.00``."""
    text = f"{abs(value):.2f}"
    if text == "0.00":
        return text
    return ("+" if value > 0 else MINUS) + text


def luck_line(figures: Sequence[PlayerLuck], _: Translate) -> str:
    """``🍀 luck: ⚪ +0.42 ⚫ −0.42 · PR 8.1 / 12.4``: each side's luck (zero-sum, points per
    unit of the cube) and PR, white's first."""
    by_side = {f.side: f for f in figures}
    white, black = by_side[Side.WHITE], by_side[Side.BLACK]
    text = _("luck: {white} {white_luck} {black} {black_luck} · PR {white_pr} / {black_pr}")
    return "🍀 " + text.format(
        white=SIDE_MARKS[Side.WHITE],
        black=SIDE_MARKS[Side.BLACK],
        white_luck=signed(white.luck),
        black_luck=signed(black.luck),
        white_pr=f"{white.pr:.1f}",
        black_pr=f"{black.pr:.1f}",
    )


def match_luck_line(match: MatchLuck, white: User, black: User, _: Translate) -> str:
    """``🍀 match luck, 3 games analysed: ⚪ +0.80 ⚫ −0.80 · luck-adjusted result +1.20 /
    −1.20``: each player's luck over the match's analysed games (``white`` and ``black``, the
    players of its last game) and, where every game's was kept, their luck-adjusted results
    in points."""
    sides = [match.players.get(white.id), match.players.get(black.id)]
    text = _(
        "match luck, {games} games analysed: {white} {white_luck} {black} {black_luck}"
    ).format(
        games=match.games,
        white=SIDE_MARKS[Side.WHITE],
        black=SIDE_MARKS[Side.BLACK],
        white_luck=signed(sides[0].luck) if sides[0] is not None else "?",
        black_luck=signed(sides[1].luck) if sides[1] is not None else "?",
    )
    adjusted = [one.adjusted if one is not None else None for one in sides]
    if adjusted[0] is not None and adjusted[1] is not None:
        text += " · " + _("luck-adjusted result {white} / {black}").format(
            white=signed(adjusted[0]), black=signed(adjusted[1])
        )
    return "🍀 " + text


def trend_caption(user: User, figures: Sequence[PlayerLuck], _: Translate) -> str:
    """Under the trend chart: whose, over how many games, the mean PR and the luck in all."""
    decisions = sum(f.decisions for f in figures)
    pr = sum(f.pr * f.decisions for f in figures) / decisions if decisions else 0.0
    return "📈 " + _(
        "{name}: PR and luck over the last {games} analysed games. PR {pr} "
        "(lower is better), luck in all {luck} points."
    ).format(
        name=player_name(user, _),
        games=len(figures),
        pr=f"{pr:.1f}",
        luck=signed(sum(f.luck for f in figures)),
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
        "{name} ({variant}): PR {pr} over {games} rated games, {expected} expected at rating "
        "{rating}, {date}"
    ).format(
        name=player_name(user, _),
        variant=_(VARIANT_NAMES.get(flag.variant, flag.variant)),
        pr=f"{flag.pr:.1f}",
        games=flag.games,
        expected=f"{flag.expected:.1f}",
        rating=f"{flag.rating:.0f}",
        date=dt.datetime.fromtimestamp(flag.created_at, dt.UTC).strftime("%Y-%m-%d"),
    )


def trend_panels(figures: Sequence[PlayerLuck], _: Translate) -> list[Panel]:
    """The ``/stats`` chart of a player's ``figures`` (oldest first): PR game by game, and
    luck added up game by game, a line per variant (in the registry's order)."""
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
    two lines mirror each other, and end at the luck line's figures)."""
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
