"""What the score commands show: head-to-head scores, statistics, leaderboards and rating
tables, game histories with their file buttons, chip statements. Texts in the reader's locale
(gettext of the handler's context); the handlers in :mod:`bot.handlers.scores` only fetch and
send."""

from __future__ import annotations

import datetime as dt
from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.i18n import gettext as _
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.ai import level as computer_level
from bot.callbacks import MovesFile
from bot.engine import Side
from bot.i18n import N_
from bot.model import FinishedGame, MatchRecord, PlayerStats, RatedPlayer, Standing, Tally, User
from bot.services.chips import DAILY_FLOOR
from bot.services.scores import ChipStatement
from bot.views.common import OUTCOME_NAMES, VARIANT_NAMES, Translate, player_name

HISTORY_GAMES: Final = 10
"""Games that ``/history`` lists, each with its file button."""
FILE_BUTTONS_PER_ROW: Final = 5
LEDGER_KINDS: Final = {
    "grant": N_("starting grant"),
    "top_up": N_("daily top-up"),
    "tournament_entry": N_("tournament entry"),
    "tournament_refund": N_("tournament entry back"),
    "tournament_prize": N_("tournament prize"),
}


def stats_text(user: User, stats: PlayerStats, chips: int) -> str:
    """``/stats``'s answer. Home mars is counted apart from mars and shown on a line of its own
    when there was one (the rule sets that know it score it above mars)."""
    lines = [html.bold(_("Statistics of {name}").format(name=player_name(user, _)))]
    for variant, rating in stats.ratings:
        lines.append(
            _("Rating, {variant}: {rating} ±{deviation} ({games} games)").format(
                variant=_(VARIANT_NAMES.get(variant, variant)),
                rating=round(rating.rating),
                deviation=round(rating.deviation),
                games=rating.games,
            )
        )
    if not stats.games:
        lines.append(_("0 games so far: start one with /play."))
    else:
        lines += [
            _("Games: {games}, wins: {wins} ({rate}%)").format(
                games=stats.games, wins=stats.wins, rate=round(100 * stats.wins / stats.games)
            ),
            _("Points: {won} won, {lost} lost").format(
                won=stats.points_won, lost=stats.points_lost
            ),
            _("Mars: {given} given, {taken} taken").format(
                given=stats.mars_given, taken=stats.mars_taken
            ),
        ]
        if stats.home_mars_given or stats.home_mars_taken:
            lines.append(
                _("Home mars: {given} given, {taken} taken").format(
                    given=stats.home_mars_given, taken=stats.home_mars_taken
                )
            )
        lines.append(
            _("Koks: {given} given, {taken} taken").format(
                given=stats.koks_given, taken=stats.koks_taken
            )
        )
        if stats.streak >= 0:
            streak = _("Winning streak: longest {best}, current {current}").format(
                best=stats.best_streak, current=stats.streak
            )
        else:
            streak = _("Winning streak: longest {best}; now {lost} lost in a row").format(
                best=stats.best_streak, lost=-stats.streak
            )
        lines.append(streak)
    if stats.computer:
        lines.append(html.bold(_("Against the computer (not rated)")))
        for record in stats.computer:
            lines.append(
                _(
                    "🤖 level {level} (rating {rating}): {games} games, {wins} wins, "
                    "points {won}:{lost}"
                ).format(
                    level=record.level,
                    rating=computer_level(record.level).rating,
                    games=record.games,
                    wins=record.wins,
                    won=record.points_won,
                    lost=record.points_lost,
                )
            )
    lines.append(_("Chips: {chips}").format(chips=chips))
    return "\n".join(lines)


def score_text(me: User, other: User, tally: Tally, latest: tuple[MatchRecord, Side] | None) -> str:
    """``/score``'s answer: the games and points between ``me`` and ``other`` (``tally``, from
    ``me``'s side), and their latest match (with the side ``me`` plays in it), if any."""
    lines = [
        _(
            "{me} — {other}: {won}:{lost} in games, {points_won}:{points_lost} in points "
            "({games} games)."
        ).format(
            me=player_name(me, _),
            other=player_name(other, _),
            won=tally.wins,
            lost=tally.games - tally.wins,
            points_won=tally.points_won,
            points_lost=tally.points_lost,
            games=tally.games,
        )
    ]
    if latest is not None:
        record, side = latest
        match = record.match
        mine, theirs = match.score(side), match.score(side.other)
        if match.winner is None:
            text = _("Match to {length}: {mine}:{theirs}, in progress.")
        elif match.winner is side:
            text = _("Last match, to {length}: won {mine}:{theirs}.")
        else:
            text = _("Last match, to {length}: lost {mine}:{theirs}.")
        lines.append("🏁 " + text.format(length=match.length, mine=mine, theirs=theirs))
    return "\n".join(lines)


def leaderboard_text(standings: list[Standing]) -> str:
    """``/top``'s answer: the chat's players by net points."""
    lines = [html.bold(_("Leaderboard"))]
    for place, standing in enumerate(standings, start=1):
        lines.append(standing_line(place, standing, player_name(standing.user, _), _))
    return "\n".join(lines)


def standing_line(place: int, standing: Standing, name: str, _: Translate) -> str:
    """One place of a leaderboard (``/top``'s and the inline games' 🏆), the player called
    ``name``."""
    return _("{place}. {name}: {points} pt., {wins}/{games} wins").format(
        place=place, name=name, points=standing.points, wins=standing.wins, games=standing.games
    )


def rating_text(variant: str, players: list[RatedPlayer]) -> str:
    """``/top rating``'s answer."""
    variant_name = _(VARIANT_NAMES[variant])
    if not players:
        return _("Nobody here has a rating in {variant} yet. Finish a game with /play.").format(
            variant=variant_name
        )
    lines = [html.bold(_("Rating · {variant}").format(variant=variant_name))]
    for place, rated in enumerate(players, start=1):
        lines.append(
            _("{place}. {name}: {rating} ±{deviation}, {games} games").format(
                place=place,
                name=player_name(rated.user, _),
                rating=round(rated.rating.rating),
                deviation=round(rated.rating.deviation),
                games=rated.rating.games,
            )
        )
    return "\n".join(lines)


def history_text(title: str, games: list[FinishedGame]) -> str:
    """``/history``'s answer: the matches among ``games`` with their score, then one line per
    game."""
    lines = [html.bold(title)]
    seen: set[int] = set()
    for game in games:
        if game.match is None or game.match_id is None or game.match_id in seen:
            continue
        seen.add(game.match_id)
        match = game.match
        values = {
            "match": game.match_id,
            "length": match.length,
            "white": player_name(game.white, _),
            "black": player_name(game.black, _),
            "white_score": match.white,
            "black_score": match.black,
        }
        if match.winner is None:
            text = _(
                "Match #{match} to {length}: {white} {white_score}:{black_score} {black}, "
                "in progress"
            )
        else:
            values["winner"] = player_name(
                game.white if match.winner is Side.WHITE else game.black, _
            )
            text = _(
                "Match #{match} to {length}: {white} {white_score}:{black_score} {black}, "
                "won by {winner}"
            )
        lines.append(text.format_map(values))
    for game in games:
        lines.append(game_line(game))
    lines.append(_("Tap a game's number to get its moves as a file."))
    return "\n".join(lines)


def game_line(game: FinishedGame) -> str:
    """One game of ``/history``: number, date, players, variant, result, cube and match."""
    result = game.result
    winner = game.white if result.winner is Side.WHITE else game.black
    parts = [
        f"#{game.id}",
        dt.datetime.fromtimestamp(game.finished_at, dt.UTC).strftime("%Y-%m-%d"),
        f"⚪ {player_name(game.white, _)} — ⚫ {player_name(game.black, _)}",
        _(VARIANT_NAMES.get(game.variant, game.variant)),
        _("{winner} wins: {outcome}, {points} pt.").format(
            winner=player_name(winner, _),
            outcome=_(OUTCOME_NAMES[result.outcome]),
            points=result.points,
        )
        + (f" ×{game.cube}" if game.cube > 1 else ""),
    ]
    if game.match_id is not None:
        parts.append(
            _("match #{match} game {number}").format(match=game.match_id, number=game.game_no)
        )
    return " · ".join(parts)


def file_buttons(games: list[FinishedGame]) -> InlineKeyboardMarkup:
    """A "📄 #id" button per game, for its moves file."""
    builder = InlineKeyboardBuilder()
    for game in games[:HISTORY_GAMES]:
        builder.button(text=f"📄 #{game.id}", callback_data=MovesFile(game=game.id))
    builder.adjust(FILE_BUTTONS_PER_ROW)
    return builder.as_markup()


def chips_text(statement: ChipStatement) -> str:
    """``/chips``'s answer: the balance, then one line per change, newest first."""
    lines = [html.bold(_("Your chips: {chips}").format(chips=statement.balance))]
    for entry, other in statement.entries:
        name = player_name(other, _) if other else "?"
        if entry.kind == "game" and entry.delta >= 0:
            what = _("game #{game} won against {name}").format(game=entry.game_id, name=name)
        elif entry.kind == "game":
            what = _("game #{game} lost to {name}").format(game=entry.game_id, name=name)
        elif entry.kind == "tournament_prize" and other is not None:
            what = _("tournament prize: the entry of {name}").format(name=name)
        else:
            what = _(LEDGER_KINDS.get(entry.kind, entry.kind))
        delta = f"+{entry.delta}" if entry.delta >= 0 else f"−{-entry.delta}"
        lines.append(
            _("{date}: {delta}, {what}; balance {balance}").format(
                date=dt.datetime.fromtimestamp(entry.created_at, dt.UTC).strftime("%Y-%m-%d"),
                delta=delta,
                what=what,
                balance=entry.balance,
            )
        )
    lines.append(
        _("Once a day a balance below {floor} is topped up to {floor}.").format(floor=DAILY_FLOOR)
    )
    return "\n".join(lines)
