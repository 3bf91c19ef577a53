"""The operators' commands (``OWNER_IDS``): ``/ban`` and ``/unban`` (by @username, by id, or in
reply to the user's message), ``/broadcast`` (confirmed before it is sent), ``/ops`` (the bot
at a glance) and, in private, ``/flags`` (every chat's held chip transfers, each released or
refunded with a tap). To anyone else these commands do not exist: their messages and taps
go on to the routers after this one (the unknown command's answer, the group's ``/flags``).

``/ops`` rather than a section of ``/stats``: ``/stats`` is a player's own card, which players
forward, and takes a user (``/stats @user``); the operator's figures are the bot's, not theirs.
"""

from __future__ import annotations

import re
from typing import Final

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, TelegramObject
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import BroadcastStep, FlagDecision
from bot.messages.challenges import close_challenge_messages
from bot.messages.members import named_user, unknown_user
from bot.messages.pool import WaitMessage, wait_chat
from bot.messages.tournaments import TournamentPublisher
from bot.metrics import Metrics
from bot.model import Seeker
from bot.numbers import parse_number
from bot.outbox import Outbox
from bot.services import Challenges, Users
from bot.services.broadcasts import Broadcasts
from bot.services.errors import StaleAction
from bot.services.moderation import Moderation
from bot.services.pool import Pool
from bot.services.processes import ProcessPool
from bot.views.common import player_name
from bot.views.operator import (
    ProcessFigures,
    banned_text,
    decided_text,
    draft_keyboard,
    draft_text,
    figures_text,
    held_keyboard,
    held_text,
    progress_keyboard,
    progress_text,
    search_ended_text,
)
from bot.views.texts import echo

BROADCAST_LIMIT: Final = 3500
"""The longest broadcast, in characters of its HTML (Telegram takes 4096 in a message; the
operator's copy adds a line)."""
_COMMAND: Final = re.compile(r"^/\S+\s*")


def _from_owner(event: TelegramObject, moderation: Moderation) -> bool:
    """Whether the message or the tap comes from one of the bot's operators."""
    user = getattr(event, "from_user", None)
    return user is not None and moderation.is_owner(user.id)


def create_router() -> Router:
    """Returns a new router with the operators' commands and buttons."""
    router = Router(name=__name__)
    router.message.filter(_from_owner)
    router.callback_query.filter(_from_owner)
    private = F.chat.type == ChatType.PRIVATE
    router.message.register(on_ban, Command("ban"))
    router.message.register(on_unban, Command("unban"))
    router.message.register(on_ops, Command("ops"), private)
    router.message.register(on_broadcast, Command("broadcast"), private)
    router.message.register(on_flags, Command("flags"), private)
    router.callback_query.register(on_broadcast_step, BroadcastStep.filter())
    router.callback_query.register(on_flag_decision, FlagDecision.filter())
    return router


async def _target(message: Message, command: CommandObject, users: Users) -> tuple[int, str] | None:
    """The user a command names (in reply to their message, by @username, or by id) and how
    to name them; None, with a word to the operator, when it names nobody the bot can tell."""
    word = (command.args or "").strip().split(maxsplit=1)
    reply = message.reply_to_message
    author = reply.from_user if reply is not None else None
    if author is not None and not author.is_bot:
        known = await users.get(author.id)
        return author.id, player_name(known, _) if known is not None else echo(author.first_name)
    user_id = parse_number(word[0]) if word else None
    if user_id is not None:
        known = await users.get(user_id)
        return user_id, player_name(known, _) if known is not None else str(user_id)
    named = await named_user(message, command, users)
    if named is None:
        await message.reply(
            _("Name the user: /ban @username, /ban 12345 (their id), or /ban in reply to them.")
        )
        return None
    if isinstance(named, str):
        await unknown_user(message, named)
        return None
    return named.id, player_name(named, _)


async def on_ban(
    message: Message,
    command: CommandObject,
    bot: Bot,
    i18n: I18n,
    users: Users,
    moderation: Moderation,
    challenges: Challenges,
    pool: Pool,
    outbox: Outbox,
    tournament_publisher: TournamentPublisher,
) -> None:
    """``/ban``: the user's commands and taps change nothing from now on, in every worker;
    their open challenges, their wait in ``/find`` and their tournament entries end."""
    target = await _target(message, command, users)
    if target is None:
        return
    user_id, name = target
    banned = await moderation.ban(user_id, message.from_user.id if message.from_user else 0)
    if banned is None:
        await message.reply(_("{name} is banned already.").format(name=name))
        return
    await message.reply(
        banned_text(
            name,
            challenges=len(banned.challenges),
            seeker=banned.seeker,
            tournaments=banned.tournaments,
            _=_,
        )
    )
    for challenge in banned.challenges:
        await close_challenge_messages(bot, challenge, users, challenges, i18n)
    if banned.seeker is not None:
        await _end_wait(bot, banned.seeker, pool, users, outbox)
    for progress in banned.tournaments:  # its games resigned: their boards hear of it
        await tournament_publisher.show_signup(progress.tournament.id)


async def _end_wait(bot: Bot, seeker: Seeker, pool: Pool, users: Users, outbox: Outbox) -> None:
    """Edits a banned user's wait in ``/find`` to say it ended, without buttons."""
    if seeker.message_id is None:
        return
    await WaitMessage(
        bot,
        wait_chat(seeker),
        seeker.message_id,
        text=search_ended_text(_),
        markup=None,
        user_id=seeker.user_id,
        pool=pool,
        users=users,
    ).show(outbox.pace)


async def on_unban(
    message: Message, command: CommandObject, users: Users, moderation: Moderation
) -> None:
    """``/unban``: the user may use the bot again."""
    target = await _target(message, command, users)
    if target is None:
        return
    user_id, name = target
    if await moderation.unban(user_id):
        await message.reply(_("{name} may use the bot again.").format(name=name))
    else:
        await message.reply(_("{name} is not banned.").format(name=name))


async def on_ops(
    message: Message,
    moderation: Moderation,
    workers: tuple[ProcessPool, ...],
    metrics: Metrics | None = None,
) -> None:
    """``/ops``: users, today's games, failures and queues, at a glance."""
    process = ProcessFigures(
        errors=metrics.failed_updates if metrics is not None else 0,
        restarts=tuple((pool.name, pool.restarts) for pool in workers),
    )
    await message.answer(figures_text(await moderation.figures(), process, _))


async def on_broadcast(message: Message, broadcasts: Broadcasts) -> None:
    """``/broadcast <text>`` (or in reply to a message, its text): shows what would be sent to
    how many, with 📣 Send and ✖ Cancel; nothing goes before the operator confirms."""
    source = message.reply_to_message or message
    text = source.html_text if source.text else ""
    if source is message:
        text = _COMMAND.sub("", text, count=1)
    if not text.strip():
        await message.reply(
            _(
                "Write the message after the command (/broadcast Hello!), or send /broadcast in "
                "reply to it. It goes to everyone with a private chat, once you confirm."
            )
        )
        return
    if len(text) > BROADCAST_LIMIT:
        await message.reply(
            _("That is too long for one message: {limit} characters at most.").format(
                limit=BROADCAST_LIMIT
            )
        )
        return
    assert message.from_user is not None
    broadcast, recipients = await broadcasts.draft(
        message.from_user.id, text, chat_id=message.chat.id
    )
    shown = await message.answer(
        draft_text(text, recipients, _), reply_markup=draft_keyboard(broadcast, recipients, _)
    )
    await broadcasts.set_message(broadcast.id, shown.message_id)


async def on_broadcast_step(
    callback: CallbackQuery,
    callback_data: BroadcastStep,
    callback_answer: CallbackAnswer,
    broadcasts: Broadcasts,
) -> None:
    """📣 Send starts the broadcast (its message then shows its progress); ✖ Cancel or ⏹ Stop
    ends it. Only on the broadcast's own message."""
    broadcast = await broadcasts.get(callback_data.broadcast)
    message = callback.message
    if not isinstance(message, Message) or message.message_id != broadcast.message_id:
        raise StaleAction()
    if callback_data.send:
        broadcast = await broadcasts.start(broadcast.id)
        callback_answer.text = _("Sending…")
    else:
        broadcast = await broadcasts.stop(broadcast.id)
        callback_answer.text = _("Stopped.")
    await message.edit_text(
        progress_text(broadcast, _), reply_markup=progress_keyboard(broadcast, _)
    )
    if callback_data.send:  # after the edit: the sender's own edits come later
        broadcasts.wake()


async def on_flags(message: Message, moderation: Moderation) -> None:
    """``/flags`` in an operator's private chat: every chat's held transfers, newest first,
    with ✅ (release) and ↩ (refund) for each."""
    held = await moderation.held()
    await message.answer(held_text(held, _), reply_markup=held_keyboard(held, _))


async def on_flag_decision(
    callback: CallbackQuery,
    callback_data: FlagDecision,
    callback_answer: CallbackAnswer,
    moderation: Moderation,
) -> None:
    """✅ or ↩ under ``/flags``: decides the transfer once, then shows the list as it is now."""
    decision = await moderation.decide(
        callback_data.game, release=callback_data.release, operator_id=callback.from_user.id
    )
    callback_answer.text = decided_text(decision.transfer, decision.released, decision.paid, _)
    if isinstance(callback.message, Message):
        held = await moderation.held()
        await callback.message.edit_text(held_text(held, _), reply_markup=held_keyboard(held, _))
