"""Fair dice: ``/verify 12`` (how to check game #12's dice) and ``/dice [@user]`` (dice
statistics)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.messages.members import subject
from bot.model import User
from bot.numbers import parse_number
from bot.services import Scores, Users
from bot.services.errors import GameNotFound
from bot.views.dice import dice_stats_text, verify_text


def create_router() -> Router:
    """Returns a new router with the fair dice commands."""
    router = Router(name=__name__)
    router.message.register(on_verify, Command("verify"))
    router.message.register(on_dice, Command("dice"))
    return router


async def on_verify(message: Message, command: CommandObject, scores: Scores, player: User) -> None:
    """``/verify 12``: game #12's commitment and client value, and once it is over its seed
    and how to check every die; for players anywhere, for others in the game's group."""
    args = (command.args or "").strip().lstrip("#")
    game_id = parse_number(args)
    if game_id is None and not (args.isascii() and args.isdigit()):
        await message.answer(
            _("Send the game's number: /verify 12. The number is on the board, after #.")
        )
        return
    if game_id is None:  # more digits than any game's number has
        raise GameNotFound()
    check = await scores.dice_check(game_id, user_id=player.id, chat_id=message.chat.id)
    await message.answer(verify_text(check, _))


async def on_dice(
    message: Message,
    command: CommandObject,
    users: Users,
    scores: Scores,
    player: User,
) -> None:
    """``/dice``: your dice statistics; ``/dice @user`` (or as a reply): theirs."""
    user = await subject(message, command, users, player)
    if user is None:
        return
    await message.answer(dice_stats_text(user, await scores.dice_stats(user.id), _))
