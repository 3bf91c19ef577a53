"""Scores, records and rules: ``/score``, ``/stats``, ``/top`` (by points or rating),
``/history`` with its moves-file buttons, ``/moves``, ``/chips`` and ``/rules``."""

from __future__ import annotations

from typing import Final

from aiogram import Bot, Router, html
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, Message
from aiogram.utils.i18n import gettext as _

from bot.callbacks import DownloadMoves
from bot.messages.luck import send_trend
from bot.messages.members import named_user, subject, unknown_user
from bot.model import User
from bot.numbers import parse_number
from bot.services import Games, Scores, Users
from bot.services.autoanalysis import AutoAnalyses
from bot.services.choices import has_dice_modes
from bot.services.daily import DailyPositions
from bot.services.errors import GameNotFound, StaleAction
from bot.views.daily import streaks_text
from bot.views.scores import (
    HISTORY_GAMES,
    chips_text,
    file_buttons,
    history_text,
    leaderboard_text,
    rating_text,
    score_text,
    stats_text,
)
from bot.views.texts import RULES, VARIANT_WORDS

LEDGER_LINES: Final = 5
"""Balance changes that ``/chips`` shows."""
RATING_WORDS: Final = frozenset({"rating", "рейтинг"})
SHORT_WORDS: Final = frozenset({"short", "короткие", "короткая", "короткий"})
DAILY_WORDS: Final = frozenset({"daily", "задача"})


def create_router() -> Router:
    """Returns a new router with the score, record and rules commands."""
    router = Router(name=__name__)
    router.message.register(on_score, Command("score"))
    router.message.register(on_stats, Command("stats"))
    router.message.register(on_top, Command("top"))
    router.message.register(on_history, Command("history"))
    router.message.register(on_moves, Command("moves"))
    router.callback_query.register(on_moves_button, DownloadMoves.filter())
    router.message.register(on_chips, Command("chips"))
    router.message.register(on_rules, Command("rules"))
    return router


async def on_score(
    message: Message,
    command: CommandObject,
    games: Games,
    users: Users,
    scores: Scores,
    player: User,
) -> None:
    """``/score @user`` (or as a reply): your tally against that user. ``/score`` alone: the
    tally of your game being played (here first, else anywhere) against its opponent; with no
    game being played, against each of your latest opponents."""
    other = await named_user(message, command, users)
    if isinstance(other, str):
        await unknown_user(message, other)
        return
    opponents = [] if other is None else [other]
    latest = False  # no game being played: the latest opponents'
    if other is None:
        running = await games.active_games(player.id, message.chat.id) or await games.active_games(
            player.id
        )
        if running:
            stored = running[0]
            found = await users.get(
                stored.black_id if stored.white_id == player.id else stored.white_id
            )
            opponents = [found] if found is not None else []
        else:
            opponents, latest = await scores.latest_opponents(player.id), True
    if not opponents:
        await message.answer(
            _("No games yet to score: /find to play anyone now, /play bot to play the computer.")
        )
        return
    texts = [
        score_text(
            player,
            opponent,
            await scores.head_to_head(player.id, opponent.id),
            await scores.latest_match(player.id, opponent.id),
        )
        for opponent in opponents
    ]
    if latest:
        texts.insert(0, html.bold(_("Your latest opponents:")))
    await message.answer("\n\n".join(texts))


async def on_stats(
    message: Message,
    command: CommandObject,
    users: Users,
    scores: Scores,
    player: User,
    bot: Bot,
    auto_analyses: AutoAnalyses,
) -> None:
    """``/stats``: your record; ``/stats @user`` (or as a reply): theirs; then, once some of
    the games are analysed, the chart of PR and luck over the last of them."""
    user = await subject(message, command, users, player)
    if user is None:
        return
    stats = await scores.stats(user.id)
    balance = await scores.balance(user.id)
    await message.answer(stats_text(user, stats, balance))
    trend = await auto_analyses.trend(user.id)
    if trend:
        await send_trend(bot, message.chat.id, user, trend, _)


async def on_top(
    message: Message, command: CommandObject, scores: Scores, daily: DailyPositions
) -> None:
    """``/top``: the chat's leaderboard by net points. ``/top rating`` (``/top рейтинг``): its
    players by rating in long nardy; ``/top rating short``: in short nardy. ``/top daily``
    (anywhere): the longest streaks of right answers to the daily position."""
    words = (command.args or "").lower().split()
    if words and words[0] in DAILY_WORDS:
        await message.answer(streaks_text(await daily.top_streaks(), _))
        return
    if message.chat.type == ChatType.PRIVATE:
        await message.answer(_("The leaderboard is kept per group: send /top in a group."))
        return
    if words and words[0] in RATING_WORDS:
        variant = "short" if SHORT_WORDS.intersection(words[1:]) else "long"
        await message.answer(rating_text(variant, await scores.top_rated(message.chat.id, variant)))
        return
    standings = await scores.top(message.chat.id)
    if not standings:
        await message.answer(_("No finished games in this chat yet. Start one with /play."))
        return
    await message.answer(leaderboard_text(standings))


async def on_history(message: Message, scores: Scores, player: User) -> None:
    """``/history``: the latest finished games (in a group the group's, in a private chat the
    user's own), with a button per game for its moves file."""
    private = message.chat.type == ChatType.PRIVATE
    if private:
        games = await scores.recent_games(user_id=player.id, limit=HISTORY_GAMES)
    else:
        games = await scores.recent_games(chat_id=message.chat.id, limit=HISTORY_GAMES)
    if not games:
        if private:
            await message.answer(_("You have no finished games yet. Start one with /play."))
        else:
            await message.answer(_("No finished games in this chat yet. Start one with /play."))
        return
    title = _("Your latest games") if private else _("Latest games in this chat")
    await message.answer(history_text(title, games), reply_markup=file_buttons(games))


async def on_moves(
    message: Message, command: CommandObject, scores: Scores, player: User, bot: Bot
) -> None:
    """``/moves 12``: game #12's moves as a file, on the same terms as its button."""
    args = (command.args or "").strip().lstrip("#")
    if not args:
        await message.answer(_("Send the game's number: /moves 12. /history lists the latest."))
        return
    game_id = parse_number(args)
    if game_id is None:
        raise GameNotFound()
    await _send_moves(bot, scores, game_id, player, message.chat.id)


async def on_moves_button(
    callback: CallbackQuery,
    callback_data: DownloadMoves,
    scores: Scores,
    player: User,
    bot: Bot,
) -> None:
    """A "📄 #id" button: the game's moves as a file in the chat where it was tapped."""
    if not isinstance(callback.message, Message):
        raise StaleAction()  # a message too old to read: no chat to send the file to
    await _send_moves(bot, scores, callback_data.game, player, callback.message.chat.id)


async def _send_moves(bot: Bot, scores: Scores, game_id: int, player: User, chat_id: int) -> None:
    found = await scores.moves_file(game_id, user_id=player.id, chat_id=chat_id)
    await bot.send_document(chat_id, BufferedInputFile(found.data, filename=found.name))


async def on_chips(message: Message, scores: Scores, player: User) -> None:
    """``/chips``: your balance and its latest changes."""
    await message.answer(chips_text(await scores.chip_statement(player.id, LEDGER_LINES)))


async def on_rules(message: Message, command: CommandObject) -> None:
    """``/rules`` (long nardy) or ``/rules short``, ``abkhaz``, ``gulbara``, ``crazy_gulbara``
    (the words of ``/play``, Russian ones too), after how a game is won (the words the rest
    uses), then the dice modes where they apply, and matches, the cube and chips."""
    words = (command.args or "").lower().split()
    variant = next((VARIANT_WORDS[w] for w in words if w in VARIANT_WORDS), "long")
    parts = [_(RULES["results"]), _(RULES[variant])]
    if has_dice_modes(variant):
        parts.append(_(RULES["dice"]))
    parts.append(_(RULES["cube"]))
    await message.answer("\n\n".join(parts))
