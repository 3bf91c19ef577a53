"""The bot added to a group: a welcome that says what to try there (``/play @friend``,
``/tournament``, ``/league``) and which admin right helps (pinning)."""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router, html
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.filters import JOIN_TRANSITION, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberAdministrator, ChatMemberUpdated
from aiogram.utils.i18n import gettext as _

logger = logging.getLogger(__name__)


def create_router() -> Router:
    """Returns a new router with the welcome to a group."""
    router = Router(name=__name__)
    router.my_chat_member.register(
        on_added,
        ChatMemberUpdatedFilter(member_status_changed=JOIN_TRANSITION),
        F.chat.type.in_({ChatType.GROUP, ChatType.SUPERGROUP}),
    )
    return router


async def on_added(event: ChatMemberUpdated, bot: Bot) -> None:
    """Welcomes the group that just added the bot (Telegram's ``my_chat_member``, from not a
    member to a member or an admin), in the group's language, else the adder's. A bot made an
    admin with the right to pin is not asked for it."""
    new = event.new_chat_member
    can_pin = new.status == ChatMemberStatus.CREATOR or (
        isinstance(new, ChatMemberAdministrator) and bool(new.can_pin_messages)
    )
    lines = [
        _("Hello, {group}! I am a bot for playing nardy here, together.").format(
            group=html.quote(event.chat.title or "")
        ),
        "",
        _("/play @friend: challenge a member (or /play alone: anyone here may accept)"),
        _("/tournament: a tournament for the group: knock-out, round robin or Swiss"),
        _("/league: the group's standings, pinned and kept up to date"),
        _("/help: every command"),
    ]
    if not can_pin:
        lines += [
            "",
            _(
                "Make me an admin with the right to pin messages: I pin the league's standings "
                "and the tournaments' tables."
            ),
        ]
    try:
        await bot.send_message(event.chat.id, "\n".join(lines))
    except (TelegramBadRequest, TelegramForbiddenError) as error:  # added where it may not write
        logger.info("could not welcome chat %d: %s", event.chat.id, error.message)
