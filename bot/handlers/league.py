"""A group's league and its admins' view of held chips: ``/league``, ``/league off``,
``/flags``.

The league's standings are one message the bot pins and keeps up to date after every game of
the group (:mod:`bot.messages.league`); only the group's admins start and stop it or read the flags.
"""

from __future__ import annotations

import datetime as dt

from aiogram import Bot, Router, html
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.i18n import current_locale
from bot.messages.league import LeaguePublisher
from bot.messages.members import check_admin
from bot.services.autoanalysis import AutoAnalyses
from bot.services.leagues import HeldTransfer, LeagueService
from bot.views.common import player_name
from bot.views.luck import pr_flag_line


def create_router() -> Router:
    """Returns a new router with the league and flags commands."""
    router = Router(name=__name__)
    router.message.register(on_league, Command("league"))
    router.message.register(on_flags, Command("flags"))
    return router


async def on_league(
    message: Message,
    command: CommandObject,
    bot: Bot,
    league_service: LeagueService,
    league_publisher: LeaguePublisher,
) -> None:
    """``/league``: starts the group's league (or posts its standings again) and pins them;
    ``/league off`` ends it and unpins them. Admins only."""
    if message.chat.type == ChatType.PRIVATE:
        await message.answer(_("Leagues live in groups: add me to one and send /league there."))
        return
    await check_admin(message, bot)
    chat_id = message.chat.id
    if (command.args or "").strip().lower() == "off":
        if await league_publisher.stop(chat_id):
            await message.answer(_("The league is over; its standings are unpinned."))
        else:
            await message.answer(_("There is no league here. Start one with /league."))
        return
    league = await league_service.start(chat_id, current_locale())
    if not await league_publisher.post(league):
        await message.answer(
            _(
                "I could not pin the standings: make me an admin with the “Pin messages” "
                "right. The league works anyway."
            )
        )


async def on_flags(
    message: Message, bot: Bot, league_service: LeagueService, auto_analyses: AutoAnalyses
) -> None:
    """``/flags``: the transfers held back as possible chip dumping in the group's games, and
    the group's players whose PR is far better than their rating predicts
    (:mod:`bot.services.fairplay`). Admins only."""
    if message.chat.type == ChatType.PRIVATE:
        await message.answer(_("Held transfers are listed per group: send /flags in a group."))
        return
    await check_admin(message, bot)
    held = await league_service.flags(message.chat.id)
    strong = await auto_analyses.group_flags(message.chat.id)
    if held:
        lines = [html.bold(_("Held transfers"))]
        lines += [flag_line(transfer) for transfer in held]
    else:
        lines = [_("No transfers are held back in this group.")]
    if strong:
        lines.append(html.bold(_("Play far better than the rating predicts")))
        lines += [pr_flag_line(flag, user, _) for flag, user in strong]
    await message.answer("\n".join(lines))


def flag_line(transfer: HeldTransfer) -> str:
    """One held transfer: game (or tournament entry), loser → winner, chips, why and the date
    (UTC)."""
    flag = transfer.flag
    if flag.game_id is None:
        text = _(
            "Tournament #{tournament}: {loser}'s entry to the winner {winner}, {amount} chips "
            "({payments} payments, {paid} chips one way in 24 h), {date}"
        )
    else:
        text = _(
            "Game #{game}: {loser} → {winner}, {amount} chips "
            "({payments} payments, {paid} chips one way in 24 h), {date}"
        )
    return text.format(
        game=flag.game_id,
        tournament=flag.tournament_id,
        loser=player_name(transfer.loser, _),
        winner=player_name(transfer.winner, _),
        amount=flag.amount,
        payments=flag.payments,
        paid=flag.paid,
        date=dt.datetime.fromtimestamp(flag.created_at, dt.UTC).strftime("%Y-%m-%d"),
    )
