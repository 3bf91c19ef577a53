"""Scores and rules: ``/score [@user]``, ``/stats``, ``/top``, ``/rules``."""

from __future__ import annotations

from aiogram import Router, html
from aiogram.enums import ChatType, MessageEntityType
from aiogram.filters import Command, CommandObject
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot import views
from bot.services import GameService, ScoreService
from bot.storage import User
from bot.texts import RULES


def create_router() -> Router:
    """Returns a new router with the score and rules commands."""
    router = Router(name=__name__)
    router.message.register(on_score, Command("score"))
    router.message.register(on_stats, Command("stats"))
    router.message.register(on_top, Command("top"))
    router.message.register(on_rules, Command("rules"))
    return router


async def on_score(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    score_service: ScoreService,
    player: User,
) -> None:
    """``/score @user`` (or as a reply): your tally against that user. ``/score`` alone: the
    score of your current game's two players."""
    other: User | None = None
    reply = message.reply_to_message
    if reply is not None and reply.from_user is not None:
        other = await game_service.user(reply.from_user.id)
    else:
        name = next(
            (
                e.extract_from(message.text or "")
                for e in message.entities or []
                if e.type == MessageEntityType.MENTION
            ),
            (command.args or "").strip(),
        )
        if name:
            other = await game_service.user_by_username(name)
            if other is None:
                await message.answer(
                    _("I do not know {name} yet: they have not played or written here.").format(
                        name=html.quote(name if name.startswith("@") else "@" + name)
                    )
                )
                return
    if other is None:
        games = await game_service.active_games(player.id, message.chat.id)
        if not games:
            await message.answer(_("Name a player: /score @username"))
            return
        stored = games[0]
        other = await game_service.user(
            stored.black_id if stored.white_id == player.id else stored.white_id
        )
        if other is None:
            return
    tally = await score_service.head_to_head(player.id, other.id)
    await message.answer(
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
    )


async def on_stats(message: Message, score_service: ScoreService, player: User) -> None:
    """``/stats``: your games, wins and points."""
    tally = await score_service.stats(player.id)
    await message.answer(
        _("{name}: {games} games, {wins} wins, points {won} won and {lost} lost.").format(
            name=views.player_name(player),
            games=tally.games,
            wins=tally.wins,
            won=tally.points_won,
            lost=tally.points_lost,
        )
    )


async def on_top(message: Message, score_service: ScoreService) -> None:
    """``/top``: the chat's leaderboard by net points."""
    if message.chat.type == ChatType.PRIVATE:
        await message.answer(_("The leaderboard is kept per group: send /top in a group."))
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


async def on_rules(message: Message, command: CommandObject) -> None:
    """``/rules`` (long nardy) or ``/rules short``."""
    variant = "short" if "short" in (command.args or "").lower() else "long"
    await message.answer(_(RULES[variant]))
