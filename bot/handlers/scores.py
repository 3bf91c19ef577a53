"""Scores, records and rules: ``/score``, ``/stats``, ``/top`` (by points or rating),
``/history`` with its moves-file buttons, ``/moves``, ``/chips`` and ``/rules``."""

from __future__ import annotations

import datetime as dt
from typing import Final

from aiogram import Bot, Router, html
from aiogram.enums import ChatType, MessageEntityType
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot import views
from bot.callbacks import MovesFile
from bot.engine import Side
from bot.i18n import N_
from bot.services import GameService, ScoreService
from bot.services.chips import DAILY_FLOOR
from bot.services.errors import GameNotFound, StaleAction
from bot.services.scores import ChipStatement
from bot.storage import FinishedGame, PlayerStats, RatedPlayer, User
from bot.texts import RULES

HISTORY_GAMES: Final = 10
"""Games that ``/history`` lists, each with its file button."""
FILE_BUTTONS_PER_ROW: Final = 5
LEDGER_LINES: Final = 5
"""Balance changes that ``/chips`` shows."""
RATING_WORDS: Final = frozenset({"rating", "рейтинг"})
SHORT_WORDS: Final = frozenset({"short", "короткие", "короткая", "короткий"})
LEDGER_KINDS: Final = {"grant": N_("starting grant"), "top_up": N_("daily top-up")}


def create_router() -> Router:
    """Returns a new router with the score, record and rules commands."""
    router = Router(name=__name__)
    router.message.register(on_score, Command("score"))
    router.message.register(on_stats, Command("stats"))
    router.message.register(on_top, Command("top"))
    router.message.register(on_history, Command("history"))
    router.message.register(on_moves, Command("moves"))
    router.callback_query.register(on_moves_button, MovesFile.filter())
    router.message.register(on_chips, Command("chips"))
    router.message.register(on_rules, Command("rules"))
    return router


async def _named_user(
    message: Message, command: CommandObject, game_service: GameService
) -> User | str | None:
    """The user a command names: the author of the message it replies to, or an @mention or
    username in its arguments. Returns the name as given when nobody the bot knows has it, and
    None when the command names nobody."""
    reply = message.reply_to_message
    if reply is not None and reply.from_user is not None and not reply.from_user.is_bot:
        return await game_service.users.get(reply.from_user.id)
    name = next(
        (
            e.extract_from(message.text or "")
            for e in message.entities or []
            if e.type == MessageEntityType.MENTION
        ),
        (command.args or "").strip(),
    )
    if not name:
        return None
    return await game_service.users.by_username(name) or name


async def _unknown(message: Message, name: str) -> None:
    await message.answer(
        _("I do not know {name} yet: they have not played or written here.").format(
            name=html.quote(name if name.startswith("@") else "@" + name)
        )
    )


async def on_score(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    score_service: ScoreService,
    player: User,
) -> None:
    """``/score @user`` (or as a reply): your tally against that user. ``/score`` alone: the
    score of your current game's two players."""
    other = await _named_user(message, command, game_service)
    if isinstance(other, str):
        await _unknown(message, other)
        return
    if other is None:
        games = await game_service.active_games(player.id, message.chat.id)
        if not games:
            await message.answer(_("Name a player: /score @username"))
            return
        stored = games[0]
        other = await game_service.users.get(
            stored.black_id if stored.white_id == player.id else stored.white_id
        )
        if other is None:
            return
    tally = await score_service.head_to_head(player.id, other.id)
    lines = [
        _(
            "{me} — {other}: {won}:{lost} in games, {points_won}:{points_lost} in points "
            "({games} games)."
        ).format(
            me=views.player_name(player),
            other=views.player_name(other),
            won=tally.wins,
            lost=tally.games - tally.wins,
            points_won=tally.points_won,
            points_lost=tally.points_lost,
            games=tally.games,
        )
    ]
    latest = await score_service.latest_match(player.id, other.id)
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
    await message.answer("\n".join(lines))


async def on_stats(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    score_service: ScoreService,
    player: User,
) -> None:
    """``/stats``: your record; ``/stats @user`` (or as a reply): theirs."""
    named = await _named_user(message, command, game_service)
    if isinstance(named, str):
        await _unknown(message, named)
        return
    user = named or player
    stats = await score_service.stats(user.id)
    balance = await score_service.balance(user.id)
    await message.answer(stats_text(user, stats, balance))


def stats_text(user: User, stats: PlayerStats, chips: int) -> str:
    """``/stats``'s answer. Home mars is counted apart from mars and shown on a line of its own
    when there was one (the rule sets that know it score it above mars)."""
    lines = [html.bold(_("Statistics of {name}").format(name=views.player_name(user)))]
    for variant, rating in stats.ratings:
        lines.append(
            _("Rating, {variant}: {rating} ±{deviation} ({games} games)").format(
                variant=_(views.VARIANT_NAMES.get(variant, variant)),
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
    lines.append(_("Chips: {chips}").format(chips=chips))
    return "\n".join(lines)


async def on_top(message: Message, command: CommandObject, score_service: ScoreService) -> None:
    """``/top``: the chat's leaderboard by net points. ``/top rating`` (``/top рейтинг``): its
    players by rating in long nardy; ``/top rating short``: in short nardy."""
    if message.chat.type == ChatType.PRIVATE:
        await message.answer(_("The leaderboard is kept per group: send /top in a group."))
        return
    words = (command.args or "").lower().split()
    if words and words[0] in RATING_WORDS:
        variant = "short" if SHORT_WORDS.intersection(words[1:]) else "long"
        await message.answer(
            rating_text(variant, await score_service.top_rated(message.chat.id, variant))
        )
        return
    standings = await score_service.top(message.chat.id)
    if not standings:
        await message.answer(_("No finished games in this chat yet. Start one with /play."))
        return
    lines = [html.bold(_("Leaderboard"))]
    for place, standing in enumerate(standings, start=1):
        lines.append(
            _("{place}. {name}: {points} pt., {wins}/{games} wins").format(
                place=place,
                name=views.player_name(standing.user),
                points=standing.points,
                wins=standing.wins,
                games=standing.games,
            )
        )
    await message.answer("\n".join(lines))


def rating_text(variant: str, players: list[RatedPlayer]) -> str:
    """``/top rating``'s answer."""
    variant_name = _(views.VARIANT_NAMES[variant])
    if not players:
        return _("Nobody here has a rating in {variant} yet. Finish a game with /play.").format(
            variant=variant_name
        )
    lines = [html.bold(_("Rating · {variant}").format(variant=variant_name))]
    for place, rated in enumerate(players, start=1):
        lines.append(
            _("{place}. {name}: {rating} ±{deviation}, {games} games").format(
                place=place,
                name=views.player_name(rated.user),
                rating=round(rated.rating.rating),
                deviation=round(rated.rating.deviation),
                games=rated.rating.games,
            )
        )
    return "\n".join(lines)


async def on_history(message: Message, score_service: ScoreService, player: User) -> None:
    """``/history``: the latest finished games (in a group the group's, in a private chat the
    user's own), with a button per game for its moves file."""
    private = message.chat.type == ChatType.PRIVATE
    if private:
        games = await score_service.recent_games(user_id=player.id, limit=HISTORY_GAMES)
    else:
        games = await score_service.recent_games(chat_id=message.chat.id, limit=HISTORY_GAMES)
    if not games:
        if private:
            await message.answer(_("You have no finished games yet. Start one with /play."))
        else:
            await message.answer(_("No finished games in this chat yet. Start one with /play."))
        return
    title = _("Your latest games") if private else _("Latest games in this chat")
    await message.answer(history_text(title, games), reply_markup=file_buttons(games))


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
            "white": views.player_name(game.white),
            "black": views.player_name(game.black),
            "white_score": match.white,
            "black_score": match.black,
        }
        if match.winner is None:
            text = _(
                "Match #{match} to {length}: {white} {white_score}:{black_score} {black}, "
                "in progress"
            )
        else:
            values["winner"] = views.player_name(
                game.white if match.winner is Side.WHITE else game.black
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
        f"⚪ {views.player_name(game.white)} — ⚫ {views.player_name(game.black)}",
        _(views.VARIANT_NAMES.get(game.variant, game.variant)),
        _("{winner} wins: {outcome}, {points} pt.").format(
            winner=views.player_name(winner),
            outcome=_(views.OUTCOME_NAMES[result.outcome]),
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


async def on_moves(
    message: Message, command: CommandObject, score_service: ScoreService, player: User, bot: Bot
) -> None:
    """``/moves 12``: game #12's moves as a file, on the same terms as its button."""
    args = (command.args or "").strip().lstrip("#")
    if not args:
        await message.answer(_("Send the game's number: /moves 12. /history lists the latest."))
        return
    if not args.isdigit():
        raise GameNotFound()
    await _send_moves(bot, score_service, int(args), player, message.chat.id)


async def on_moves_button(
    callback: CallbackQuery,
    callback_data: MovesFile,
    score_service: ScoreService,
    player: User,
    bot: Bot,
) -> None:
    """A "📄 #id" button: the game's moves as a file in the chat where it was tapped."""
    if not isinstance(callback.message, Message):
        raise StaleAction()  # a message too old to read: no chat to send the file to
    await _send_moves(bot, score_service, callback_data.game, player, callback.message.chat.id)


async def _send_moves(
    bot: Bot, score_service: ScoreService, game_id: int, player: User, chat_id: int
) -> None:
    found = await score_service.moves_file(game_id, user_id=player.id, chat_id=chat_id)
    await bot.send_document(chat_id, BufferedInputFile(found.data, filename=found.name))


async def on_chips(message: Message, score_service: ScoreService, player: User) -> None:
    """``/chips``: your balance and its latest changes."""
    await message.answer(chips_text(await score_service.chip_statement(player.id, LEDGER_LINES)))


def chips_text(statement: ChipStatement) -> str:
    """``/chips``'s answer: the balance, then one line per change, newest first."""
    lines = [html.bold(_("Your chips: {chips}").format(chips=statement.balance))]
    for entry, other in statement.entries:
        name = views.player_name(other) if other else "?"
        if entry.kind == "game" and entry.delta >= 0:
            what = _("game #{game} won against {name}").format(game=entry.game_id, name=name)
        elif entry.kind == "game":
            what = _("game #{game} lost to {name}").format(game=entry.game_id, name=name)
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


async def on_rules(message: Message, command: CommandObject) -> None:
    """``/rules`` (long nardy) or ``/rules short``, then matches, the cube and chips."""
    variant = "short" if "short" in (command.args or "").lower() else "long"
    await message.answer(_(RULES[variant]) + "\n\n" + _(RULES["cube"]))
